"""The outline check along a quad's sides, and the other looks along or inside an outline
the real-table finder (`vision.realfind`) judges by:

* `outline_share(s)`: the share of the outline that is followed by an edge or has its
  inside brighter than its outside (at least 75 % for an outline kept: this roughly
  halves false outlines, an envelope's or a book's outline passes the gates but not, all
  round, this check; a card running off the frame has its three sides inside the frame
  checked, 85 %), or with a full-bleed face's colour step, differs in one stretched
  channel;
* `paper_share`: the share of its inside that is paper-white;
* `framed_round`: how much of the outside of each side is a printed white frame (a
  colour field in its frame, cut by the frame's border);
* `near_band`: the band along the sides where a refit looks for edge points
  (`vision.sidefit`).

Each takes the frame's maps (`vision.realmaps`) and a quad; none judges: the thresholds
are `RealSettings`' and the verdict `vision.regionjudge`'s.
"""
from __future__ import annotations

import math

import cv2
import numpy as np


_SAMPLES = 16
_T = np.linspace(0.06, 0.94, _SAMPLES, dtype=np.float32)[None, :, None]
_NEXT = [1, 2, 3, 0]
_AWAY = np.float32((0, -3, 3))[:, None, None, None]   # on the outline, 3 px inside, outside
_TURN = np.float32((1, -1))
_T_ROW = _T.reshape(-1)                             # (the same float32 values, as rows)
_AWAY_ROW = _AWAY.reshape(-1, 1, 1, 1)


def outline_share(quad: np.ndarray, edges: np.ndarray, white: np.ndarray, min_step: int,
                  skip_side: int = -1, channels: list[np.ndarray] | None = None,
                  colour_step: int = 0) -> float:
    """Share of the quad's outline (inside the frame; side `skip_side` left out) that lies
    on an edge or has its inside at least `min_step` whiter than its outside, 3 pixels
    either side; or, with `channels` (stretched B, G, R) and a `colour_step`, inside and
    outside at least that apart in one of them."""
    return outline_shares([quad], [skip_side], edges, white, min_step, channels, colour_step)[0]


def outline_shares(quads: list[np.ndarray], skip_sides: list[int], edges: np.ndarray, white: np.ndarray,
                   min_step: int, channels: list[np.ndarray] | None = None,
                   colour_step: int = 0) -> list[float]:
    """`outline_share` of each quad (with its own side left out), all at once: the points of
    every outline are placed and looked up together, in as few numpy calls as give the same
    numbers (numpy's cost per call, not the points, is what a frame's outline checks cost)."""
    if not quads:
        return []
    h, w = edges.shape
    quad = np.array(quads, np.float32).reshape(-1, 4, 2)
    direction = quad[:, _NEXT] - quad
    normal = direction[..., ::-1] * _TURN
    normal /= np.maximum(np.sqrt((normal * normal).sum(axis=2, keepdims=True)), 1e-6)
    centre = np.add.reduce(quad, axis=1)[:, None, :] * 0.25
    flip = ((centre - quad) * normal).sum(axis=2) > 0   # every normal outward
    normal[flip] *= -1
    # x and y apart (quads x 4 sides x samples; on, inside, outside before them): the plain
    # version's float32 steps element by element (tests/realfind_reference.outline_shares),
    # where a 2-vector's broadcast ran numpy's inner loop once a point
    xs, ys = [quad[:, :, c, None] + _T_ROW * direction[:, :, c, None] for c in (0, 1)]
    every_x = xs + _AWAY_ROW * normal[None, :, :, 0, None]
    every_y = ys + _AWAY_ROW * normal[None, :, :, 1, None]
    on_x, on_y = every_x[0].reshape(len(quad), -1), every_y[0].reshape(len(quad), -1)
    inside_frame = (on_x >= 0) & (on_x < w) & (on_y >= 0) & (on_y < h)
    for k, side in enumerate(skip_sides):
        if side >= 0:
            inside_frame[k, side * _SAMPLES:(side + 1) * _SAMPLES] = False
    pixel_x = np.minimum(np.maximum(every_x + 0.5, 0), np.float32(w - 1)).astype(np.int32)
    pixel_y = np.minimum(np.maximum(every_y + 0.5, 0), np.float32(h - 1)).astype(np.int32)
    at = (pixel_y * w + pixel_x).reshape(3, len(quad), -1)
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


def paper_share(quad: np.ndarray, white: np.ndarray, paper: int) -> float:
    """Share of the quad's inside at least `paper` white (a card's stock is the whitest
    thing on most tables; a patch of wood grain or a shadow's edge is not)."""
    x, y, w, h = cv2.boundingRect(np.round(quad).astype(np.int32))
    x, y = max(x, 0), max(y, 0)   # (a framed field's corner may lie past the frame's border)
    roi = white[y:y + h, x:x + w]
    if roi.size == 0:
        return 0.0
    mask = np.zeros(roi.shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round(quad - (x, y)).astype(np.int32), 255)
    inside = cv2.countNonZero(mask)
    return cv2.countNonZero(cv2.bitwise_and(mask, cv2.compare(roi, paper, cv2.CMP_GE))) / max(inside, 1)


FRAME_WHITE = 150                          # `framed_round`: a printed frame's whiteness (of 255;
                                           # `vision.fieldfind.FieldSettings.frame_white`)
_ROUND = np.linspace(0.1, 0.9, 15, dtype=np.float32)[:, None]


def framed_round(quad: np.ndarray, white: np.ndarray, skip_side: int) -> float:
    """The least share, over the quad's sides (side `skip_side`, the frame's border, left
    out), of points along it whose whiteness 1.5 or 3 pixels outside is at least
    FRAME_WHITE (points past the frame's border not counted): 1.0 for a colour field
    outlined inside its white frame all round, low for a patch of table cut by the border."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    h, w = white.shape
    centre = q.mean(axis=0)
    least = 1.0
    for i in range(4):
        if i == skip_side:
            continue
        a, b = q[i], q[(i + 1) % 4]
        u = (b - a) / max(float(np.hypot(*(b - a))), 1e-6)
        normal = np.float32((u[1], -u[0]))
        if float(np.dot(centre - a, normal)) > 0:
            normal = -normal                 # outward
        along = a + _ROUND * (b - a)
        seen = np.zeros(len(along), bool)
        lit = np.zeros(len(along), bool)
        for away in (1.5, 3.0):
            p = along + away * normal
            inside = (p[:, 0] >= 0) & (p[:, 0] <= w - 1) & (p[:, 1] >= 0) & (p[:, 1] <= h - 1)
            xs = np.clip(np.rint(p[:, 0]), 0, w - 1).astype(np.intp)
            ys = np.clip(np.rint(p[:, 1]), 0, h - 1).astype(np.intp)
            seen |= inside
            lit |= inside & (white[ys, xs] >= FRAME_WHITE)
        if seen.any():
            least = min(least, float(lit[seen].mean()))
    return least


def near_band(shape: tuple[int, ...], quad: np.ndarray, reach: float) -> np.ndarray:
    """A mask (uint8 0/255) holding every pixel within `reach` of the quad's sides, and a
    few more: a band wider than the reach, so that the points a side then picks and
    their order are the same as from the whole picture."""
    band = np.zeros(shape[:2], np.uint8)
    cv2.polylines(band, [np.round(quad).astype(np.int32)], True, 255, thickness=2 * int(math.ceil(reach)) + 5)
    return band
