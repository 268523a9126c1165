"""Cards whose face is a saturated colour field inside a white frame (the UNO family),
found by their field and grown out to the frame's outer edge.

Whiteness and edges (`vision.realfind`) outline such a face badly when it is seen
obliquely: a large white oval printed on the field nearly reaches the field's sides, so
the white parts (frame and oval) or the edges between them cut the face in two along the
oval, or give only the field's inside edge. The field itself is one colour and stands
out from most tables:

* chroma after each channel is stretched to its own range (`vision.realmaps.stretched`:
  the brightest things, card stock, come out grey under any lamp, so a warm light does
  not make the paper or a beige table look coloured), cut at a few levels; a field
  lying inside a coloured table (in the hole its white frame makes) counts too;
* the field may be cut in pieces by the oval: each region is tried as the field (its
  convex hull's largest inscribed quadrilateral must fill the hull, and the field's
  colour must run just inside each of its four sides: a piece cut off by the oval has
  a "side" across the white oval); where a region is not a field alone, each two such
  regions of one hue lying near each other are tried together. Two regions that are
  each a framed field are two cards, never joined;
* each side of the field is moved outward to the frame's outer edge: along the side's
  normal, where the whiteness falls most just beyond a band at least as white as
  paper. Each side is searched on its own, as a tilted card's frame is wider on its near
  side (up to `frame_spread` times); a side with no clear fall there (a white table)
  takes the median width the others showed; a field with no white band round three of
  its sides is no card (a red book);
* a wild's field is black with a four-colour oval: seen obliquely the oval reaches the
  field's sides and cuts the black in pieces, and the white corner index clips its
  corners. It is also looked for as one region dark or coloured (oval and black
  together; a region well mixed of both, not a court picture nor a dark patch of table),
  its quad, where the hull's corners are clipped, put where four of the hull's sides
  meet; one whose sides the field fills only on the lower bar is taken late;
* a field running off the frame across two of its sides, its oval often running off too
  (so no whole field, only a dented piece or two: `_grown_cut`; a piece near one border
  of the frame only), is outlined from its quad with a side on the border where the
  field itself reaches the border at both of that side's corners (a side carried on
  past a corner in view, a card's tip off the frame, does not), the field runs along
  the three sides in view and a white frame runs round each of them: those three moved
  out to the frame's edge, the border's side kept; for the caller to take where no
  other outline lies;
* the grown outline must then pass `vision.realfind`'s own outline check.

What does not live here: the other outlines and the choice among them
(`vision.realfind.find_outlines`, which puts these first: an outline holding a whole
framed colour field is more certain than any piece of it), reading the card.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

import cv2
import numpy as np

from vision.lines import corners_of
from vision.offframe import border_run


@dataclass(frozen=True)
class FieldSettings:
    chroma_levels: tuple[int, ...] = (60, 100)   # stretched chroma (of 255) a field has
    pale_level: int = 40                 # ... and, last, in a photo whose colours are washed
    pale_photo: int = 100                # out (under 1 % of its pixels at this chroma; 0:
                                         # never): a webcam's crosstalk and a warm dim light
                                         # leave a field's chroma 30-68 (specks at 60); the
                                         # photos whose cards only this level found have 0-0.06 %
                                         # of their pixels at 90 (very warm dim webcam, warm
                                         # lamp cheap webcam); the other sessions' most coloured
                                         # pixels reach 90-250 (90 tried: glare no better)
    pale_area: float = 4.0               # ... an outline found at that level alone at least this
                                         # many times the smallest card's area (noise and a
                                         # dark cloth's weave make small patches of chroma 40
                                         # in a dim photo; a card's field there is larger)
    dark_level: int = 60                 # ... or, a dark field (a wild's black), its brightest
                                         # stretched channel at most (0: none)
    dark_colour: int = 60                # ... or a dark field with a coloured oval (a wild:
                                         # the oval's four colours cut its black field in
                                         # pieces): dark, or of this stretched chroma (0: none)
    wild_mix: float = 0.25               # ... dark for at least this share of it, and coloured
                                         # (not dark) too (a wild's field: 0.36-0.57 dark and
                                         # 0.40-0.63 coloured on rendered and protocol photos; a
                                         # court card's picture in white 0.03-0.18 dark, a dark
                                         # patch of table between white things 0.0 coloured)
    wild_hues: float = 0.7               # ... its coloured pixels of several hues: their hues'
                                         # mean resultant length at most this (1: one hue; a
                                         # wild's four quarters 0.18-0.45 on rendered and protocol
                                         # photos; a red checked cloth's squares 0.99-1.0)
    min_field_share: float = 0.35        # a piece's area / the smallest card's area
    max_pieces: int = 10                 # the largest pieces of each level are tried
    hue_gap: float = 25.0                # degrees: two pieces of one field are of one hue
    min_side_fill: float = 0.6           # share of each side with the field just inside
    pair_side_fill: float = 0.3          # ... for two pieces joined where nothing else is found
    min_quad_fill: float = 0.88          # fitted quad / hull of the field
    min_frame: float = 0.01              # the white frame's width, share of the field's
    max_frame: float = 0.25              # short side: a field with no frame is no card
    frame_spread: float = 4.0            # the widest side's frame / the narrowest's (a
                                         # card 55 degrees from overhead: 2.6 measured)
    frame_white: int = 150               # the frame's whiteness (of 255) at least
    min_drop: int = 25                   # whiteness fall at the frame's outer edge
    samples: int = 9                     # points along each side


def stretched_chroma(channels: list[np.ndarray]) -> np.ndarray:
    """Per pixel, the largest stretched channel less the smallest (uint8)."""
    top = cv2.max(cv2.max(channels[0], channels[1]), channels[2])
    low = cv2.min(cv2.min(channels[0], channels[1]), channels[2])
    return cv2.subtract(top, low)


@dataclass(frozen=True)
class _Piece:
    contour: np.ndarray
    area: float
    box: tuple[int, int, int, int]
    hue: float


def _pieces(mask: np.ndarray, channels: list[np.ndarray], min_area: float,
            settings: FieldSettings, hued: bool = True) -> list[_Piece]:
    """The largest regions of the field mask (0/255), each with its mean hue (0 unless
    `hued`: a dark field has none to tell its pieces apart)."""
    opened = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    # every region's outer boundary, also one lying in a hole of another (a card's field
    # inside its white frame, inside a coloured table)
    contours, hierarchy = cv2.findContours(opened, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    outer = [] if hierarchy is None else [c for c, link in zip(contours, hierarchy[0]) if link[3] == -1]
    sized = sorted(((cv2.contourArea(c), c) for c in outer if len(c) >= 3), key=lambda p: -p[0])
    out = []
    for area, contour in sized[:settings.max_pieces]:
        if area < settings.min_field_share * min_area:
            break
        x, y, w, h = box = cv2.boundingRect(contour)
        if not hued:
            out.append(_Piece(contour, area, box, 0.0))
            continue
        own = np.zeros((h, w), np.uint8)
        cv2.drawContours(own, [contour], -1, 255, -1, offset=(-x, -y))
        bgr = np.float32([cv2.mean(c[y:y + h, x:x + w], own)[0] for c in channels]) / 255
        hue = float(cv2.cvtColor(bgr.reshape(1, 1, 3), cv2.COLOR_BGR2HSV)[0, 0, 0])
        out.append(_Piece(contour, area, box, hue))
    return out


def _own(piece: _Piece) -> np.ndarray:
    """The piece's region (holes and all) in its bounding box (0/255)."""
    x, y, w, h = piece.box
    own = np.zeros((h, w), np.uint8)
    cv2.drawContours(own, [piece.contour], -1, 255, -1, offset=(-x, -y))
    return own


