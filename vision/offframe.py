"""A card running off the photo's edge: its outline, and the whole card it is part of.

The finder outlines the part of such a card that is in view (its side along the frame's
border is the border, `vision.realfind._cut_side`). Read as a whole face, that part is
a face squashed along the cut direction: "unknown", or worse a wrong card read surely
(a 5 cut across its length read as a 0). A taught deck knows its cards' shape, so the
outline is grown past the border to it: the side opposite the border is the card's
whole side, the two sides running to the border are grown to the card's length (its
long side when the whole side is the short one, else its short side). The part beyond
the border is replicated border pixels, nothing the reader can read; the reader reads
the corner index that is in view (`vision.pipeline.Recognizer`).

Pure geometry; nothing here reads a card.
"""
from __future__ import annotations

import numpy as np

from vision.warp import order_corners

BORDER = 2.0   # pixels at the finder's working size: a corner this near the border lies on it
# An outline whose sides to the border are at least this share of the card's length
# there is the whole card (a card lying against the frame's edge, not running off it).
WHOLE = 0.95


def on_border(corners: np.ndarray, size: tuple[int, int], tolerance: float) -> int:
    """How many corners of the outline lie within `tolerance` pixels of the border of a
    frame of `size` (w, h)."""
    w, h = size
    return sum(x < tolerance or y < tolerance or x > w - 1 - tolerance or y > h - 1 - tolerance
               for x, y in np.asarray(corners, np.float32).reshape(4, 2).tolist())


def border_side(corners: np.ndarray, size: tuple[int, int], tolerance: float) -> int | None:
    """i when corners i and i + 1 of the outline (and no other) lie within `tolerance`
    pixels of the same border of a frame of `size` (w, h): side i is the frame's border;
    None otherwise."""
    w, h = size
    pts = np.asarray(corners, np.float32).reshape(4, 2).tolist()
    on = [(x < tolerance, y < tolerance, x > w - 1 - tolerance, y > h - 1 - tolerance) for x, y in pts]
    touching = [i for i in range(4) if any(on[i])]
    if len(touching) != 2:
        return None
    i, j = touching
    if (i, j) == (0, 3):
        i, j = 3, 0
    elif j - i != 1:
        return None
    return i if any(a and b for a, b in zip(on[i], on[j])) else None


def grown_past(corners: np.ndarray, side: int, aspect: float) -> np.ndarray | None:
    """The whole-card outline (TL, TR, BR, BL, float32) of a card `aspect` (long / short)
    in shape that the outline `corners` is part of, its side `side` (corners side,
    side + 1) being the frame's border; None when the outline is as long as such a card
    already (within WHOLE)."""
    quad = np.asarray(corners, np.float32).reshape(4, 2)
    a, b = side, (side + 1) % 4          # on the border
    c, d = (side + 2) % 4, (side + 3) % 4  # b-c and d-a run to the border; c-d is whole
    whole = float(np.hypot(*(quad[c] - quad[d])))
    run_b, run_a = quad[b] - quad[c], quad[a] - quad[d]
    partial = (float(np.hypot(*run_b)) + float(np.hypot(*run_a))) / 2
    if whole < 1.0 or partial < 1.0:
        return None
    # the whole side is the short one when the part in view is longer than it (a card cut
    # across its length keeps 70-100 % of 1.5 widths), else the long one
    length = whole * aspect if partial >= whole else whole / aspect
    if partial >= WHOLE * length:
        return None
    grown = quad.copy()
    grown[b] = quad[c] + run_b * (length / max(float(np.hypot(*run_b)), 1e-6))
    grown[a] = quad[d] + run_a * (length / max(float(np.hypot(*run_a)), 1e-6))
    return order_corners(grown)
