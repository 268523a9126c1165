"""A built-in deck's first template pass by matrix-vector products, with a proof that it
chooses as the full pass does (else the full pass is made).

`vision.classify.classify` compares a face's symbol (both 180-degree turns) with every
template of its profile (the clean face and camera views of each label: Solo's 495 rows
of 1260) to choose the best few labels, one a symbol class, compared again at every shift
(`vision.classify._best_of_classes`). As one matrix product (`templates @ plain.T`,
OpenBLAS sgemm) most of its instructions pack the 2.5 MB of templates for a product with
only two columns; two matrix-vector products (sgemv, one a turn) read them in place:
callgrind 1.81 -> 0.50 M instructions a first pass.

Their last bits differ from the matrix product's (another order of the sums), so the
choice is proved, not assumed: a float32 dot product of two unit vectors of n numbers
lies within n 2**-24 (7.5e-5 for 1260) of the true one whatever the order of its sums, so
each value of one pass lies within 1.5e-4 of the other's and a comparison of two labels
that leads by more than SLACK (twice that) goes the same way in both. `first_pass`
answers the chosen labels only when every comparison the choice rests on leads by more
than SLACK: each chosen label above every other label of its class, the chosen in
strictly decreasing order, every label of a class not chosen below the last chosen. Else
None, and the caller makes the full pass: the readings are the full pass's, bit for bit.
"""
from __future__ import annotations

import numpy as np

SLACK = 3.2e-4    # two labels' lead that the two passes' rounding cannot reverse (above)


def first_pass(templates: np.ndarray, starts: np.ndarray, classes: np.ndarray, plain: np.ndarray,
               class_fits: np.ndarray, count: int, best_of_classes) -> tuple[list[int], np.ndarray] | None:
    """The labels `best_of_classes(label scores where class_fits, classes, count)` chooses
    from the full pass (`plain`: the face and its turn, 2 x D, whitened; a label's score
    the best of its templates over both turns; `templates` grouped by label from
    `starts`), in the same order, and an upper bound of every label's full-pass score;
    None when a comparison the choice rests on is too close to prove."""
    near = np.maximum.reduceat(np.maximum(templates @ plain[0], templates @ plain[1]), starts)
    competing = np.where(class_fits, near, -np.inf)
    best = best_of_classes(competing, classes, count)
    if not best:
        return None
    order = competing[best]
    if len(best) > 1 and not np.all(np.diff(order) < -SLACK):
        return None                      # two chosen too close to be ordered surely
    # each class's bar: its chosen label's score; the classes not chosen, the last
    # chosen's (when fewer than `count` were chosen every competing class is among them)
    bar = np.full(int(classes.max()) + 1, order[-1] if len(best) == count else np.inf)
    bar[classes[best]] = order
    others = class_fits.copy()
    others[best] = False
    if np.any(near[others] > bar[classes[others]] - SLACK):
        return None                      # a label not chosen too close to one chosen
    return best, near + SLACK