def _shares(piece: _Piece, *masks: np.ndarray) -> list[float]:
    """The share of the piece's area (holes and all) that each mask (0/255) holds."""
    x, y, w, h = piece.box
    own = _own(piece)
    area = max(cv2.countNonZero(own), 1)
    return [cv2.countNonZero(cv2.bitwise_and(mask[y:y + h, x:x + w], own)) / area for mask in masks]


def _may_mix(piece: _Piece, dark: np.ndarray, mask: np.ndarray, least: float) -> bool:
    """Whether the piece may be at least `least` dark (`dark`, 0/255) and `least` coloured
    (`mask` less `dark`, which it holds) as `_shares` measures it, told from the pixels of
    its bounding box alone: its region (`_own`) lies in the box and holds at least its
    contour's area of pixels (the contour runs through its own border pixels), so a box
    with fewer dark or coloured pixels than `least` of that area holds a piece with fewer
    (a cheap test before the region is drawn: most pieces of a wild's mask fail it)."""
    x, y, w, h = piece.box
    in_dark = cv2.countNonZero(dark[y:y + h, x:x + w])
    return in_dark >= least * piece.area and \
        cv2.countNonZero(mask[y:y + h, x:x + w]) - in_dark >= least * piece.area


def _one_hue(piece: _Piece, channels: list[np.ndarray], coloured: np.ndarray) -> float:
    """How nearly the piece's `coloured` pixels (0/255) are of one hue: the mean resultant
    length of their hues (1: one hue, 0: hues all round; 1 with none)."""
    x, y, w, h = piece.box
    own = _own(piece)
    hsv = cv2.cvtColor(cv2.merge([c[y:y + h, x:x + w] for c in channels]), cv2.COLOR_BGR2HSV)
    hue = hsv[..., 0][(own > 0) & (coloured[y:y + h, x:x + w] > 0)].astype(np.float32) * np.float32(np.pi / 90)
    return float(np.hypot(np.cos(hue).mean(), np.sin(hue).mean())) if hue.size else 1.0


