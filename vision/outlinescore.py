"""A learned last say over the outlines the real-table finder kept and refused.

`vision.realfind`'s gates were tuned by hand, pass after pass, on the real photos'
train_ split, and generalise badly to photos they were not tuned on. With
`RealSettings.learned` every outline the finder kept, and every one it refused (outside
the shape gates, failing the outline check or the paper test in the verdict, or dropped
for a neighbour) that is of a card's size and not the card of one kept, is described by
a few cheap features from the finder's own maps (`features`: the share of its outline on
an edge or a whiteness step, its paper and ink, its side ratio and corners, its size, its
face turned half round; and against the finder's own outlines of the frame, its size and
the cards it holds), and a small model (a logistic model, boosted trees of depth 2, or the
mean of both) gives each the chance that it is a card's outline. The surest are taken,
none overlapping one taken before (`accepted`: by their quads, so the strip of a card
under another, which shares a side with it, is kept when sure enough).
The model was trained offline on train_ photos only (`bench/outline_scorer.py`, which says
how, chose the model, its weight decay and threshold by cross-validation with the photo as
the fold unit) and is stored as constants in `vision/outlinescore.json`; nothing is trained at run
time. Figures: docs/vision-history.md, "Finding cards in real photographs".
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

MODEL = Path(__file__).with_name("outlinescore.json")

NAMES = ("share", "edge_share", "step_share", "step_mean", "paper", "inside_white", "ink",
         "outside_white", "unlike", "skew", "log_area", "border", "sides_even", "ink_centre",
         "ink_turned", "gray_turned", "ink_corners", "gray_mirrored", "rim_white", "spread", "lit",
         "edge_grid", "corner_min", "rel_kept", "holds_kept")
BORDER = NAMES.index("border")   # the column of `features` saying an outline is on the frame's border


@dataclass(frozen=True)
class Considered:
    """An outline the finder kept or refused, at the finder's working copy's scale."""
    quad: np.ndarray      # 4 x 2 float32
    area: float
    printed: bool = False   # a card's print inside a merged cell (`regionjudge.print_outlines`)
    cut: bool = False       # a region cut along an occluder's edge (`vision.occludercuts`)


@dataclass(frozen=True)
class Trace:
    """What one call of `vision.realfind.find_outlines` looked at (its `trace`): the
    outlines kept and those refused, the maps, at the working copy's scale."""
    kept: list[np.ndarray]
    considered: list[Considered]
    edges: np.ndarray
    white: np.ndarray
    gray: np.ndarray
    scale: float            # the working copy's pixels per frame pixel
    sizes: tuple[float, float]   # least and most area of a card there


_TREE_OFFSETS = np.arange(0, 4 * 1000, 4, dtype=np.intp)   # each tree's first leaf in the leaves laid flat


@dataclass(frozen=True)
class Trees:
    """Boosted trees of depth 2 (`bench/outline_scorer.py`'s `fit_trees`): per tree the
    columns (of the model's features) its root and its left and right child look at, their
    thresholds (above goes right) and its four leaves, added to `base`."""
    base: float
    columns: np.ndarray      # trees x 3, indexes into `NAMES`
    thresholds: np.ndarray   # trees x 3
    leaves: np.ndarray       # trees x 4

    def scores(self, features: np.ndarray) -> np.ndarray:
        """Each row's score (its log-odds): `base` plus the leaf each tree sends it to."""
        above = (features[:, self.columns] > self.thresholds).view(np.int8)   # n x trees x 3
        root, left, right = above[:, :, 0], above[:, :, 1], above[:, :, 2]
        # 0, 1 (the left child's) or 2, 3 (the right child's), past the tree's first leaf
        leaf = root * (right - left + 2) + (left + _TREE_OFFSETS[:len(self.leaves)])
        return self.base + np.add.reduce(self.leaves.ravel()[leaf], axis=1)


