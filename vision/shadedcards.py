"""Whole cards that a shadow cuts across, from the piece of them the finder kept.

In low sunlight, or under a lamp with something standing beside the cards, a hard shadow
often falls across a card. The shaded part of the card is then darker than the table in
the light: the whiteness maps hold only the lit part, cut along the shadow's edge, and
that part is what the finder keeps (a square-cornered strip of the card, seldom enough of
it to be counted the card). Its four sides still run straight through the shadow, and
line segments (`vision.edgequads`) follow them there.

So around each outline kept (only those: the cheap maps found something here, and it is
a piece of a card or the card), quadrilaterals from line segments are looked for that
hold the outline as a part of themselves. One replaces the outline when it is a card's
shape, lies on segments and on the finder's edges or steps all round, and its inside is
a card's face once the light is evened out: the whiteness divided by its local maximum,
so that paper in the shade is paper again (`shade_flattened`). The face check is
`vision.wholecards`' (an index in two opposite corners, white margins); its paper must
be white in the light somewhere (the lit piece), so a dark table evened out is not.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision import edgequads, wholecards
from vision.warp import quad_overlap


@dataclass(frozen=True)
class ShadedSettings:
    reach: float = 0.3              # the sides next to a shadow's edge run on past it along an
    min_run: float = 1.0           # ... edge this share of their length, on this share of it
    longest: float = 1.7            # a card reaches past the piece at most this many times the
                                    # width of the side a shadow cuts it along
    min_cover: float = 0.8          # share of the whole's outline on a line segment
    min_share: float = 0.9          # ... and on an edge or a whiteness step
    max_unlike: float = 0.15        # its side ratio this near a card's (absolute log)
    angles: tuple[float, float] = (78.0, 102.0)   # its corners
    piece_inside: float = 0.85      # the outline kept lies this much inside it
    piece_area: tuple[float, float] = (0.3, 0.8)  # ... and is this share of its area
    touch: float = 0.1              # another outline kept overlapping it this much: not a card
    flat_window: int = 9            # pixels (at the finder's 320): the local maximum's window
    flat_paper: int = 235           # the local maximum is taken to this whiteness
    min_lit: int = 150              # the whole's paper (90th percentile) at least this white
    min_tip_lit: int = 120          # ... that of a card whose corner's tip is off the frame
                                    # (`vision.realfind`: the whole card lies in the shade)


def shade_flattened(white: np.ndarray, settings: ShadedSettings) -> np.ndarray:
    """The whiteness divided by its local maximum (taken to `flat_paper`): the light
    evened out, paper in the shade as white as paper in the light."""
    k = settings.flat_window
    most = cv2.blur(cv2.dilate(white, np.ones((k, k), np.uint8)), (k, k))
    return cv2.divide(white, cv2.max(most, 1), scale=settings.flat_paper)


def face_in_shade(quad: np.ndarray, white: np.ndarray, flat: np.ndarray, least: int,
                  face: wholecards.WholeSettings = wholecards.WholeSettings()) -> bool:
    """Whether the quad's inside is a card's face once the light is evened out (`flat`:
    `shade_flattened(white)`), its paper at least `least` white in `white` somewhere (a
    dark table evened out is white too, but was not white to begin with)."""
    return _lit(quad, white) >= least and wholecards.looks_like_a_card(quad, flat, face)


def _lit(quad: np.ndarray, white: np.ndarray) -> float:
    """The 90th percentile of the whiteness inside the quad."""
    x, y, w, h = cv2.boundingRect(np.round(quad).astype(np.int32))
    x, y = max(x, 0), max(y, 0)
    roi = white[y:y + h, x:x + w]
    mask = np.zeros(roi.shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round(quad - (x, y)).astype(np.int32), 255)
    values = roi[mask > 0]
    return float(np.percentile(values, 90)) if values.size else 0.0


def _continued_sides(piece: np.ndarray, edges: np.ndarray, settings: ShadedSettings) -> list[int]:
    """The sides of the piece that may be a shadow's edge across a card: the two sides
    next to it both run on, straight, past it along an edge (the card's own sides going
    on into the shade). A whole card's sides run on into the table instead."""
    return continued_sides([piece], edges, settings)[0]


_NEXT, _BEFORE, _OPPOSITE = [1, 2, 3, 0], [3, 0, 1, 2], [2, 3, 0, 1]   # np.roll by -1, 1, -2


@lru_cache(maxsize=4)
def _run_steps(reach: float) -> np.ndarray:
    return np.linspace(0.05, reach, 8, dtype=np.float32)[None, None, :, None]


def continued_sides(pieces: list[np.ndarray], edges: np.ndarray, settings: ShadedSettings) -> list[list[int]]:
    """`_continued_sides` of each piece, all at once (the same float32 steps, element by
    element; pieces of other types each alone)."""
    if not pieces:
        return []
    if any(p.dtype != np.float32 or p.shape != (4, 2) for p in pieces):
        return [_continued_sides_alone(p, edges, settings) for p in pieces]
    h, w = edges.shape
    quads = np.array(pieces)                                           # n x 4 x 2
    # side j runs from corner j to j + 1: the side ending at j runs on past it from j - 1,
    # the side ending at j + 1 from j + 2 (all eight runs of every piece at once)
    ends = np.concatenate((quads, quads[:, _NEXT]), axis=1)
    starts = np.concatenate((quads[:, _BEFORE], quads[:, _OPPOSITE]), axis=1)
    points = ends[:, :, None, :] + _run_steps(settings.reach) * (ends - starts)[:, :, None, :]
    x, y = np.rint(points[..., 0]).astype(np.int32), np.rint(points[..., 1]).astype(np.int32)
    inside = (x >= 0) & (x < w) & (y >= 0) & (y < h)
    runs = ((edges[np.clip(y, 0, h - 1), np.clip(x, 0, w - 1)] > 0) & inside).mean(axis=2)
    ok = np.minimum(runs[:, :4], runs[:, 4:]) >= settings.min_run
    return [np.flatnonzero(row).tolist() for row in ok]