def field_beyond(channels: list[np.ndarray], quad: np.ndarray, other: np.ndarray,
                 settings: FieldSettings = FieldSettings()) -> float:
    """The share of `other`'s area outside `quad` that is field of `quad`'s hue at the pale
    level (`pale_level`): about none when `other` is `quad`'s card with table around it, much
    when `quad` is a piece of `other`'s card cut off by a glare streak (taken for a frame)."""
    h, w = channels[0].shape
    x, y, bw, bh = cv2.boundingRect(np.int32(np.round(np.concatenate((quad, other)).reshape(-1, 2))))
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + bw, w), min(y + bh, h)
    if x1 <= x0 or y1 <= y0:
        return 0.0
    crop = [c[y0:y1, x0:x1] for c in channels]
    offset = np.float32([x0, y0])

    def filled(q: np.ndarray) -> np.ndarray:
        m = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(m, np.int32(np.round(q.reshape(-1, 2) - offset)), 255)
        return m
    inner, outer = filled(quad), filled(other)
    beyond = cv2.bitwise_and(outer, cv2.bitwise_not(inner))
    area = cv2.countNonZero(beyond)
    if area == 0:
        return 0.0
    field = cv2.compare(stretched_chroma(crop), settings.pale_level, cv2.CMP_GT)
    own = cv2.bitwise_and(field, inner)
    if cv2.countNonZero(own) == 0:
        return 0.0
    hue = cv2.cvtColor(cv2.merge(crop).astype(np.float32) / 255, cv2.COLOR_BGR2HSV)[..., 0]
    mean = np.float32([cv2.mean(c, own)[0] for c in crop]) / 255
    hue_of = float(cv2.cvtColor(mean.reshape(1, 1, 3), cv2.COLOR_BGR2HSV)[0, 0, 0])
    apart = np.abs(hue - hue_of) % 360
    near = (np.minimum(apart, 360 - apart) <= settings.hue_gap).astype(np.uint8) * 255
    return cv2.countNonZero(cv2.bitwise_and(cv2.bitwise_and(field, near), beyond)) / area


