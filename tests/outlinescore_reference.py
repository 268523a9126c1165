"""The outline scorer's features as first written (`vision.outlinescore` at main 959cc1b:
every sample point an (x, y) pair, the face patch sampled apart, each feature reduced on its
own), kept only as the reference `tests/test_outlinescore.py` holds the one-pass
`outlinescore.features` to: the same value, bit for bit, for every outline (not a test
module). Session 12 (helper scorer-false) added the four last features of `NAMES` as
`added`, written plainly, one outline at a time."""
from __future__ import annotations

import math
import statistics

import cv2
import numpy as np

from vision.outlinescore import Considered, NAMES

_SAMPLES = 12
_T = np.linspace(0.08, 0.92, _SAMPLES, dtype=np.float32)[None, None, :, None]
_AWAY = np.float32((0, -3, 3, 6))[:, None, None, None, None]   # on the outline, inside, outside, further out
_GRID = np.linspace(0.12, 0.88, 7, dtype=np.float32)
_U, _V = (g.ravel()[None, :, None] for g in np.meshgrid(_GRID, _GRID))
_CENTRE = ((np.abs(_U - 0.5) < 0.3) & (np.abs(_V - 0.5) < 0.3))[..., 0]
_NEXT, _BEFORE = np.array((1, 2, 3, 0)), np.array((3, 0, 1, 2))
_TURN = np.float32((1, -1))


def _sides(quad: np.ndarray) -> np.ndarray:
    v = quad[:, _NEXT] - quad
    return np.sqrt(np.add.reduce(v * v, axis=2))


_PATCH = (16, 22)   # (w, h) of the portrait patch the face is looked at in


def _portrait(quads: np.ndarray) -> np.ndarray:
    """Each quad's corners clockwise from one end of a short side (n x 4 x 2; which short
    side is first does not matter to `_faces`)."""
    centre = quads.mean(axis=1, keepdims=True)
    angles = np.arctan2(quads[..., 1] - centre[..., 1], quads[..., 0] - centre[..., 0])
    ordered = np.take_along_axis(quads, np.argsort(angles, axis=1)[..., None], axis=1)
    sides = _sides(ordered)
    long_first = sides[:, 0] + sides[:, 2] > sides[:, 1] + sides[:, 3]
    ordered[long_first] = np.roll(ordered[long_first], -1, axis=1)
    return ordered


_PU, _PV = (g.ravel()[None, :, None] for g in np.meshgrid((np.arange(_PATCH[0], dtype=np.float32) + 0.5) / _PATCH[0],
                                                         (np.arange(_PATCH[1], dtype=np.float32) + 0.5) / _PATCH[1]))


