"""The shape of a four-cornered outline, as the real-table finder (`vision.realfind`)
gates it: a region's convex hull fitted with four corners (`four_corners`), kept under
wide geometric gates (`shape_ok`; oblique views are common: side ratio 1.0-2.3, corners
45-135 degrees, opposite sides of similar length), where it meets the frame's border
(`cut_side`: a card running off the frame, or a corner's tip cut off), how far its side
ratio is from a card's (`unlike_card`) and its worst corner from square (`skew`), and a
quad with its sides moved out (`moved_out`: a colour field grown to its white frame).
Plain geometry on four points; no map is looked at here.
"""
from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np

from vision.outlinecheck import _NEXT
from vision.realsettings import RealSettings


def four_corners(hull: np.ndarray, perimeter: float | None = None) -> np.ndarray | None:
    """The hull simplified to four corners (float32), or None; `perimeter`: its closed
    `cv2.arcLength`, when known."""
    if perimeter is None:
        perimeter = cv2.arcLength(hull, True)
    for eps in (0.02, 0.03, 0.045, 0.06, 0.08):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(approx) == 4:
            return approx.reshape(4, 2).astype(np.float32)
        if len(approx) < 4:
            return None
    return None


def moved_out(quad: np.ndarray, distance: float, keep: int = -1) -> np.ndarray:
    """The quad with every side (but side `keep`) moved `distance` pixels outward."""
    centre = quad.mean(axis=0)
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        u = (b - a) / max(float(np.linalg.norm(b - a)), 1e-6)
        normal = np.array([u[1], -u[0]], np.float32)
        if float((centre - a) @ normal) > 0:
            normal = -normal
        lines.append((a + normal * (0.0 if i == keep else distance), u))
    corners = []
    for i in range(4):
        (p, r), (q, t) = lines[i - 1], lines[i]
        cross = r[0] * t[1] - r[1] * t[0]
        if abs(cross) < 1e-6:
            return quad
        k = ((q[0] - p[0]) * t[1] - (q[1] - p[1]) * t[0]) / cross
        corners.append(p + k * r)
    return np.array(corners, np.float32)


BORDER = 2  # pixels: a corner this close to the frame's border lies on it
TIP = -2    # `cut_side`: one corner on the border


def cut_side(quad: np.ndarray, size: tuple[int, int]) -> int | None:
    """-1 when no corner lies on the frame's border, TIP when one does (its tip is cut
    off); i when corners i and i+1 (and no other) lie on the same border: a card running
    off the frame, side i being the frame's border; None otherwise (a pattern's cell, a
    corner of the frame)."""
    w, h = size
    if quad.shape != (4, 2):
        return _cut_side_plain(quad, size)
    # each corner's borders as bits (left, top, right, bottom): unrolled, the plain
    # version's answers (`_cut_side_plain`) for a third of the instructions (~19 calls a frame)
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = quad.tolist()
    right, bottom = w - 1 - BORDER, h - 1 - BORDER
    on = ((x0 < BORDER) | (y0 < BORDER) << 1 | (x0 > right) << 2 | (y0 > bottom) << 3,
          (x1 < BORDER) | (y1 < BORDER) << 1 | (x1 > right) << 2 | (y1 > bottom) << 3,
          (x2 < BORDER) | (y2 < BORDER) << 1 | (x2 > right) << 2 | (y2 > bottom) << 3,
          (x3 < BORDER) | (y3 < BORDER) << 1 | (x3 > right) << 2 | (y3 > bottom) << 3)
    count = (on[0] > 0) + (on[1] > 0) + (on[2] > 0) + (on[3] > 0)
    if count < 2:  # at most a corner's tip cut off
        return -1 if not count else TIP
    if count != 2:
        return None
    i, j = [k for k in range(4) if on[k]]
    if j - i == 3:
        i, j = j, i
    elif j - i != 1:
        return None
    return i if on[i] & on[j] else None