def _hue_apart(a: float, b: float) -> float:
    d = abs(a - b) % 360.0
    return min(d, 360.0 - d)


_NEXT = [1, 2, 3, 0]


@lru_cache(maxsize=16)
def _fours(n: int) -> np.ndarray:
    """Every 4 of n indices, in order (k x 4)."""
    return np.array(list(combinations(range(n), 4)), np.intp).reshape(-1, 4)


def _quad(points: np.ndarray, settings: FieldSettings) -> np.ndarray | None:
    """The largest quadrilateral on the points' convex hull (its corners among the
    hull's few main vertices), if it fills the hull nearly: a field's outline, its
    corners rounded or clipped by blur, seen in perspective."""
    hull = cv2.convexHull(points.reshape(-1, 1, 2).astype(np.int32))
    hull_area = cv2.contourArea(hull)
    if hull_area <= 0:
        return None
    perimeter = cv2.arcLength(hull, True)
    for eps in (0.01, 0.02, 0.03, 0.05):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True).reshape(-1, 2).astype(np.float32)
        if len(approx) <= 9:
            break
    if len(approx) < 4:
        return None
    quads = approx[_fours(len(approx))]                      # k x 4 x 2, each convex, in order
    x, y = quads[..., 0], quads[..., 1]
    areas = 0.5 * np.abs((x * y[:, _NEXT] - x[:, _NEXT] * y).sum(axis=1))
    best = int(np.argmax(areas))
    return quads[best] if areas[best] >= settings.min_quad_fill * hull_area else None


def _side_quad(points: np.ndarray, settings: FieldSettings) -> np.ndarray | None:
    """The smallest quadrilateral whose sides lie along four sides of the points' convex
    hull (its simplified outline) and that holds the whole hull, if the hull fills it
    nearly: a field whose corners are clipped (a wild's white corner index cuts its black
    field's corners off; `_quad`, whose corners are the hull's, loses those corners)."""
    hull = cv2.convexHull(points.reshape(-1, 1, 2).astype(np.int32))
    hull_area = cv2.contourArea(hull)
    if hull_area <= 0:
        return None
    approx = cv2.approxPolyDP(hull, 0.01 * cv2.arcLength(hull, True), True).reshape(-1, 2).astype(np.float32)
    n = len(approx)
    if not 5 <= n <= 9:
        return None
    direction = approx[np.roll(np.arange(n), -1)] - approx
    direction /= np.maximum(np.sqrt((direction * direction).sum(axis=1)), 1e-6)[:, None]
    best, least = None, hull_area / settings.min_quad_fill
    for four in _fours(n):
        quad = corners_of([(approx[i], direction[i]) for i in four], 0.5)
        if quad is None or not cv2.isContourConvex(quad.reshape(-1, 1, 2)):
            continue
        area = cv2.contourArea(quad)
        if area <= least and all(cv2.pointPolygonTest(quad.reshape(-1, 1, 2), (float(x), float(y)), True) >= -1.0
                                 for x, y in approx):
            best, least = quad, area
    return best