@dataclass(frozen=True)
class Model:
    """A logistic model over `names` (of `NAMES`, standardised by `mean` and `scale`), or
    boosted trees over them, or the mean of both chances (`blend`: the trees' share), and
    the chance from which an outline is taken as a card."""
    names: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    bias: float
    threshold: float
    columns: tuple[int, ...]   # the features of `NAMES` it weighs, in order
    overlap: float = 0.3       # an outline overlapping one taken by this much (of the smaller) is not taken
    by_quad: bool = False      # overlap of the quads themselves, not of their boxes
    beside: float = 0.0        # with by_quad, the chance an outline needs whose box (not quad) overlaps
    trees: Trees | None = None
    blend: float = 0.0         # the trees' share of the chance (1: the trees alone)
    held: float = 0.0          # an outline holding one this sure is not taken (`accepted`; 0: off)
    apart: float = 0.0         # an outline lying apart this much larger (log area) than surer cards is not (0: off)

    def chances(self, features: np.ndarray) -> np.ndarray:
        """Each row's chance of being a card's outline (`features`' rows: `NAMES`)."""
        if not len(features):
            return np.zeros(0)
        chance = 0.0
        if self.blend < 1:
            z = ((features[:, self.columns] - self.mean) / self.scale) @ self.weights + self.bias
            chance = (1.0 - self.blend) / (1.0 + np.exp(-z))
        if self.trees is not None and self.blend > 0:
            chance = chance + self.blend / (1.0 + np.exp(-self.trees.scores(features)))
        return chance


@lru_cache(maxsize=2)
def load(path: str | None = None) -> Model:
    """The model stored at `path` (`MODEL`: the one shipped), read once (its arrays
    read-only: every finder shares them)."""
    data = json.loads(Path(path or MODEL).read_text(encoding="utf-8"))
    unknown = [n for n in data["names"] if n not in NAMES]
    if unknown:
        raise ValueError(f"{path or MODEL}: features {unknown} are not this code's")
    mean, scale, weights = (np.array(data[k], np.float64) for k in ("mean", "scale", "weights"))
    columns = tuple(NAMES.index(n) for n in data["names"])
    trees = None
    if "trees" in data:   # their columns index the model's names
        t = data["trees"]
        trees = Trees(float(t["base"]), np.array(columns, np.intp)[np.array(t["columns"], np.intp).reshape(-1, 3)],
                      np.array(t["thresholds"], np.float64).reshape(-1, 3),
                      np.array(t["leaves"], np.float64).reshape(-1, 4))
    for array in (mean, scale, weights) + ((trees.columns, trees.thresholds, trees.leaves) if trees else ()):
        array.setflags(write=False)
    return Model(tuple(data["names"]), mean, scale, weights, float(data["bias"]), float(data["threshold"]),
                 columns, float(data.get("overlap", 0.3)),
                 data.get("overlap_of", "box") == "quad", float(data.get("beside", 0.0)),
                 trees, float(data.get("blend", 0.0)), float(data.get("held", 0.0)),
                 float(data.get("apart", 0.0)))


_SAMPLES = 12
# Every sample point is laid out coordinate axis before the points (x and y each a run of
# points), so each elementwise call runs over the points, not over pairs: the same float32
# operations on the same values as one point at a time, far fewer instructions.
_T = np.linspace(0.08, 0.92, _SAMPLES, dtype=np.float32)
_AWAY = np.float32((0, -3, 3, 6))[None, :, None, None, None]   # on the outline, inside, outside, further out
_GRID = np.linspace(0.12, 0.88, 7, dtype=np.float32)
_U, _V = (g.ravel() for g in np.meshgrid(_GRID, _GRID))
_CENTRE = (np.abs(_U - 0.5) < 0.3) & (np.abs(_V - 0.5) < 0.3)
_CELLS_OF = np.array((_U.size, _U.size, int(_CENTRE.sum())))[:, None]   # paper, ink, ink in the middle
_NEXT, _BEFORE = np.array((1, 2, 3, 0)), np.array((3, 0, 1, 2))
_TURN = np.float32((1, -1))
_ORDER = np.array(((0, 1, 2, 3), (1, 2, 3, 0)))   # corners kept in order, or turned by one


def _sides(quad: np.ndarray) -> np.ndarray:
    v = quad[:, _NEXT] - quad
    return np.sqrt(np.add.reduce(v * v, axis=2))


_PATCH = (16, 22)   # (w, h) of the portrait patch the face is looked at in


def _portrait(quads: np.ndarray) -> np.ndarray:
    """Each quad's corners clockwise from one end of a short side (n x 4 x 2; which short
    side is first does not matter to `_faces`)."""
    centre = np.add.reduce(quads, axis=1, keepdims=True) / 4
    angles = np.arctan2(quads[..., 1] - centre[..., 1], quads[..., 0] - centre[..., 0])
    rows = np.arange(len(quads))[:, None]
    ordered = quads[rows, np.argsort(angles, axis=1)]
    sides = _sides(ordered)
    long_first = sides[:, 0] + sides[:, 2] > sides[:, 1] + sides[:, 3]
    return ordered[rows, _ORDER[long_first.astype(np.intp)]]


