"""Card outlines from what shows of a card that something covers (pure geometry).

On real tables a card is often partly hidden: a shoe, a knife, a book or a cable lies
across it. Its whiteness region is then no four-cornered shape, and the finder's gates
(`vision.realfind`) refuse it. Two shapes are common, and each gives a card outline:

* **A corner covered** (`restored_corner`): the region's hull has five corners, the
  card's four sides and a short cut where the object crosses a corner. Dropping the cut
  and meeting its two neighbouring sides puts the corner back: the whole card.
* **A side covered on the slant** (`visible_part`): the region is four-cornered, but
  one side runs across the face (the edge of a book, a knife), so two corners are far
  from square. When two adjacent corners are square (a whole side with both its
  corners) and a whole card of the deck's shape (`vision.complete`) holds the region,
  the region is what shows of that card; it is reported as it is (a card's visible part
  is what the reader completes, as for a strip of a card lying under another).

The caller applies its own gates and outline check to what these give.
"""
from __future__ import annotations

import cv2
import numpy as np

from vision.complete import completions
from vision.lines import corners_of
from vision.warp import order_corners, quad_overlap

CUT_EPS = (0.015, 0.025, 0.035)   # hull simplifications tried (shares of its perimeter)
MIN_FILL = 0.75         # the hull fills this share of the restored card at least
MAX_SKEW = 25.0         # the restored card's corners this near square (degrees)
MAX_UNLIKE = 0.2       # ... and its side ratio this near the card's (log)
SQUARE = 15.0           # `visible_part`: the two whole corners this near square
SLANT = (30.0, 150.0)   # ... the other two within these (degrees)
MIN_SHOWN = 0.5         # ... and the region this share of the whole card at least
CORNER_SIDE = 0.45      # `over_frame_corner`: a card's sides in the frame at most this share of
                        # the frame's short side (a page or a book over the corner is larger)
HOLDS = 0.95            # ... which holds the region (overlap of the region)


def restored_corner(hull: np.ndarray, aspect: float) -> np.ndarray | None:
    """The card (four corners, float32, TL TR BR BL) whose one corner a five-cornered
    hull lacks: the hull's shortest fitting cut dropped and its neighbouring sides met,
    or None. `aspect`: the card's long side over its short side."""
    points = hull.reshape(-1, 2).astype(np.float32)
    hull_area = cv2.contourArea(points)
    perimeter = cv2.arcLength(points, True)
    for eps in CUT_EPS:
        poly = cv2.approxPolyDP(points, eps * perimeter, True).reshape(-1, 2).astype(np.float32)
        if len(poly) < 5:
            return None
        if len(poly) > 5:
            continue
        best, best_skew = None, MAX_SKEW
        for k in range(5):   # side k (from corner k to k+1) the cut
            lines = [(poly[i % 5], poly[(i + 1) % 5] - poly[i % 5]) for i in (k + 1, k + 2, k + 3, k + 4)]
            quad = corners_of(lines, 1e-3)
            if quad is None:
                continue
            area = cv2.contourArea(quad)
            if area <= hull_area or hull_area < MIN_FILL * area:
                continue
            skew = _skew(quad)
            if skew < best_skew and abs(np.log(_ratio(quad) / aspect)) < MAX_UNLIKE:
                best, best_skew = quad, skew
        return None if best is None else order_corners(best)
    return None


def visible_part(quad: np.ndarray, aspect: float) -> bool:
    """Whether a four-cornered region that fails a card's gates is what shows of a card
    crossed on the slant: two adjacent corners square, the others not too sharp, and a
    whole card of `aspect` holding it, of which it is at least half."""
    angles = _angles(quad)
    if not all(SLANT[0] <= a <= SLANT[1] for a in angles):
        return False
    if not any(abs(angles[i] - 90) <= SQUARE and abs(angles[(i + 1) % 4] - 90) <= SQUARE for i in range(4)):
        return False
    area = cv2.contourArea(quad)
    return any(quad_overlap(quad, whole) >= HOLDS and area >= MIN_SHOWN * cv2.contourArea(whole)
               for whole in completions(quad, aspect))


def _angles(quad: np.ndarray) -> list[float]:
    """Each corner's angle in degrees, in the quad's order."""
    v = np.roll(quad, -1, axis=0) - quad
    w = np.roll(quad, 1, axis=0) - quad
    cos = (v * w).sum(axis=1) / np.maximum(np.linalg.norm(v, axis=1) * np.linalg.norm(w, axis=1), 1e-6)
    return np.degrees(np.arccos(np.clip(cos, -1, 1))).tolist()


def _skew(quad: np.ndarray) -> float:
    return max(abs(a - 90) for a in _angles(quad))


def _ratio(quad: np.ndarray) -> float:
    sides = np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1)
    a, b = sides[0] + sides[2], sides[1] + sides[3]
    return max(a, b) / max(min(a, b), 1e-6)


def over_frame_corner(quad: np.ndarray, size: tuple[int, int], border: float) -> np.ndarray | None:
    """For a card lying over a corner of the frame (one of its corners in the frame's
    corner, the two beside it each on one of the borders that meet there), the outline
    with those corners moved a pixel past the border, so that the two sides along the
    border are not looked at in the outline check; None for any other outline.
    `border`: pixels from the edge that count as on it."""
    w, h = size
    on = [(x < border, y < border, x > w - 1 - border, y > h - 1 - border) for x, y in quad.tolist()]
    for i in range(4):
        before, after = on[i - 1], on[(i + 1) % 4]
        if sum(on[i]) == 2 and sum(before) == 1 and sum(after) == 1 and not any(on[(i + 2) % 4]) and \
                any(a and b for a, b in zip(on[i], before)) and any(a and b for a, b in zip(on[i], after)) and \
                not any(a and b for a, b in zip(before, after)):
            inside = quad[(i + 2) % 4]   # the corner in the frame: its two sides a card's
            if max(np.hypot(*(inside - quad[i - 1])), np.hypot(*(inside - quad[(i + 1) % 4]))) > \
                    CORNER_SIDE * min(w, h):
                return None
            out = quad.copy()
            for j in (i - 1, i, (i + 1) % 4):
                left, top, right, bottom = on[j]
                out[j] = (-1 if left else w if right else out[j][0], -1 if top else h if bottom else out[j][1])
            return out
    return None