def _outward_normals(quad: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Unit directions of the sides (corner i to i+1), their outward normals, their lengths."""
    direction = quad[_NEXT] - quad
    length = np.sqrt((direction * direction).sum(axis=1))
    direction = direction / np.maximum(length, 1e-6)[:, None]
    normal = direction[:, ::-1] * np.float32((1, -1))
    flip = ((quad.mean(axis=0) - quad) * normal).sum(axis=1) > 0
    normal[flip] *= -1
    return direction, normal, length


def _frame_widths(quad: np.ndarray, white: np.ndarray, settings: FieldSettings,
                  skip: int = -1) -> np.ndarray | None:
    """How far each side of the field lies inside the card's edge (pixels): where the
    whiteness, a band at least `frame_white` beyond the field, falls most. NaN for a side
    with no clear fall; None when the field has no white frame. `skip`: a side on the
    frame's border (not measured, NaN): then every other side must show its white band."""
    _, normal, sides = _outward_normals(quad)
    short = float(min(sides[0] + sides[2], sides[1] + sides[3]) / 2)
    reach = settings.max_frame * short + 3
    steps = np.arange(0.0, reach, 0.5, dtype=np.float32)
    t = np.linspace(0.15, 0.85, settings.samples, dtype=np.float32)
    widths = np.full(4, np.nan, np.float32)
    bands = np.full(4, np.nan, np.float32)   # the white band's own width: the field's quad may
    framed = 0                               # lie a few pixels inside the field (pieces joined)
    for i in range(4):
        if i == skip:
            continue
        start = quad[i] + t[:, None] * (quad[(i + 1) % 4] - quad[i])           # samples x 2
        points = start[:, None, :] + steps[None, :, None] * normal[i]          # samples x steps x 2
        profile = cv2.remap(white, points[..., 0], points[..., 1], cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_CONSTANT, borderValue=0).astype(np.float32)
        profile = np.median(profile, axis=0)                                    # steps
        # the frame: the first run of paper-white beyond the field
        white_at = np.flatnonzero(profile >= settings.frame_white)
        if white_at.size == 0:
            continue
        framed += 1
        first = white_at[0]
        drop = profile[first:-4] - profile[first + 4:]     # fall over 2 pixels
        if drop.size == 0:
            continue
        if drop.max() < settings.min_drop:
            continue
        # the nearest clear fall (at least half the largest) is the card's edge: beyond it
        # a bright table may fall further (a pale cloth's own shading)
        clear = np.flatnonzero(drop >= max(settings.min_drop, 0.5 * float(drop.max())))
        k = int(clear[0])
        while k + 1 < drop.size and drop[k + 1] >= drop[k]:   # to the top of that fall
            k += 1
        widths[i] = steps[first + k + 2]
        bands[i] = max(steps[first + k + 2] - steps[first], 0.5)
    if framed < 3:
        return None
    found = widths[~np.isnan(widths)]
    if found.size < 2:
        return None
    band = bands[~np.isnan(bands)] / short
    if band.min() < settings.min_frame or found.max() / short > settings.max_frame \
            or band.max() > settings.frame_spread * band.min():
        return None
    widths[np.isnan(widths)] = float(np.median(found))
    return widths


def _moved(quad: np.ndarray, widths: np.ndarray) -> np.ndarray | None:
    """The quad with side i moved `widths[i]` pixels outward."""
    direction, normal, _ = _outward_normals(quad)
    return corners_of([(quad[i] + normal[i] * widths[i], direction[i]) for i in range(4)], 1e-6)


_ALONG = np.linspace(0.1, 0.9, 15, dtype=np.float32)[None, :, None]


def _sides_filled(quad: np.ndarray, mask: np.ndarray, least: float, skip: int = -1) -> bool:
    """Whether just inside every side (but side `skip`) the field's colour runs along most
    of it: a piece of a field cut by its oval has a "side" across the oval, white along
    most of it."""
    direction, normal, sides = _outward_normals(quad)
    inset = max(1.5, 0.03 * float(sides.min()))
    points = quad[:, None, :] + _ALONG * (direction * sides[:, None])[:, None, :] - inset * normal[:, None, :]
    h, w = mask.shape
    xs = np.clip(np.round(points[..., 0]).astype(np.intp), 0, w - 1)
    ys = np.clip(np.round(points[..., 1]).astype(np.intp), 0, h - 1)
    filled = (mask[ys, xs] > 0).mean(axis=1)                  # per side
    if skip >= 0:
        filled[skip] = 1.0
    return bool(filled.min() >= least)


def _grown(quad: np.ndarray | None, mask: np.ndarray, white: np.ndarray,
           settings: FieldSettings, least: float | None = None,
           unframed: list[np.ndarray] | None = None) -> np.ndarray | None:
    """The card outline grown from a field's quad, or None; `least`: the share of each
    side the field must run along (`min_side_fill` unless given); `unframed`: when a
    list, a field's quad whose frame was not measured is appended to it."""
    least = settings.min_side_fill if least is None else least
    if quad is None or not _sides_filled(quad, mask, least):
        return None
    widths = _frame_widths(quad, white, settings)
    if widths is None and unframed is not None:
        unframed.append(quad)
    return None if widths is None else _moved(quad, widths)


BORDER = 2.0   # pixels: a field's corner this near the frame's border lies on it
CORNER_REACH = 3   # pixels: a field running off the frame lies this near each corner on the border


def _border_side(quad: np.ndarray, size: tuple[int, int]) -> tuple[int, int] | None:
    """(i, b) when corners i and i + 1 of the quad, and no other, lie on the same border b
    of a frame of `size` (0 left, 1 top, 2 right, 3 bottom), and on no other: a field
    running off the frame across two of its sides; None otherwise."""
    run = border_run(quad, size, BORDER)
    return (run[0], min(run[1])) if run is not None and len(run[1]) == 1 else None


_BORDER_LINES = (((0.0, 0.0), (0.0, 1.0)), ((0.0, 0.0), (1.0, 0.0)), ((1.0, 0.0), (0.0, 1.0)), ((0.0, 1.0), (1.0, 0.0)))


def _cut_border(points: np.ndarray, size: tuple[int, int]) -> int | None:
    """The one border of a frame of `size` (0 left, 1 top, 2 right, 3 bottom) the field's
    points come within `BORDER` + `CORNER_REACH` pixels of (a field running off the frame
    there could have a corner on it and reach that corner), from their bounding box alone;
    None when they come that near no border, or more than one (a field cut across a corner
    of the frame, or running off it twice: no side on one border)."""
    w, h = size
    x, y, bw, bh = cv2.boundingRect(points.reshape(-1, 1, 2).astype(np.int32))
    near = BORDER + CORNER_REACH
    hits = [b for b, hit in enumerate((x < near, y < near, x + bw - 1 > w - 1 - near, y + bh - 1 > h - 1 - near))
            if hit]
    return hits[0] if len(hits) == 1 else None


def _grown_cut(points: np.ndarray, quad: np.ndarray | None, mask: np.ndarray, white: np.ndarray,
               settings: FieldSettings) -> np.ndarray | None:
    """`_grown_cut_quad` of the field's quad (`quad`: `_quad` of the points, fitted by the
    caller already) for a field whose points come near one border of the frame
    (`_cut_border`), and only one. (Not `_side_quad`'s quad too, a field with a corner
    clipped: on five sets of edge photos, 570 protocol-2 photos, it was fitted 11,700 times
    and outlined one card, read "unknown" with or without it; it was most of this search's
    cost.)"""
    h, w = mask.shape
    if _cut_border(points, (w, h)) is None:
        return None
    return _grown_cut_quad(quad, points, mask, white, settings)


def _grown_cut_quad(quad: np.ndarray | None, points: np.ndarray, mask: np.ndarray, white: np.ndarray,
                    settings: FieldSettings) -> np.ndarray | None:
    """The outline in view of a card whose field runs off the frame across two of its
    sides, grown from the field's quad (a side on the border): the three sides in view
    filled by the field (the side on the border is crossed by the oval where it runs off
    too) and each framed in white, moved out to the frame's outer edge; the border's side
    is the border. None otherwise."""
    if quad is None:
        return None
    h, w = mask.shape
    on = _border_side(quad, (w, h))
    if on is None:
        return None
    side, border = on
    if not _sides_filled(quad, mask, settings.min_side_fill, side):
        return None
    # the field itself reaches the border at both corners there (a side carried on to the
    # border past a corner in view, a card's tip off the frame, would not)
    field = np.asarray(points, np.float32).reshape(-1, 2)
    for corner in quad[[side, (side + 1) % 4]]:
        if float(np.min(np.abs(field - corner).max(axis=1))) > CORNER_REACH:
            return None
    widths = _frame_widths(quad, white, settings, side)
    if widths is None:
        return None
    direction, normal, _ = _outward_normals(quad)
    (px, py), (dx, dy) = _BORDER_LINES[border]
    point = np.float32((px * (w - 1), py * (h - 1)))
    lines = [(quad[i] + normal[i] * widths[i], direction[i]) if i != side else (point, np.float32((dx, dy)))
             for i in range(4)]
    grown = corners_of(lines, 1e-6)
    # the border's side between the frame's corners (a field cut across a corner of the
    # frame is no side on one border)
    if grown is None or not all(-BORDER <= x <= w - 1 + BORDER and -BORDER <= y <= h - 1 + BORDER
                                for x, y in grown[[side, (side + 1) % 4]].tolist()):
        return None
    return grown


def _near(a: _Piece, b: _Piece) -> bool:
    """Whether two pieces' boxes lie within about a field's size of each other."""
    ax, ay, aw, ah = a.box
    bx, by, bw, bh = b.box
    gap = max(bx - (ax + aw), ax - (bx + bw), by - (ay + ah), ay - (by + bh), 0)
    return gap <= 0.75 * np.sqrt(a.area + b.area)


def _washed_out(chroma: np.ndarray, settings: FieldSettings) -> bool:
    """Whether the photo's colours are washed out: fewer than 1 % of its pixels reach a
    stretched chroma of `pale_photo`."""
    if settings.pale_level <= 0 or settings.pale_photo <= 0:
        return False
    return cv2.countNonZero(cv2.compare(chroma, settings.pale_photo, cv2.CMP_GE)) < 0.01 * chroma.size


def _inside(piece: _Piece, outlines: list[np.ndarray]) -> bool:
    x, y, w, h = piece.box
    centre = (x + w / 2, y + h / 2)
    return any(cv2.pointPolygonTest(q.reshape(-1, 1, 2), centre, False) >= 0 for q in outlines)


def framed_fields(channels: list[np.ndarray], white: np.ndarray, min_area: float,
                  settings: FieldSettings = FieldSettings(),
                  late: list[np.ndarray] | None = None,
                  unframed: list[np.ndarray] | None = None,
                  paler: list[np.ndarray] | None = None,
                  cut: list[np.ndarray] | None = None) -> list[np.ndarray]:
    """Card outlines (four corners, float32, in the picture's pixels, in no order of
    trust) grown from colour fields framed in white. `channels`: the picture's stretched
    B, G, R; `white`: their smallest (`vision.realmaps.whiteness`). A field may be one
    piece, or two of one hue, each four-sided, cut apart by its oval; two pieces that are
    each a framed field are two cards. Two pieces whose joined field runs along a side for
    less than `min_side_fill` but at least `pair_side_fill` (seen steeply, the oval between
    them reaches two of the field's sides) are put in `late` (when given) where no field
    outline lies: the caller takes them only where it finds no other outline. `unframed`:
    when a list, the quads of whole single fields (four sides filled) whose white frame
    could not be measured are appended to it (a frame too thin for this scale, or none).
    `paler`: when a list, the outlines found at the pale level (`FieldSettings.pale_level`)
    go there instead of among those returned: the caller decides where they may stand.
    `cut`: when a list, the outlines in view of fields running off the frame across two
    of their sides, framed in white on the three in view (`_grown_cut`), are appended to
    it: one piece, or two of one hue (the oval running off the frame too), where no field
    outline lies (not from the pale level)."""
    chroma = stretched_chroma(channels)
    levels = settings.chroma_levels + ((settings.pale_level,) if _washed_out(chroma, settings) else ())
    masks = [cv2.compare(chroma, level, cv2.CMP_GT) for level in levels]
    if settings.dark_level > 0:
        top = cv2.max(cv2.max(channels[0], channels[1]), channels[2])
        masks.append(cv2.compare(top, settings.dark_level, cv2.CMP_LE))
        if settings.dark_colour > 0:
            masks.append(cv2.bitwise_or(masks[-1], cv2.compare(chroma, settings.dark_colour, cv2.CMP_GT)))
    out: list[np.ndarray] = []
    lower: list[np.ndarray] = []   # pairs joined on the lower bar (`pair_side_fill`)
    offs: list[np.ndarray] = []    # fields running off the frame (`cut`)
    plain = 0   # outlines found before the wild mask's (which may fail the caller's check)
    for n, mask in enumerate(masks):
        hued = n < len(levels)   # dark pieces have no hue to tell them apart
        pieces = [p for p in _pieces(mask, channels, min_area, settings, hued) if not _inside(p, out)]
        pale = n >= len(settings.chroma_levels) and hued
        lost = None if pale else unframed   # (a pale piece is no full-bleed face: too dim to tell)
        before = (len(out), len(lower))
        wild = n > len(levels) and settings.dark_colour > 0   # dark with its oval
        plain = plain if wild else len(out)
        halves = []   # four-sided pieces that are no framed field alone
        for piece in pieces:
            if wild:   # a dark field whose oval reaches its sides or whose corners are clipped
                dark_mask = masks[len(levels)]
                if not _may_mix(piece, dark_mask, mask, settings.wild_mix):
                    continue
                dark, held = _shares(piece, dark_mask, mask)
                if min(dark, held - dark) < settings.wild_mix or \
                        _one_hue(piece, channels, masks[0]) > settings.wild_hues:
                    continue
                quad = _quad(piece.contour, settings)
                quad = quad if quad is not None else _side_quad(piece.contour, settings)
                grown = _grown(quad, mask, white, settings)
                if grown is not None:
                    out.append(grown)
                elif late is not None:
                    grown = _grown(quad, mask, white, settings, settings.pair_side_fill)
                    if grown is not None:
                        lower.append(grown)
                continue
            quad = _quad(piece.contour, settings)
            grown = _grown(quad, mask, white, settings, unframed=lost)
            if grown is not None:
                out.append(grown)
            else:
                halves.append(piece)
            if cut is not None and not pale:   # (grown whole past the border above: none the caller takes)
                grown = _grown_cut(piece.contour, quad, mask, white, settings)
                if grown is not None:
                    offs.append(grown)
        for k, a in enumerate(halves):
            for b in halves[k + 1:]:
                if _hue_apart(a.hue, b.hue) <= settings.hue_gap and _near(a, b):
                    quad = _quad(np.concatenate((a.contour, b.contour)), settings)
                    grown = _grown(quad, mask, white, settings, unframed=lost)
                    if grown is not None:
                        out.append(grown)
                    elif late is not None and settings.pair_side_fill < settings.min_side_fill:
                        grown = _grown(quad, mask, white, settings, settings.pair_side_fill)
                        if grown is not None:
                            lower.append(grown)
                    if cut is not None and not pale:
                        grown = _grown_cut(np.concatenate((a.contour, b.contour)), quad, mask, white, settings)
                        if grown is not None:
                            offs.append(grown)
        if pale:   # the pale level's outlines: a card's size at least (`pale_area`)
            least = settings.pale_area * min_area
            found = [q for q in out[before[0]:] + lower[before[1]:] if cv2.contourArea(q) >= least]
            del out[before[0]:], lower[before[1]:]
            (out if paler is None else paler).extend(found)
    for quad in lower:
        centre = tuple(float(v) for v in quad.mean(axis=0))
        # (a wild region's outline does not hold a pair back: the caller may refuse it)
        if not any(cv2.pointPolygonTest(q.reshape(-1, 1, 2), centre, False) >= 0 for q in out[:plain] + late):
            late.append(quad)
    if cut is not None:
        size = (white.shape[1], white.shape[0])
        held = [q for q in out if _border_side(q, size) is None]
        for quad in offs:
            centre = tuple(float(v) for v in quad.mean(axis=0))
            if not any(cv2.pointPolygonTest(q.reshape(-1, 1, 2), centre, False) >= 0 for q in held):
                cut.append(quad)
                held.append(quad)
    return out