def _cut_side_plain(quad: np.ndarray, size: tuple[int, int]) -> int | None:
    """`cut_side` a corner at a time (any number of points: the first four judged)."""
    w, h = size
    on = [(x < BORDER, y < BORDER, x > w - 1 - BORDER, y > h - 1 - BORDER) for x, y in quad.tolist()]
    touching = [i for i in range(4) if any(on[i])]
    if len(touching) < 2:  # at most a corner's tip cut off
        return -1 if not touching else TIP
    if len(touching) != 2:
        return None
    i, j = touching
    if j - i == 3:
        i, j = j, i
    elif j - i != 1:
        return None
    return i if any(a and b for a, b in zip(on[i], on[j])) else None


@lru_cache(maxsize=16)
def _cosines(angles: tuple[float, float]) -> tuple[float, float]:
    """The cosines of a corner's least and greatest angle (degrees)."""
    return math.cos(math.radians(angles[0])), math.cos(math.radians(angles[1]))


def shape_ok(quad: np.ndarray, settings: RealSettings, longest: float | None = None,
              angles: tuple[float, float] | None = None) -> bool:
    """The wide gates: side ratio (up to `longest`), corner angles (within `angles`),
    opposite sides; the settings' own where None. (Plain floats: four points are quicker
    without numpy; unrolled, the same floats as a loop a side: 0.80 -> 0.57 M instructions
    a whole new frame, 537 calls in 25.)"""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = quad.tolist()
    vectors = ((x1 - x0, y1 - y0), (x2 - x1, y2 - y1), (x3 - x2, y3 - y2), (x0 - x3, y0 - y3))
    hypot = math.hypot
    sides = (hypot(x1 - x0, y1 - y0), hypot(x2 - x1, y2 - y1), hypot(x3 - x2, y3 - y2), hypot(x0 - x3, y0 - y3))
    s0, s1, s2, s3 = sides
    if min(s0, s1, s2, s3) < 1:
        return False
    a, b = (s0 + s2) / 2, (s1 + s3) / 2
    short, long = min(a, b), max(a, b)
    longest = settings.side_ratio[1] if longest is None else longest
    if short < settings.min_short_side or not settings.side_ratio[0] <= long / short <= longest:
        return False
    most = settings.max_opposite_ratio
    if max(s0, s2) > most * min(s0, s2) or max(s1, s3) > most * min(s1, s3):
        return False
    low, high = _cosines(tuple(angles or settings.corner_angles))
    for i in range(4):  # the angle at corner i, between the side coming in and going out
        (ax, ay), (bx, by) = vectors[i - 1], vectors[i]
        cos = -(ax * bx + ay * by) / (sides[i - 1] * sides[i])
        if not high <= cos <= low:
            return False
    return True


_NEXT_ROWS, _BEFORE_ROWS = np.array(_NEXT), np.array((3, 0, 1, 2))


def _lengths(vectors: np.ndarray) -> np.ndarray:
    """Each row's length: `np.linalg.norm(vectors, axis=1)`'s own arithmetic, without the
    checks of its arguments that cost more than four rows' sums."""
    return np.sqrt(np.add.reduce(vectors * vectors, axis=1))


def skew(quad: np.ndarray) -> float:
    """How far the quad's worst corner is from a right angle, in degrees."""
    v = quad[_NEXT_ROWS] - quad
    w = quad[_BEFORE_ROWS] - quad
    cos = (v * w).sum(axis=1) / np.maximum(_lengths(v) * _lengths(w), 1e-6)
    return float(np.degrees(np.abs(np.arcsin(np.clip(cos, -1, 1)))).max())


CARD_RATIO = 88 / 63   # a playing card's long side over its short side


def unlike_card(quad: np.ndarray) -> float:
    """How far the quad's side ratio is from a card's (absolute log of their ratio)."""
    sides = _lengths(quad[_NEXT_ROWS] - quad)
    a, b = sides[0] + sides[2], sides[1] + sides[3]
    return abs(math.log(max(a, b) / max(min(a, b), 1e-6) / CARD_RATIO))
