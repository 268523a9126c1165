"""Card outlines from straight line segments: a card on white paper, a tray or a light
counter, whose paper is about as bright as what it lies on.

There the whiteness map merges card and background into one region, and the Canny cells
leak through a gap in the card's faint edge. What is left of the card's outline is its
own border line: a thin shadow or a small step in tone along four straight sides. Line
segments (`cv2.createLineSegmentDetector`, which follows a weak but straight gradient
that Canny's thresholds cut into pieces) are paired into corners (two segments meeting
at an end, 55-125 degrees apart), and two opposite corners whose sides run about
parallel make a quadrilateral. One is kept when its outline lies on segments for most
of its length, it passes the finder's shape gates, and its inside looks like a card's
face: a paper-white margin all round, and some ink within.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class QuadSettings:
    lsd_scale: float = 0.5          # `cv2.createLineSegmentDetector`'s scale and refinement
    refine: int = cv2.LSD_REFINE_STD
    min_segment: float = 0.3        # of the smallest card's short side: shorter segments are noise
    corner_angles: tuple[float, float] = (55.0, 125.0)   # two segments making a corner
    corner_gap: float = 0.25        # ... their ends this near the corner (of the segment's length)
    corner_reach: float = 4.0       # ... or this many pixels
    parallel: float = 25.0          # degrees: opposite sides of a quad about parallel
    min_cover: float = 0.7          # share of the outline lying on a segment
    margin: tuple[float, ...] = (0.05, 0.09)   # the card's margin, looked at this share of
                                    # the short side in from each side
    min_margin_paper: float = 0.6   # ... this share of it as white as the card's paper
    min_side_paper: float = 0.3     # ... and this share of each side's
    paper_spread: int = 30          # ... within this of it (the card's paper: its 90th percentile)
    min_paper: int = 150            # the card's paper at least this white (of 255)
    ink: tuple[float, float] = (0.03, 0.8)      # share of the inside darker than paper
    ink_step: int = 60              # ... by this much


def segments(gray: np.ndarray, least: float, settings: QuadSettings) -> np.ndarray:
    """Line segments (x1, y1, x2, y2), float32, at least `least` pixels long."""
    found = cv2.createLineSegmentDetector(settings.refine, settings.lsd_scale).detect(gray)[0]
    if found is None:
        return np.zeros((0, 4), np.float32)
    segs = found.reshape(-1, 4)
    length = np.hypot(segs[:, 2] - segs[:, 0], segs[:, 3] - segs[:, 1])
    return segs[length >= least]


def corners(segs: np.ndarray, settings: QuadSettings) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where two segments meet at an end: the corner points (K x 2) and the unit
    directions of the two sides leaving them (K x 2 each)."""
    a, b = segs[:, :2], segs[:, 2:]
    d = b - a
    length = np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-6)
    u = d / length[:, None]
    reach = np.maximum(settings.corner_gap * length, settings.corner_reach)
    # every pair's cross product at once (row i, column j), the pairs i < j apart enough
    # listed in the order of np.triu_indices
    every = np.multiply.outer(u[:, 0], u[:, 1]) - np.multiply.outer(u[:, 1], u[:, 0])
    low, high = settings.corner_angles
    # A corner lies within reach of an end of each segment, so within half its length and
    # its reach of its middle: pairs whose middles are farther apart than both such
    # distances (with a pixel and a thousandth to spare for rounding) make none, and are
    # left out before the costly per-pair work (the corners found are the same).
    middle = ((a + b) * 0.5).astype(np.float64)
    dx = np.subtract.outer(middle[:, 0], middle[:, 0])
    dy = np.subtract.outer(middle[:, 1], middle[:, 1])
    half = 0.5 * length + reach + 1.0 + 1e-3 * length
    room = np.add.outer(half, half)
    apart = np.abs(every) >= math.sin(math.radians(low))   # 55..125 degrees apart
    pairs = np.flatnonzero(np.triu(apart & (dx * dx + dy * dy <= room * room), 1))
    n = len(segs)
    i, j = pairs // n, pairs % n
    cross = every.ravel()[pairs]
    # the lines' meeting point p = a_i + t u_i = a_j + s u_j
    ux, uy = u[:, 0], u[:, 1]
    rel = a[j] - a[i]
    t = (rel[:, 0] * uy[j] - rel[:, 1] * ux[j]) / cross
    s = (rel[:, 0] * uy[i] - rel[:, 1] * ux[i]) / cross
    reach_i, reach_j, length_i, length_j = reach[i], reach[j], length[i], length[j]
    # near one end of each segment: before its start (leaving along +u) or past its end (-u)
    start_i, end_i = np.abs(t) <= reach_i, np.abs(t - length_i) <= reach_i
    start_j, end_j = np.abs(s) <= reach_j, np.abs(s - length_j) <= reach_j
    keep = (start_i | end_i) & (start_j | end_j)
    i, j, t = i[keep], j[keep], t[keep]
    u_i, u_j = u[i], u[j]
    points = a[i] + t[:, None] * u_i
    first, second = np.where(start_i[keep][:, None], u_i, -u_i), np.where(start_j[keep][:, None], u_j, -u_j)
    return tuple(x.astype(np.float32, copy=False) for x in (points, first, second))


