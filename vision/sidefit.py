"""The corner refit: an outline found on the real-table finder's small copy
(`vision.realfind`, `long_side` pixels) has its sides fitted to the full frame's own edges
within a few pixels (`refined`: the reader needs the outline to a pixel or two). The
edges are found in a strip along each side (`_refined_strips`, `_strips`) where the four
strips hold fewer pixels than the quad's box, else in the box (`_refined_box`); a side
with too few edge points stays, and a corner that moved too far is put back (`_met_near`).
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from vision.arrays import moved
from vision.lines import corners_of
from vision.outlinecheck import _NEXT, near_band
from vision.warp import along_and_across


# `_refined_strips`: OpenCV's Huber line fit stops refitting once a refit moves its line less
# than this (pixels, and radians): it answers the line of least summed distance among its
# refits (twenty restarts from ten random points each), and refits after that step rarely
# beat the best one (99 of 101 sides of the speed bench's frames the same bit for bit;
# 0.01, the old value, costs 0.61 M instructions a frame more).
REFIT_STEP = 0.1
STRIP_GROW = 3   # `_refined_strips`: pixels each side's strip holds past the part of the side fitted

Rect = tuple[int, int, int, int]   # x0, y0, x1, y1
_NO_POINTS = np.empty((0, 2), np.int32)   # (a side with no edge point)


def _strips(quad: np.ndarray, reach: float, box: Rect) -> list[tuple[Rect, Rect]]:
    """`_refined_strips`' rectangles inside `box`, two a side: the part of the side its fit
    looks at (0.15 to 0.85 along, within `reach` across) with a pixel to spare (where its
    edge points are listed), and that grown by STRIP_GROW pixels (the strip whose edges
    are found: a pixel's edge depends on the picture 3 pixels about it)."""
    bx0, by0, bx1, by1 = box
    corners = quad.tolist()
    out = []
    for i in range(4):
        (ax, ay), (bx, by) = corners[i], corners[(i + 1) % 4]
        xs = (ax + 0.15 * (bx - ax), ax + 0.85 * (bx - ax))
        ys = (ay + 0.15 * (by - ay), ay + 0.85 * (by - ay))
        x0, y0 = math.floor(min(xs) - reach) - 1, math.floor(min(ys) - reach) - 1
        x1, y1 = math.ceil(max(xs) + reach) + 2, math.ceil(max(ys) + reach) + 2
        strip = (max(x0 - STRIP_GROW, bx0), max(y0 - STRIP_GROW, by0),
                 min(x1 + STRIP_GROW, bx1), min(y1 + STRIP_GROW, by1))
        listed = (max(x0, strip[0]), max(y0, strip[1]), min(x1, strip[2]), min(y1, strip[3]))
        out.append((strip, listed))
    return out


def _area(rect: Rect) -> int:
    return max(rect[2] - rect[0], 0) * max(rect[3] - rect[1], 0)


def refined(frame: np.ndarray, quad: np.ndarray, reach: float) -> np.ndarray:
    """The quad found on the half-size copy, its sides fitted to the frame's own edges
    within `reach` pixels (the reader needs the outline to a pixel or two; a side with
    too few edge points, such as the frame's border of a card running off it, stays).
    The edges are found in a strip along each side (`_refined_strips`) where the four
    strips hold fewer pixels than the quad's box, else in the box (`_refined_box`, the
    old way): a strip's edges are the box's but where Canny's hysteresis joins a weak
    edge pixel to a strong one through the box beyond the strip (docs/vision-history.md,
    "The whole new frame, session 18": the same readings for 0.38 of the boxes' pixels)."""
    h, w = frame.shape[:2]
    x0, y0 = np.maximum(np.floor(quad.min(axis=0) - reach - 2), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(quad.max(axis=0) + reach + 3), (w, h)).astype(int)
    strips = _strips(quad, reach, (int(x0), int(y0), int(x1), int(y1)))
    if sum(_area(strip) for strip, _ in strips) < (x1 - x0) * (y1 - y0):
        return _refined_strips(frame, quad, reach, strips)
    return _refined_box(frame, quad, reach)


def _refined_box(frame: np.ndarray, quad: np.ndarray, reach: float) -> np.ndarray:
    """`refined` with the edges found in the quad's whole box at once."""
    h, w = frame.shape[:2]
    x0, y0 = np.maximum(np.floor(quad.min(axis=0) - reach - 2), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(quad.max(axis=0) + reach + 3), (w, h)).astype(int)
    roi = frame[y0:y1, x0:x1]
    if roi.ndim == 3:
        roi = cv2.cvtColor(roi, cv2.COLOR_BGR2GRAY)
    edges = cv2.Canny(cv2.GaussianBlur(roi, (3, 3), 0), 30, 90, L2gradient=True)
    # Only edge points within `reach` of a side are fitted: the others (the card's print,
    # the table) are masked out before they are listed.
    # (cv2.findNonZero lists them in np.nonzero's row order, at a quarter of its cost)
    found = cv2.findNonZero(cv2.bitwise_and(edges, near_band(edges.shape, quad - (x0, y0), reach)))
    points = np.empty((0, 2), np.float32) if found is None else \
        moved(found.reshape(-1, 2).astype(np.float32), int(x0), int(y0))
    lines = []
    for i in range(4):
        length, u, along, across = along_and_across(points, quad[i], quad[(i + 1) % 4])
        near = (np.abs(across) <= reach) & (along > 0.15 * length) & (along < 0.85 * length)
        if np.count_nonzero(near) < 0.3 * length:
            lines.append((quad[i], u))
            continue
        vx, vy, px, py = cv2.fitLine(points[near], cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array((px, py), np.float32), np.array((vx, vy), np.float32)))
    return _met_near(lines, quad, reach)


