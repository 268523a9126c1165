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
  corners) and a whole card of the deck's shape standing square on one of its sides
  holds the region, the region is what shows of that card; it is reported as it is (the
  reader completes a visible part with `vision.complete`, as for a strip of a card lying
  under another; its completions are wider in kind but cost too much for every frame).

The caller applies its own gates and outline check to what these give.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from vision.warp import order_corners

CUT_EPS = (0.015, 0.025, 0.035)   # hull simplifications tried (shares of its perimeter)
MIN_FILL = 0.75         # the hull fills this share of the restored card at least
MAX_SKEW = 25.0         # the restored card's corners this near square (degrees)
MAX_UNLIKE = 0.2       # ... and its side ratio this near the card's (log)
SQUARE = 15.0           # `visible_part`: the two whole corners this near square
SLANT = (30.0, 150.0)   # ... the other two within these (degrees)
MIN_SHOWN = 0.5         # ... and the region this share of the whole card at least
CORNER_SIDE = 0.45      # `over_frame_corner`: a card's sides in the frame at most this share of
                        # the frame's short side (a page or a book over the corner is larger)
HOLDS = 0.95            # ... which holds the region (within 5 % of the side)


def restored_corner(hull: np.ndarray, aspect: float, hull_area: float | None = None,
                    perimeter: float | None = None) -> np.ndarray | None:
    """The card (four corners, float32, TL TR BR BL) whose one corner a five-cornered
    hull lacks: the hull's shortest fitting cut dropped and its neighbouring sides met,
    or None. `aspect`: the card's long side over its short side; `hull_area` and
    `perimeter`: the hull's `cv2.contourArea` and closed `cv2.arcLength`, when known.
    (Plain floats: this runs for many regions, and numpy's cost per call on five points
    would dominate. Each of the five sides' lines meets its two neighbours and the two
    beyond them once: the ten corners the five choices of a cut are made of, each worked
    out as the plain version's `_meet` did, tests/realfind_reference.py; the area and the
    skew inline, the same floats as `_area` and `_angles`: 1.53 -> 1.09 M instructions a
    whole new frame, 258 calls in 25.)"""
    points = hull.reshape(-1, 2).astype(np.float32)
    if hull_area is None:
        hull_area = cv2.contourArea(points)
    if perimeter is None:
        perimeter = cv2.arcLength(points, True)
    for eps in CUT_EPS:
        poly = cv2.approxPolyDP(points, eps * perimeter, True).reshape(-1, 2).tolist()
        if len(poly) < 5:
            return None
        if len(poly) > 5:
            continue
        # side j runs from poly[j] to poly[j + 1]; near[j], far[j]: side j's line meeting
        # side (j + 1)'s, side (j + 2)'s
        sides = [(px, py, qx - px, qy - py) for (px, py), (qx, qy) in zip(poly, poly[1:] + poly[:1])]
        near, far = [], []
        for j, (px, py, rx, ry) in enumerate(sides):
            for d, meets in ((1, near), (2, far)):
                sx, sy, ux, uy = sides[(j + d) % 5]
                cross = rx * uy - ry * ux
                if abs(cross) < 1e-3:
                    meets.append(None)
                else:
                    k = ((sx - px) * uy - (sy - py) * ux) / cross
                    meets.append((px + k * rx, py + k * ry))
        best, best_skew = None, MAX_SKEW
        for k in range(5):   # side k (from corner k to k+1) the cut: sides k+1 .. k+4 kept
            a, b, c, e = far[(k + 4) % 5], near[(k + 1) % 5], near[(k + 2) % 5], near[(k + 3) % 5]
            if a is None or b is None or c is None or e is None:
                continue
            # `_area` of (a, b, c, e), its terms summed in the same order
            area = abs(0 + (e[0] * a[1] - a[0] * e[1]) + (a[0] * b[1] - b[0] * a[1])
                       + (b[0] * c[1] - c[0] * b[1]) + (c[0] * e[1] - e[0] * c[1])) / 2
            if area <= hull_area or hull_area < MIN_FILL * area:
                continue
            quad = [a, b, c, e]
            skew = _skew(quad)
            if skew < best_skew and abs(math.log(_ratio(quad) / aspect)) < MAX_UNLIKE:
                best, best_skew = quad, skew
        return None if best is None else order_corners(np.float32(best))
    return None