def _faces(quads: np.ndarray, white: np.ndarray, gray: np.ndarray) -> np.ndarray:
    """What each quad's inside looks like as a card's face, from a 16 x 22 portrait patch
    of the whiteness and the gray (sampled between the corners, all quads at once): its
    ink the same turned half round (a card's face is), its gray the same turned and
    mirrored, ink in two opposite corners (the indexes), the rim's whiteness, the spread
    and the paper's whiteness (its 90th percentile)."""
    h, w = white.shape
    q = _portrait(quads)
    a, b, c, d = (q[:, i][:, None, :] for i in range(4))
    points = (1 - _PV) * ((1 - _PU) * a + _PU * b) + _PV * ((1 - _PU) * d + _PU * c)
    pixel = np.minimum(np.maximum(points, 0), np.float32((w - 1, h - 1))).astype(np.int32)
    at = pixel[..., 1] * w + pixel[..., 0]
    shape = (len(q), _PATCH[1], _PATCH[0])
    p = white.ravel()[at].reshape(shape).astype(np.float32)
    g = gray.ravel()[at].reshape(shape).astype(np.float32)
    n = len(q)
    flat = p.reshape(n, -1)
    lit = np.sort(flat, axis=1)[:, int(0.9 * (flat.shape[1] - 1))]
    ink = (p < (lit - 50)[:, None, None]).astype(np.float32)
    ink_turned = 1 - np.abs(ink - ink[:, ::-1, ::-1]).reshape(n, -1).mean(axis=1)

    def alike(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        a = a.reshape(n, -1) - a.reshape(n, -1).mean(axis=1, keepdims=True)
        b = b.reshape(n, -1) - b.reshape(n, -1).mean(axis=1, keepdims=True)
        return (a * b).sum(axis=1) / np.maximum(np.sqrt((a * a).sum(axis=1) * (b * b).sum(axis=1)), 1.0)

    corners = (ink[:, :5, :4].reshape(n, -1).mean(axis=1) + ink[:, -5:, -4:].reshape(n, -1).mean(axis=1)) / 2
    rim = np.concatenate([p[:, 0], p[:, -1], p[:, :, 0], p[:, :, -1]], axis=1).mean(axis=1) / 255.0
    return np.column_stack([ink_turned, alike(g, g[:, ::-1, ::-1]), corners, alike(g, g[:, :, ::-1]), rim,
                            flat.std(axis=1) / 255.0, lit / 255.0])


def added(considered: list[Considered], edges: np.ndarray, white: np.ndarray, kept: int) -> np.ndarray:
    """The share of the 7 x 7 grid on an edge, the ink share of the emptier index corner of
    the face patch, the log of the area over the median of the first `kept` outlines' (itself
    left out; 0 with none), and how many of them (at most 2) of 0.2 to 0.75 of its area have
    their centre inside it: one outline at a time."""
    h, w = white.shape
    rows = []
    for i, c in enumerate(considered):
        quad = np.asarray(c.quad, np.float32).reshape(4, 2)
        a, b, cc, d = (quad[j][None, :] for j in range(4))
        u, v = _U[0], _V[0]
        grid = (1 - v) * ((1 - u) * a + u * b) + v * ((1 - u) * d + u * cc)
        pixel = np.minimum(np.maximum(grid + 0.5, 0), np.float32((w - 1, h - 1))).astype(np.int32)
        edge_grid = sum(int(edges[y, x] > 0) for x, y in pixel.tolist()) / len(pixel)
        q = _portrait(quad[None])[0]
        a, b, cc, d = (q[j][None, :] for j in range(4))
        u, v = _PU[0], _PV[0]
        points = (1 - v) * ((1 - u) * a + u * b) + v * ((1 - u) * d + u * cc)
        pixel = np.minimum(np.maximum(points, 0), np.float32((w - 1, h - 1))).astype(np.int32)
        patch = np.array([white[y, x] for x, y in pixel.tolist()], np.float32).reshape(_PATCH[1], _PATCH[0])
        lit = np.sort(patch.ravel())[int(0.9 * (patch.size - 1))]
        ink = patch < lit - 50
        # float32, as the face's
        corner_min = min(np.float32(ink[:5, :4].sum()) / 20, np.float32(ink[-5:, -4:].sum()) / 20)
        area = max(c.area, 1.0)
        others = [max(k.area, 1.0) for j, k in enumerate(considered[:kept]) if j != i]
        rel = math.log(area / statistics.median(others)) if others else 0.0
        holds = 0
        for k in considered[:kept]:
            ratio = max(k.area, 1.0) / area
            centre = tuple(float(t) for t in np.asarray(k.quad, np.float64).reshape(4, 2).mean(axis=0))
            inside = cv2.pointPolygonTest(quad.reshape(-1, 1, 2), centre, False) >= 0
            holds += 0.2 < ratio < 0.75 and inside
        rows.append((edge_grid, corner_min, rel, min(holds, 2)))
    return np.array(rows, np.float64).reshape(-1, 4)


def features(considered: list[Considered], edges: np.ndarray, white: np.ndarray, gray: np.ndarray,
             min_side: float, min_step: int = 12, paper: int = 200, kept: int = 0) -> np.ndarray:
    """One row of `NAMES` per outline considered (float64): its outline (the share on an
    edge or with its inside `min_step` whiter than its outside 3 pixels either side, each
    alone, the mean step, the worst side's share, the whiteness 6 pixels out), its inside
    on a 7 x 7 grid (paper-white share, mean, ink share and ink in the middle), its shape
    (side ratio against a card's, the worst corner, its area against the smallest card's,
    on the frame's border) and its face (`_faces`). Few numpy calls: their count, not the
    points, is the cost."""
    n = len(considered)
    if not n:
        return np.zeros((0, len(NAMES)))
    h, w = white.shape
    quad = np.array([c.quad for c in considered], np.float32).reshape(n, 4, 2)
    direction = quad[:, _NEXT] - quad
    sides = np.sqrt(np.add.reduce(direction * direction, axis=2))                  # n x 4
    normal = direction[..., ::-1] * _TURN / np.maximum(sides, 1e-6)[..., None]
    centre = np.add.reduce(quad, axis=1)[:, None, :] * 0.25
    normal[np.add.reduce((centre - quad) * normal, axis=2) > 0] *= -1             # outward
    on = quad[:, :, None, :] + _T[0] * direction[:, :, None, :]                     # n x 4 x S x 2
    every = on[None] + _AWAY * normal[None, :, :, None, :]                          # 4 x n x 4 x S x 2
    a, b, c, d = (quad[:, i][:, None, :] for i in range(4))
    grid = (1 - _V) * ((1 - _U) * a + _U * b) + _V * ((1 - _U) * d + _U * c)      # n x 49 x 2
    points = np.concatenate((every.reshape(-1, 2), grid.reshape(-1, 2)))
    pixel = np.minimum(np.maximum(points + 0.5, 0), np.float32((w - 1, h - 1))).astype(np.int32)
    at = pixel[:, 1] * w + pixel[:, 0]
    line = 4 * _SAMPLES
    ring = at[:4 * n * line].reshape(4, n, 4, _SAMPLES)
    edge = edges.ravel()[ring[0]] > 0
    shades = white.ravel()[ring[1:]].astype(np.float32)
    inner, outer, far_out = shades[0], shades[1], shades[2]
    inside = white.ravel()[at[4 * n * line:]].reshape(n, -1).astype(np.float32)   # n x 49
    x, y = on[..., 0], on[..., 1]
    inside_frame = (x >= 0) & (x < w) & (y >= 0) & (y < h)
    per_side_n = np.add.reduce(inside_frame, axis=2)
    counted = np.maximum(np.add.reduce(per_side_n, axis=1), 1)
    difference = inner - outer
    step = difference >= min_step
    good = (edge | step) & inside_frame
    per_side = np.add.reduce(good, axis=2)
    share = np.add.reduce(per_side, axis=1) / counted
    edge_share = np.add.reduce((edge & inside_frame).reshape(n, -1), axis=1) / counted
    step_share = np.add.reduce((step & inside_frame).reshape(n, -1), axis=1) / counted
    step_mean = np.add.reduce((difference * inside_frame).reshape(n, -1), axis=1) / counted / 255.0
    sides_even = (per_side / np.maximum(per_side_n, 1)).min(axis=1)   # a table line along one side
    outside_white = np.add.reduce(far_out.reshape(n, -1), axis=1) / (line * 255.0)
    cells = inside.shape[1]
    paper_share = np.add.reduce(inside >= paper, axis=1) / cells
    lit = np.sort(inside, axis=1)[:, int(0.9 * (cells - 1))]
    ink = inside < (lit - 60)[:, None]
    ink_share = np.add.reduce(ink, axis=1) / cells
    ink_centre = np.add.reduce(ink & _CENTRE, axis=1) / int(_CENTRE.sum())
    pairs = sides[:, :2] + sides[:, 2:]
    unlike = np.abs(np.log(pairs.max(axis=1) / np.maximum(pairs.min(axis=1), 1e-6) / (88 / 63)))
    back = quad[:, _BEFORE] - quad
    cos = np.add.reduce(direction * back, axis=2) / np.maximum(sides * sides[:, _BEFORE], 1e-6)
    skew = np.degrees(np.abs(np.arcsin(np.clip(cos, -1, 1)))).max(axis=1) / 90.0
    areas = np.array([max(c.area, 1.0) for c in considered])
    log_area = np.log(areas / (min_side * min_side))
    border = ((quad[..., 0] < 2) | (quad[..., 1] < 2) | (quad[..., 0] > w - 3) | (quad[..., 1] > h - 3)).any(axis=1)
    return np.column_stack([share, edge_share, step_share, step_mean, paper_share,
                            np.add.reduce(inside, axis=1) / (cells * 255.0), ink_share, outside_white, unlike, skew,
                            log_area, border, sides_even, ink_centre, _faces(quad, white, gray),
                            added(considered, edges, white, kept)]).astype(np.float64)
