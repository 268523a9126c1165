"""The learned symbol reader: HOG features of a card's colour-free ink map, scored by a
linear classifier, with calibrated probabilities.

Why this reader: pixel templates need exact alignment and real outlines are a few pixels
off; a histogram of gradient directions per 8-pixel cell (HOG) tolerates that, and a
linear classifier trained on many simulated views of a few taught photos (see
`vision.learn`) learns which cells tell the cards apart. It runs with OpenCV and numpy
only (HOG computed here, as OpenCV 5 moved cv2.HOGDescriptor out of the main package,
and one matrix product: well under a millisecond a card).

The ink map is the card's distance from its own paper after white balance, whatever the
ink's colour, so a symbol printed in four colours is one shape to the reader; colour is
judged apart (`vision.colour`). Both 180-degree orientations are scored and the better one
counts for each class. The last class is "no card of this deck" (table, clutter, a card
of another deck), trained on negatives.

A second feature block reads the **corner index** (the rank printed small in two opposite
corners, the same glyph whatever the suit or the picture): the two corner regions are cut
from the frame itself (`index_regions`, a few hundred pixels, so the card is not warped at
a larger size), the glyph is found in each as the ink blob nearest the corner and cut to
its own bounding box (so an outline a few pixels off does not move it), and the HOG of
the two glyphs is averaged (the two corners are the same glyph turned, so the block does
not depend on the card's orientation). When neither region shows a glyph (an outline a
few per cent off cuts it at the region's side, or holds only part of the card), wider
regions are searched for one as narrow as a letter (INDEX_WIDE). A reader trained with
the block says so (`index`).

What does not live here: training (`vision.learn`), the ink map itself
(`vision.classify.face_features`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import cv2
import numpy as np

from vision.colour import strongest_ink

HOG_WINDOW = (48, 72)   # (w, h) the ink map is shrunk to: 6 x 9 cells of 8 pixels
CELL = 8
BLUR = 0.048           # the layout's HOG: ink blurred by this share of the card's height
BLUR_WINDOW = (32, 48)  # and shrunk to this: 4 x 6 cells
DENSITY_GRID = (8, 11)  # (w, h) cells of the ink density feature
DENSITY_WEIGHT = 3.0    # its weight against the HOG's
INK_CAP = 60.0          # ink strength counted at most (a pale ink counts as a dark one)
DENSITY_FLOOR = 12.0    # ... and the cap never lower (a face of paper and noise alone)
BINS = 9                # unsigned gradient directions, 20 degrees each
NONE = "\x00none"       # the class of things that are no card of the deck
INDEX_REGION = (0.25, 0.2)  # (w, h) of a corner region searched for the index, shares of the card's
INDEX_PIXELS = (40, 45)     # (w, h) the region is cut at (the glyph is about 20 pixels high)
# Where the glyph is searched again when neither corner region shows it (u from, u to, v
# from, v to; shares of the card from its corner, negative: beyond the outline), cut at
# INDEX_PIXELS too. An outline a few per cent inside or outside the card cuts the glyph
# at the region's side; on the real photos (teaching 2 photos a rank, 3 draws) 132 of
# 1,090 cards found had no glyph in either region, and 99 of those read "unknown".
INDEX_WIDE = (-0.1, 0.4, -0.08, 0.34)
# A glyph found only there counts when it is narrower than this share of its height: a
# letter or a digit is (J Q K A 9: 0.5-0.8), a suit's pip is not (0.9-1.1), and in an
# outline holding parts of two overlapping cards the wider region finds pips. Measured
# (3 draws, cards found; right / wrong / unknown): isolated train_ 88.4 / 1.6 / 10.0 % ->
# any glyph 91.1 / 2.1 / 6.8, narrower than 0.8 90.3 / 1.6 / 8.1; overlapped cards
# 44.6 / 3.2 / 52.2 -> 49.6 / 15.1 / 35.4 and 49.0 / 3.8 / 47.2.
WIDE_GLYPH_ASPECT = 0.8
GLYPH_SIZE = (16, 24)       # (w, h) a found glyph is resized to: 4 x 6 cells of INDEX_CELL
INDEX_CELL = 4
GLYPH_LEVEL = 0.45          # ink above this share of the region's strongest is the glyph's ...
# ... with the ink above GLYPH_LOW joined to it; when that gives no glyph, the ink above
# each of GLYPH_LEVELS in turn. A red index printed pale (webcam photos) lies at a third
# of the region's strongest ink, the court card's picture frame and the pip below it
# near the top: at GLYPH_LEVEL alone a K fell apart into strokes or was not there at all,
# and the index read another rank (K as J or 10, Q as J) with a sure card. Measured on
# the real photos (bench/realphotos_read.py --shots 2 --seeds 3, cached outlines, train_
# cards found, right / wrong / unknown): GLYPH_LEVEL alone, isolated 888 / 16 / 10, every
# card 1,220 / 43 / 23; levels 0.45 then 0.3: 892 / 14 / 8, 1,226 / 38 / 22; 0.45, 0.3,
# 0.2: 892 / 9 / 13, 1,224 / 33 / 29; Otsu's level: 888 / 16 / 10, 1,230 / 32 / 24;
# joined at 0.25 alone: 896 / 13 / 5, 1,244 / 28 / 14; joined at 0.2 then the levels:
# 893 / 10 / 11; at 0.25 then the levels (as now): 896 / 7 / 11, 1,241 / 20 / 25 (3 of
# the 7 wrong are train_IMG_2396.jpg's label, a ten labelled 9).
GLYPH_LOW = 0.25
GLYPH_LEVELS = (0.45, 0.3, 0.2)
# A glyph whose own strongest ink is under GLYPH_OWN of the region's is searched again with its
# own as the strongest (see `find_glyph`). Measured (bench/realphotos_read.py --shots 2 --seeds 3,
# train_ cards found, right / wrong / unknown): none: isolated 908 / 11 / 9, every card 1,251 /
# 26 / 23; 0.8: 911 / 8 / 9, 1,254 / 20 / 26; 0.9: 911 / 7 / 10, 1,253 / 19 / 28.
GLYPH_OWN = 0.8
# The index block's share of the score when both corners show a glyph and the block reads
# them as the same card (the share taught is INDEX_SHARE at most, `vision.learn`). The two
# corners agreeing is when the glyph is read best; the card's HOG also learns the court
# picture of the suits the teaching photos show, and a jack of another suit looks to it
# like a queen or a king taught with that suit's picture. Measured on the real photos
# (bench/realphotos_read.py --shots 2 --seeds 3, isolated train_ cards through the finder;
# right / wrong / unknown): 838 / 17 / 15 as taught (0.5), 0.6: 841 / 13 / 16 (every card
# found 1,457 / 48 / 56 -> 1,462 / 43 / 56); a first try judging agreement in the corner
# regions only, 0.6: 842 / 12 / 16, 0.65: 840 / 14 / 16. One share for every card instead
# (0.6, 0.7, 0.8) read no better: 839 / 18 / 13, 833 / 27 / 10, 819 / 36 / 15.
AGREED_SHARE = 0.6
INDEX_DIM = (GLYPH_SIZE[0] // INDEX_CELL - 1) * (GLYPH_SIZE[1] // INDEX_CELL - 1) * 4 * BINS + 1


def hog_pair(ink: np.ndarray) -> np.ndarray:
    """Features of an ink map (float, any size of card shape), upright and turned half
    round (2 x D float32): square-rooted HOG of the ink as it is (a digit's or an icon's
    shape), HOG of the ink blurred by about a pip's size (the layout: blurred, the pips
    of a card are blobs whose number and places count, not their shape), and the ink's
    density on a coarse grid. Measured on the real photos, teaching 2 photos a rank:
    sharp HOG alone 66 % read right, blurred 78 %, blurred with the density grid 80 %,
    all three 78 %; but blurred HOG alone confused a taught 4 with a 5 on rendered decks,
    so all three are kept. A half turn maps every gradient's unsigned direction onto
    itself, so the turned features are the same cells in reverse order."""
    return hog_pair_and_index_rows(ink, None)[0]


def hog_pair_and_index_rows(ink: np.ndarray, regions: np.ndarray | None,
                            wider: Callable[[], np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """`hog_pair(ink)` and `index_rows(regions, wider)` (none when `regions` is None),
    their HOG computed in one pass (`hog_cells_of`): the same numbers, for the cost of
    one set of array operations instead of two."""
    ink = ink.astype(np.float32, copy=False)
    glyphs = [] if regions is None else _glyphs(regions)
    if not glyphs and regions is not None and wider is not None:
        glyphs = [glyph for glyph in _glyphs(wider()) if glyph[1] <= WIDE_GLYPH_ASPECT]
    # the layout's blur at its HOG's own size (BLUR of that height): 19 taps over 1,536
    # pixels, where at the ink's size it took 35 over 5,160 (`vision.profile.LEARNED_FEATURES`)
    small = cv2.resize(ink, BLUR_WINDOW, interpolation=cv2.INTER_AREA)
    blocks = root_hog_blocks(hog_cells_of(
        [cv2.resize(ink, HOG_WINDOW, interpolation=cv2.INTER_AREA),
         cv2.GaussianBlur(small, (0, 0), BLUR * BLUR_WINDOW[1])]
        + [crop for crop, _ in glyphs], (CELL, CELL) + (INDEX_CELL,) * len(glyphs)))
    sharp, blurred = blocks[:2]
    # the density counts ink up to the face's own strongest (a light ink under a dim lamp
    # lies 15-20 from its white, a dark one 60-100 in daylight: the same print)
    cap = min(INK_CAP, max(DENSITY_FLOOR, strongest_ink(ink)))
    density = cv2.resize(np.minimum(ink, cap), DENSITY_GRID,
                         interpolation=cv2.INTER_AREA) * (DENSITY_WEIGHT / cap)
    a, b = sharp.size, sharp.size + blurred.size
    out = np.empty((2, b + density.size), np.float32)
    out[0, :a], out[0, a:b], out[0, b:] = sharp.ravel(), blurred.ravel(), density.ravel()
    out[1, :a], out[1, a:b], out[1, b:] = _half_turn(sharp), _half_turn(blurred), density[::-1, ::-1].ravel()
    return out, _glyph_rows(glyphs, blocks[2:])


def _half_turn(blocks: np.ndarray) -> np.ndarray:
    """The blocks of the cells turned half round, from the blocks themselves: the blocks
    in reverse order, and in each its four cells in reverse order (a block's norm does not
    depend on the order of its cells)."""
    return blocks[::-1, ::-1, ::-1].ravel()


def hog_cells(image: np.ndarray, cell_size: int = CELL) -> np.ndarray:
    """Dalal-Triggs cell histograms of a float image whose sides are multiples of the cell size:
    gradient directions (unsigned, BINS bins, shared linearly between neighbours)
    weighted by their strength, summed per cell (rows x cols x BINS)."""
    return hog_cells_of((image,), cell_size)[0]


def hog_cells_of(images: Sequence[np.ndarray], cell_size: int | Sequence[int] = CELL) -> list[np.ndarray]:
    """`hog_cells` of several images at once, the same numbers: one set of array
    operations for all of them (a card's images are small, and each operation's own cost
    was most of a histogram's). `cell_size`: one for all, or one an image. Every cell's
    bins get their shares in the same order as the image alone gives them (all lower
    neighbours' shares in pixel order, then all upper ones'), so the sums are the same to
    the bit."""
    total = sum(image.size for image in images)
    strength, angle = np.empty(total, np.float32), np.empty(total, np.float32)
    top = 0
    for image in images:
        # per image: OpenCV's vector and scalar code need not agree to the last bit, so
        # each image goes through as it would alone, its results written in place end to
        # end (what concatenating them gave, without the copies)
        gx, gy = _gradients(image)
        h, w = image.shape
        cv2.cartToPolar(gx, gy, magnitude=strength[top:top + h * w].reshape(h, w),
                        angle=angle[top:top + h * w].reshape(h, w), angleInDegrees=True)
        top += h * w
    # unsigned: 0..360 to 0..180 (exact in floats, and quicker than a remainder); less 0
    # below 180 (exact too) rather than a masked subtraction, numpy's slow loop
    np.subtract(angle, np.multiply(angle >= 180.0, np.float32(180.0), dtype=np.float32), out=angle)
    position = np.multiply(angle, BINS / 180.0, out=angle)
    position -= 0.5
    low = np.floor(position)
    share = np.subtract(position, low, out=position)
    # Bins are counted with one spare on each side (the lower neighbour of the first
    # bin, -1, and the upper of the last, BINS), folded round afterwards: `cells` holds
    # BINS + 2 x each pixel's cell number, plus one (for the lower bin) then plus two.
    sizes = (cell_size,) * len(images) if isinstance(cell_size, int) else tuple(cell_size)
    cells, shapes = _cell_index(tuple(image.shape for image in images), sizes)
    n = angle.size
    below = low.astype(np.intp)
    index = np.empty_like(cells)   # the cells' numbers plus the bin below, written at once (no copy to add to)
    np.add(cells[:n], below, out=index[:n])
    np.add(cells[n:], below, out=index[n:])
    weights = np.empty(2 * n, np.float32)
    np.subtract(1, share, out=weights[:n])
    weights[:n] *= strength
    np.multiply(strength, share, out=weights[n:])
    total = sum(rows * cols for rows, cols in shapes)
    counts = np.bincount(index, weights, minlength=total * (BINS + 2)).reshape(total, BINS + 2)
    counts[:, BINS] += counts[:, 0]
    counts[:, 1] += counts[:, BINS + 1]
    counts = counts[:, 1:BINS + 1].astype(np.float32)
    out, top = [], 0
    for rows, cols in shapes:
        out.append(counts[top:top + rows * cols].reshape(rows, cols, BINS))
        top += rows * cols
    return out


def _gradients(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`cv2.Sobel(image, cv2.CV_32F, 1, 0, ksize=1)` and `(0, 1)` of a float32 image, the
    same bits: with ksize 1 each is the next pixel less the one before (the kernel
    -1, 0, 1, no smoothing), one rounding; at the image's edge (BORDER_REFLECT_101 mirrors
    the pixel beyond onto the one within) it is 0. Two subtractions cost a tenth of the two
    OpenCV calls' set-up on images this small."""
    h, w = image.shape
    if h < 3 or w < 3:
        return cv2.Sobel(image, cv2.CV_32F, 1, 0, ksize=1), cv2.Sobel(image, cv2.CV_32F, 0, 1, ksize=1)
    gx = np.empty((h, w), np.float32)
    gy = np.empty((h, w), np.float32)
    np.subtract(image[:, 2:], image[:, :-2], out=gx[:, 1:-1])
    gx[:, 0] = gx[:, -1] = 0.0
    np.subtract(image[2:], image[:-2], out=gy[1:-1])
    gy[0] = gy[-1] = 0.0
    return gx, gy


def _cell_index(shapes: tuple[tuple[int, ...], ...], sizes: tuple[int, ...]) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """For images of these shapes and cell sizes, raveled and put end to end: BINS + 2 x
    the number of each pixel's cell (the cells of all images numbered in turn), plus one,
    then the same plus two (the lower and upper bins' index before the pixel's own bin is
    added); and each image's (rows, cols) of cells."""
    key = (shapes, sizes)
    if key not in _CELL_INDEX:
        parts, grids, first = [], [], 0
        for (h, w), size in zip(shapes, sizes):
            ys, xs = np.mgrid[0:h, 0:w]
            parts.append(((ys // size) * (w // size) + xs // size + first).ravel().astype(np.intp) * (BINS + 2))
            grids.append((h // size, w // size))
            first += (h // size) * (w // size)
        cells = np.concatenate(parts)
        _CELL_INDEX[key] = (np.concatenate([cells + 1, cells + 2]), grids)
    return _CELL_INDEX[key]


_CELL_INDEX: dict = {}   # a cache of constants (per shapes of images), not state


def hog_blocks(cells: np.ndarray) -> np.ndarray:
    """Blocks of 2 x 2 cells, L2-Hys normalised (rows - 1 x cols - 1 x 4 x BINS float32;
    `.ravel()` is the feature vector)."""
    return _blocks_of((cells,))[0]


def root_hog_blocks(cells: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The square roots of `hog_blocks` of each of several cell grids, normalised all at
    once (each block is normalised by itself: the same numbers)."""
    return _blocks_of(cells, root=True)


def _blocks_of(cells: Sequence[np.ndarray], root: bool = False) -> list[np.ndarray]:
    sizes = [(c.shape[0] - 1) * (c.shape[1] - 1) for c in cells]
    blocks = np.empty((sum(sizes), 4, BINS), np.float32)
    views, top = [], 0
    for c, size in zip(cells, sizes):
        view = blocks[top:top + size].reshape(c.shape[0] - 1, c.shape[1] - 1, 4, BINS)
        view[:, :, 0], view[:, :, 1], view[:, :, 2], view[:, :, 3] = c[:-1, :-1], c[:-1, 1:], c[1:, :-1], c[1:, 1:]
        views.append(view)
        top += size
    blocks /= np.sqrt((blocks ** 2).sum(axis=(1, 2), keepdims=True) + 1e-3)
    np.minimum(blocks, 0.2, out=blocks)
    blocks /= np.sqrt((blocks ** 2).sum(axis=(1, 2), keepdims=True) + 1e-3)
    if root:
        np.sqrt(blocks, out=blocks)
    return views


def index_regions(image: np.ndarray, corners: np.ndarray,
                  cut: tuple[float, float, float, float] | None = None,
                  which: tuple[int, ...] = (0, 1)) -> np.ndarray:
    """The card's top-left corner region and its bottom-right one turned half round, cut
    from `image` at INDEX_PIXELS (2 x h x w x 3, like the image) through the card outlined
    by `corners` (TL, TR, BR, BL). `cut`: where (u from, u to, v from, v to, shares of
    the card from its corner), INDEX_REGION's corner when None (or INDEX_WIDE). `which`:
    only these of the two (0 the top-left, 1 the bottom-right; each the same pixels as
    when both are cut)."""
    unit = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    card = cv2.getPerspectiveTransform(unit, np.asarray(corners, np.float32))
    rw, rh = INDEX_PIXELS
    u0, u1, v0, v1 = cut if cut is not None else (0.0, INDEX_REGION[0], 0.0, INDEX_REGION[1])
    du, dv = (u1 - u0) / rw, (v1 - v0) / rh
    top_left = np.array([[du, 0, u0 + du / 2], [0, dv, v0 + dv / 2], [0, 0, 1]])
    bottom_right = np.array([[-du, 0, 1 - u0 - du / 2], [0, -dv, 1 - v0 - dv / 2], [0, 0, 1]])
    return np.stack([cv2.warpPerspective(image, card @ region, INDEX_PIXELS,
                                         flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                         borderMode=cv2.BORDER_REPLICATE)
                     for region in [(top_left, bottom_right)[i] for i in which]])


def index_features(regions: np.ndarray, wider: Callable[[], np.ndarray] | None = None) -> np.ndarray:
    """The corner index block (INDEX_DIM float32): the mean over the two corner regions
    where a glyph is found of its square-rooted HOG and its width / height; when neither
    shows one, the same of the wider regions `wider()` gives (`index_regions` at
    INDEX_WIDE, cut only then), of glyphs narrower than WIDE_GLYPH_ASPECT; zeros if none."""
    return index_block(index_rows(regions, wider))


def index_rows(regions: np.ndarray, wider: Callable[[], np.ndarray] | None = None,
               levels: tuple[float, ...] = GLYPH_LEVELS) -> np.ndarray:
    """The rows `index_features` averages: one per corner region showing a glyph (k x
    INDEX_DIM float64, k = 0 .. 2), of the wider regions when neither does; glyphs found at
    `levels` (`find_glyph`)."""
    found = _glyph_blocks(regions, levels)
    if not len(found) and wider is not None:
        found = _glyph_blocks(wider(), levels)
        found = found[found[:, -1] <= WIDE_GLYPH_ASPECT]
    return found


def index_block(rows: np.ndarray) -> np.ndarray:
    """The corner index block of `index_rows`: their mean (float32), zeros if none."""
    if not len(rows):
        return np.zeros(INDEX_DIM, np.float32)
    if len(rows) == 1:
        return rows[0].astype(np.float32)   # np.mean of one row: the row (x / 1)
    if len(rows) == 2:
        # np.mean of two rows to the bit: their sum (numpy adds the rows in order), halved
        # (a division by 2 is exact), without np.mean's Python-level steps
        return ((rows[0] + rows[1]) / 2).astype(np.float32)
    return np.mean(rows, axis=0).astype(np.float32)


def _glyph_blocks(regions: np.ndarray, levels: tuple[float, ...] = GLYPH_LEVELS) -> np.ndarray:
    """Per region showing a glyph, a row (float64): its square-rooted HOG blocks and its
    width / height (k x INDEX_DIM, k = 0 .. len(regions))."""
    glyphs = _glyphs(regions, levels)
    return _glyph_rows(glyphs, root_hog_blocks(hog_cells_of([crop for crop, _ in glyphs], INDEX_CELL))
                       if glyphs else [])


def _glyphs(regions: np.ndarray, levels: tuple[float, ...] = GLYPH_LEVELS) -> list[tuple[np.ndarray, float]]:
    """The glyph (its crop, its width / height) of each region that shows one."""
    return [glyph for glyph in (find_glyph(ink, levels) for ink in region_ink(regions)) if glyph is not None]


def _glyph_rows(glyphs: list[tuple[np.ndarray, float]], blocks: Sequence[np.ndarray]) -> np.ndarray:
    """The rows of `_glyph_blocks` from the glyphs and their square-rooted HOG blocks."""
    found = np.empty((len(glyphs), INDEX_DIM))
    if glyphs:
        for row, block in zip(found, blocks):
            row[:-1] = block.ravel()
        found[:, -1] = [aspect for _, aspect in glyphs]
    return found


def region_ink(regions: np.ndarray) -> np.ndarray:
    """Corner regions' ink (n x h x w float32, 0..INK_CAP): how far each pixel's darkest
    channel falls short of its region's paper, each channel divided by its 85th percentile
    in the region (a corner region is mostly paper), in the units of Lab lightness (black
    on white is 100). The darkest channel sees every ink (a yellow's blue, a red's green)
    at a fifth of the Lab distance's cost."""
    n, h, w, _ = regions.shape
    # each region's channels apart, every other pixel (numpy's steps along a three-long
    # axis of channels cost more than the arithmetic)
    sample = regions[:, ::2, ::2].transpose(0, 3, 1, 2).reshape(n * 3, -1)
    kth = int(0.85 * (sample.shape[1] - 1))
    paper = np.partition(sample, kth, axis=1)[:, kth].astype(np.float32)
    scale = (100 / np.maximum(paper, 12.0)).astype(np.float32).tolist()
    # the same float32 steps per pixel: the product, the smallest of the three, 100 less it;
    # every region at once (its channels as planes of all regions, each region's row of
    # planes times its own scale), not region by region: a third of the calls
    b, g, r = (plane.reshape(n, h * w) for plane in cv2.split(regions.reshape(n * h, w, 3)))
    scales = np.array(scale, np.float32).reshape(n, 3, 1)   # the same float32 values as each scalar
    darkest = np.minimum(np.minimum(np.multiply(b, scales[:, 0], dtype=np.float32),
                                    np.multiply(g, scales[:, 1], dtype=np.float32)),
                         np.multiply(r, scales[:, 2], dtype=np.float32))
    out = np.subtract(100, darkest, out=darkest).reshape(n, h, w)
    # np.clip(out, 0, INK_CAP): the same numbers (no NaN here), without clip's Python-level steps
    np.maximum(out, 0, out=out)
    return np.minimum(out, INK_CAP, out=out)


def find_glyph(ink: np.ndarray, levels: tuple[float, ...] = GLYPH_LEVELS) -> tuple[np.ndarray, float] | None:
    """The index glyph in a corner region's ink: the blob nearest the corner of a glyph's
    height (a fifth to four fifths of the region's) that touches no side (a blob on the
    side is the table beyond an outline that missed, or the picture), with any blob of
    the same height beside it (the 1 of a 10); cut to its bounding box and resized to
    GLYPH_SIZE, and its width / height. None when there is none.

    The blobs are first the ink above GLYPH_LOW of the region's strongest joined to ink
    above GLYPH_LEVEL (hysteresis: a pale glyph's thin strokes stay one blob), then, when
    none is a glyph (the glyph joined at that level to the pip below it or to a court
    card's picture frame, which touch the region's side), the ink above each of
    GLYPH_LEVELS in turn (see GLYPH_LOW). Those levels are shares of the region's
    strongest ink; a glyph found with its own strongest under GLYPH_OWN of that (the
    strongest was the table past an outline a pixel or two off, or a court card's frame)
    is searched again with its own as the strongest, and that glyph taken when there is
    one (a pale stroke of the letter had fallen off it). `levels`: the levels tried in
    turn (a completed card's wider regions add one higher, `vision.pipeline.COMPLETE_LEVELS`)."""
    found = _find_glyph(ink, levels)
    return None if found is None else found[:2]


def index_glyph_height(regions: np.ndarray, cut: tuple[float, float, float, float] | None = None,
                       levels: tuple[float, ...] = GLYPH_LEVELS) -> float:
    """The height of the tallest glyph (`find_glyph`) the corner regions
    `index_regions(image, corners, cut)` show, a share of the card's height; 0 when none
    shows one."""
    found = [_find_glyph(ink, levels) for ink in region_ink(regions)]
    return glyph_height_share([0 if glyph is None else glyph[3] for glyph in found], cut)


def glyph_height_share(heights: Sequence[int], cut: tuple[float, float, float, float] | None = None) -> float:
    """`index_glyph_height` from the glyphs' heights in pixels (0: none) of regions cut at `cut`."""
    v0, v1 = (cut[2], cut[3]) if cut is not None else (0.0, INDEX_REGION[1])
    return max(heights, default=0) / INDEX_PIXELS[1] * (v1 - v0)


def region_rows(regions: np.ndarray, levels: tuple[float, ...] = GLYPH_LEVELS) -> tuple[list[np.ndarray], list[int]]:
    """Per corner region: `index_rows` of it alone (0 or 1 row) and its glyph's height in
    pixels (0: none; `index_glyph_height`'s), from one search of each region and one pass of
    HOG for their glyphs: the same numbers as a search a region and another for the
    heights (a completion's glyph check did both); glyphs found at `levels` (`find_glyph`)."""
    found = [_find_glyph(ink, levels) for ink in region_ink(regions)]
    glyphs = [glyph[:2] for glyph in found if glyph is not None]
    rows = _glyph_rows(glyphs, root_hog_blocks(hog_cells_of([crop for crop, _ in glyphs], INDEX_CELL))
                       if glyphs else [])
    each, top = [], 0
    for glyph in found:
        each.append(rows[top:top + (glyph is not None)])
        top += glyph is not None
    return each, [0 if glyph is None else glyph[3] for glyph in found]


def _find_glyph(ink: np.ndarray,
                levels: tuple[float, ...] = GLYPH_LEVELS) -> tuple[np.ndarray, float, float, int] | None:
    """`find_glyph`, with the glyph's own strongest ink and its height in pixels."""
    top = max(float(ink.max()), 20.0)
    found = _glyph_at(ink, top, levels)
    if found is not None and found[2] < GLYPH_OWN * top:
        found = _glyph_at(ink, max(found[2], 20.0), levels) or found
    return found


def _glyph_at(ink: np.ndarray, top: float,
              levels: tuple[float, ...] = GLYPH_LEVELS) -> tuple[np.ndarray, float, float, int] | None:
    """`find_glyph`'s search with `top` as the strongest ink: the glyph, its width /
    height, its own strongest ink and its height in pixels."""
    # a boolean mask viewed as 0/1 bytes (no copy): what `.astype(np.uint8)` gives
    count, labels, stats, _ = cv2.connectedComponentsWithStats((ink > GLYPH_LOW * top).view(np.uint8),
                                                               connectivity=8)
    rows = stats[1:count].tolist()
    found = None
    if _any_inside(rows, *ink.shape):
        # which blobs hold ink above GLYPH_LEVEL, looked at only when one of the blobs could
        # be the glyph (a blob of none of a glyph's places and heights is never chosen)
        strong = np.zeros(count, bool)
        strong[labels[ink > GLYPH_LEVEL * top]] = True
        found = _glyph_of(ink, [row for row, keep in zip(rows, strong[1:].tolist()) if keep])
    for level in levels:
        if found is not None:
            break
        count, _, stats, _ = cv2.connectedComponentsWithStats((ink > level * top).view(np.uint8), connectivity=8)
        found = _glyph_of(ink, stats[1:count].tolist())
    return found


def _any_inside(components: list[list[int]], h: int, w: int) -> bool:
    """Whether any of the blobs (x, y, w, h, area rows) is one `_glyph_of` may choose."""
    return any(x > 0 and y > 0 and x + bw < w and y + bh < h and 0.2 * h <= bh <= 0.8 * h and area >= 6
               for x, y, bw, bh, area in components)


def _glyph_of(ink: np.ndarray, components: list[list[int]]) -> tuple[np.ndarray, float, float, int] | None:
    """`find_glyph`'s choice among the blobs of one threshold (x, y, w, h, area rows)."""
    h, w = ink.shape
    blobs = [row for row in components if row[4] >= 4]   # plain ints: quicker
    inside = [(x + y, i) for i, (x, y, bw, bh, area) in enumerate(blobs)
              if x > 0 and y > 0 and x + bw < w and y + bh < h and 0.2 * h <= bh <= 0.8 * h and area >= 6]
    if not inside:
        return None
    first = min(inside)[1]
    x, y, bw, bh, _ = blobs[first]
    x2, y2 = x + bw, y + bh
    for i, (xi, yi, wi, hi, _) in enumerate(blobs):
        if i != first and xi > 0 and yi > 0 and abs(yi - y) <= 0.25 * bh \
                and abs(hi - bh) <= 0.3 * bh and x - 0.5 * bh < xi + wi and xi < x2 + 0.5 * bh:
            x, y, x2, y2 = min(x, xi), min(y, yi), max(x2, xi + wi), max(y2, yi + hi)
    crop = ink[max(0, y - 1):y2 + 1, max(0, x - 1):x2 + 1]
    return (cv2.resize(crop, GLYPH_SIZE, interpolation=cv2.INTER_AREA), (x2 - x) / max(y2 - y, 1),
            float(ink[y:y2, x:x2].max()), y2 - y)


@dataclass(frozen=True, eq=False)
class LinearReader:
    """Scores = (features - mean) @ weights + bias, one column per class; `classes` are
    the profile's label indices and -1 for the "no card" class. A score near 1 is a view
    like the taught ones, near 0 nothing like it. Probabilities are the softmax of
    `temperature` x scores with one more score, `doubt`, for "none of these for sure":
    a card whose best score is low (a suit or a picture the teaching photos did not
    show) loses its probability to the doubt instead of taking it from classes that
    score still lower."""

    classes: np.ndarray        # (C,) int64
    mean: np.ndarray           # (D,)
    weights: np.ndarray        # (D, C)
    bias: np.ndarray           # (C,)
    temperature: float = 10.0
    doubt: float = -np.inf     # the score of "none for sure" (-inf: none, as taught before it)
    index: bool = False        # the features end with the corner index block (index_features)
    share: float = 0.0         # the index block's share of the score (`vision.learn.index_share`;
                               # 0: not known, as taught before it was kept)

    def scores(self, pair: np.ndarray, agreed: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """(scores per class, the better of both orientations; turned per class).
        `agreed`: the card's two corners show the same index glyph (`corners_agree`), and
        the index block then has the larger share AGREED_SHARE."""
        both = self.views(pair, agreed)
        turned = both[1] > both[0]
        return np.maximum(both[0], both[1]), turned

    def views(self, pair: np.ndarray, agreed: bool = False) -> np.ndarray:
        """The scores per class of each orientation (2 x C: the face as it lies, then
        turned half round), as `scores` weighs them."""
        both = (pair - self.mean) @ self.weights + self.bias      # (2, C)
        if agreed and 0.0 < self.share < AGREED_SHARE:
            start = len(self.mean) - INDEX_DIM
            glyph = (pair[0, start:] - self.mean[start:]) @ self.weights[start:]
            # the blocks were fitted apart and their scores added at `share` (the same
            # bias for both: each class's share of the views)
            card = both - self.bias - glyph
            both = self.bias + card * ((1 - AGREED_SHARE) / (1 - self.share)) + glyph * (AGREED_SHARE / self.share)
        return both

    def corners_agree(self, rows: np.ndarray) -> bool:
        """Whether both corners show a glyph (`index_rows`) and the index block alone reads
        them as the same card (not "no card")."""
        if not self.index or self.share <= 0.0 or len(rows) != 2:
            return False
        start = len(self.mean) - INDEX_DIM
        first, second = np.argmax((rows - self.mean[start:]) @ self.weights[start:], axis=1)
        return bool(first == second and self.classes[first] >= 0)

    def index_against(self, rows: np.ndarray, members: np.ndarray, scores: np.ndarray,
                      glyph_margin: float, score_margin: float, only: int = -1) -> bool:
        """Whether a corner glyph (`index_rows`) reads another card class X better than
        every class of `members` by `glyph_margin` or more, while the reading's `scores`
        put X within `score_margin` of the best of `members` (X the class `only` if given)."""
        if not self.index or self.share <= 0.0 or not len(rows):
            return False
        # the card classes other than `members` (`np.isin`'s mask, set by index: isin's own
        # steps cost more than the rest of a reading's scores)
        other = self.classes >= 0
        other[members] = False
        close = other & (scores >= scores[members].max() - score_margin)
        if only >= 0:
            close &= np.arange(len(close)) == only
        if not close.any():
            return False   # no class close enough: the glyph's scores are not needed
        start = len(self.mean) - INDEX_DIM
        glyph = (rows - self.mean[start:]) @ self.weights[start:]     # (k, C)
        return bool(((glyph[:, close] - glyph[:, members].max(axis=1, keepdims=True)) >= glyph_margin).any())

    def index_score(self, block: np.ndarray) -> float:
        """How like a taught card's index the corner index block (`index_block`) is to the
        reader: its own part of the best card class's score (about the block's share of
        the score for a glyph like the taught ones, near 0 for a glyph unlike any)."""
        if not self.index:
            return 0.0
        start = len(self.mean) - INDEX_DIM
        scores = (block - self.mean[start:]) @ self.weights[start:]
        return float(scores[self.classes >= 0].max())

    def probabilities(self, scores: np.ndarray) -> np.ndarray:
        """Per class (C,); what they leave short of 1 is the doubt's."""
        z = np.concatenate((scores, [self.doubt])) * self.temperature   # np.append's numbers
        z = np.exp(z - z.max())
        return (z / z.sum())[:-1]
