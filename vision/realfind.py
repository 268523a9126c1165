"""Card outlines on real tables: what a photograph's light, shadows and clutter leave of a
card's edge, found from several views of the picture and each checked along its length.

Real outlines are rarely clean: a card merges with white paper or a bright table, a
shadow or a finger cuts across it, the light falls off across the picture. So no single
map is trusted:

* a whiteness map, the smallest of B, G and R after each channel is stretched to its
  own range (card stock is the whitest thing on most tables; a warm lamp or a blue
  daylight cast moves every channel, not the order), cut at several fixed levels and
  against the local mean (light that falls off across the picture);
* the cells between Canny edges, and the outer boundary of each group of edges (a card
  on a table as bright as itself still has an edge, or its shadow);
* each region's convex hull fitted with four corners, kept under wide geometric gates
  (oblique views are common: side ratio 1.0-2.3, corners 45-135 degrees, opposite sides
  of similar length);
* an outline check: for at least 75 % of its length the outline must be followed by an
  edge or have its inside brighter than its outside (this roughly halves false outlines:
  an envelope's or a book's outline passes the gates but not, all round, this check);
* non-maximum suppression of the same card found from several maps.

It all runs on a copy of the frame scaled to `long_side` pixels (320: a card a ninth of
a 640-pixel frame is still 25 pixels wide there) and costs a few milliseconds.
`vision.detect` merges these outlines with its own (exact ones on the simulated table).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.warp import order_corners, quad_overlap


@dataclass(frozen=True)
class RealSettings:
    long_side: int = 320                  # pixels of the copy the search runs on
    levels: tuple[float, ...] = (0.45, 0.6, 0.75, 0.88)   # whiteness cuts (of 255)
    local_offsets: tuple[int, ...] = (15, 30, 50)          # above the local mean
    local_block: float = 0.4              # local mean window, share of the short side
    min_short_side: float = 20.0          # pixels at long_side (40 in a 640-pixel frame)
    side_ratio: tuple[float, float] = (1.0, 2.3)
    corner_angles: tuple[float, float] = (45.0, 135.0)
    max_opposite_ratio: float = 9.0       # longer / shorter of two opposite sides
    min_hull_fill: float = 0.85           # fitted quad area / hull area
    min_region_fill: float = 0.2          # region area / hull area
    min_outline: float = 0.75             # share of the outline with an edge or a step
    min_step: int = 12                    # whiteness inside minus outside that counts
    max_area_fraction: float = 0.5
    overlap: float = 0.3                  # duplicates: overlap (of the smaller) above this
    min_relative_area: float = 0.2        # of the largest outline kept: smaller ones are dropped
    field_saturation: int = 110           # a saturated colour field (HSV saturation above this)
    field_frames: tuple[float, ...] = (0.04, 0.07, 0.10, 0.13)  # white frames tried around it,
                                          # as a share of the field's short side


def whiteness(image: np.ndarray) -> np.ndarray:
    """Per pixel, the smallest of B, G, R after each channel is stretched from its 1st
    to its 99.5th percentile to 0..255 (uint8)."""
    out = None
    sample = np.ascontiguousarray(image[::3, ::3])
    levels = np.arange(256, dtype=np.float32)
    for c, channel in enumerate(cv2.split(image)):
        cumulative = np.cumsum(cv2.calcHist([sample], [c], None, [256], [0, 256]).ravel())
        lo, hi = np.searchsorted(cumulative, (0.01 * cumulative[-1], 0.995 * cumulative[-1]))
        lut = np.clip((levels - lo) * (255.0 / max(float(hi - lo), 1.0)), 0, 255)
        stretched = cv2.LUT(channel, lut.astype(np.uint8))
        out = stretched if out is None else cv2.min(out, stretched)
    return out


def _regions(white: np.ndarray, edges: np.ndarray, settings: RealSettings) -> list[np.ndarray]:
    h, w = white.shape
    contours: list[np.ndarray] = []
    small = np.ones((3, 3), np.uint8)
    for level in settings.levels:
        _, mask = cv2.threshold(white, int(level * 255), 255, cv2.THRESH_BINARY)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, small)
        contours += cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
    block = int(min(h, w) * settings.local_block) | 1
    for offset in settings.local_offsets:
        mask = cv2.adaptiveThreshold(white, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY,
                                     block, -offset)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, small)
        contours += cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
    cells, hierarchy = cv2.findContours(cv2.bitwise_not(edges), cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is not None:
        contours += [c for c, link in zip(cells, hierarchy[0]) if link[3] == -1]
    contours += cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
    return contours


def _fields(smooth: np.ndarray, settings: RealSettings) -> list[np.ndarray]:
    """Regions of saturated colour: the printed field of a deck whose face is one colour
    inside a white frame (the UNO family), which whiteness cannot see."""
    hsv = cv2.cvtColor(smooth, cv2.COLOR_BGR2HSV)
    _, saturated = cv2.threshold(hsv[:, :, 1], settings.field_saturation, 255, cv2.THRESH_BINARY)
    _, lit = cv2.threshold(hsv[:, :, 2], 60, 255, cv2.THRESH_BINARY)
    mask = cv2.morphologyEx(cv2.bitwise_and(saturated, lit), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return list(cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0])


def _moved_out(quad: np.ndarray, distance: float) -> np.ndarray:
    """The quad with every side moved `distance` pixels outward."""
    centre = quad.mean(axis=0)
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        u = (b - a) / max(float(np.linalg.norm(b - a)), 1e-6)
        normal = np.array([u[1], -u[0]], np.float32)
        if float((centre - a) @ normal) > 0:
            normal = -normal
        lines.append((a + normal * distance, u))
    corners = []
    for i in range(4):
        (p, r), (q, t) = lines[i - 1], lines[i]
        cross = r[0] * t[1] - r[1] * t[0]
        if abs(cross) < 1e-6:
            return quad
        k = ((q[0] - p[0]) * t[1] - (q[1] - p[1]) * t[0]) / cross
        corners.append(p + k * r)
    return np.array(corners, np.float32)


def _framed(field: np.ndarray, edges: np.ndarray, white: np.ndarray, settings: RealSettings) -> np.ndarray:
    """A colour field grown to the card's edge: of the frame widths tried, the one whose
    outline is best followed by an edge or a step (the field itself when none is)."""
    short = min(float(np.linalg.norm(field[1] - field[0])), float(np.linalg.norm(field[2] - field[1])))
    best, best_share = field, settings.min_outline
    for frame in settings.field_frames:
        grown = _moved_out(field, frame * short)
        share = outline_share(grown, edges, white, settings.min_step)
        if share >= best_share:
            best, best_share = grown, share
    return best


def _four_corners(hull: np.ndarray) -> np.ndarray | None:
    perimeter = cv2.arcLength(hull, True)
    for eps in (0.02, 0.03, 0.045, 0.06, 0.08):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(approx) == 4:
            return approx.reshape(4, 2).astype(np.float32)
        if len(approx) < 4:
            return None
    return None


def _shape_ok(quad: np.ndarray, settings: RealSettings, size: tuple[int, int]) -> bool:
    """The wide gates: side ratio, corner angles, opposite sides, not cut by the frame.
    (Plain floats: four points are quicker without numpy.)"""
    pts = [(float(x), float(y)) for x, y in quad]
    vectors = [(pts[(i + 1) % 4][0] - pts[i][0], pts[(i + 1) % 4][1] - pts[i][1]) for i in range(4)]
    sides = [math.hypot(dx, dy) for dx, dy in vectors]
    if min(sides) < 1:
        return False
    a, b = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    short, long = min(a, b), max(a, b)
    if short < settings.min_short_side or not settings.side_ratio[0] <= long / short <= settings.side_ratio[1]:
        return False
    most = settings.max_opposite_ratio
    if max(sides[0], sides[2]) > most * min(sides[0], sides[2]) or \
            max(sides[1], sides[3]) > most * min(sides[1], sides[3]):
        return False
    low, high = (math.cos(math.radians(v)) for v in settings.corner_angles)
    for i in range(4):  # the angle at corner i, between the side coming in and going out
        (ax, ay), (bx, by) = vectors[i - 1], vectors[i]
        cos = -(ax * bx + ay * by) / (sides[i - 1] * sides[i])
        if not high <= cos <= low:
            return False
    w, h = size
    for px, py in pts:  # a corner on the frame's border: a card cut off (or a pattern's cell)
        if px < 2 or py < 2 or px > w - 3 or py > h - 3:
            return False
    return True


def outline_share(quad: np.ndarray, edges: np.ndarray, white: np.ndarray, min_step: int,
                  samples: int = 16) -> float:
    """Share of the quad's outline (inside the frame) that lies on an edge or has its
    inside at least `min_step` whiter than its outside, 3 pixels either side."""
    h, w = edges.shape
    t = np.linspace(0.06, 0.94, samples, dtype=np.float32)[None, :, None]
    a = quad[:, None, :]
    b = np.roll(quad, -1, axis=0)[:, None, :]
    points = (a + t * (b - a)).reshape(-1, 2)
    direction = (b - a)[:, 0, :]
    normal = np.stack([direction[:, 1], -direction[:, 0]], axis=1)
    normal /= np.maximum(np.linalg.norm(normal, axis=1, keepdims=True), 1e-6)
    centre = quad.mean(axis=0)
    flip = ((centre - quad) * normal).sum(axis=1) > 0   # make every normal point outward
    normal[flip] *= -1
    normal = np.repeat(normal, samples, axis=0)
    inside_frame = (points[:, 0] >= 0) & (points[:, 0] < w) & (points[:, 1] >= 0) & (points[:, 1] < h)

    def at(pts: np.ndarray, image: np.ndarray) -> np.ndarray:
        xs = np.clip(pts[:, 0] + 0.5, 0, w - 1).astype(np.int32)
        ys = np.clip(pts[:, 1] + 0.5, 0, h - 1).astype(np.int32)
        return image[ys, xs]

    on_edge = at(points, edges) > 0
    step = at(points - 3 * normal, white).astype(np.int16) - at(points + 3 * normal, white).astype(np.int16)
    good = (on_edge | (step >= min_step)) & inside_frame
    return float(np.count_nonzero(good)) / max(int(np.count_nonzero(inside_frame)), 1)


def find_outlines(frame: np.ndarray, settings: RealSettings = RealSettings()) -> list[np.ndarray]:
    """Card outlines (TL, TR, BR, BL, float32, in `frame`'s pixels), most certain first."""
    h, w = frame.shape[:2]
    scale = min(1.0, settings.long_side / max(h, w))
    # area averaging is cheap for whole ratios only; a little aliasing does not matter here
    how = cv2.INTER_AREA if scale <= 0.5 else cv2.INTER_LINEAR
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    small = cv2.resize(frame, size, interpolation=how) if scale < 1 else frame
    if small.ndim == 2:
        small = cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)
    sh, sw = small.shape[:2]
    smooth = cv2.GaussianBlur(small, (3, 3), 0)
    gray = cv2.cvtColor(smooth, cv2.COLOR_BGR2GRAY)
    white = whiteness(smooth)
    edges = cv2.dilate(cv2.Canny(gray, 30, 90, L2gradient=True), np.ones((3, 3), np.uint8))
    min_area = settings.min_short_side ** 2
    max_area = settings.max_area_fraction * sh * sw
    seen: set[tuple[int, ...]] = set()
    candidates: list[tuple[float, float, np.ndarray]] = []
    regions = [(c, False) for c in _regions(white, edges, settings)] + \
        [(c, True) for c in _fields(smooth, settings)]
    for contour, field in regions:
        if len(contour) < 4:  # specks (a card's outline has at least its four corners)
            continue
        area = cv2.contourArea(contour)
        if not min_area <= area <= max_area:
            continue
        hull = cv2.convexHull(contour)
        hull_area = cv2.contourArea(hull)
        if area < settings.min_region_fill * hull_area:
            continue
        quad = _four_corners(hull)
        if quad is None:
            continue
        key = tuple((quad.ravel() / 3).astype(int).tolist())  # the same outline from another map
        if key in seen:
            continue
        seen.add(key)
        quad_area = cv2.contourArea(quad)
        if quad_area < settings.min_hull_fill * hull_area or not _shape_ok(quad, settings, (sw, sh)):
            continue
        if field:
            quad = _framed(quad, edges, white, settings)
            quad_area = cv2.contourArea(quad)
            if not _shape_ok(quad, settings, (sw, sh)):  # grown past the frame's border
                continue
        share = outline_share(quad, edges, white, settings.min_step)
        if share >= settings.min_outline:
            candidates.append((share, quad_area, quad))
    candidates.sort(key=lambda c: (-round(c[0], 1), -c[1]))
    kept: list[np.ndarray] = []
    for _, _, quad in candidates:
        if all(quad_overlap(quad, other) < settings.overlap for other in kept):
            kept.append(quad)
    if kept and settings.min_relative_area > 0:
        areas = [cv2.contourArea(q) for q in kept]
        kept = [q for q, a in zip(kept, areas) if a >= settings.min_relative_area * max(areas)]
    return [order_corners(q / scale) for q in kept]
