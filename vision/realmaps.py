"""The maps the real-table finder (`vision.realfind`) takes its regions from, and the
regions themselves: what a photograph's light leaves of a card's edge, seen several ways
because no single map is trusted:

* a whiteness map, the smallest of B, G and R after each channel is stretched to its
  own range (card stock is the whitest thing on most tables; a warm lamp or a blue
  daylight cast moves every channel, not the order), cut at several fixed levels and
  against the local mean (light that falls off across the picture): `stretched`,
  `whiteness`, `opened_masks`, `above_local_mean`;
* the cells between Canny edges, and the outer boundary of each group of edges (a card
  on a table as bright as itself still has an edge, or its shadow): `mapped_regions`
  (specks cleared first, `without_specks`); for full-bleed faces the edges of every
  stretched channel too (`colour_edges`) and cells joined with their neighbours
  (`joined_cells`);
* regions of saturated colour (`colour_regions`: a face printed as a colour field in a
  white frame, which whiteness cannot see).

`contour_areas` measures every region at once. What is done with a region (its four
corners, the gates, the outline check) lives in `vision.regionjudge`.
"""
from __future__ import annotations

import cv2
import numpy as np

from vision.arrays import every_nth
from vision.realsettings import RealSettings


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


def mapped_regions(white: np.ndarray, edges: np.ndarray, settings: RealSettings,
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
    """The masks whose regions `mapped_regions` lists (uint8 0/255), in its order: the whiteness
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


def colour_regions(smooth: np.ndarray, settings: RealSettings) -> list[np.ndarray]:
    """Regions of saturated colour: the printed field of a deck whose face is one colour
    inside a white frame (the UNO family), which whiteness cannot see."""
    hsv = cv2.cvtColor(smooth, cv2.COLOR_BGR2HSV)
    _, saturated = cv2.threshold(hsv[:, :, 1], settings.field_saturation, 255, cv2.THRESH_BINARY)
    _, lit = cv2.threshold(hsv[:, :, 2], 60, 255, cv2.THRESH_BINARY)
    mask = cv2.morphologyEx(cv2.bitwise_and(saturated, lit), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return list(cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0])