_PU, _PV = (g.ravel() for g in np.meshgrid((np.arange(_PATCH[0], dtype=np.float32) + 0.5) / _PATCH[0],
                                           (np.arange(_PATCH[1], dtype=np.float32) + 0.5) / _PATCH[1]))


_U1, _V1, _PU1, _PV1 = 1 - _U, 1 - _V, 1 - _PU, 1 - _PV


def _between(q: np.ndarray, u: np.ndarray, v: np.ndarray, u1: np.ndarray, v1: np.ndarray) -> np.ndarray:
    """The points at (`u`, `v`) between the corners of quads `q` (2 x n x 4: x and y apart;
    `u1`, `v1`: 1 - `u`, 1 - `v`), 2 x n x len(u)."""
    a, b, c, d = (q[:, :, i, None] for i in range(4))   # each 2 x n x 1
    return v1 * (u1 * a + u * b) + v * (u1 * d + u * c)


def _faces(p: np.ndarray, g: np.ndarray) -> list[np.ndarray]:
    """What each quad's inside looks like as a card's face, from a 16 x 22 portrait patch
    of the whiteness `p` and the gray `g` (n x 22 x 16 float32, sampled between its corners
    by `features`): its ink the same turned half round (a card's face is), its gray the same
    turned and mirrored, ink in two opposite corners (the indexes), the rim's whiteness, the
    spread and the paper's whiteness (its 90th percentile)."""
    n = len(p)
    flat = p.reshape(n, -1)
    at = int(0.9 * (flat.shape[1] - 1))
    lit = np.partition(flat, at, axis=1)[:, at]   # the same value as sorting
    ink = (p < (lit - 50)[:, None, None]).astype(np.float32)
    # means as a sum over the count: the same float32 values as `mean` and `std` (which divide
    # in float64 and round to float32: the same quotient), in fewer instructions
    size = flat.shape[1]
    ink_turned = 1 - np.add.reduce(np.abs(ink - ink[:, ::-1, ::-1]).reshape(n, -1), axis=1) / size
    first, second = (np.add.reduce(ink[:, :5, :4].reshape(n, -1), axis=1) / 20,
                     np.add.reduce(ink[:, -5:, -4:].reshape(n, -1), axis=1) / 20)
    corners = (first + second) / 2
    rim = np.concatenate([p[:, 0], p[:, -1], p[:, :, 0], p[:, :, -1]], axis=1)
    rim = np.add.reduce(rim, axis=1) / rim.shape[1] / 255.0
    # the gray alike turned and mirrored: its mean is exact (whole numbers), so the gray less
    # its mean, turned or mirrored, is the turned or mirrored gray less its own
    centred = g - (np.add.reduce(g.reshape(n, -1), axis=1) / size)[:, None, None]
    a = centred.reshape(n, -1)
    b = np.concatenate((centred[:, ::-1, ::-1], centred[:, :, ::-1])).reshape(2, n, -1)
    alike = np.add.reduce(a * b, axis=2) / np.maximum(np.sqrt(np.add.reduce(a * a, axis=1)
                                                              * np.add.reduce(b * b, axis=2)), 1.0)
    spread = flat - np.add.reduce(flat, axis=1, keepdims=True) / size
    spread *= spread
    spread = np.sqrt(np.add.reduce(spread, axis=1) / size)   # the standard deviation
    return [ink_turned, alike[0], corners, alike[1], rim, spread / 255.0, lit / 255.0, np.minimum(first, second)]


