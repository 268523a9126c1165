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
* a card running off the frame: its three sides inside the frame are checked (85 %),
  and a quarter of its inside must be paper-white (a patch of wood grain or a shadow cut
  by the border is not); a corner's tip on the border is a whole card, checked so too;
* an outline holding two square-cornered outlines that do not overlap is cards side
  by side, not a card; one with a straight edge right across it, that leaves a piece
  more like a card than the outline, is a card lying over another (a fan): the top
  card and the strip that shows of the other;
* non-maximum suppression of the same card found from several maps;
* for taught decks and teaching photos (`framed_fields`), a face that is a colour field
  in a white frame outlined from its field (`vision.fieldfind`), before any other
  outline: whiteness and edges often give only half of such a face seen obliquely.
  Such a field in its white frame all round is evidence enough for wider gates (side
  ratio up to 3.3, corners 35-145 degrees: a card 60-65 degrees from overhead).
  A face with no white frame at all (`full_bleed`: the field runs to the card's edge) is
  outlined from its field too, and from the edges of every stretched channel, its outline
  followed where its colour changes (a green card on green felt under a warm lamp, a blue
  one on a dark cloth: no step in whiteness, little in grey).

It all runs on a copy of the frame scaled to `long_side` pixels (320: a card a ninth of
a 640-pixel frame is still 25 pixels wide there) and costs a few milliseconds.
`vision.detect` uses these outlines alone where no picture of the empty table is known
(its exact sources, at the full working size, cost three times as much and found no more
on real photos).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision import edgequads, inkcards, outlinescore, palecovered, shadedcards, wholecards
from vision.arrays import every_nth, moved
from vision.fieldfind import framed_fields
from vision.lines import corners_of
from vision.partial import over_frame_corner, restored_corner, visible_part
from vision.warp import along_and_across, order_corners, quad_overlap


@dataclass(frozen=True)
class RealSettings:
    long_side: int = 320                  # pixels of the copy the search runs on
    levels: tuple[float, ...] = (0.6, 0.75, 0.88)   # whiteness cuts (of 255)
    unopened_level: float = 0.8           # cuts from here up keep 1-pixel lines (a card's
                                          # thin white frame at 320 pixels)
    local_offsets: tuple[int, ...] = (15, 30, 50)          # above the local mean
    local_block: float = 0.4              # local mean window, share of the short side
    min_short_side: float = 20.0          # pixels at long_side (40 in a 640-pixel frame)
    side_ratio: tuple[float, float] = (1.0, 2.3)
    corner_angles: tuple[float, float] = (45.0, 135.0)
    max_opposite_ratio: float = 9.0       # longer / shorter of two opposite sides
    min_hull_fill: float = 0.85           # fitted quad area / hull area
    min_region_fill: float = 0.2          # region area / hull area
    min_outline: float = 0.75             # share of the outline with an edge or a step
    min_cut_outline: float = 0.85         # the same for a card running off the frame (its
                                          # three sides inside it)
    min_cut_paper: float = 0.25           # ... and this share of its inside paper-white
    cut_framed: float = 0.0               # ... or, short of that paper, just outside each of
                                          # its sides in the frame at least this share
                                          # paper-white (`_framed_round`: a colour field in its
                                          # white frame, a wild's black one; 0: never)
    paper: int = 200                      # whiteness of card stock (of 255)
    refine_reach: float = 1.5             # pixels at long_side: sides refitted this close
    min_step: int = 12                    # whiteness inside minus outside that counts
    max_area_fraction: float = 0.5
    overlap: float = 0.3                  # duplicates: overlap (of the smaller) above this
    min_relative_area: float = 0.2        # of the largest outline kept: smaller ones are dropped
    relative_unlike: float = 0.35         # ... of the largest no further than this from a
                                          # card's side ratio (log; not an envelope's)
    relative_paper: float = 0.3           # ... and this share of it paper-white (not a game's
                                          # case lying among the cards)
    field_saturation: int = 110           # a saturated colour field (HSV saturation above this)
    field_frames: tuple[float, ...] = (0.04, 0.07, 0.10, 0.13)  # white frames tried around it,
                                          # as a share of the field's short side
    covered_ratio: float = 3.2            # side ratio of a partly covered card's visible part
    covered_angles: tuple[float, float] = (70.0, 110.0)   # ... its corners near square
    min_covered_outline: float = 0.85     # ... its outline this well followed
    min_covered_paper: float = 0.4        # ... and this share of it paper-white
    split_depth: float = 0.08             # a dent this deep (of the region's size) may part two
    split_defects: int = 2                # ... cards: the deepest few are tried in pairs
    split_area: float = 2.5               # only regions this many times the smallest card
    split_fill: float = 0.8               # ... filling this share of their hull
    cut_cover: float = 0.9                # a straight edge across an outline this well
                                          # followed: a card lying over another
    cut_tilt: float = 0.15                # ... its ends at most this share of the outline
                                          # further along one side than the other
    cut_least: float = 0.25               # ... each piece at least this share of it
    cut_better: float = 0.1               # ... the top card's side ratio this much nearer a
                                          # card's (log) than the outline's
    cut_canny: tuple[int, ...] = (5, 3)   # ... Canny's low thresholds for faint edges, tried in
                                          # turn (two white cards side by side: 3)
    cut_skew: float = 15.0                # ... both pieces this near square-cornered
    whole_area: tuple[float, float] = (1.6, 3.0)   # an outline inside one this many times
                                          # its area (a shadow or a court picture cuts the
                                          # card: the piece is not reported over the whole)
    whole_inside: float = 0.85            # ... this share of it inside
    whole_better: float = 0.1             # ... the whole's side ratio this much nearer a card's
    whole_share: float = 0.15             # ... its outline followed at most this much less
    restore_corner: bool = True           # a card partly covered: its corner put back, or what
                                          # shows of it cut on the slant (`vision.partial`)
    min_restored_paper: float = 0.25      # ... a corner put back: this share of it paper-white
    line_quads: bool = True               # also outlines from line segments (`vision.edgequads`:
                                          # a card on white paper, a tray, a light counter)
    line_ratio: float = 2.0               # ... their side ratio at most
    line_angles: tuple[float, float] = (75.0, 105.0)   # ... their corners
    line_unlike: float = 0.3              # ... at most this far from a card's side ratio (log)
    line_explained: float = 0.75          # ... only around paper-white no outline followed this well
    line_explained_unlike: float = math.inf   # ... and this near a card's side ratio (log) holds
                                          # (any region judged a card's outline: what it holds
                                          # is that card's, a card lying beside it is not; 0.85
                                          # and 0.3 before: 159 of 290 train_ frames looked,
                                          # now 137, the same cards found)
    line_paper: float = 0.5               # ... holds, at least this share of the smallest card
    line_white: int = 180                 # ... whiteness of that paper (of 255; a card lying on
                                          # it in its shade is less white than `paper`)
    line_grow: float = 1.5                # ... looked for this many smallest short sides around
    line_sizes: tuple[float, float] = (0.6, 2.5)   # ... where no outline this many times
                                          # their area was found (a larger one: the card merged
                                          # with what it lies on; a smaller one: a piece of it)
    whole: wholecards.WholeSettings | None = wholecards.WholeSettings()   # also whole cards
                                          # from four straight sides where the maps give pieces
                                          # of them or merge them (`vision.wholecards`; None: not)
    shaded: shadedcards.ShadedSettings | None = shadedcards.ShadedSettings()   # also whole
                                          # cards a shadow cuts across, from the lit piece kept
                                          # (`vision.shadedcards`; None: not)
    pale: palecovered.PaleSettings | None = palecovered.PaleSettings()   # also partly covered
                                          # cards in the shade (`vision.palecovered`)
    ink: inkcards.InkSettings | None = inkcards.InkSettings()   # also pip cards placed from
                                          # their ink where no edge shows (`vision.inkcards`)
    colour_fields: bool = True            # also regions of saturated colour (`_fields`: a face
                                          # printed as a colour field in a white frame, which
                                          # whiteness cannot see; False for a deck with none)
    learned: bool = False                 # a learned model chooses among the outlines kept and
                                          # those refused (`vision.outlinescore`)
    framed_fields: bool = False           # also colour fields grown to their white frame
                                          # (`vision.fieldfind`: taught decks and teaching)
    trim_spurs: float = 0.0               # with a learned model or a trace: an edge group whose
                                          # hull no four corners fit (an edge running off it, a
                                          # shadow's line) is filled, opened by this share of the
                                          # square root of its area, and its trimmed outline
                                          # handed to the model as a refused one (`_trimmed`)
    print_groups: float = -1.0            # with a learned model or a trace, when >= 0: an edge
                                          # group lying inside another's cell (a card's print
                                          # whose own outline joined a bright neighbour's),
                                          # four-cornered, moved out by this share of the square
                                          # root of its area, handed to the model as a refused
                                          # outline (`_print_outlines`)
    print_fill: float = 0.75              # ... its four corners filling this share of its hull
    print_chance: float = 0.0             # ... taken by the learned model only at this chance
    field_side_ratio: float = 3.3         # framed fields: their side ratio at most (a field
                                          # and its white frame all round are the evidence; a
                                          # card 60-65 degrees from overhead: 1.55 / cos 62)
    field_angles: tuple[float, float] = (35.0, 145.0)   # ... their corners (a card that steep,
                                          # near a phone's wide lens, shows corners of 40-146
                                          # degrees; other outlines keep `corner_angles`)
    fine_fields: int = 480                # framed fields: where a whole colour field's white
                                          # frame was not measured at `long_side` (a frame ~2
                                          # pixels there, 1.4 mm) and no field outline holds it,
                                          # the framed-field search again on a copy this long
                                          # (0: never; `_fine_framed`)
    late_piece: float = 0.95              # framed fields: a late field outline (two pieces of a
                                          # steep field joined, `vision.fieldfind`) replaces an
                                          # outline found before it that lies inside it and is
                                          # at most this share of its area (a piece of the card;
                                          # 0: never, the late one only where nothing else lies)
    joined_cells: bool = False            # full-bleed faces: cells joined with their neighbours
                                          # looked at as regions too (`joined_cells`: an oval
                                          # reaching both long sides cuts a face's field in two)
    full_bleed: int = 0                   # taught colour decks: faces with no white frame (the
                                          # colour field runs to the card's edge; a cloth as
                                          # dark or of the same hue as the field): edges also
                                          # where any stretched channel changes (`colour_edges`),
                                          # an outline also followed where inside and outside
                                          # differ by this much in one stretched channel (of
                                          # 255; 0: none of this), and a whole colour field no
                                          # white frame grows, nor any framed outline holds,
                                          # taken as the card (`_bleeding`)


_LEVELS = np.arange(256, dtype=np.float64)


def stretched(image: np.ndarray) -> list[np.ndarray]:
    """B, G, R, each stretched from its 1st to its 99.5th percentile to 0..255 (uint8),
    the percentiles of every third pixel of every third row. (That sample copied a pixel
    at a time, `vision.arrays.every_nth`, and the three channels' tables made at once: the same
    numbers as `tests/realfind_reference.stretched`, a channel at a time.)"""
    sample = every_nth(image, 3)
    # running counts (whole numbers far below 2**24: exact in float32), and the 1st and
    # 99.5th percentile as np.searchsorted finds them in them: the count of values below
    # each mark, the marks float32 products of the float32 total
    cumulative = np.cumsum(np.stack([cv2.calcHist([sample], [c], None, [256], [0, 256]).ravel()
                                     for c in range(3)]), axis=1)
    total = cumulative[:, -1:]
    lo = np.count_nonzero(cumulative < total * 0.01, axis=1)
    hi = np.count_nonzero(cumulative < total * 0.995, axis=1)
    gain = [255.0 / max(float(h - l), 1.0) for l, h in zip(lo.tolist(), hi.tolist())]
    # (levels - lo) in doubles (a float32 level less an int64 count), times the gain, cut to
    # 0..255 and truncated: the plain code's steps a channel at a time
    luts = np.clip((_LEVELS - lo[:, None]) * np.array(gain)[:, None], 0, 255).astype(np.uint8)
    return [cv2.LUT(channel, lut) for channel, lut in zip(cv2.split(image), luts)]



def whiteness(image: np.ndarray, channels: list[np.ndarray] | None = None) -> np.ndarray:
    """Per pixel, the smallest of B, G, R after each channel is stretched from its 1st
    to its 99.5th percentile to 0..255 (uint8); `channels`: those, if already stretched."""
    b, g, r = channels or stretched(image)
    return cv2.min(cv2.min(b, g), r)


def colour_edges(channels: list[np.ndarray], edges: np.ndarray) -> np.ndarray:
    """`edges` (Canny's of the grey picture, 0/255) with those of each stretched channel
    added: a full-bleed colour field against a cloth as dark as itself, or of its hue but
    not its shade, changes in one channel more than in grey."""
    for channel in channels:
        edges = cv2.bitwise_or(edges, cv2.Canny(channel, 30, 90, L2gradient=True))
    return edges


_NEAR = np.ones((5, 5), np.uint8)   # reaches across a dilated edge (3 pixels) to the cell beyond


def joined_cells(edges: np.ndarray, min_area: float, max_area: float, most: int = 6,
                 least: float = 0.5, box_fill: float = 0.35) -> list[np.ndarray]:
    """Outer contours of cells between `edges` (dilated, 0/255) joined with two of their
    neighbours across an edge (the edges between them filled): a full-bleed face whose
    oval reaches both long sides is three cells (the field above the oval, the oval, the
    field below), none of them the card. Each cell of at most `max_area` is joined with
    every two of its `most` largest neighbours of that size (each at least `least` of
    `min_area`), where the three add up to a card's area (`min_area`..`max_area`) and fill
    at least `box_fill` of their bounding box. (Joined with one neighbour too: no-frame
    protocol 2 the same, card for card; left out.)"""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(cv2.bitwise_not(edges), connectivity=4)
    if count < 3 or count > 65000:
        return []
    labels16 = labels.astype(np.uint16)
    on_edge = edges > 0
    high = cv2.dilate(labels16, _NEAR)[on_edge].astype(np.int64)
    low = cv2.erode(np.where(on_edge, np.uint16(65535), labels16), _NEAR)[on_edge].astype(np.int64)
    areas = stats[:, cv2.CC_STAT_AREA]
    small = (areas <= max_area) & (areas >= least * min_area)
    small[0] = False   # (label 0: the edges)
    pairs = np.unique(low * count + high)
    a, b = pairs // count, pairs % count
    keep = (a != b) & (a < count) & (b > 0)
    a, b = a[keep], b[keep]
    keep = small[a] & small[b]
    neighbours: dict[int, list[int]] = {}
    for i, j in zip(a[keep].tolist(), b[keep].tolist()):
        neighbours.setdefault(i, []).append(j)
        neighbours.setdefault(j, []).append(i)
    groups: set[tuple[int, ...]] = set()
    for cell, near in neighbours.items():
        near = sorted(set(near), key=lambda j: -areas[j])[:most]
        for n, first in enumerate(near):
            for second in near[n + 1:]:
                groups.add(tuple(sorted((cell, first, second))))
    out = []
    chosen = np.zeros(count, np.uint8)
    for group in sorted(groups):
        ids = list(group)
        area = areas[ids].sum()
        if not min_area <= area <= max_area:
            continue
        x0 = int(stats[ids, cv2.CC_STAT_LEFT].min())
        y0 = int(stats[ids, cv2.CC_STAT_TOP].min())
        x1 = int((stats[ids, cv2.CC_STAT_LEFT] + stats[ids, cv2.CC_STAT_WIDTH]).max())
        y1 = int((stats[ids, cv2.CC_STAT_TOP] + stats[ids, cv2.CC_STAT_HEIGHT]).max())
        if area < box_fill * (x1 - x0) * (y1 - y0):   # (a card seen at 45 degrees fills about half)
            continue
        chosen[ids] = 255
        mask = chosen[labels[y0:y1, x0:x1]]
        chosen[ids] = 0
        mask = cv2.morphologyEx(cv2.copyMakeBorder(mask, 3, 3, 3, 3, cv2.BORDER_CONSTANT, value=0),
                                cv2.MORPH_CLOSE, _NEAR)
        contours = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
        if contours:
            out.append(max(contours, key=cv2.contourArea) + np.int32((x0 - 3, y0 - 3)))
    return out


def _regions(white: np.ndarray, edges: np.ndarray, settings: RealSettings,
             nested: list | None = None) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The regions of the whiteness levels, and those of the edges (cells and groups).
    (The masks are `opened_masks`': the plain code's masks bit for bit, for less.)
    `nested`: when a list, the edge groups lying inside a cell (the cells' holes) are
    appended to it."""
    contours: list[np.ndarray] = []
    for mask in opened_masks(white, settings):
        contours += cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
    cells = cv2.bitwise_not(edges)
    if settings.min_short_side ** 2 > SPECK_AREA:   # (a speck's contour is smaller than any card)
        cells = without_specks(cells)
    cells, hierarchy = cv2.findContours(cells, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    edged = [] if hierarchy is None else [cells[i] for i in np.flatnonzero(hierarchy[0][:, 3] == -1)]
    if nested is not None and hierarchy is not None:
        nested += [cells[i] for i in np.flatnonzero(hierarchy[0][:, 3] != -1)]
    edged += cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
    return contours, edged


_SMALL = np.ones((3, 3), np.uint8)
_SPECK_WINDOW = np.ones((5, 5), np.uint8)
_SPECK_RING = np.pad(np.zeros((5, 5), np.uint8), 1, constant_values=1)   # the 7 x 7 window's border
SPECK_AREA = 16   # the largest area a speck's contour encloses (4 x 4: its points are pixel centres)


def without_specks(mask: np.ndarray) -> np.ndarray:
    """The mask (uint8, 0/255) with its specks cleared: every 8-connected region lying
    inside a 5 x 5 window whose ring of pixels around it (the 7 x 7 window's border) is
    clear. Between the dilated edges two thirds of a frame's cell contours are such specks
    (282 of 417: gaps of 1-25 pixels); each is a contour no gate looks at (it encloses at most
    `SPECK_AREA`), but tracing it and making it a Python object costs ~7 k instructions.
    Exact: a region with a pixel in such a window lies wholly in it (leaving it needs a
    pixel of the ring), so what is cleared is whole regions (the dilation by the ring is
    0 where the ring is clear, the erosion by the window 0 on every pixel of a window
    so centred; outside the picture the dilation takes 0, as `cv2.findContours` does, and
    the erosion 255: a window centred outside is not used). A whole region cleared adds
    no border to another (its neighbours are clear already), and tracing a border looks
    at no pixel beyond its own region's neighbours: every other contour, outer border or
    hole, comes out the same, in the same order (tests/test_realfind_speedups.py)."""
    return cv2.bitwise_and(mask, cv2.erode(cv2.dilate(mask, _SPECK_RING), _SPECK_WINDOW))


def opened_masks(white: np.ndarray, settings: RealSettings) -> list[np.ndarray]:
    """The masks whose regions `_regions` lists (uint8 0/255), in its order: the whiteness
    above each of `levels` (opened by 3 x 3 below `unopened_level`), then above the local
    mean by each of `local_offsets`, opened (`above_local_mean`).

    An opening by a flat square takes the least and then the greatest value around each
    pixel, and neither moves a value across a cut: the opened mask of the pixels above a
    cut is the pixels of the opened picture above it, OpenCV's borders included (the
    least takes the outside as 255, the greatest as 0, in both). So each picture is opened
    once and cut at every level: the whiteness, and its excess over the local mean
    (`cv2.subtract` saturates at 0, which is above no offset: the excess is above an
    offset exactly where the whiteness is above the mean plus it, that sum saturating at
    255, which no whiteness is above)."""
    masks = []
    opened = None
    for level in settings.levels:
        if level < settings.unopened_level:
            if opened is None:
                opened = cv2.morphologyEx(white, cv2.MORPH_OPEN, _SMALL)
            masks.append(cv2.threshold(opened, int(level * 255), 255, cv2.THRESH_BINARY)[1])
        else:
            masks.append(cv2.threshold(white, int(level * 255), 255, cv2.THRESH_BINARY)[1])
    if settings.local_offsets and min(settings.local_offsets) < 0:   # (below the mean: the plain way)
        masks += [cv2.morphologyEx(mask, cv2.MORPH_OPEN, _SMALL) for mask in above_local_mean(white, settings)]
    elif settings.local_offsets:
        h, w = white.shape
        block = int(min(h, w) * settings.local_block) | 1
        mean = cv2.blur(white, (block, block), borderType=cv2.BORDER_REPLICATE)
        excess = cv2.morphologyEx(cv2.subtract(white, mean), cv2.MORPH_OPEN, _SMALL)
        masks += [cv2.threshold(excess, offset, 255, cv2.THRESH_BINARY)[1] for offset in settings.local_offsets]
    return masks


def above_local_mean(white: np.ndarray, settings: RealSettings) -> list[np.ndarray]:
    """For each of `local_offsets`, where the whiteness is more than that above its local
    mean (uint8 0/255; one local mean for every offset). The mean plus the offset
    saturates at 255, which no whiteness is above: the masks of wider integers."""
    h, w = white.shape
    block = int(min(h, w) * settings.local_block) | 1
    mean = cv2.blur(white, (block, block), borderType=cv2.BORDER_REPLICATE)
    return [cv2.compare(white, cv2.add(mean, offset), cv2.CMP_GT) for offset in settings.local_offsets]


def contour_areas(contours: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The number of points and `cv2.contourArea` of every contour, at once (a region's
    loop in Python cost more than the regions it looks at). The points are whole pixels,
    so the shoelace sum is exactly OpenCV's in doubles: every product and partial sum is
    a whole number far below 2**53, so doubles (which numpy multiplies a vector at a
    time, where int64 products go one by one) make no rounding in any order; a contour
    of one or two points encloses nothing (its terms cancel to 0). The contours' int32
    points (`cv2.findContours`') are read as one buffer (`bytes.join`: numpy's
    `concatenate` cost ~1.5 k instructions a contour, 664 a frame); other arrays are
    gathered the slower way."""
    if not contours:
        return np.zeros(0, np.int64), np.zeros(0)
    lengths = np.fromiter(map(len, contours), np.int64, len(contours))
    try:
        points = np.frombuffer(b"".join(contours), np.int32)
    except (BufferError, TypeError, ValueError):   # (an array not contiguous)
        points = None
    if points is None or points.size != 2 * lengths.sum() or not lengths.all():
        some = np.flatnonzero(lengths)
        areas = np.zeros(len(contours))
        if len(some):
            areas[some] = contour_areas([np.ascontiguousarray(contours[i], np.int32) for i in some.tolist()])[1]
        return lengths, areas
    x, y = points.reshape(-1, 2).T.astype(np.float64)
    ends = np.cumsum(lengths)
    starts = ends - lengths
    xb, yb = np.empty_like(x), np.empty_like(y)   # each point's predecessor, round each contour
    xb[1:], yb[1:] = x[:-1], y[:-1]
    xb[starts], yb[starts] = x[ends - 1], y[ends - 1]
    return lengths, np.abs(np.add.reduceat(xb * y - yb * x, starts)) * 0.5


def _fields(smooth: np.ndarray, settings: RealSettings) -> list[np.ndarray]:
    """Regions of saturated colour: the printed field of a deck whose face is one colour
    inside a white frame (the UNO family), which whiteness cannot see."""
    hsv = cv2.cvtColor(smooth, cv2.COLOR_BGR2HSV)
    _, saturated = cv2.threshold(hsv[:, :, 1], settings.field_saturation, 255, cv2.THRESH_BINARY)
    _, lit = cv2.threshold(hsv[:, :, 2], 60, 255, cv2.THRESH_BINARY)
    mask = cv2.morphologyEx(cv2.bitwise_and(saturated, lit), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return list(cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0])


def _moved_out(quad: np.ndarray, distance: float, keep: int = -1) -> np.ndarray:
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


def _framed(field: np.ndarray, edges: np.ndarray, white: np.ndarray, settings: RealSettings,
            channels: list[np.ndarray] | None = None) -> np.ndarray:
    """A colour field grown to the card's edge: of the frame widths tried, the one whose
    outline is best followed by an edge or a step (the field itself when none is)."""
    short = min(float(np.linalg.norm(field[1] - field[0])), float(np.linalg.norm(field[2] - field[1])))
    best, best_share = field, settings.min_outline
    for frame in settings.field_frames:
        grown = _moved_out(field, frame * short)
        share = outline_share(grown, edges, white, settings.min_step, channels=channels,
                              colour_step=settings.full_bleed)
        if share >= best_share:
            best, best_share = grown, share
    return best


def _four_corners(hull: np.ndarray, perimeter: float | None = None) -> np.ndarray | None:
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


def _trimmed(contour: np.ndarray, area: float, share: float, min_hull_fill: float) -> np.ndarray | None:
    """The four corners of an edge group filled and opened by `share` of the square root of
    its `area` (the thin lines running off a card's outline, a table's edge or a shadow's,
    taken off its body), or None when the opened region is no four-cornered shape."""
    x, y, w, h = cv2.boundingRect(contour)
    k = max(3, int(round(share * math.sqrt(area))) | 1)
    pad = k
    mask = np.zeros((h + 2 * pad, w + 2 * pad), np.uint8)
    cv2.drawContours(mask, [contour], -1, 255, cv2.FILLED, offset=(pad - x, pad - y))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    contours = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
    if not contours:
        return None
    body = max(contours, key=cv2.contourArea)
    hull = cv2.convexHull(body)
    quad = _four_corners(hull)
    if quad is None or cv2.contourArea(quad) < min_hull_fill * cv2.contourArea(hull):
        return None
    return quad + np.float32((x - pad, y - pad))


def _print_outlines(nested: list[np.ndarray], judge: "_Judge") -> list:
    """Edge groups lying inside a cell of the edges (`_regions`' `nested`): a card whose
    own outline joined a bright neighbour's (a towel, a page, a floor) still shows its
    print (a court picture's frame, pips and indices) as one group of edges inside that
    merged cell. Each of a card's size whose hull four corners fit (filling `print_fill` of
    it: a line running off the print, a gap in the card's own edge), moved out by
    `print_groups` of the square root of its area, inside the frame and of a card's shape, as `outlinescore.Considered` for the learned model."""
    settings, out = judge.settings, []
    lengths, areas = contour_areas(nested)
    for i in np.flatnonzero((lengths >= 4) & (areas >= judge.min_area) & (areas <= judge.max_area)).tolist():
        hull = cv2.convexHull(nested[i])
        hull_area = cv2.contourArea(hull)
        quad = _four_corners(hull)
        if quad is None or cv2.contourArea(quad) < settings.print_fill * hull_area:
            continue
        if settings.print_groups > 0:
            quad = _moved_out(quad, settings.print_groups * math.sqrt(float(areas[i])))
        if _cut_side(quad, judge.size) != -1 or not _shape_ok(quad, settings):
            continue
        # (not checked against the quads seen: one dropped unlisted for its hull fill is
        # seen too; `outlinescore.unique` lists each quad once)
        out.append(outlinescore.Considered(quad, float(cv2.contourArea(quad)), True))
    return out


def _print_bar(pool: list, chances: np.ndarray, least: float) -> np.ndarray:
    """The learned model's chances with a print outline's (`Considered.printed`) under
    `least` made 0: a print is a card's only when surer than an outline."""
    printed = np.array([c.printed for c in pool], bool)
    return np.where(printed & (chances < least), 0.0, chances)


BORDER = 2  # pixels: a corner this close to the frame's border lies on it
TIP = -2    # `_cut_side`: one corner on the border


def _cut_side(quad: np.ndarray, size: tuple[int, int]) -> int | None:
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
    """`_cut_side` a corner at a time (any number of points: the first four judged)."""
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


def _shape_ok(quad: np.ndarray, settings: RealSettings, longest: float | None = None,
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


_NEXT_ROWS, _BEFORE_ROWS = np.array(_NEXT), np.array((3, 0, 1, 2))


def _lengths(vectors: np.ndarray) -> np.ndarray:
    """Each row's length: `np.linalg.norm(vectors, axis=1)`'s own arithmetic, without the
    checks of its arguments that cost more than four rows' sums."""
    return np.sqrt(np.add.reduce(vectors * vectors, axis=1))


def _skew(quad: np.ndarray) -> float:
    """How far the quad's worst corner is from a right angle, in degrees."""
    v = quad[_NEXT_ROWS] - quad
    w = quad[_BEFORE_ROWS] - quad
    cos = (v * w).sum(axis=1) / np.maximum(_lengths(v) * _lengths(w), 1e-6)
    return float(np.degrees(np.abs(np.arcsin(np.clip(cos, -1, 1)))).max())


def _groups(candidates: list[tuple[float, float, np.ndarray]]) -> set[int]:
    """Indexes of the outlines that hold two outlines which do not overlap, each as
    square-cornered as the holder (the two halves of a court card's picture are cut on
    the slant): cards side by side, not a card."""
    boxes = [cv2.boundingRect(q) for _, _, q in candidates]
    skews: dict[int, float] = {}

    def skew(i: int) -> float:
        if i not in skews:
            skews[i] = _skew(candidates[i][2])
        return skews[i]

    groups = set()
    for i, (_, area, quad) in enumerate(candidates):
        x, y, w, h = boxes[i]
        inside = [j for j, (_, a, _) in enumerate(candidates)
                  if 0.2 * area < a < 0.7 * area and x <= boxes[j][0] + boxes[j][2] / 2 <= x + w
                  and y <= boxes[j][1] + boxes[j][3] / 2 <= y + h]
        if len(inside) < 2:
            continue
        inside = [j for j in inside if skew(j) <= skew(i) + 15 and quad_overlap(quad, candidates[j][2]) > 0.8]
        if any(candidates[j][1] + candidates[k][1] > 0.45 * area and
               quad_overlap(candidates[j][2], candidates[k][2]) < 0.2
               for n, j in enumerate(inside) for k in inside[n + 1:]):
            groups.add(i)
    return groups


def _pieces_of_wholes(candidates: list[tuple[float, float, np.ndarray]], settings: RealSettings) -> set[int]:
    """Indexes of the outlines that are a piece of a larger one more like a card (a shadow,
    a court card's picture or a glare cut the whiteness of a card into pieces, and a piece
    followed all round by an edge would otherwise win over the whole card's outline)."""
    unlike = [_unlike_card(q) for _, _, q in candidates]
    pieces = set()
    for i, (share, area, quad) in enumerate(candidates):
        for j, (whole_share, whole_area, whole) in enumerate(candidates):
            if settings.whole_area[0] * area <= whole_area <= settings.whole_area[1] * area and \
                    unlike[j] + settings.whole_better < unlike[i] and \
                    whole_share >= share - settings.whole_share and \
                    quad_overlap(quad, whole) >= settings.whole_inside:
                pieces.add(i)
                break
    return pieces


def _paper_share(quad: np.ndarray, white: np.ndarray, paper: int) -> float:
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


FRAME_WHITE = 150                          # `_framed_round`: a printed frame's whiteness (of 255;
                                           # `vision.fieldfind.FieldSettings.frame_white`)
_ROUND = np.linspace(0.1, 0.9, 15, dtype=np.float32)[:, None]


def _framed_round(quad: np.ndarray, white: np.ndarray, skip_side: int) -> float:
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


def _refined(frame: np.ndarray, quad: np.ndarray, reach: float) -> np.ndarray:
    """The quad found on the half-size copy, its sides fitted to the frame's own edges
    within `reach` pixels (the reader needs the outline to a pixel or two; a side with
    too few edge points, such as the frame's border of a card running off it, stays).
    The edges are found in a strip along each side (`_refined_strips`) where the four
    strips hold fewer pixels than the quad's box, else in the box (`_refined_box`, the
    old way): a strip's edges are the box's but where Canny's hysteresis joins a weak
    edge pixel to a strong one through the box beyond the strip (docs/vision.md, "The
    whole new frame, session 18": the same readings for 0.38 of the boxes' pixels)."""
    h, w = frame.shape[:2]
    x0, y0 = np.maximum(np.floor(quad.min(axis=0) - reach - 2), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(quad.max(axis=0) + reach + 3), (w, h)).astype(int)
    strips = _strips(quad, reach, (int(x0), int(y0), int(x1), int(y1)))
    if sum(_area(strip) for strip, _ in strips) < (x1 - x0) * (y1 - y0):
        return _refined_strips(frame, quad, reach, strips)
    return _refined_box(frame, quad, reach)


def _refined_box(frame: np.ndarray, quad: np.ndarray, reach: float) -> np.ndarray:
    """`_refined` with the edges found in the quad's whole box at once."""
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
    """`_refined` with each side's edges found in its own strip only (`_strips`), the four
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


_SPLIT = object()  # `_Judge`: a region that may be cards touching (try its pieces)
WHITE, EDGED, FIELD, PIECE = "white", "edged", "field", "piece"   # where a region comes from


@dataclass(frozen=True)
class _Gated:
    """An outline past `_Judge`'s gates: what its outline check looks at (`looked`, with
    side `cut` left out) and what the verdict on it needs."""
    quad: np.ndarray
    area: float
    looked: np.ndarray     # the quad, or a card over the frame's corner moved past its border
    cut: int               # `_cut_side`: the side on the frame's border, -1 or TIP
    corner: bool           # a card over the frame's corner
    restored: bool         # a covered corner put back
    covered: bool          # the visible part of a card partly covered


@dataclass
class _Judge:
    """Whether one region is a card's outline: the gates and the outline check, with the
    frame's maps at hand. `kind`: where the region comes from (WHITE, EDGED, FIELD, or a
    PIECE of a white region cut in two). Returns (outline share, area, quad), None, or
    `_SPLIT` for a white region too far from one card's shape that may be two cards
    touching or overlapping. `gates` and `verdict` are its two halves around the outline
    check, so that a frame's regions can be checked all at once (`outline_shares`)."""
    settings: RealSettings
    edges: np.ndarray
    white: np.ndarray
    size: tuple[int, int]
    min_area: float
    max_area: float
    seen: set
    flat: np.ndarray | None = None   # the whiteness with the light evened out, made when needed
    pale: list | None = None   # partly covered outlines refused for their paper alone
                               # (`vision.palecovered`), when a list
    refused: list | None = None   # when a list, every outline the shape gates or the verdict
                                  # refused (`outlinescore.Considered`)
    channels: list[np.ndarray] | None = None   # stretched B, G, R for the outline check's
                                               # colour step (`RealSettings.full_bleed`)

    def _face_in_shade(self, quad: np.ndarray, share: float) -> bool:
        """Whether a card whose corner's tip is off the frame, too little of it paper-white
        (a card lying in the shade), is well outlined and shows a card's face once the
        light is evened out (`vision.shadedcards`): it shows nearly all of its face."""
        shaded = self.settings.shaded
        if shaded is None or share < self.settings.min_cut_outline:
            return False
        if self.flat is None:
            self.flat = shadedcards.shade_flattened(self.white, shaded)
        return shadedcards.face_in_shade(quad, self.white, self.flat, shaded.min_tip_lit,
                                         self.settings.whole or wholecards.WholeSettings())

    def _trim(self, contour: np.ndarray, area: float, kind: str) -> None:
        """An edge group no four corners fit: its outline trimmed of thin spurs (`_trimmed`)
        listed in `refused` for the learned model, when of a card's shape."""
        if self.refused is None or kind != EDGED or self.settings.trim_spurs <= 0 or area > self.max_area:
            return
        quad = _trimmed(contour, area, self.settings.trim_spurs, self.settings.min_hull_fill)
        if quad is None or _cut_side(quad, self.size) is None or not _shape_ok(quad, self.settings):
            return
        key = tuple((quad.ravel() / 3).astype(int).tolist())
        if key not in self.seen:
            self.seen.add(key)
            self.refused.append(outlinescore.Considered(quad, float(cv2.contourArea(quad))))

    def __call__(self, contour: np.ndarray, area: float, kind: str):
        gated = self.gates(contour, area, kind)
        if gated is None or gated is _SPLIT:
            return gated
        return self.verdict(gated, outline_share(gated.looked, self.edges, self.white, self.settings.min_step,
                                                 skip_side=gated.cut, channels=self.channels,
                                                 colour_step=self.settings.full_bleed))

    def gates(self, contour: np.ndarray, area: float, kind: str):
        """None, `_SPLIT`, or the `_Gated` outline whose outline check decides."""
        settings = self.settings
        field, split = kind == FIELD, kind == WHITE
        if area > self.max_area and not split:
            return None
        hull = cv2.convexHull(contour)
        hull_area = cv2.contourArea(hull)
        if area < settings.min_region_fill * hull_area:
            return None
        maybe_two = split and area >= settings.split_area * self.min_area and \
            area >= settings.split_fill * hull_area
        if area > self.max_area:
            return _SPLIT if maybe_two else None
        perimeter = cv2.arcLength(hull, True)   # (the same float from the hull's points as floats)
        quad = _four_corners(hull, perimeter)
        restored = quad is None and settings.restore_corner and not field
        if restored:   # a corner covered (by a shoe, a knife)
            quad = restored_corner(hull, CARD_RATIO, hull_area, perimeter)
        if quad is None:
            self._trim(contour, area, kind)
            return _SPLIT if maybe_two else None
        key = tuple((quad.ravel() / 3).astype(int).tolist())  # the same outline from another map
        if key in self.seen:
            return None
        self.seen.add(key)
        quad_area = cv2.contourArea(quad)
        if quad_area < settings.min_hull_fill * hull_area:
            restored = settings.restore_corner and not field
            quad = restored_corner(hull, CARD_RATIO, hull_area, perimeter) if restored else None
            if quad is None:
                self._trim(contour, area, kind)
                return _SPLIT if maybe_two else None
            quad_area = cv2.contourArea(quad)
        covered, cut = False, _cut_side(quad, self.size)
        if not _shape_ok(quad, settings):
            # the visible part of a card partly covered (by a book, a shoe, another card)
            # is longer than a card, or cut on the slant: accepted paper-white and well edged;
            # that of a card running off the frame may be as long, its corners less square
            covered = not field and (_shape_ok(quad, settings, settings.covered_ratio, settings.covered_angles)
                                     or (settings.restore_corner and visible_part(quad, CARD_RATIO)))
            if not covered and not (settings.restore_corner and cut is not None and cut >= 0 and
                                    _shape_ok(quad, settings, settings.covered_ratio)):
                if self.refused is not None:
                    self.refused.append(outlinescore.Considered(quad, quad_area))
                return _SPLIT if maybe_two else None
        corner = None   # a card over the frame's corner: the outline checked off its two borders
        if cut is None and settings.restore_corner and kind == WHITE:
            corner = over_frame_corner(quad, self.size, BORDER)
            cut = None if corner is None else TIP
        if cut is None or (cut != -1 and kind in (FIELD, PIECE)):  # (a piece: one guess is enough)
            return None
        if field:
            quad = _framed(quad, self.edges, self.white, settings, self.channels)
            quad_area = cv2.contourArea(quad)
            if _cut_side(quad, self.size) != -1 or not _shape_ok(quad, settings):  # grown past the border
                return None
        return _Gated(quad, quad_area, quad if corner is None else corner, cut, corner is not None,
                      restored, covered)

    def verdict(self, gated: _Gated, share: float) -> tuple[float, float, np.ndarray] | None:
        """(outline share, area, quad) for an outline past the gates whose outline check
        gave `share`, or None (and the refused outline listed in `refused`, when a list)."""
        outline = self._verdict(gated, share)
        if outline is None and self.refused is not None:
            self.refused.append(outlinescore.Considered(gated.quad, gated.area))
        return outline

    def _verdict(self, gated: _Gated, share: float) -> tuple[float, float, np.ndarray] | None:
        settings, quad, cut = self.settings, gated.quad, gated.cut
        if (cut >= 0 or gated.corner) and share < settings.min_cut_outline:
            return None
        framed = False   # a colour field in its white frame, cut by the border
        if cut != -1 and _paper_share(quad, self.white, settings.paper) < settings.min_cut_paper and \
                not (cut == TIP and not gated.corner and self._face_in_shade(quad, share)):
            framed = settings.cut_framed > 0 and not gated.corner and \
                _framed_round(quad, self.white, cut) >= settings.cut_framed
            if not framed:
                return None
        if (gated.restored or gated.covered) and share < settings.min_covered_outline:
            return None
        if (gated.restored or gated.covered) and _paper_share(quad, self.white, settings.paper) < \
                max(settings.min_restored_paper if gated.restored else 0.0,
                    settings.min_covered_paper if gated.covered else 0.0):
            if self.pale is not None and cut == -1:
                self.pale.append((share, gated.area, quad))
            return None
        if share >= settings.min_outline:
            if framed:   # grown out to its frame's outer edge
                quad = _framed_cut(quad, cut, self.edges, self.white, settings)
                return share, float(cv2.contourArea(quad)), quad
            return share, gated.area, quad
        return None


def _framed_cut(field: np.ndarray, cut: int, edges: np.ndarray, white: np.ndarray,
                settings: RealSettings) -> np.ndarray:
    """A colour field cut by the frame's border (side `cut`, or TIP) grown to the card's
    edge: its sides in view moved out by the frame widths tried (`field_frames`, of its
    shortest side in view), the one whose outline is best followed (at least
    `min_cut_outline`, the border's side left out); the field itself when none is."""
    skip = cut if cut >= 0 else -1
    q = np.asarray(field, np.float32).reshape(4, 2)
    sides = [float(np.linalg.norm(q[(i + 1) % 4] - q[i])) for i in range(4) if i != skip]
    best, best_share = field, settings.min_cut_outline
    for frame in settings.field_frames:
        grown = _moved_out(q, frame * min(sides), skip)
        share = outline_share(grown, edges, white, settings.min_step, skip_side=skip)
        if share >= best_share:
            best, best_share = grown, share
    return best


def _pieces(contour: np.ndarray, settings: RealSettings) -> list[tuple[np.ndarray, np.ndarray]]:
    """The region cut in two between two of its deepest dents (two cards touching at a
    corner or overlapping), for each pair of the deepest few convexity defects."""
    hull = cv2.convexHull(contour, returnPoints=False)
    if hull is None or len(hull) < 4:
        return []
    try:
        defects = cv2.convexityDefects(contour, hull)
    except cv2.error:  # a self-crossing outline
        return []
    if defects is None:
        return []
    defects = defects.reshape(-1, 4)
    size = math.sqrt(cv2.contourArea(contour))
    deep = defects[defects[:, 3] / 256.0 >= settings.split_depth * size]
    if len(deep) < 2:
        return []
    far = sorted(int(d[2]) for d in deep[np.argsort(-deep[:, 3])][:settings.split_defects])
    points = contour.reshape(-1, 2)
    return [(points[i:j + 1].reshape(-1, 1, 2), np.concatenate((points[j:], points[:i + 1])).reshape(-1, 1, 2))
            for n, i in enumerate(far) for j in far[n + 1:]]


def _halves(contour: np.ndarray, judge: _Judge) -> list[tuple[float, float, np.ndarray]]:
    """The outlines of a region that is two cards: the cuts whose both halves are cards
    (a half alone is too easily a patch of a checked cloth or of glare)."""
    found = []
    for pair in _pieces(contour, judge.settings):
        halves = []
        for piece in pair:
            area = cv2.contourArea(piece)
            outline = judge(piece, area, PIECE) if judge.min_area <= area <= judge.max_area else None
            if outline is None or outline is _SPLIT:
                break
            halves.append(outline)
        else:
            found += halves
    return found


CARD_RATIO = 88 / 63   # a playing card's long side over its short side


def _unlike_card(quad: np.ndarray) -> float:
    """How far the quad's side ratio is from a card's (absolute log of their ratio)."""
    sides = _lengths(quad[_NEXT_ROWS] - quad)
    a, b = sides[0] + sides[2], sides[1] + sides[3]
    return abs(math.log(max(a, b) / max(min(a, b), 1e-6) / CARD_RATIO))


_N = 64   # pixels of the square an outline is looked at in for a straight edge across it


@lru_cache(maxsize=4)
def _line_table(least: float, tilt: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For every line from the top row to the bottom row of an N x N picture (starting
    `least` of N from either side, its end shifted at most `tilt` of N): the flat indexes
    of every other row's pixel on it, and where each line starts and ends."""
    starts = np.arange(int(least * _N), int((1 - least) * _N))
    shifts = np.arange(-int(tilt * _N), int(tilt * _N) + 1)
    rows = np.arange(3, _N - 3)
    xs = starts[:, None, None] + shifts[None, :, None] * (rows / (_N - 1))[None, None, :]
    xs = np.clip(np.round(xs), 0, _N - 1).astype(np.int32)
    table = (rows * _N)[None, None, :] + xs
    ends = np.broadcast_to(starts[:, None] + shifts[None, :], table.shape[:2])
    return table.reshape(-1, len(rows)), np.repeat(starts, len(shifts)), ends.ravel()


@lru_cache(maxsize=4)
def _line_runs(least: float, tilt: float) -> tuple[np.ndarray, ...] | None:
    """`_line_table`'s lines as runs of rows: with the shipped settings a line from start
    column s with shift d crosses row r at s + o(d, r) for every s (d r / (N - 1) is never
    a half, and no line reaches the picture's side: checked here, not assumed); the rows
    where o(d, r) stays the same make a run.
    For each run, the flat indexes (in `_best_line`'s running counts, N - 5 rows of N)
    of the counts after its last row and before its first, at every start column (runs x
    starts), and where each shift's runs begin; None when some line's columns are not
    its start's plus an offset shared by every start (then `_best_line` gathers every
    pixel)."""
    table, starts, _ = _line_table(least, tilt)
    rows = np.arange(3, _N - 3)
    shifts = len(table) // len(np.unique(starts))
    columns = (table - rows * _N).reshape(-1, shifts, len(rows))        # starts x shifts x rows
    offsets = columns - starts.reshape(-1, shifts)[:, :, None]
    if not (offsets == offsets[:1]).all():
        return None
    first, after, offset, begins = [], [], [], []
    for d in range(shifts):
        o = offsets[0, d]
        cuts = [0] + (np.flatnonzero(np.diff(o)) + 1).tolist() + [len(rows)]
        begins.append(len(first))
        for r0, r1 in zip(cuts[:-1], cuts[1:]):
            first.append(r0)
            after.append(r1)
            offset.append(int(o[r0]))
    at = np.unique(starts)[None, :] + np.array(offset)[:, None]
    return (np.array(after)[:, None] * _N + at, np.array(first)[:, None] * _N + at, np.array(begins))


def _best_line(warped: np.ndarray, settings: RealSettings) -> tuple[float, int, int]:
    """The best-edged straight line from the top row to the bottom row of `warped`
    (N x N): its share edged, and where it starts and ends (columns). Each line's
    pixels are counted a run of rows at a time, from the columns' running counts (the
    counts of gathering every line's every pixel, tests/realfind_reference.py)."""
    table, starts, ends = _line_table(settings.cut_least, settings.cut_tilt)
    runs = _line_runs(settings.cut_least, settings.cut_tilt)
    if runs is None:
        hits = np.count_nonzero(warped.ravel()[table], axis=1)
    else:
        after, before, begins = runs
        # counted[r, x]: the edge pixels of column x in rows 3 .. 3 + r - 1 (from the integral)
        summed = cv2.integral((warped[3:_N - 3] != 0).view(np.uint8))
        counted = (summed[:, 1:] - summed[:, :-1]).ravel()
        by_run = (counted.take(after) - counted.take(before))   # runs x starts
        hits = np.add.reduceat(by_run, begins, axis=0).T.ravel()   # (start, shift), as the table
    best = int(np.argmax(hits))
    return hits[best] / table.shape[1], int(starts[best]), int(ends[best])


def _cut_over(quad: np.ndarray, edges: np.ndarray, gray: np.ndarray, settings: RealSettings) -> list[np.ndarray]:
    """The outline, or the two pieces it falls into along a straight edge running right
    across it: a card lying over another, shifted sideways, whose outlines merge into one
    shape of about a card's (the top card, and what shows of the other). A court card's
    printed frame is such an edge too, but too near a side (`cut_least`), and cutting a
    single card along it leaves a piece less like a card than the card (`cut_better`).
    The edge of a white card over a white card is faint: where the frame's edges give no
    cut, Canny's at `cut_canny` on the outline's box are tried, the fainter after."""
    pieces = _cut_along(quad, edges, settings)
    if len(pieces) == 1 and settings.cut_canny and _unlike_card(quad) > settings.cut_better:
        x, y, w, h = cv2.boundingRect(np.round(quad).astype(np.int32))
        x0, y0 = max(x - 2, 0), max(y - 2, 0)
        roi = gray[y0:y + h + 2, x0:x + w + 2]
        offset = np.float32((x0, y0))
        for low in settings.cut_canny:
            faint = cv2.dilate(cv2.Canny(roi, low, 3 * low, L2gradient=True), np.ones((3, 3), np.uint8))
            pieces = [p + offset for p in _cut_along(quad - offset, faint, settings)]
            if len(pieces) > 1:
                break
    return pieces


def _cut_along(quad: np.ndarray, edges: np.ndarray, settings: RealSettings) -> list[np.ndarray]:
    """`_cut_over` with one edge map."""
    if _unlike_card(quad) <= settings.cut_better:  # (no piece could be more like a card)
        return [quad]
    corners = order_corners(quad)
    square = np.array(((0, 0), (_N - 1, 0), (_N - 1, _N - 1), (0, _N - 1)), np.float32)
    to_square = cv2.getPerspectiveTransform(corners, square)
    warped = cv2.warpPerspective(edges, to_square, (_N, _N), flags=cv2.INTER_LINEAR)
    back = np.linalg.inv(to_square)
    m = _N - 1
    (cover, a, b), turn = max((_best_line(warped, settings), False), (_best_line(warped.T, settings), True),
                              key=lambda line: line[0][0])
    if cover < settings.cut_cover:
        return [quad]
    pieces = []
    for piece in (((0, 0), (a, 0), (b, m), (0, m)), ((a, 0), (m, 0), (m, m), (b, m))):
        pts = np.array(piece, np.float32)[:, ::-1] if turn else np.array(piece, np.float32)
        pieces.append(cv2.perspectiveTransform(np.ascontiguousarray(pts).reshape(-1, 1, 2), back).reshape(4, 2))
    card, rest = pieces if cv2.contourArea(pieces[0]) >= cv2.contourArea(pieces[1]) else pieces[::-1]
    if not _shape_ok(card, settings) or max(_skew(card), _skew(rest)) > settings.cut_skew or \
            _unlike_card(card) + settings.cut_better >= _unlike_card(quad):
        return [quad]
    return [card, rest]


def _framed_fields(channels: list[np.ndarray], white: np.ndarray, edges: np.ndarray, min_area: float,
                   max_area: float, settings: RealSettings,
                   unframed: list[np.ndarray] | None = None, coloured: bool = False) -> tuple[list, list]:
    """`vision.fieldfind`'s outlines that pass the gates and the outline check here,
    largest first; and its late ones (two pieces of a field joined on the lower bar, to be
    taken only where no other outline lies), the same way. `unframed`: when a list, the
    whole fields whose frame was not measured and that no outline found here holds.
    `coloured`: the outline check takes the colour step (`RealSettings.full_bleed`)."""
    h, w = white.shape
    late: list[np.ndarray] = []
    missed: list[np.ndarray] | None = [] if unframed is not None else None
    fields = framed_fields(channels, white, min_area, late=late, unframed=missed)
    out = [_passed(quads, edges, white, min_area, max_area, (w, h), settings, channels if coloured else None)
           for quads in (fields, late)]
    if unframed is not None:   # of a card's size and shape, where no outline found holds it
        held = [q for part in out for _, _, q in part]
        unframed += [q for q in missed if min_area <= cv2.contourArea(q) <= max_area and
                     _shape_ok(q, settings, settings.field_side_ratio, settings.field_angles) and
                     not any(cv2.pointPolygonTest(o.reshape(-1, 1, 2), tuple(float(v) for v in q.mean(axis=0)),
                                                  False) >= 0 for o in held)]
    return out


def _fine_framed(frame: np.ndarray, scale: float, settings: RealSettings) -> tuple[list, list]:
    """The framed-field search (`_framed_fields`) on a copy of `frame` `settings.fine_fields`
    pixels long, its outlines in the pixels of the `scale` copy: a thin white frame (1.4 mm,
    about 2 pixels at 320) blurs below the frame's whiteness there and is found at 480."""
    h, w = frame.shape[:2]
    fine = min(1.0, settings.fine_fields / max(h, w))
    size = (max(1, round(w * fine)), max(1, round(h * fine)))
    small = cv2.resize(frame, size, interpolation=cv2.INTER_AREA if fine <= 0.5 else cv2.INTER_LINEAR) \
        if fine < 1 else frame
    if small.ndim == 2:
        small = cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)
    smooth = cv2.GaussianBlur(small, (3, 3), 0)
    channels = stretched(smooth)
    white = whiteness(smooth, channels)
    gray = cv2.cvtColor(smooth, cv2.COLOR_BGR2GRAY)
    edges = cv2.dilate(cv2.Canny(gray, 30, 90, L2gradient=True), np.ones((3, 3), np.uint8))
    ratio = fine / scale
    sh, sw = white.shape
    framed, late = _framed_fields(channels, white, edges, (settings.min_short_side * ratio) ** 2,
                                  settings.max_area_fraction * sh * sw, settings)
    return [[(share, area / ratio ** 2, (quad / ratio).astype(np.float32)) for share, area, quad in part]
            for part in (framed, late)]


def _passed(quads: list[np.ndarray], edges: np.ndarray, white: np.ndarray, min_area: float,
            max_area: float, size: tuple[int, int], settings: RealSettings,
            channels: list[np.ndarray] | None = None) -> list:
    out = []
    for quad in quads:
        area = cv2.contourArea(quad)
        # a corner's tip past the frame's border is a whole card (its field and frame found)
        if min_area <= area <= max_area and _cut_side(quad, size) in (-1, TIP) and \
                _shape_ok(quad, settings, settings.field_side_ratio, settings.field_angles):
            share = outline_share(quad, edges, white, settings.min_step, channels=channels,
                                  colour_step=settings.full_bleed)
            if share >= settings.min_outline:
                out.append((share, area, quad))
    return sorted(out, key=lambda c: -c[1])   # a whole field before any piece of it


def _line_candidates(gray: np.ndarray, white: np.ndarray, candidates: list, size: tuple[int, int],
                     max_area: float, settings: RealSettings) -> tuple[list, set[int], list[np.ndarray]]:
    """Outlines of cards lying on something as white as their paper, from straight line
    segments (`vision.edgequads`), where no outline of about their size was found (one
    several times larger around them is the card merged with the paper it lies on): the
    new outlines, and the indexes of the candidates they replace (the one piece of the
    card found inside: a court picture, the pips), and the quads the gates let through
    whose inside was no card's face (a court card's printed frame among them). Looked for
    only around paper-white that no outline judged a card's holds (`line_explained`)."""
    box = _unexplained_paper(white, candidates, settings, least=settings.line_explained,
                             unlike=settings.line_explained_unlike)
    if box is None:
        return [], set(), []
    largest = math.sqrt(2 * max_area)
    low, high = settings.line_sizes
    near: dict[int, list[tuple[int, float]]] = {}
    # (an outline whose box lies apart from the quad's does not overlap it: not looked at)
    spans = [_span(q) for _, _, q in candidates]

    def wanted(quad: np.ndarray, kept: list) -> bool:
        if _cut_side(quad, size) != -1 or _unlike_card(quad) > settings.line_unlike or \
                not _shape_ok(quad, settings, settings.line_ratio, settings.line_angles) or \
                any(quad_overlap(quad, q) >= settings.overlap for _, _, q in kept):
            return False
        area = cv2.contourArea(quad)
        x0, y0, x1, y1 = _span(quad)
        around = [(i, a / area) for i, (_, a, q) in enumerate(candidates)
                  if spans[i][0] < x1 and x0 < spans[i][2] and spans[i][1] < y1 and y0 < spans[i][3]
                  and quad_overlap(quad, q) >= settings.overlap]
        near[id(quad)] = around
        if any(low <= ratio < high for _, ratio in around):   # an outline of its size was found
            return False
        approved.append(quad)
        return True

    approved: list[np.ndarray] = []
    new = edgequads.find(gray, white, box, (settings.min_short_side, largest), wanted)
    replaced: set[int] = set()
    for _, _, quad in new:
        pieces = [i for i, ratio in near[id(quad)]
                  if ratio < low and quad_overlap(quad, candidates[i][2]) >= settings.whole_inside]
        # one piece (found from several maps); two apart are cards side by side, `_groups`' to judge
        if all(quad_overlap(candidates[i][2], candidates[j][2]) >= settings.overlap
               for n, i in enumerate(pieces) for j in pieces[n + 1:]):
            replaced.update(pieces)
    return new, replaced, [q for q in approved if not any(q is n for _, _, n in new)]


def _span(quad: np.ndarray) -> tuple[float, float, float, float]:
    """The quad's box: least x and y, greatest x and y."""
    xs, ys = quad[:, 0].tolist(), quad[:, 1].tolist()
    return min(xs), min(ys), max(xs), max(ys)


def _unexplained_paper(white: np.ndarray, candidates: list, settings: RealSettings,
                       page: float = 0.0, least: float = 0.85,
                       unlike: float | None = None, holes: int = 0) -> tuple[int, ...] | None:
    """The box (x, y, w, h) around the patches of paper-white, each at least a share of
    the smallest card, that no outline followed at least `least` of its length and within
    `unlike` of a card's side ratio (log; `line_unlike` when None) holds, grown by a card's
    short side all round; None when there is none, or when none is at least `page`
    smallest short sides squared with at least `holes` holes in it (ink: the pips and
    index of a card merged with the page it lies on)."""
    _, paper = cv2.threshold(white, settings.line_white - 1, 255, cv2.THRESH_BINARY)
    unlike = settings.line_unlike if unlike is None else unlike
    for share, _, quad in candidates:
        if share >= least and (unlike == math.inf or _unlike_card(quad) <= unlike):
            corners = np.round(quad).astype(np.int32)
            cv2.fillConvexPoly(paper, corners, 0)
            cv2.polylines(paper, [corners], True, 0, 5)
    patches = cv2.findContours(paper, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
    _, areas = contour_areas(list(patches))
    if not len(areas) or areas.max() < page * settings.min_short_side ** 2:
        return None
    if holes and not _holed_page(paper, page * settings.min_short_side ** 2, holes):
        return None
    big = np.array([cv2.boundingRect(patches[i]) for i in
                    np.flatnonzero(areas >= settings.line_paper * settings.min_short_side ** 2).tolist()])
    if not len(big):
        return None
    grow = int(settings.line_grow * settings.min_short_side)
    x0 = max(int(big[:, 0].min()) - grow, 0)
    y0 = max(int(big[:, 1].min()) - grow, 0)
    x1 = min(int((big[:, 0] + big[:, 2]).max()) + grow, white.shape[1])
    y1 = min(int((big[:, 1] + big[:, 3]).max()) + grow, white.shape[0])
    return x0, y0, x1 - x0, y1 - y0


def _holed_page(paper: np.ndarray, least: float, holes: int) -> bool:
    """Whether a patch of `paper` (its outer outlines are `cv2.RETR_EXTERNAL`'s) of at
    least `least` pixels has at least `holes` holes in it."""
    outlines, hierarchy = cv2.findContours(paper, cv2.RETR_TREE, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return False
    parents = hierarchy[0][:, 3]
    outer = np.flatnonzero(parents == -1)
    _, areas = contour_areas([outlines[i] for i in outer.tolist()])
    count = np.bincount(parents[parents >= 0], minlength=len(outlines))
    return bool(np.any((areas >= least) & (count[outer] >= holes)))


def _whole_gates(quad: np.ndarray, angles: tuple[float, float], unlike: float, edges: np.ndarray,
                 white: np.ndarray, size: tuple[int, int], settings: RealSettings,
                 channels: list[np.ndarray] | None = None) -> float | None:
    """`vision.wholecards`' gates: a whole card inside the frame, its side ratio within
    `unlike` of a card's, its corners within `angles`: its outline share, or None."""
    if _cut_side(quad, size) != -1 or _unlike_card(quad) > unlike or \
            not _shape_ok(quad, settings, settings.line_ratio, angles):
        return None
    return outline_share(quad, edges, white, settings.min_step, channels=channels,
                         colour_step=settings.full_bleed)


def _bleeding(fields: list[np.ndarray], held: list[np.ndarray], edges: np.ndarray, white: np.ndarray,
              channels: list[np.ndarray], min_area: float, max_area: float, size: tuple[int, int],
              settings: RealSettings) -> list:
    """Whole colour fields no white frame grows (`_framed_fields`' `unframed`) and no
    framed outline in `held` holds, taken as full-bleed faces: the field is the card. Those
    that pass the gates and the outline check (with the colour step), as `_passed` lists
    them. A field the stretched chroma finds whole where a shadow's or the oval's edge cuts
    the face's cell in two."""
    alone = [q for q in fields if not any(
        cv2.pointPolygonTest(o.reshape(-1, 1, 2), tuple(float(v) for v in q.mean(axis=0)), False) >= 0
        for o in held)]
    return _passed(alone, edges, white, min_area, max_area, size, settings, channels)


def _piece_of(quad: np.ndarray, whole: np.ndarray, most: float) -> bool:
    """Whether `quad` lies inside `whole` (PIECE_INSIDE of its area at least), is at most
    `most` of its area and has a corner PIECE_CORNER of its short side or more from every
    corner of it: a piece of it (cut across the face), not the card outlined a little
    tighter (every corner within a frame's width)."""
    quad, whole = np.float32(quad).reshape(4, 2), np.float32(whole).reshape(4, 2)
    area = cv2.contourArea(quad)
    inter, _ = cv2.intersectConvexConvex(quad, whole)
    if not (area > 0 and inter >= PIECE_INSIDE * area and area <= most * cv2.contourArea(whole)):
        return False
    short = min(float(np.hypot(*(whole[1] - whole[0]))), float(np.hypot(*(whole[3] - whole[0]))))
    away = np.sqrt(((quad[:, None, :] - whole[None, :, :]) ** 2).sum(axis=2)).min(axis=1)
    return float(away.max()) >= PIECE_CORNER * short


PIECE_INSIDE = 0.9
# A piece's corner this far (share of the whole's short side) from every corner of the
# whole: on the fresh protocol-2 draws the pieces replaced had one 0.23-0.94 away; a face
# outlined 0.97 of the truth whose late field ran 0.97 too, its corners 0.02-0.11 away,
# read right before and "unknown" from the late one (tests/test_vision_protocol.py's
# steep Red 2, seed 24)
PIECE_CORNER = 0.2


def find_outlines(frame: np.ndarray, settings: RealSettings = RealSettings(),
                  trace: list | None = None) -> list[np.ndarray]:
    """Card outlines (TL, TR, BR, BL, float32, in `frame`'s pixels), most certain first.
    `trace`: when a list, an `outlinescore.Trace` of what was looked at is appended to it."""
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
    channels = stretched(smooth)
    white = whiteness(smooth, channels)
    edges = cv2.Canny(gray, 30, 90, L2gradient=True)
    bleed = settings.full_bleed > 0 and settings.framed_fields
    if bleed:
        edges = colour_edges(channels, edges)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    coloured = channels if bleed else None   # for the outline check's colour step
    min_area = settings.min_short_side ** 2
    max_area = settings.max_area_fraction * sh * sw
    fine = scale < 1 and settings.fine_fields > max(sh, sw)
    unframed: list[np.ndarray] | None = [] if fine or bleed else None
    framed, late = _framed_fields(channels, white, edges, min_area, max_area, settings, unframed, bleed) \
        if settings.framed_fields else ([], [])
    if unframed and fine:   # a whole field whose thin frame this copy does not show: look closer
        finer, fine_late = _fine_framed(frame, scale, settings)
        framed = sorted(framed + finer, key=lambda c: -c[1])
        late += fine_late
    if unframed and bleed:   # a whole field with no frame at all: a full-bleed face
        framed = sorted(framed + _bleeding(unframed, [q for _, _, q in framed], edges, white, channels,
                                           min_area, max_area, (sw, sh), settings), key=lambda c: -c[1])
    seen: set[tuple[int, ...]] = set()
    candidates: list[tuple[float, float, np.ndarray]] = []
    nested: list | None = [] if settings.print_groups >= 0 and (trace is not None or settings.learned) else None
    whites, edged = _regions(white, edges, settings, nested)
    if settings.joined_cells:
        edged += joined_cells(edges, min_area, max_area)
    regions = whites + edged + (_fields(smooth, settings) if settings.colour_fields else [])
    edged_from, fields_from = len(whites), len(whites) + len(edged)   # (each region's kind by its place)
    judge = _Judge(settings, edges, white, (sw, sh), min_area, max_area, seen,
                   pale=[] if settings.pale is not None else None,
                   refused=[] if trace is not None or settings.learned else None, channels=coloured)
    lengths, areas = contour_areas(regions)
    # specks (a card's outline has at least its four corners) and regions of no card's
    # size (twice the largest: it may be two cards) are passed over; most are that
    # The outlines past the gates are checked all at once after, in the regions' order (a
    # region that may be two cards is cut at once: its second half is judged only when the
    # first is a card, and what is judged is remembered in `seen`).
    found: list = []
    for i in np.flatnonzero((lengths >= 4) & (areas >= min_area) & (areas <= 2 * max_area)).tolist():
        contour, kind = regions[i], WHITE if i < edged_from else EDGED if i < fields_from else FIELD
        gated = judge.gates(contour, float(areas[i]), kind)
        if gated is _SPLIT:
            found += _halves(contour, judge)
        elif gated is not None:
            found.append(gated)
    waiting = [g for g in found if isinstance(g, _Gated)]
    shares = iter(outline_shares([g.looked for g in waiting], [g.cut for g in waiting], edges, white,
                                 settings.min_step, coloured, settings.full_bleed))
    for outline in found:
        outline = judge.verdict(outline, next(shares)) if isinstance(outline, _Gated) else outline
        if outline is not None:
            candidates.append(outline)
    faceless: list[np.ndarray] = []   # segment quads with no card's face (`vision.wholecards`)
    if settings.line_quads:
        lined, replaced, faceless = _line_candidates(gray, white, candidates, (sw, sh), max_area, settings)
        candidates = [c for i, c in enumerate(candidates) if i not in replaced] + lined
    # Cards side by side make a rectangle of about a card's shape, and its outline is as
    # good as theirs.
    groups = _groups(candidates)
    candidates = [c for i, c in enumerate(candidates) if i not in groups]
    pieces = _pieces_of_wholes(candidates, settings)
    candidates = [c for i, c in enumerate(candidates) if i not in pieces]
    candidates.sort(key=lambda c: (-round(c[0], 1), -c[1]))
    kept: list[np.ndarray] = []
    # a whole framed field first (not its halves); a late one only where nothing else lies,
    # or in place of a piece of it found before (`late_piece`)
    for _, _, quad in framed + candidates:
        if all(quad_overlap(quad, other) < settings.overlap for other in kept):
            kept.append(quad)
    fields = {id(quad) for _, _, quad in framed}
    for _, _, quad in late:
        over = [i for i, other in enumerate(kept) if quad_overlap(quad, other) >= settings.overlap]
        if not over:
            kept.append(quad)
        elif settings.late_piece > 0 and _cut_side(quad, (sw, sh)) == -1 and \
                all(id(kept[i]) not in fields and _piece_of(kept[i], quad, settings.late_piece) for i in over):
            kept[over[0]] = quad   # every outline it overlaps a piece of it (the field's two halves)
            kept = [k for i, k in enumerate(kept) if i not in over[1:]]
    # a colour field grown to its white frame is one card whole, whatever else lies in view:
    # not cut, not dropped for a larger outline, not a piece of a pip card
    whole = {id(quad) for _, _, quad in framed + late}
    if settings.cut_cover > 0:
        kept = [piece for quad in kept for piece in
                (_cut_over(quad, edges, gray, settings) if _cut_side(quad, (sw, sh)) == -1
                 and id(quad) not in whole else [quad])]
    if kept and settings.min_relative_area > 0:
        areas = [cv2.contourArea(q) for q in kept]
        likely = sorted(((a, i) for i, (q, a) in enumerate(zip(kept, areas))
                         if _unlike_card(q) <= settings.relative_unlike), reverse=True)
        largest = next((a for a, i in likely if _paper_share(kept[i], white, settings.paper)
                        >= settings.relative_paper), max(areas))
        kept = [q for q, a in zip(kept, areas) if a >= settings.min_relative_area * largest or id(q) in whole]
    if settings.whole is not None:
        dropped = [quad for _, _, quad in candidates if not any(quad is k for k in kept)]
        kept = wholecards.added(kept, dropped, gray, white, (settings.min_short_side, math.sqrt(2 * max_area)),
                                lambda quad, angles, unlike: _whole_gates(quad, angles, unlike, edges, white,
                                                                          (sw, sh), settings, coloured),
                                _unlike_card, settings.whole, faceless)
    if settings.shaded is not None:
        kept = shadedcards.wholes(kept, gray, white, edges, (settings.min_short_side, math.sqrt(2 * max_area)),
                                  lambda quad, angles, unlike: _whole_gates(quad, angles, unlike, edges, white,
                                                                            (sw, sh), settings, coloured),
                                  _unlike_card, settings.shaded)
    if settings.ink is not None:   # only around paper that no card found holds (a page is no card)
        where = _unexplained_paper(white, [(1.0, 0.0, q) for q in kept
                                           if cv2.contourArea(q) < settings.ink.large * sh * sw], settings,
                                   settings.ink.page, unlike=settings.ink.unlike, holes=settings.ink.holes)
        if where is not None:
            kept = inkcards.added(kept, white, where, (settings.min_short_side, math.sqrt(2 * max_area)),
                                  lambda quad: _cut_side(quad, (sw, sh)) == -1 and _unlike_card(quad) <= 0.15,
                                  settings.ink, whole=[id(quad) in whole for quad in kept])
    if judge.pale:   # after every other pass: a piece of a card found there is no card
        kept = palecovered.added(kept, judge.pale, white, min_area * CARD_RATIO, settings.pale,
                                 settings.shaded or shadedcards.ShadedSettings())
    if nested and judge.refused is not None:   # a card's print inside a merged cell
        judge.refused += _print_outlines(nested, judge)
    if judge.refused is not None:   # the outlines refused: a learned model has the last say
        # (those dropped for a neighbour too; not those of a card kept: their boxes alike)
        refused = judge.refused + [outlinescore.Considered(q, a) for _, a, q in candidates
                                   if not any(q is k for k in kept)]
        sizes = (min_area, max_area)
        refused = outlinescore.unique(refused, kept, sizes)
        if trace is not None:
            trace.append(outlinescore.Trace(list(kept), refused, edges, white, gray, scale, sizes))
        if settings.learned:   # kept and refused alike
            pool = [outlinescore.Considered(q, float(cv2.contourArea(q))) for q in kept] + refused
            model = outlinescore.load()
            described = outlinescore.features(pool, edges, white, gray, settings.min_short_side,
                                              settings.min_step, settings.paper, len(kept))
            chances = model.chances(described)
            if settings.print_chance > 0:   # a print must be surer than the model's threshold
                chances = _print_bar(pool, chances, settings.print_chance)
            kept = [pool[i].quad for i in outlinescore.accepted([c.quad for c in pool], chances, model.threshold,
                                                                model.overlap, model.by_quad, model.beside,
                                                                model.held, model.apart,
                                                                described[:, outlinescore.BORDER] > 0)]
    if scale >= 1:
        return [order_corners(q) for q in kept]
    reach = settings.refine_reach / scale
    return [order_corners(_refined(frame, q / scale, reach)) for q in kept]