def _meet(p: np.ndarray, r: np.ndarray, q: np.ndarray, s: np.ndarray) -> np.ndarray:
    """Where the lines p + k r and q + m s meet (rows at once; NaN where parallel)."""
    cross = r[:, 0] * s[:, 1] - r[:, 1] * s[:, 0]
    rel = q - p
    with np.errstate(divide="ignore", invalid="ignore"):
        k = (rel[:, 0] * s[:, 1] - rel[:, 1] * s[:, 0]) / cross
    return p + k[:, None] * r


def quads(points: np.ndarray, first: np.ndarray, second: np.ndarray, sizes: tuple[float, float],
          settings: QuadSettings) -> np.ndarray:
    """Quadrilaterals from pairs of opposite corners (Q x 4 x 2): corner B's sides run
    back about parallel to corner A's, and B lies between A's two sides."""
    n = len(points)
    if n < 2:
        return np.zeros((0, 4, 2), np.float32)
    cos_par = math.cos(math.radians(settings.parallel))

    def dots(a: np.ndarray, b: np.ndarray) -> np.ndarray:   # row i, column j: a[i] . b[j]
        return np.multiply.outer(a[:, 0], b[:, 0]) + np.multiply.outer(a[:, 1], b[:, 1])

    # B's sides (either order) about opposite to A's, every pair at once; the pairs i < j
    # that are so listed in the order of np.triu_indices
    straight = (dots(first, first) <= -cos_par) & (dots(second, second) <= -cos_par)
    swapped = (dots(first, second) <= -cos_par) & (dots(second, first) <= -cos_par)
    i, j = np.nonzero(np.triu(straight | swapped, 1))
    straight = straight[i, j]
    bf = np.where(straight[:, None], first[j], second[j])    # B's side opposite A's first
    bs = np.where(straight[:, None], second[j], first[j])
    pa, pb = points[i], points[j]
    # B ahead of A along both of A's sides (inside the corner), and A so for B (x and y apart:
    # the floats of `(rel * first[i]).sum(1)` and the like, without numpy's reduction over rows of two)
    rel = pb - pa
    rx, ry, fa, sa = rel[:, 0], rel[:, 1], first[i], second[i]
    ahead = (rx * fa[:, 0] + ry * fa[:, 1] > 0) & (rx * sa[:, 0] + ry * sa[:, 1] > 0) & \
        (-rx * bf[:, 0] + -ry * bf[:, 1] > 0) & (-rx * bs[:, 0] + -ry * bs[:, 1] > 0)
    pa, pb, fa, sa, bf, bs = pa[ahead], pb[ahead], fa[ahead], sa[ahead], bf[ahead], bs[ahead]
    # A's first side meets B's side opposite A's second: corner after A along `fa`
    c1 = _meet(pa, fa, pb, bs)
    c3 = _meet(pa, sa, pb, bf)
    out = np.stack((pa, c1, pb, c3), axis=1).astype(np.float32)
    good = np.isfinite(out).all(axis=(1, 2))
    out = out[good]
    if not len(out):
        return out
    return _card_sized(out, sizes)


