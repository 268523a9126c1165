"""A built-in deck's first template pass, cut short where a bound proves the cut product
cannot change what the full pass chooses.

`vision.classify.classify` compares a face's symbol (both 180-degree turns) with every
template of its profile (the clean face and camera views of each label: Solo's 495) to
choose the best few labels, one a symbol class, which are then compared again at every
shift. Most of those products decide nothing: a template far below the few chosen. Here
each template's correlation is first bounded, and only the templates whose bound could
still reach the choice are multiplied out.

The bound: templates and face are whitened (`DeckProfile.whiten`). With `axes` an
orthonormal basis (the templates' first RANK principal directions, `template_basis`), a
template v and the face x split into their parts on the axes and what is left, and
v.x = (Pv).(Px) + (v - PᵀPv).(x - PᵀPx), the second term within +-|v - PᵀPv| |x - PᵀPx|
(Cauchy-Schwarz). So RANK numbers a template (and RANK products for the face) bound every
correlation from both sides; SLACK widens the bounds far beyond float32 rounding.

`first_pass` multiplies out, in rounds, the templates whose upper bound reaches the score
their label must beat (its own best known score if its class is among the chosen, the
chosen's last otherwise), then checks that the choice is proved: each chosen label's
score exact, every other label of a competing class below its class's chosen one (or below
the last chosen) by SLACK, the chosen in strictly decreasing order by SLACK. When it cannot
prove it, it answers None and the caller makes the full pass: the readings are the full
pass's, bit for bit.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

RANK = 64              # principal directions kept (Solo's 495 templates: 1260 numbers each)
SLACK = 1e-4           # a bound's and a tie's allowance (float32 products err ~1e-6)
ROUNDS = 4             # rounds of products before the full pass is made instead
MIN_TEMPLATES = 4 * RANK  # fewer templates: the full product costs about what the bound does


@dataclass(frozen=True, eq=False)
class TemplateBasis:
    axes: np.ndarray       # (RANK, D) float32, orthonormal rows
    coords: np.ndarray     # (templates, RANK) float32: each template on the axes
    residual: np.ndarray   # (templates,) float32: the norm of what the axes leave of it
    label_of: np.ndarray   # (templates,) each template's label


def template_basis(templates: np.ndarray, starts: np.ndarray) -> TemplateBasis | None:
    """The bound's basis for a profile's templates (n x D, grouped by label from
    `starts`), or None when there are too few for the bound to pay."""
    if len(templates) < MIN_TEMPLATES or templates.shape[1] <= RANK:
        return None
    wide = templates.astype(np.float64)
    axes = np.linalg.svd(wide, full_matrices=False)[2][:RANK]
    coords = wide @ axes.T
    residual = np.linalg.norm(wide - coords @ axes, axis=1)
    sizes = np.diff(np.append(starts, len(templates)))
    return TemplateBasis(axes.astype(np.float32), coords.astype(np.float32),
                         residual.astype(np.float32), np.repeat(np.arange(len(starts)), sizes))


def first_pass(templates: np.ndarray, starts: np.ndarray, classes: np.ndarray,
               basis: TemplateBasis, plain: np.ndarray, class_fits: np.ndarray,
               count: int, best_of_classes) -> tuple[list[int], np.ndarray] | None:
    """The labels `best_of_classes(label scores where class_fits, classes, count)` would
    choose from the full pass (`plain`: the face and its turn, 2 x D, whitened; a label's
    score the best of its templates over both), in the same order, and an upper bound of
    every label's score; None when the bound cannot prove the choice."""
    axes = basis.axes @ plain.T                                    # (RANK, 2)
    rest = np.sqrt(np.maximum(np.einsum("ij,ij->i", plain, plain) - np.einsum("ij,ij->j", axes, axes), 0.0))
    proj = basis.coords @ axes                                     # (templates, 2)
    spread = basis.residual[:, None] * rest.astype(np.float32)
    high = np.maximum(proj[:, 0] + spread[:, 0], proj[:, 1] + spread[:, 1]) + SLACK
    known = np.maximum(proj[:, 0] - spread[:, 0], proj[:, 1] - spread[:, 1]) - SLACK
    done = np.zeros(len(templates), bool)
    chosen = np.zeros(len(starts), bool)
    for _ in range(ROUNDS):
        label_low = np.maximum.reduceat(known, starts)
        bars = _bars(np.where(class_fits, label_low, -np.inf), classes, count, best_of_classes)
        todo = ~done & (high >= bars[basis.label_of] - SLACK)
        if not todo.any():
            break
        rows = np.flatnonzero(todo)
        scores = templates[rows] @ plain.T
        exact = np.maximum(scores[:, 0], scores[:, 1])
        known[rows] = exact
        high[rows] = exact
        done[rows] = True
    else:
        return None
    label_exact = np.maximum.reduceat(np.where(done, known, -np.inf), starts)
    competing = np.where(class_fits, label_exact, -np.inf)
    best = best_of_classes(competing, classes, count)
    if not best:
        return None
    chosen[best] = True
    left = np.maximum.reduceat(np.where(done, -np.inf, high), starts)
    if not np.all(left[best] < competing[best]):
        return None                      # a chosen label's score not yet exact
    order = competing[best]
    if len(best) > 1 and not np.all(np.diff(order) < -SLACK):
        return None                      # two chosen too close to be ordered surely
    # the classes not chosen: below the last chosen; when fewer than `count` were chosen,
    # every competing class must be among them (one left out fails the check)
    bar = np.full(int(classes.max()) + 1, order[-1] - SLACK if len(best) == count else -np.inf)
    bar[classes[best]] = order - SLACK
    upper = np.maximum(label_exact, left)
    others = class_fits & ~chosen
    if np.any(upper[others] >= bar[classes[others]]):
        return None                      # a label not chosen may match as well
    return best, upper


def _bars(competing: np.ndarray, classes: np.ndarray, count: int, best_of_classes) -> np.ndarray:
    """The score each label's templates must reach to matter, from lower bounds of the
    labels' scores (`competing`, -inf where the class is ruled out): a chosen class's
    best bound, the last chosen's for the classes not chosen, +inf for ruled-out labels."""
    best = best_of_classes(competing, classes, count)
    last = competing[best[-1]] if len(best) == count else -np.inf
    bar = np.full(int(classes.max()) + 1, last)
    bar[classes[best]] = competing[best]
    return np.where(np.isfinite(competing), bar[classes], np.inf)