def _refined_strips(frame: np.ndarray, quad: np.ndarray, reach: float,
                    strips: list[tuple[Rect, Rect]]) -> np.ndarray:
    """`refined` with each side's edges found in its own strip only (`_strips`), the four
    sides' points then placed along and across their sides at once."""
    found = []
    for (x0, y0, x1, y1), (lx0, ly0, lx1, ly1) in strips:
        if lx1 > lx0 and ly1 > ly0:
            roi = frame[y0:y1, x0:x1]
            if roi.ndim == 3:
                roi = cv2.cvtColor(roi, cv2.COLOR_BGR2GRAY)
            edges = cv2.Canny(cv2.GaussianBlur(roi, (3, 3), 0), 30, 90, L2gradient=True)
            points = cv2.findNonZero(edges[ly0 - y0:ly1 - y0, lx0 - x0:lx1 - x0])
            found.append(_NO_POINTS if points is None else points.reshape(-1, 2))
        else:
            found.append(_NO_POINTS)
    counts = [len(points) for points in found]
    # each point in the frame's pixels (whole numbers: their float32 is exact), then
    # along and across its side from the side's first corner (as `along_and_across`, each
    # product and sum in float32)
    listed = np.array([listed[:2] for _, listed in strips], np.int32)
    points = (np.concatenate(found) + np.repeat(listed, counts, axis=0)).astype(np.float32)
    direction = quad[_NEXT] - quad
    length = np.sqrt((direction * direction).sum(axis=1))
    u = direction / np.maximum(length, np.float32(1e-6))[:, None]
    rel = points - np.repeat(quad, counts, axis=0)
    ux, uy = np.repeat(u[:, 0], counts), np.repeat(u[:, 1], counts)
    along = rel[:, 0] * ux + rel[:, 1] * uy
    across = rel[:, 0] * uy - rel[:, 1] * ux
    sides = length.astype(np.float64)
    low = np.repeat((0.15 * sides).astype(np.float32), counts)
    high = np.repeat((0.85 * sides).astype(np.float32), counts)
    near = np.flatnonzero((np.abs(across) <= reach) & (along > low) & (along < high))
    ends = np.searchsorted(near, np.cumsum(counts)).tolist()
    lines = []
    for i, (start, stop) in enumerate(zip([0] + ends[:3], ends)):
        if stop - start < 0.3 * float(sides[i]):
            lines.append((quad[i], u[i]))
            continue
        vx, vy, px, py = cv2.fitLine(points[near[start:stop]], cv2.DIST_HUBER, 0, REFIT_STEP, REFIT_STEP).ravel()
        lines.append((np.array((px, py), np.float32), np.array((vx, vy), np.float32)))
    return _met_near(lines, quad, reach)


def _met_near(lines: list[tuple[np.ndarray, np.ndarray]], quad: np.ndarray, reach: float) -> np.ndarray:
    """Where the refitted sides meet, or `quad` where they do not, or where a corner moved
    more than twice `reach` (the fit took a printed line or a neighbour's edge)."""
    refined = corners_of(lines, 1e-3)
    if refined is None or np.abs(refined - quad).max() > 2 * reach:
        return quad
    return refined