def side_quads(points: np.ndarray, first: np.ndarray, second: np.ndarray, ratio: float,
               sizes: tuple[float, float], settings: QuadSettings) -> np.ndarray:
    """Card outlines from two corners at the ends of one side (Q x 4 x 2): corner B lies
    along one of A's sides and its side runs back to A, their other sides about parallel;
    the card reaches from that side along them as far as a card of side ratio `ratio` does,
    the side taken as its short side and as its long side (two outlines a pair). The top
    card of a fan whose fourth side lies white on white over the card below shows no
    opposite corner, but two corners and the side between them."""
    n = len(points)
    if n < 2:
        return np.zeros((0, 4, 2), np.float32)
    cos_par = math.cos(math.radians(settings.parallel))
    # (products of x and y apart, summed: the floats of a dot product's `.sum(1)`, without
    # numpy's reduction over rows of two)
    i, j = np.triu_indices(n, 1)
    px, py, fx, fy, sx, sy = points[:, 0], points[:, 1], first[:, 0], first[:, 1], second[:, 0], second[:, 1]
    dx, dy = px[j] - px[i], py[j] - py[i]
    length = np.hypot(dx, dy)
    # (first the pairs a card's side apart, then of those the pairs with a side of A pointing
    # at B and one of B back at A: few of them)
    sized = np.flatnonzero((length >= sizes[0]) & (length <= sizes[1]))
    i, j, dx, dy, length = i[sized], j[sized], dx[sized], dy[sized], length[sized]
    with np.errstate(divide="ignore", invalid="ignore"):
        ux, uy = dx / length, dy / length
    a_first, a_second = fx[i] * ux + fy[i] * uy, sx[i] * ux + sy[i] * uy     # A's sides along A->B
    b_first, b_second = fx[j] * ux + fy[j] * uy, sx[j] * ux + sy[j] * uy
    keep = np.flatnonzero((np.maximum(a_first, a_second) >= cos_par) & (np.minimum(b_first, b_second) <= -cos_par))
    i, j, length = i[keep], j[keep], length[keep]
    a_first, a_second, b_first, b_second = a_first[keep], a_second[keep], b_first[keep], b_second[keep]
    out = []
    for along_a, bi in ((a_first, second), (a_second, first)):
        for along_b, ej in ((b_first, second), (b_second, first)):
            # A's side along A->B, B's back along B->A, their other sides about parallel
            ok = (along_a >= cos_par) & (-along_b >= cos_par) & \
                (bi[i, 0] * ej[j, 0] + bi[i, 1] * ej[j, 1] >= cos_par)
            if not ok.any():
                continue
            v = bi[i[ok]] + ej[j[ok]]
            v /= np.maximum(np.hypot(v[:, 0], v[:, 1]), 1e-6)[:, None]
            pa, pb, side = points[i[ok]], points[j[ok]], length[ok][:, None]
            for depth in (side / ratio, side * ratio):
                out.append(np.stack((pa, pb, pb + depth * v, pa + depth * v), axis=1))
    if not out:
        return np.zeros((0, 4, 2), np.float32)
    found = np.concatenate(out).astype(np.float32)
    return _card_sized(found, sizes)


_NEXT = [1, 2, 3, 0]


def segment_mask(shape: tuple[int, int], segs: np.ndarray) -> np.ndarray:
    """The segments drawn 3 pixels wide (uint8 0/255)."""
    mask = np.zeros(shape, np.uint8)
    if len(segs):   # (each an open two-point polyline: drawn as `cv2.line` draws it, in one call)
        cv2.polylines(mask, list(np.round(segs).astype(np.int32).reshape(-1, 2, 2)), False, 255, 3)
    return mask


def _margin_points(quad: np.ndarray, insets: tuple[float, ...]) -> np.ndarray:
    """Points just inside each side (4 x samples x 2): 16 along each, at each inset (a
    share of the quad's short side) in from it."""
    centre = quad.mean(axis=0)
    direction = np.roll(quad, -1, axis=0) - quad
    normal = direction[:, ::-1] * np.float32((1, -1))
    normal /= np.maximum(np.linalg.norm(normal, axis=1, keepdims=True), 1e-6)
    outward = ((centre - quad) * normal).sum(axis=1) < 0
    normal[outward] *= -1                      # every normal inward
    sides = np.linalg.norm(direction, axis=1)
    short = min(sides[0] + sides[2], sides[1] + sides[3]) / 2
    t = np.linspace(0.15, 0.85, 16, dtype=np.float32)[None, :, None]
    along = quad[:, None, :] + t * direction[:, None, :]
    return np.concatenate([along + inset * short * normal[:, None, :] for inset in insets], axis=1)


