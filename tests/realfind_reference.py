"""The plain versions of finder code made quicker for a whole new frame (session 12,
helper frame-cost), kept as they were so that tests can hold the quicker code to them
bit for bit (tests/test_realfind_speedups.py). Not used by Deckhand itself."""
from __future__ import annotations

import math

import cv2
import numpy as np

from vision.partial import CUT_EPS, MAX_SKEW, MAX_UNLIKE, MIN_FILL, _angles, _area, _ratio
from vision.warp import order_corners


def restored_corner(hull: np.ndarray, aspect: float) -> np.ndarray | None:
    """The card (four corners, float32, TL TR BR BL) whose one corner a five-cornered
    hull lacks: the hull's shortest fitting cut dropped and its neighbouring sides met,
    or None. `aspect`: the card's long side over its short side. (Plain floats: this
    runs for many regions, and numpy's cost per call on five points would dominate.)"""
    points = hull.reshape(-1, 2).astype(np.float32)
    hull_area = cv2.contourArea(points)
    perimeter = cv2.arcLength(points, True)
    for eps in CUT_EPS:
        poly = cv2.approxPolyDP(points, eps * perimeter, True).reshape(-1, 2).tolist()
        if len(poly) < 5:
            return None
        if len(poly) > 5:
            continue
        best, best_skew = None, MAX_SKEW
        for k in range(5):   # side k (from corner k to k+1) the cut
            quad = _meet([(poly[i % 5], poly[(i + 1) % 5]) for i in (k + 1, k + 2, k + 3, k + 4)])
            if quad is None:
                continue
            area = _area(quad)
            if area <= hull_area or hull_area < MIN_FILL * area:
                continue
            angles = _angles(quad)
            skew = max(abs(a - 90) for a in angles)
            if skew < best_skew and abs(math.log(_ratio(quad) / aspect)) < MAX_UNLIKE:
                best, best_skew = quad, skew
        return None if best is None else order_corners(np.float32(best))
    return None



def _meet(sides: list[tuple[list[float], list[float]]]) -> list[tuple[float, float]] | None:
    """Where each side's line (through its two points) meets the next one's: corner i
    between side i-1 and side i; None when two are nearly parallel."""
    corners = []
    for i in range(len(sides)):
        (px, py), (qx, qy) = sides[i - 1]
        (sx, sy), (tx, ty) = sides[i]
        rx, ry, ux, uy = qx - px, qy - py, tx - sx, ty - sy
        cross = rx * uy - ry * ux
        if abs(cross) < 1e-3:
            return None
        k = ((sx - px) * uy - (sy - py) * ux) / cross
        corners.append((px + k * rx, py + k * ry))
    return corners



def opened_masks(white, settings):
    """The masks `realmaps.mapped_regions` took the regions of, made as it made them."""
    from vision.realmaps import above_local_mean
    masks = []
    small = np.ones((3, 3), np.uint8)
    for level in settings.levels:
        _, mask = cv2.threshold(white, int(level * 255), 255, cv2.THRESH_BINARY)
        if level < settings.unopened_level:
            mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, small)
        masks.append(mask)
    for mask in above_local_mean(white, settings):
        masks.append(cv2.morphologyEx(mask, cv2.MORPH_OPEN, small))
    return masks


def best_line(warped, settings):
    """`linecuts._best_line` as it was: every line's every pixel gathered."""
    from vision.linecuts import _line_table
    table, starts, ends = _line_table(settings.cut_least, settings.cut_tilt)
    hits = np.count_nonzero(warped.ravel()[table], axis=1)
    best = int(np.argmax(hits))
    return hits[best] / table.shape[1], int(starts[best]), int(ends[best])



def continued_sides_plain(piece: np.ndarray, edges: np.ndarray, settings: ShadedSettings) -> list[int]:
    """The sides of the piece that may be a shadow's edge across a card: the two sides
    next to it both run on, straight, past it along an edge (the card's own sides going
    on into the shade). A whole card's sides run on into the table instead."""
    h, w = edges.shape
    t = np.linspace(0.05, settings.reach, 8, dtype=np.float32)[None, :, None]
    # side j runs from corner j to j + 1: the side ending at j runs on past it from j - 1,
    # the side ending at j + 1 from j + 2 (all eight runs at once)
    ends = np.concatenate((piece, np.roll(piece, -1, axis=0)))
    starts = np.concatenate((np.roll(piece, 1, axis=0), np.roll(piece, -2, axis=0)))
    points = ends[:, None, :] + t * (ends - starts)[:, None, :]
    x, y = np.rint(points[..., 0]).astype(np.int32), np.rint(points[..., 1]).astype(np.int32)
    inside = (x >= 0) & (x < w) & (y >= 0) & (y < h)
    runs = ((edges[np.clip(y, 0, h - 1), np.clip(x, 0, w - 1)] > 0) & inside).mean(axis=1)
    return np.flatnonzero(np.minimum(runs[:4], runs[4:]) >= settings.min_run).tolist()