def visible_part(quad: np.ndarray, aspect: float) -> bool:
    """Whether a four-cornered region that fails a card's gates is what shows of a card
    crossed on the slant: two adjacent corners square, the others not too sharp, and a
    whole card of `aspect` holding it, of which it is at least half."""
    pts = quad.tolist()
    angles = _angles(pts)
    if not all(SLANT[0] <= a <= SLANT[1] for a in angles):
        return False
    if not any(abs(angles[i] - 90) <= SQUARE and abs(angles[(i + 1) % 4] - 90) <= SQUARE for i in range(4)):
        return False
    area = _area(pts)
    return any(_fits_on_side(pts, i, aspect, area) for i in range(4))


def _fits_on_side(pts, i: int, aspect: float, area: float) -> bool:
    """Whether a card of `aspect` standing square on side i (from corner i to i+1, taken as
    a whole side of it, short or long) holds the outline, the outline being at least
    MIN_SHOWN of it. (The reader's completions, `vision.complete`, are wider in kind but
    cost a millisecond an outline: this runs in the finder on every frame.)"""
    (ax, ay), (bx, by) = pts[i], pts[(i + 1) % 4]
    length = math.hypot(bx - ax, by - ay)
    if length < 1e-6:
        return False
    ux, uy = (bx - ax) / length, (by - ay) / length
    nx, ny = -uy, ux
    if sum((x - ax) * nx + (y - ay) * ny for x, y in pts) < 0:   # across, into the outline
        nx, ny = -nx, -ny
    along = [(x - ax) * ux + (y - ay) * uy for x, y in pts]
    across = [(x - ax) * nx + (y - ay) * ny for x, y in pts]
    slack = (1 - HOLDS) * length
    if min(along) < -slack or max(along) > length + slack or min(across) < -slack:
        return False
    return any(max(across) <= other + slack and area >= MIN_SHOWN * length * other
               for other in (length * aspect, length / aspect))


def _skew(pts) -> float:
    """How far the least square corner is from 90 degrees: `max(abs(a - 90) for a in
    _angles(pts))`, the same floats, without its lists and generators."""
    skew = None
    for i in range(4):
        (ax, ay), (bx, by), (cx, cy) = pts[i - 1], pts[i], pts[(i + 1) % 4]
        ux, uy, vx, vy = ax - bx, ay - by, cx - bx, cy - by
        norm = math.hypot(ux, uy) * math.hypot(vx, vy)
        cos = (ux * vx + uy * vy) / norm if norm > 1e-9 else 1.0
        off = abs(math.degrees(math.acos(-1.0 if cos < -1.0 else 1.0 if cos > 1.0 else cos)) - 90)
        if skew is None or off > skew:
            skew = off
    return skew


def _angles(pts) -> list[float]:
    """Each corner's angle in degrees, in the points' order."""
    out = []
    for i in range(4):
        (ax, ay), (bx, by), (cx, cy) = pts[i - 1], pts[i], pts[(i + 1) % 4]
        ux, uy, vx, vy = ax - bx, ay - by, cx - bx, cy - by
        norm = math.hypot(ux, uy) * math.hypot(vx, vy)
        cos = (ux * vx + uy * vy) / norm if norm > 1e-9 else 1.0
        out.append(math.degrees(math.acos(max(-1.0, min(1.0, cos)))))
    return out


def _area(pts) -> float:
    return abs(sum(pts[i - 1][0] * pts[i][1] - pts[i][0] * pts[i - 1][1] for i in range(4))) / 2


def _ratio(pts) -> float:
    sides = [math.hypot(pts[(i + 1) % 4][0] - pts[i][0], pts[(i + 1) % 4][1] - pts[i][1]) for i in range(4)]
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