def card_face(quad: np.ndarray, white: np.ndarray, settings: QuadSettings) -> bool:
    """Whether the quad's inside looks like a card's face: along each of its four sides
    a margin as white as its own paper (a court card's printed frame, a neighbour's edge
    or a line across the table leaves one side without), and some ink within."""
    x, y, w, h = cv2.boundingRect(np.round(quad).astype(np.int32))
    x0, y0 = max(x - 1, 0), max(y - 1, 0)
    roi = white[y0:y + h + 1, x0:x + w + 1]
    local = quad - np.float32((x0, y0))
    inside = np.zeros(roi.shape, np.uint8)
    cv2.fillConvexPoly(inside, np.round(local).astype(np.int32), 255)
    values = roi[inside > 0]
    if values.size < 16:
        return False
    k = int(0.9 * (values.size - 1))
    paper = float(np.partition(values, k)[k])
    if paper < settings.min_paper:
        return False
    points = _margin_points(local, settings.margin)
    xs = np.clip(points[..., 0] + 0.5, 0, roi.shape[1] - 1).astype(np.int32)
    ys = np.clip(points[..., 1] + 0.5, 0, roi.shape[0] - 1).astype(np.int32)
    papery = (roi[ys, xs] >= paper - settings.paper_spread).mean(axis=1)
    if papery.mean() < settings.min_margin_paper or papery.min() < settings.min_side_paper:
        return False
    share = np.count_nonzero(values < paper - settings.ink_step) / values.size
    return settings.ink[0] <= share <= settings.ink[1]


_T = np.linspace(0.06, 0.94, 16, dtype=np.float32)


def covers(found: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Share of each quad's outline (16 points a side) lying on the mask, at once."""
    if not len(found):
        return np.zeros(0)
    h, w = mask.shape
    start = found[:, :, None, :]
    step = (np.roll(found, -1, axis=1) - found)[:, :, None, :]
    points = (start + _T[None, None, :, None] * step).reshape(len(found), -1, 2)
    x = np.clip(points[..., 0] + 0.5, 0, w - 1).astype(np.int32)
    y = np.clip(points[..., 1] + 0.5, 0, h - 1).astype(np.int32)
    inside = (points[..., 0] >= 0) & (points[..., 0] < w) & (points[..., 1] >= 0) & (points[..., 1] < h)
    return ((mask[y, x] > 0) & inside).mean(axis=1)


def find(gray: np.ndarray, white: np.ndarray, box: tuple[int, int, int, int], sizes: tuple[float, float],
         wanted, settings: QuadSettings = QuadSettings()) -> list[tuple[float, float, np.ndarray]]:
    """Card outlines from line segments inside `box` (x, y, w, h) of the picture:
    (cover, area, quad) in the picture's pixels, best covered first. `sizes`: the
    smallest short side and the largest long side of a card; `wanted(quad, kept)`: the
    finder's gates, given the outlines kept so far (the face is looked at only after)."""
    x, y, w, h = box
    roi = gray[y:y + h, x:x + w]
    segs = segments(roi, settings.min_segment * sizes[0], settings)
    if len(segs) < 4:
        return []
    found = quads(*corners(segs, settings), sizes, settings)
    if not len(found):
        return []
    cover = covers(found, segment_mask(roi.shape, segs))
    order = np.argsort(-cover, kind="stable")
    out: list[tuple[float, float, np.ndarray]] = []
    offset = np.float32((x, y))
    for k in order[cover[order] >= settings.min_cover].tolist():
        quad = found[k] + offset
        if wanted(quad, out) and card_face(quad, white, settings):
            out.append((float(cover[k]), float(cv2.contourArea(quad)), quad))
    return out


def _card_sized(quads: np.ndarray, sizes: tuple[float, float]) -> np.ndarray:
    """The quads (N x 4 x 2) whose mean short side is `sizes[0]` or more and mean long side
    `sizes[1]` or less."""
    step = quads[:, _NEXT] - quads
    sides = np.sqrt(step[:, :, 0] * step[:, :, 0] + step[:, :, 1] * step[:, :, 1])   # (np.linalg.norm's floats)
    short = np.minimum(sides[:, 0] + sides[:, 2], sides[:, 1] + sides[:, 3]) / 2
    long = np.maximum(sides[:, 0] + sides[:, 2], sides[:, 1] + sides[:, 3]) / 2
    small, large = sizes
    return quads[(short >= small) & (long <= large)]