def shape_ok(quad, settings, longest=None, angles=None) -> bool:
    """`quadgates.shape_ok` as it was before session 16 (helper frame-speed-4) unrolled it."""
    pts = quad.tolist()
    vectors = [(pts[(i + 1) % 4][0] - pts[i][0], pts[(i + 1) % 4][1] - pts[i][1]) for i in range(4)]
    sides = [math.hypot(dx, dy) for dx, dy in vectors]
    if min(sides) < 1:
        return False
    a, b = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    short, long = min(a, b), max(a, b)
    longest = settings.side_ratio[1] if longest is None else longest
    if short < settings.min_short_side or not settings.side_ratio[0] <= long / short <= longest:
        return False
    most = settings.max_opposite_ratio
    if max(sides[0], sides[2]) > most * min(sides[0], sides[2]) or \
            max(sides[1], sides[3]) > most * min(sides[1], sides[3]):
        return False
    low, high = (math.cos(math.radians(v)) for v in angles or settings.corner_angles)
    for i in range(4):
        (ax, ay), (bx, by) = vectors[i - 1], vectors[i]
        cos = -(ax * bx + ay * by) / (sides[i - 1] * sides[i])
        if not high <= cos <= low:
            return False
    return True


def contour_areas(contours):
    """`realmaps.contour_areas` as it was before session 16 (int64 sums, `np.concatenate`)."""
    if not contours:
        return np.zeros(0, np.int64), np.zeros(0)
    lengths = np.fromiter(map(len, contours), np.int64, len(contours))
    areas = np.zeros(len(contours))
    some = np.flatnonzero(lengths >= 3)
    if not len(some):
        return lengths, areas
    counts = lengths[some]
    points = np.concatenate([contours[i] for i in some.tolist()]).reshape(-1, 2).astype(np.int64)
    ends = np.cumsum(counts)
    starts = ends - counts
    before = np.arange(-1, len(points) - 1)
    before[starts] = ends - 1
    x, y = points[:, 0], points[:, 1]
    areas[some] = np.abs(np.add.reduceat(x[before] * y - y[before] * x, starts)) * 0.5
    return lengths, areas


def stretched(image):
    """`realmaps.stretched` as it was before session 17 (one channel's table at a time)."""
    out = []
    sample = np.ascontiguousarray(image[::3, ::3])
    levels = np.arange(256, dtype=np.float32)
    for c, channel in enumerate(cv2.split(image)):
        cumulative = np.cumsum(cv2.calcHist([sample], [c], None, [256], [0, 256]).ravel())
        lo, hi = np.searchsorted(cumulative, (0.01 * cumulative[-1], 0.995 * cumulative[-1]))
        lut = np.clip((levels - lo) * (255.0 / max(float(hi - lo), 1.0)), 0, 255)
        out.append(cv2.LUT(channel, lut.astype(np.uint8)))
    return out


_SAMPLES_PLAIN = 16
_T_PLAIN = np.linspace(0.06, 0.94, _SAMPLES_PLAIN, dtype=np.float32)[None, :, None]
_NEXT_PLAIN = [1, 2, 3, 0]
_AWAY_PLAIN = np.float32((0, -3, 3))[:, None, None, None]
_TURN_PLAIN = np.float32((1, -1))


def outline_shares(quads: list[np.ndarray], skip_sides: list[int], edges: np.ndarray, white: np.ndarray,
                   min_step: int, channels: list[np.ndarray] | None = None,
                   colour_step: int = 0) -> list[float]:
    """`outlinecheck.outline_shares` as it was before session 17 (x and y of each point together)."""
    if not quads:
        return []
    h, w = edges.shape
    quad = np.array(quads, np.float32).reshape(-1, 4, 2)
    direction = quad[:, _NEXT_PLAIN] - quad
    normal = direction[..., ::-1] * _TURN_PLAIN
    normal /= np.maximum(np.sqrt((normal * normal).sum(axis=2, keepdims=True)), 1e-6)
    centre = np.add.reduce(quad, axis=1)[:, None, :] * 0.25
    flip = ((centre - quad) * normal).sum(axis=2) > 0   # every normal outward
    normal[flip] *= -1
    points = quad[:, :, None, :] + _T_PLAIN * direction[:, :, None, :]      # quads x 4 sides x samples x 2
    every = points + _AWAY_PLAIN[:, None] * normal[:, :, None, :]            # on, inside, outside
    on = every[0].reshape(len(quad), -1, 2)
    inside_frame = (on[..., 0] >= 0) & (on[..., 0] < w) & (on[..., 1] >= 0) & (on[..., 1] < h)
    for k, side in enumerate(skip_sides):
        if side >= 0:
            inside_frame[k, side * _SAMPLES_PLAIN:(side + 1) * _SAMPLES_PLAIN] = False
    pixel = np.minimum(np.maximum(every + 0.5, 0), np.float32((w - 1, h - 1))).astype(np.int32)
    at = (pixel[..., 1] * w + pixel[..., 0]).reshape(3, len(quad), -1)
    on_edge = edges.ravel()[at[0]] > 0
    shades = white.ravel()[at[1:]].astype(np.int16)
    good = on_edge | (shades[0] - shades[1] >= min_step)
    if channels is not None and colour_step > 0:   # a full-bleed colour field's edge
        for channel in channels:
            values = channel.ravel()[at[1:]].astype(np.int16)
            good |= np.abs(values[0] - values[1]) >= colour_step
    good &= inside_frame
    return [float(g) / max(n, 1) for g, n in zip(np.count_nonzero(good, axis=1).tolist(),
                                                   np.count_nonzero(inside_frame, axis=1).tolist())]