def _context(quad: np.ndarray, areas: np.ndarray, kept: int) -> tuple[np.ndarray, np.ndarray]:
    """Each outline against the first `kept` (the finder's own): the log of its area over
    the median of theirs (itself left out; 0 with none), and how many of them (at most 2)
    of 0.2 to 0.75 of its area have their centre inside it (a group of cards holds them)."""
    n = len(quad)
    rel = np.zeros(n)
    holds = np.zeros(n)
    if not kept:
        return rel, holds
    ordered = sorted(areas[:kept].tolist())
    for i, area in enumerate(areas.tolist()):
        others = ordered
        if i < kept:
            others = list(ordered)
            others.remove(area)
        m = len(others)
        if m:
            rel[i] = math.log(area / (others[m // 2] if m % 2 else (others[m // 2 - 1] + others[m // 2]) / 2))
    corners = quad.astype(np.float64)
    centres = np.add.reduce(corners[:kept], axis=1) / 4                        # kept x 2
    side = corners[:, _NEXT] - corners                                         # n x 4 x 2
    to = centres[None, :, None, :] - corners[:, None]                          # n x kept x 4 x 2
    cross = side[:, None, :, 0] * to[..., 1] - side[:, None, :, 1] * to[..., 0]
    inside = (cross >= 0).all(axis=2) | (cross <= 0).all(axis=2)
    ratio = areas[None, :kept] / areas[:, None]
    inside &= (ratio > 0.2) & (ratio < 0.75)
    return rel, np.minimum(np.add.reduce(inside, axis=1), 2).astype(np.float64)


def features(considered: list[Considered], edges: np.ndarray, white: np.ndarray, gray: np.ndarray,
             min_side: float, min_step: int = 12, paper: int = 200, kept: int = 0) -> np.ndarray:
    """One row of `NAMES` per outline considered (float64): its outline (the share on an
    edge or with its inside `min_step` whiter than its outside 3 pixels either side, each
    alone, the mean step, the worst side's share, the whiteness 6 pixels out), its inside
    on a 7 x 7 grid (paper-white share, mean, ink share and ink in the middle), its shape
    (side ratio against a card's, the worst corner, its area against the smallest card's,
    on the frame's border), its face (`_faces`), the share of the grid on an edge, the ink
    of its emptier index corner and its place among the first `kept` (the finder's own
    outlines; `_context`). Every outline of the frame at once, and
    every point of all of them (outline, grid and face patch) placed, clipped and read in
    one pass: the count of numpy calls, not the points, is the cost."""
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
    q = quad.transpose(2, 0, 1)                                                     # 2 x n x 4
    on = q[..., None] + _T * direction.transpose(2, 0, 1)[..., None]               # 2 x n x 4 x S
    every = on[:, None] + _AWAY * normal.transpose(2, 0, 1)[:, None, :, :, None]    # 2 x 4 x n x 4 x S
    line = 4 * _SAMPLES
    ring_n, cells = 4 * n * line, _U.size
    points = np.concatenate((every.reshape(2, -1), _between(q, _U, _V, _U1, _V1).reshape(2, -1),
                             _between(_portrait(quad).transpose(2, 0, 1), _PU, _PV, _PU1, _PV1).reshape(2, -1)),
                            axis=1)
    points[:, :ring_n + n * cells] += 0.5   # the outline's and the grid's points rounded, the face's not
    pixel = np.minimum(np.maximum(points, 0), np.float32(((w - 1,), (h - 1,)))).astype(np.int32)
    at = pixel[1] * w + pixel[0]
    edge = edges.ravel()[at[:n * line]].reshape(n, 4, _SAMPLES) > 0
    read = white.ravel()[at[n * line:]].astype(np.float32)
    shades = read[:3 * n * line].reshape(3, n, 4, _SAMPLES)
    inner, outer, far_out = shades[0], shades[1], shades[2]
    inside = read[3 * n * line:3 * n * line + n * cells].reshape(n, cells)          # n x 49
    patch = (n, _PATCH[1], _PATCH[0])
    face = read[3 * n * line + n * cells:].reshape(patch)
    face_gray = gray.ravel()[at[ring_n + n * cells:]].reshape(patch).astype(np.float32)
    edge_grid = np.add.reduce(edges.ravel()[at[ring_n:ring_n + n * cells]].reshape(n, cells) > 0, axis=1) / cells
    inside_frame = ((on >= 0) & (on < np.float32(((((w,),),), (((h,),),))))).all(axis=0)   # n x 4 x S
    difference = inner - outer
    step = difference >= min_step
    # points per side in the frame, and of them on an edge or a step, on an edge, on a step
    # (whole numbers: the sums are exact in any order)
    counts = np.add.reduce(np.concatenate((inside_frame, (edge | step) & inside_frame, edge & inside_frame,
                                           step & inside_frame)).reshape(4, n, 4, _SAMPLES), axis=3)   # 4 x n x 4
    per_side_n, per_side = counts[0], counts[1]
    totals = np.add.reduce(counts, axis=2)
    counted = np.maximum(totals[0], 1)
    share, edge_share, step_share = totals[1:] / counted
    step_mean = np.add.reduce((difference * inside_frame).reshape(n, -1), axis=1) / counted / 255.0
    sides_even = (per_side / np.maximum(per_side_n, 1)).min(axis=1)   # a table line along one side
    outside_white = np.add.reduce(far_out.reshape(n, -1), axis=1) / (line * 255.0)
    k = int(0.9 * (cells - 1))
    lit = np.partition(inside, k, axis=1)[:, k]   # the same value as sorting
    ink = inside < (lit - 60)[:, None]
    paper_share, ink_share, ink_centre = (np.add.reduce(np.concatenate((inside >= paper, ink, ink & _CENTRE))
                                                        .reshape(3, n, cells), axis=2) / _CELLS_OF)
    pairs = sides[:, :2] + sides[:, 2:]
    unlike = np.abs(np.log(pairs.max(axis=1) / np.maximum(pairs.min(axis=1), 1e-6) / (88 / 63)))
    back = quad[:, _BEFORE] - quad
    cos = np.add.reduce(direction * back, axis=2) / np.maximum(sides * sides[:, _BEFORE], 1e-6)
    skew = np.degrees(np.abs(np.arcsin(np.minimum(np.maximum(cos, -1), 1)))).max(axis=1) / 90.0
    areas = np.maximum(np.array([c.area for c in considered], np.float64), 1.0)
    log_area = np.log(areas / (min_side * min_side))
    border = ((quad < 2) | (quad > np.float32((w - 3, h - 3)))).any(axis=(1, 2))
    *face_features, corner_min = _faces(face, face_gray)
    return np.array([share, edge_share, step_share, step_mean, paper_share,
                     np.add.reduce(inside, axis=1) / (cells * 255.0), ink_share, outside_white, unlike, skew,
                     log_area, border, sides_even, ink_centre, *face_features, edge_grid, corner_min,
                     *_context(quad, areas, kept)], np.float64).T.copy()


def _boxes(quads: list[np.ndarray]) -> list[list[float]]:
    """Each quad's box (least x and y, greatest x and y)."""
    if not quads:
        return []
    q = np.array(quads, np.float32).reshape(-1, 4, 2)
    return np.concatenate((q.min(axis=1), q.max(axis=1)), axis=1).tolist()


def box_iou(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def unique(considered: list[Considered], kept: list[np.ndarray], sizes: tuple[float, float],
           same: float = 0.5) -> list[Considered]:
    """The outlines worth a look: of a card's size (`sizes`: least and most area), not the
    card of a kept outline (their boxes' IoU below `same`), each once (the same quad from
    several maps)."""
    wanted = [c for c in considered if sizes[0] <= c.area <= sizes[1]]
    if not wanted:
        return []
    quads = np.array([c.quad for c in wanted], np.float32).reshape(-1, 4, 2)
    keys = (quads.reshape(-1, 8) / 3).astype(int).tolist()
    kept_boxes = _boxes(kept)
    out, seen = [], set()
    for c, key, box in zip(wanted, keys, _boxes(list(quads))):
        key = tuple(key)
        if key in seen:
            continue
        seen.add(key)
        if any(box_iou(box, k) >= same for k in kept_boxes):
            continue
        out.append(c)
    return out


def box_overlap(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """The intersection of two boxes over the smaller one's area."""
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    smaller = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return ix * iy / smaller if smaller > 0 else 0.0


def quad_overlap(a: np.ndarray, b: np.ndarray) -> float:
    """The intersection of two quads (their convex hulls) over the smaller one's area: the
    strip showing of a card under another shares a side with it, not its paper."""
    a, b = (cv2.convexHull(np.asarray(q, np.float32).reshape(-1, 1, 2)) for q in (a, b))
    smaller = min(cv2.contourArea(a), cv2.contourArea(b))
    if smaller <= 0:
        return 0.0
    inter, _ = cv2.intersectConvexConvex(a, b)
    return max(float(inter), 0.0) / smaller


HELD_AREA = (0.25, 0.8)   # a card held inside a larger outline: this share of its area
HELD_INSIDE = 0.9         # ... and this share of the card inside it


def _holders(quads: list[np.ndarray], chances: np.ndarray, every: list[list[float]], threshold: float,
             held: float) -> set[int]:
    """The outlines (at least `threshold` sure) that hold a card: another outline at least
    `held` sure, of `HELD_AREA` of their area, lying `HELD_INSIDE` inside them. A card holds
    no card, so such an outline is a group of cards taken as one (a fan of two or three);
    its own print or half scores under `held` (train_: at most 0.86 out of fold)."""
    sure = np.flatnonzero(chances >= held).tolist()
    if held <= 0 or not sure:
        return set()
    areas: dict[int, float] = {}

    def area(i: int) -> float:
        if i not in areas:
            areas[i] = float(cv2.contourArea(np.asarray(quads[i], np.float32).reshape(-1, 1, 2)))
        return areas[i]

    out = set()
    for i in np.flatnonzero(chances >= threshold).tolist():
        for j in sure:
            if j != i and box_overlap(every[i], every[j]) > 0 and \
                    HELD_AREA[0] * area(i) <= area(j) <= HELD_AREA[1] * area(i) and \
                    quad_overlap(quads[i], quads[j]) >= HELD_INSIDE:
                out.add(i)
                break
    return out


SIZED_SURE = 0.9   # a card whose size the others of its photo are held to (`unlike_sized`) is this sure


def _alone(every: list[list[float]], taken: list[int]) -> list[bool]:
    """For each outline taken, whether its box overlaps no other taken one's (a card lying
    apart, not one of a fan or a pile, whose strips are smaller than a card)."""
    return [not any(b != a and box_overlap(every[a], every[b]) > 0 for b in taken) for a in taken]


def unlike_sized(quads: list[np.ndarray], chances: np.ndarray, taken: list[int], border: np.ndarray,
                 apart: float, sure: float = SIZED_SURE, boxes: list[list[float]] | None = None) -> set[int]:
    """The outlines taken (`taken`) far larger than every surer card of the photo: the cards of
    one photo lie at about one distance from the camera, so a sheet, an envelope, a postcard or
    a notepad beside a sure card is far larger than it, while a card can look smaller (cut by
    the frame, covered, a strip of a fan, farther on a slanted view) but hardly larger. The
    cards measured against are those taken at least `sure` sure, lying apart (their box
    overlapping no other taken one's) and inside the frame (`border`: each outline on the
    frame's border): a card cut or covered looks smaller than it is. An outline taken is dropped
    when some such card surer than it exists and its area exceeds every such card's by more than
    `apart` in log (0.8: 2.2 times); on the border or among others alike, since cut or covered
    it would only be larger still. An outline is never judged against a less sure one, so the
    surest card of a photo always stays. `boxes`: every outline's box, when the caller has them."""
    if apart <= 0 or len(taken) < 2:
        return set()
    every = _boxes(quads) if boxes is None else boxes
    alone = _alone(every, taken)
    anchors = [i for a, i in enumerate(taken) if alone[a] and not border[i] and chances[i] >= sure]
    if not anchors:
        return set()
    area = {i: math.log(max(float(cv2.contourArea(np.asarray(quads[i], np.float32).reshape(-1, 1, 2))), 1.0))
            for i in taken}
    out = set()
    for i in taken:
        surer = [j for j in anchors if j != i and chances[j] > chances[i]]
        if surer and all(area[i] - area[j] > apart for j in surer):
            out.add(i)
    return out


def accepted(quads: list[np.ndarray], chances: np.ndarray, threshold: float, overlap: float = 0.3,
             by_quad: bool = False, beside: float = 0.0, held: float = 0.0, apart: float = 0.0,
             border: np.ndarray | None = None) -> list[int]:
    """Indexes of the outlines taken as cards: at least `threshold` sure, surest first, none
    whose box (with `by_quad`, whose quad) overlaps that of one taken before by `overlap` (of
    the smaller) or more; with `by_quad`, one whose box overlaps so (the strip of a card under
    another, or a false outline beside a card) only when at least `beside` sure. With `held`
    (above 0), none that holds another outline at least `held` sure (`_holders`). With `apart`
    (above 0; `border`: each outline on the frame's border), none lying apart far larger than
    the surer cards lying apart (`unlike_sized`)."""
    taken: list[int] = []
    boxes: list[list[float]] = []
    every = _boxes(quads)
    groups = _holders(quads, chances, every, threshold, held)
    for i in np.argsort(-chances, kind="stable").tolist():
        if chances[i] < threshold:
            break
        if i in groups:
            continue
        box = every[i]
        if by_quad:   # quads overlap only where their boxes do
            overlaps = [box_overlap(box, b) for b in boxes]
            clear = (all(o <= 0 or quad_overlap(quads[i], quads[j]) < overlap for j, o in zip(taken, overlaps))
                     and (chances[i] >= beside or all(o < overlap for o in overlaps)))
        else:
            clear = all(box_overlap(box, b) < overlap for b in boxes)
        if clear:
            taken.append(i)
            boxes.append(box)
    if apart > 0:
        odd = unlike_sized(quads, chances, taken, np.zeros(len(quads), bool) if border is None else border, apart,
                           boxes=every)
        taken = [i for i in taken if i not in odd]
    return taken