def _continued_sides_alone(piece: np.ndarray, edges: np.ndarray, settings: ShadedSettings) -> list[int]:
    """`_continued_sides` of one piece in its own type (the plain way: any dtype)."""
    h, w = edges.shape
    t = np.linspace(0.05, settings.reach, 8, dtype=np.float32)[None, :, None]
    ends = np.concatenate((piece, np.roll(piece, -1, axis=0)))
    starts = np.concatenate((np.roll(piece, 1, axis=0), np.roll(piece, -2, axis=0)))
    points = ends[:, None, :] + t * (ends - starts)[:, None, :]
    x, y = np.rint(points[..., 0]).astype(np.int32), np.rint(points[..., 1]).astype(np.int32)
    inside = (x >= 0) & (x < w) & (y >= 0) & (y < h)
    runs = ((edges[np.clip(y, 0, h - 1), np.clip(x, 0, w - 1)] > 0) & inside).mean(axis=1)
    return np.flatnonzero(np.minimum(runs[:4], runs[4:]) >= settings.min_run).tolist()


def _look_box(piece: np.ndarray, side: int, shape: tuple[int, int], settings: ShadedSettings) -> tuple[int, int, int, int]:
    """The box the whole card may lie in: the piece, and beyond its side `side` as far as
    a card of that side's width may reach."""
    a, b = piece[side], piece[(side + 1) % 4]
    width = float(np.linalg.norm(b - a))
    depth = float(np.linalg.norm(piece[side - 1] - a))
    centre = piece.mean(axis=0)
    normal = np.float32(((b - a)[1], -(b - a)[0])) / max(width, 1e-6)
    if float((centre - a) @ normal) > 0:
        normal = -normal
    further = max(settings.longest * width - depth, 0.0) + 4.0
    points = np.vstack([piece, a + further * normal, b + further * normal])
    x, y, bw, bh = cv2.boundingRect(np.round(points).astype(np.int32))
    x0, y0 = max(x - 4, 0) & ~1, max(y - 4, 0) & ~1
    return x0, y0, min(x + bw + 4, shape[1]) - x0, min(y + bh + 4, shape[0]) - y0


def _wholes_around(piece: np.ndarray, box: tuple[int, int, int, int], gray: np.ndarray,
                   sizes: tuple[float, float], settings: ShadedSettings) -> list[np.ndarray]:
    """Quadrilaterals from line segments in `box`, holding the piece, best covered first."""
    found = wholecards.segment_quads(gray, box, edgequads.QuadSettings().min_segment * sizes[0], sizes,
                                     settings.min_cover)
    piece_area = cv2.contourArea(piece)
    low, high = settings.piece_area
    out = []
    for quad in found:
        area = cv2.contourArea(quad)
        if low * area <= piece_area <= high * area and quad_overlap(piece, quad) >= settings.piece_inside:
            out.append(quad)
    return out


def wholes(kept: list[np.ndarray], gray: np.ndarray, white: np.ndarray, edges: np.ndarray,
           sizes: tuple[float, float], gates, unlike, settings: ShadedSettings = ShadedSettings(),
           face: wholecards.WholeSettings = wholecards.WholeSettings()) -> list[np.ndarray]:
    """`kept` with each outline that is the lit piece of a card a shadow cuts across
    replaced by the whole card. `sizes`: a card's smallest short side and largest long
    side; `gates(quad, angles, unlike)`: the finder's own checks of one outline (inside
    the frame, corners within `angles`, side ratio within `unlike` of a card's), returning
    the share of its outline on an edge or a step, or None; `unlike(quad)`: how far its
    side ratio is from a card's (absolute log)."""
    flat = None
    out: list[np.ndarray | None] = list(kept)
    areas = [cv2.contourArea(q) for q in kept]
    continued = continued_sides(kept, edges, settings)
    for i, piece in enumerate(kept):
        sides = [] if out[i] is not piece else continued[i]
        if not sides or wholecards.looks_like_a_card(piece, white, face):
            continue   # (a card's face whole: its sides ran on along something else)
        boxes = np.array([_look_box(piece, side, gray.shape, settings) for side in sides])
        x0, y0 = boxes[:, :2].min(axis=0).tolist()
        x1, y1 = (boxes[:, :2] + boxes[:, 2:]).max(axis=0).tolist()
        for quad in _wholes_around(piece, (x0, y0, x1 - x0, y1 - y0), gray, sizes, settings):
            area = cv2.contourArea(quad)
            near = [(j, quad_overlap(quad, other)) for j, other in enumerate(out)
                    if j != i and other is not None]
            # another piece of it (the card's other side of the shadow) is replaced with
            # it; one partly over it, or of its size, is not a piece: it is no card
            pieces = [j for j, overlap in near if overlap >= settings.piece_inside and
                      areas[j] <= settings.piece_area[1] * area]
            if any(overlap >= settings.touch and j not in pieces for j, overlap in near) or \
                    sum(unlike(kept[j]) <= settings.max_unlike for j in pieces + [i]) > 1:
                continue   # (two card-shaped outlines inside it: cards side by side)
            share = gates(quad, settings.angles, settings.max_unlike)
            if share is None or share < settings.min_share:
                continue
            if flat is None:
                flat = shade_flattened(white, settings)
            if face_in_shade(quad, white, flat, settings.min_lit, face):
                out[i] = quad
                for j in pieces:
                    out[j] = None
                break
    return [q for q in out if q is not None]
