"""The quicker code for reading a taught deck's card gives the numbers of the plain code it
replaced, bit for bit: the learned reader's HOG computed for several images in one set of
array operations, and the corner index block of a completed outline used again rather
than computed twice. Each test keeps the plain version as it was and compares on faces
that matter (rendered cards under coloured and uneven light, camera-like views, noise,
and the corner regions cut from them). Any change of a feature's last bit can move a
reading's confidence, so "close" is not enough here."""
import cv2
import numpy as np
import pytest

from test_vision_speedups import FACES, plain_hog_cells
from vision.classify import face_features
from vision.colour import strongest_ink
from vision.reader import (BINS, BLUR, BLUR_WINDOW, CELL, DENSITY_FLOOR, DENSITY_GRID, DENSITY_WEIGHT, HOG_WINDOW,
                           INDEX_CELL, INDEX_DIM, INDEX_WIDE, INK_CAP, WIDE_GLYPH_ASPECT, find_glyph, hog_cells,
                           hog_cells_of, hog_pair, index_features, index_regions, region_ink,
                           root_hog_blocks)
from vision.complete import completions
from vision.warp import order_corners, order_corners_of, side_lengths
from vision.whiteframe import FRAME_PAPER, frame_sides, shows_frame


def plain_hog_blocks(cells):
    blocks = np.stack([cells[:-1, :-1], cells[:-1, 1:], cells[1:, :-1], cells[1:, 1:]], axis=2)
    blocks /= np.sqrt((blocks ** 2).sum(axis=(2, 3), keepdims=True) + 1e-3)
    blocks = np.minimum(blocks, 0.2)
    blocks /= np.sqrt((blocks ** 2).sum(axis=(2, 3), keepdims=True) + 1e-3)
    return blocks.astype(np.float32)


def plain_hog_pair(ink):
    ink = ink.astype(np.float32)
    sharp = plain_hog_cells(cv2.resize(ink, HOG_WINDOW, interpolation=cv2.INTER_AREA))
    # the layout blurred at its own HOG's size (the features since 27 Nov 2026, session 10)
    blurred = plain_hog_cells(cv2.GaussianBlur(cv2.resize(ink, BLUR_WINDOW, interpolation=cv2.INTER_AREA),
                                               (0, 0), BLUR * BLUR_WINDOW[1]))
    cap = min(INK_CAP, max(DENSITY_FLOOR, strongest_ink(ink)))   # the face's own strongest ink
    density = cv2.resize(np.minimum(ink, cap), DENSITY_GRID,
                         interpolation=cv2.INTER_AREA) * (DENSITY_WEIGHT / cap)
    sharp, blurred = np.sqrt(plain_hog_blocks(sharp)), np.sqrt(plain_hog_blocks(blurred))
    up = np.concatenate([sharp.ravel(), blurred.ravel(), density.ravel()])
    turned = np.concatenate([sharp[::-1, ::-1, ::-1].ravel(), blurred[::-1, ::-1, ::-1].ravel(),
                             density[::-1, ::-1].ravel()])
    return np.stack([up, turned])


def plain_glyph_blocks(regions):
    found = []
    for ink in region_ink(regions):
        glyph = find_glyph(ink)
        if glyph is not None:
            crop, aspect = glyph
            found.append(np.append(np.sqrt(plain_hog_blocks(plain_hog_cells(crop, INDEX_CELL))).ravel(), aspect))
    return found


def plain_index_features(regions, wider=None):
    found = plain_glyph_blocks(regions)
    if not found and wider is not None:
        found = [block for block in plain_glyph_blocks(wider()) if block[-1] <= WIDE_GLYPH_ASPECT]
    if not found:
        return np.zeros(INDEX_DIM, np.float32)
    return np.mean(found, axis=0).astype(np.float32)


def whole(face):
    h, w = face.shape[:2]
    return np.float32([[0, 0], [w, 0], [w, h], [0, h]])


def outlines(face):
    """The face's own outline and a few a finder might give: a few per cent off, a strip,
    turned a half (the corner regions then come from the other corners)."""
    box = whole(face)
    h, w = face.shape[:2]
    return [box, box + np.float32([[3, 4], [-2, 5], [-4, -3], [2, -4]]),
            np.float32([[0, 0], [w, 0], [w, 0.6 * h], [0, 0.6 * h]]), np.roll(box, 2, axis=0)]


def test_hog_of_several_images_at_once_is_each_alone_bit_for_bit():
    rng = np.random.default_rng(8)
    inks = [face_features(f).ink for f in FACES]
    for cell, sizes in ((CELL, [HOG_WINDOW, BLUR_WINDOW]), (INDEX_CELL, [(16, 24), (16, 24), (12, 20)])):
        for trial in range(6):
            images = [cv2.resize(inks[(trial + i) % len(inks)], size, interpolation=cv2.INTER_AREA)
                      for i, size in enumerate(sizes)]
            images[-1] = images[-1] if trial % 2 else (rng.random(images[-1].shape) * 80).astype(np.float32)
            together = hog_cells_of(images, cell)
            assert len(together) == len(images)
            for image, cells in zip(images, together):
                assert cells.dtype == np.float32 and np.array_equal(cells, hog_cells(image, cell))
                assert np.array_equal(cells, plain_hog_cells(image, cell))
            for blocks, cells in zip(root_hog_blocks(together), together):
                assert blocks.dtype == np.float32 and np.array_equal(blocks, np.sqrt(plain_hog_blocks(cells)))


@pytest.mark.parametrize("index", range(len(FACES)))
def test_the_hog_pair_is_the_plain_one_bit_for_bit(index):
    ink = face_features(FACES[index]).ink
    quick, plain = hog_pair(ink), plain_hog_pair(ink)
    assert quick.dtype == plain.dtype and np.array_equal(quick, plain)


def test_the_corner_index_block_is_the_plain_one_bit_for_bit():
    shown = 0
    for face in FACES:
        for corners in outlines(face):
            regions = index_regions(face, corners)
            wider = (lambda f=face, c=corners: index_regions(f, c, INDEX_WIDE))
            quick, plain = index_features(regions, wider), plain_index_features(regions, wider)
            assert quick.dtype == plain.dtype and np.array_equal(quick, plain)
            assert np.array_equal(index_features(regions), plain_index_features(regions))
            shown += bool(plain.any())
    assert shown >= 10, "too few outlines showed a glyph to compare the block"


def test_a_block_found_in_the_corner_regions_needs_no_wider_search():
    """`Recognizer._completed` reads a completed outline with the block it computed to see
    a glyph (`card_features(..., index=)`): the same block as the features compute
    themselves, as a glyph in the corner regions means the wider ones are never cut."""
    for face in FACES:
        for corners in outlines(face):
            regions = index_regions(face, corners)
            block = index_features(regions)
            if block.any():
                asked = []
                assert np.array_equal(index_features(regions, lambda: asked.append(1)), block) and not asked


# --- a taught card's second look and its paper, session 7 -----------------------------------

def plain_order_corners(corners):
    pts = np.asarray(corners, dtype=np.float32).reshape(4, 2)
    centre = pts.mean(axis=0)
    pts = pts[np.argsort(np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0]))]
    sides = np.linalg.norm(pts - np.roll(pts, -1, axis=0), axis=1)
    if sides[0] + sides[2] > sides[1] + sides[3]:
        pts = np.roll(pts, -1, axis=0)
    if pts[0, 1] + pts[1, 1] > pts[2, 1] + pts[3, 1]:
        pts = np.roll(pts, -2, axis=0)
    return pts


def plain_completions(corners, aspect):
    """`vision.complete.completions` as it was: every outline put in order on its own."""
    from vision.complete import CORNER_ANGLE, CORNER_ASPECT, CORNER_MOVE, GROW, MOST, SAME, STRIP_OFF

    def length(v):
        return float(np.hypot(v[0], v[1]))

    def both_ways(quad, one, other, factor):
        out = []
        for fixed, moved in ((one, other), (other, one)):
            grown = quad.copy()
            for f, m in zip(fixed, moved):
                grown[m] = quad[f] + (quad[m] - quad[f]) * factor
            out.append(plain_order_corners(grown))
        return out

    def strips(quad):
        width = (length(quad[1] - quad[0]) + length(quad[2] - quad[3])) / 2
        height = (length(quad[3] - quad[0]) + length(quad[2] - quad[1])) / 2
        ratio = height / max(width, 1e-6)
        if ratio > aspect * (1 + STRIP_OFF):
            return both_ways(quad, (0, 3), (1, 2), height / aspect / width)
        if ratio < aspect * (1 - STRIP_OFF):
            return both_ways(quad, (0, 1), (3, 2), width * aspect / height) \
                + both_ways(quad, (0, 3), (1, 2), height * aspect / width)
        return []

    def right_corners(quad):
        for i in range(4):
            before, corner, after = quad[i - 1], quad[i], quad[(i + 1) % 4]
            u, v = before - corner, after - corner
            lu, lv = length(u), length(v)
            if min(lu, lv) < 1.0:
                continue
            angle = np.degrees(np.arccos(np.clip(float(u @ v) / (lu * lv), -1.0, 1.0)))
            if abs(angle - 90.0) <= CORNER_ANGLE:
                yield i, corner, u, lu, v, lv

    def from_corners(quad):
        out = []
        for i, corner, u, lu, v, lv in right_corners(quad):
            if abs(max(lu, lv) / min(lu, lv) / aspect - 1) > CORNER_ASPECT:
                continue
            far = corner + u + v
            if length(far - quad[(i + 2) % 4]) < CORNER_MOVE * min(lu, lv):
                continue
            whole = quad.copy()
            whole[(i + 2) % 4] = far
            out.append(plain_order_corners(whole))
        return out

    def from_whole_sides(quad):
        out = []
        for _, corner, u, lu, v, lv in right_corners(quad):
            for whole_side, side, partial, partial_length in ((u, lu, v, lv), (v, lv, u, lu)):
                for wanted in (side * aspect, side / aspect):
                    if wanted < GROW * partial_length:
                        continue
                    grown = partial * (wanted / partial_length)
                    out.append(plain_order_corners(np.float32([corner, corner + whole_side,
                                                               corner + whole_side + grown, corner + grown])))
        return out

    quad = plain_order_corners(corners)
    out = []
    for whole in strips(quad) + from_corners(quad) + from_whole_sides(quad):
        short = min(length(whole[1] - whole[0]), length(whole[3] - whole[0]))
        if not any(np.abs(whole - seen).max() < SAME * short for seen in out):
            out.append(whole)
    return out[:MOST]


def quads(count=400, seed=5):
    """Outlines a finder gives: card-shaped and strips, turned any way, a few pixels off,
    on whole pixels, axis-aligned boxes and squares (ties in the corners' order)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        cx, cy = rng.uniform(50, 500, 2)
        w = rng.uniform(15, 120)
        h = w * rng.choice([1.0, 1.4, rng.uniform(0.4, 3.2)])
        a = rng.uniform(0, 2 * np.pi)
        pts = np.float32([[cx + dx * np.cos(a) - dy * np.sin(a), cy + dx * np.sin(a) + dy * np.cos(a)]
                          for dx, dy in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2))])
        out += [pts[rng.permutation(4)], pts + rng.normal(0, 3, pts.shape).astype(np.float32), np.round(pts),
                np.float32([[cx, cy], [cx + w, cy], [cx + w, cy + h], [cx, cy + h]])]
    return out


def test_corners_put_in_order_together_are_each_put_in_order_alone():
    outlines_ = quads()
    together = order_corners_of(np.stack(outlines_))
    for quad, ordered in zip(outlines_, together):
        assert ordered.dtype == np.float32 and np.array_equal(ordered, plain_order_corners(quad))
        assert np.array_equal(ordered, order_corners(quad))


@pytest.mark.parametrize("aspect", [88 / 63, 1.55])
def test_the_completions_are_the_plain_ones_bit_for_bit(aspect):
    made = 0
    for quad in quads(250):
        quick, plain = completions(quad, aspect), plain_completions(quad, aspect)
        assert len(quick) == len(plain)
        for q, p in zip(quick, plain):
            assert q.dtype == p.dtype and np.array_equal(q, p)
        made += len(quick)
    assert made > 500, "too few completions made to compare"


def plain_frame_sides(face):
    if face.shape[1] != 66 or face.shape[0] != 92:
        face = cv2.resize(face, (66, 92), interpolation=cv2.INTER_AREA)
    pixels = face.reshape(-1, 3)
    white = pixels.min(axis=1)
    k = int(0.95 * (len(white) - 1))
    paper = np.maximum(np.median(pixels[white >= np.partition(white, k)[k]], axis=0), 8.0).astype(np.float32)
    relative = (face.astype(np.float32) / paper).min(axis=2)
    h, w = relative.shape
    rows, cols = slice(h // 6, h - h // 6), slice(w // 6, w - w // 6)
    bands = (relative[rows, 1:7].max(axis=1), relative[rows, w - 7:w - 1].max(axis=1),
             relative[1:7, cols].max(axis=0), relative[h - 7:h - 1, cols].max(axis=0))
    return np.array([float(np.median(band)) for band in bands], np.float32)


def test_the_white_frame_check_is_the_plain_one():
    rng = np.random.default_rng(4)
    framed = []
    for face in FACES:
        small = cv2.resize(face, (66, 92), interpolation=cv2.INTER_AREA)
        inset = small.copy()
        inset[:, :4], inset[:, -4:], inset[:4], inset[-4:] = 250, 250, 250, 250   # a white frame
        half = inset.copy()
        half[:, :33] = (rng.random((92, 33, 3)) * 120).astype(np.uint8)             # shown on one side
        framed += [face, small, inset, half]
    shown = 0
    for face in framed:
        assert np.array_equal(frame_sides(face), plain_frame_sides(face))
        assert shows_frame(face) == bool(plain_frame_sides(face).max() >= FRAME_PAPER)
        shown += shows_frame(face)
    assert 0 < shown < len(framed)


def test_a_paper_fit_through_a_line_of_pixels_is_lstsq_s():
    """The normal equations need a set of points that fixes a plane; one that barely does
    (a row of pixels, two pixels) is solved by lstsq as before, and a full set gives
    lstsq's float32 numbers too."""
    from vision.classify import _BASIS_SAMPLED, _MOMENTS, _plane_fit
    rng = np.random.default_rng(6)
    x = _BASIS_SAMPLED
    values = rng.random((len(x), 3)).astype(np.float32)
    row = np.zeros(len(x), bool)
    row[:30] = True
    two = np.zeros(len(x), bool)
    two[[3, 400]] = True
    for rows in (row, two, rng.random(len(x)) > 0.7, np.ones(len(x), bool)):
        plain, *_ = np.linalg.lstsq(x[rows], values[rows], rcond=None)
        quick = _plane_fit(x, _MOMENTS, values.astype(np.float64), values, rows)
        assert quick.dtype == plain.dtype and np.array_equal(quick, plain)


def test_side_lengths_are_the_plain_ones():
    def plain(corners):
        pts = np.asarray(corners, dtype=np.float32).reshape(4, 2)
        sides = np.linalg.norm(pts - np.roll(pts, -1, axis=0), axis=1)
        first, second = float(sides[0] + sides[2]) / 2, float(sides[1] + sides[3]) / 2
        return min(first, second), max(first, second)

    for quad in quads(100):
        assert side_lengths(quad) == plain(quad)


def test_the_card_and_its_glyphs_in_one_pass_of_hog_are_each_alone_bit_for_bit():
    """A reader of the corner index gets the card's HOG pair and the glyphs' rows from one
    pass (`hog_pair_and_index_rows`): the numbers of `hog_pair` and `index_rows` apart,
    with the wider search where the corner regions show no glyph."""
    from vision.reader import hog_pair_and_index_rows, index_rows
    kinds = set()
    for face in FACES:
        ink = face_features(face).ink
        for corners in outlines(face):
            regions = index_regions(face, corners)
            wider = (lambda f=face, c=corners: index_regions(f, c, INDEX_WIDE))
            for far in (wider, None):
                pair, rows = hog_pair_and_index_rows(ink, regions, far)
                alone = index_rows(regions, far)
                assert pair.dtype == np.float32 and np.array_equal(pair, plain_hog_pair(ink))
                assert rows.shape == alone.shape and np.array_equal(rows, alone)
                kinds.add(len(rows))
    assert kinds >= {0, 1, 2}, "outlines with no, one and two glyphs are all compared"


def test_a_completions_glyph_check_searches_each_region_once_the_same_numbers():
    """A completion's glyph check takes each corner region's rows and its glyph's height from
    one search (`region_rows`): the rows of `index_rows` of each region alone and the height
    of `index_glyph_height`, bit for bit, wide regions too."""
    from vision.reader import glyph_height_share, index_glyph_height, index_rows, region_rows
    kinds = set()
    for face in FACES:
        for corners in outlines(face):
            for cut in (None, INDEX_WIDE):
                regions = index_regions(face, corners, cut)
                each, heights = region_rows(regions)
                for i in (0, 1):
                    alone = index_rows(regions[i:i + 1])
                    assert each[i].shape == alone.shape and np.array_equal(each[i], alone)
                assert glyph_height_share(heights, cut) == index_glyph_height(regions, cut)
                kinds.add(sum(len(rows) for rows in each))
    assert kinds >= {0, 1, 2}, "regions with no, one and two glyphs are all compared"

def plain_region_ink(regions):
    n, h, w, _ = regions.shape
    sample = regions[:, ::2, ::2].reshape(n, -1, 3)
    kth = int(0.85 * (sample.shape[1] - 1))
    paper = np.partition(sample, kth, axis=1)[:, kth].astype(np.float32)
    scale = (100 / np.maximum(paper, 12.0)).astype(np.float32)
    f = regions.astype(np.float32) * scale[:, None, None, :]
    darkest = np.minimum(np.minimum(f[..., 0], f[..., 1]), f[..., 2])
    return np.clip(100 - darkest, 0, INK_CAP)


def test_the_corner_regions_ink_is_the_plain_one_bit_for_bit():
    rng = np.random.default_rng(3)
    sets = [index_regions(face, outline, cut) for face in FACES for outline in outlines(face)
            for cut in (None, INDEX_WIDE)]
    # and regions of every 8-bit value, of a dark paper (the scale's floor) and of one region
    sets += [rng.integers(0, 256, (2, 45, 40, 3), dtype=np.uint8), rng.integers(0, 12, (2, 45, 40, 3), dtype=np.uint8),
             rng.integers(0, 256, (1, 45, 40, 3), dtype=np.uint8)]
    for regions in sets:
        mine, plain = region_ink(regions), plain_region_ink(regions)
        assert mine.dtype == plain.dtype == np.float32 and mine.shape == plain.shape
        assert np.array_equal(mine.view(np.uint32), plain.view(np.uint32))


def test_the_gradients_are_opencvs_sobel_bit_for_bit():
    """`reader._gradients` (two subtractions) against `cv2.Sobel(..., ksize=1)` on the
    ink maps of the faces and their glyph-sized shrinks, noise, a flat map and one too
    small for the subtractions (OpenCV's then)."""
    from vision.reader import _gradients
    rng = np.random.default_rng(9)
    images = [face_features(face).ink for face in FACES[::3]]
    images += [cv2.resize(image, (16, 24), interpolation=cv2.INTER_AREA) for image in images]
    images += [rng.random((45, 40)).astype(np.float32) * 60, np.zeros((24, 16), np.float32),
               rng.random((2, 5)).astype(np.float32)]
    for image in images:
        gx, gy = _gradients(image)
        for quick, dx, dy in ((gx, 1, 0), (gy, 0, 1)):
            plain = cv2.Sobel(image, cv2.CV_32F, dx, dy, ksize=1)
            assert quick.dtype == plain.dtype and np.array_equal(quick, plain)
            assert np.array_equal(np.signbit(quick), np.signbit(plain))   # and the zeros' signs


def test_the_paper_plane_in_two_products_is_the_basis_product_bit_for_bit():
    """`classify._plane` against the basis' product it replaced, for planes of every
    slope a card's paper shows and a grid of another size."""
    from vision.classify import _BASIS, _FACTORS, _plane, _plane_basis, _plane_factors
    rng = np.random.default_rng(10)
    for basis, factors in ((_BASIS, _FACTORS), (_plane_basis(50, 37), _plane_factors(_plane_basis(50, 37)))):
        h, w = basis.shape[:2]
        for scale in (0.01, 0.3, 1.0, 3.0):
            coef = ((rng.normal(size=(3, 3)) * [[0.3], [0.1], [0.1]] + [[0.7], [0], [0]]) * scale).astype(np.float32)
            assert np.array_equal(_plane(factors, coef), (basis.reshape(-1, 3) @ coef).reshape(h, w, 3))


# --- session 12 (helper taught-5M): work a reading skips or does with fewer calls ---------

def plain_glyph_at(ink, top, levels):
    """`reader._glyph_at` as it was: the strong blobs marked on every search."""
    from vision.reader import GLYPH_LEVEL, GLYPH_LOW, _glyph_of
    count, labels, stats, _ = cv2.connectedComponentsWithStats((ink > GLYPH_LOW * top).astype(np.uint8),
                                                               connectivity=8)
    strong = np.zeros(count, bool)
    strong[labels[ink > GLYPH_LEVEL * top]] = True
    found = _glyph_of(ink, [row for row, keep in zip(stats[1:count].tolist(), strong[1:].tolist()) if keep])
    for level in levels:
        if found is not None:
            break
        count, _, stats, _ = cv2.connectedComponentsWithStats((ink > level * top).astype(np.uint8), connectivity=8)
        found = _glyph_of(ink, stats[1:count].tolist())
    return found


def plain_find_glyph(ink, levels):
    from vision.reader import GLYPH_OWN
    top = max(float(ink.max()), 20.0)
    found = plain_glyph_at(ink, top, levels)
    if found is not None and found[2] < GLYPH_OWN * top:
        found = plain_glyph_at(ink, max(found[2], 20.0), levels) or found
    return found


def test_a_glyph_search_looking_at_strong_ink_only_when_a_blob_could_be_the_glyph_is_the_plain_one():
    """The blobs holding ink above GLYPH_LEVEL are marked only when some blob has a glyph's
    place and height: the same glyph, aspect, strongest ink and height as marking them on
    every search, for the corner and the wider regions of the faces at both sets of levels."""
    from vision.pipeline import COMPLETE_LEVELS
    from vision.reader import GLYPH_LEVELS, _find_glyph
    rng = np.random.default_rng(12)
    inks = [ink for face in FACES for outline in outlines(face) for cut in (None, INDEX_WIDE)
            for ink in region_ink(index_regions(face, outline, cut))]
    inks += [rng.random((45, 40)).astype(np.float32) * 60, np.zeros((45, 40), np.float32)]
    kinds = set()
    for ink in inks:
        for levels in (GLYPH_LEVELS, COMPLETE_LEVELS):
            quick, plain = _find_glyph(ink, levels), plain_find_glyph(ink, levels)
            kinds.add(plain is None)
            assert (quick is None) == (plain is None)
            if plain is not None:
                assert np.array_equal(quick[0], plain[0]) and quick[1:] == plain[1:]
    assert kinds == {True, False}, "regions with and without a glyph are both compared"


def plain_index_against(reader, rows, members, scores, glyph_margin, score_margin):
    start = len(reader.mean) - INDEX_DIM
    glyph = (rows - reader.mean[start:]) @ reader.weights[start:]
    other = (reader.classes >= 0) & ~np.isin(np.arange(len(reader.classes)), members)
    close = other & (scores >= scores[members].max() - score_margin)
    if not close.any():
        return False
    return bool(((glyph[:, close] - glyph[:, members].max(axis=1, keepdims=True)) >= glyph_margin).any())


def test_a_corner_glyph_against_the_answer_and_the_doubt_are_the_plain_ones():
    """`LinearReader.index_against` without np.isin (and the glyph's scores only when a class
    is close), `classify._doubtful` without np.delete, `index_block` of one or two rows
    without np.mean: the same answers and bits on random readers, rows and scores."""
    from vision.classify import INDEX_AGAINST, INDEX_CLOSE, LEAD, _doubtful
    from vision.reader import LinearReader, index_block
    rng = np.random.default_rng(5)
    answers = set()
    for trial in range(400):
        classes = np.array(list(range(6)) + [-1])
        reader = LinearReader(classes, rng.normal(0, 1, 300 + INDEX_DIM), rng.normal(0, 0.05, (300 + INDEX_DIM, 7)),
                              rng.normal(0, 0.1, 7), index=True, share=0.5)
        rows = rng.random((int(rng.integers(0, 3)), INDEX_DIM))
        scores = rng.normal(0.5, 0.3, 7)
        members = np.flatnonzero(rng.random(6) < 0.3) if trial % 3 else np.array([int(rng.integers(0, 6))])
        if not len(members):
            members = np.array([0])
        for glyph_margin, score_margin in ((INDEX_AGAINST, INDEX_CLOSE), (0.0, 1.0), (-1.0, 0.5)):
            quick = reader.index_against(rows, members, scores, glyph_margin, score_margin)
            plain = plain_index_against(reader, rows, members, scores, glyph_margin, score_margin) if len(rows) else False
            assert quick == plain
            answers.add(quick)
        rest = np.delete(scores, members)
        doubt = bool(len(rest) and float(scores[members].max() - rest.max()) < LEAD) or \
            reader.index_against(rows, members, scores, INDEX_AGAINST, INDEX_CLOSE)
        features = type("F", (), {"index_rows": rows})()
        assert _doubtful(reader, features, scores, members) == doubt
        if len(rows):
            block = index_block(rows)
            plain_block = np.mean(rows, axis=0).astype(np.float32)
            assert block.dtype == np.float32 and np.array_equal(block.view(np.uint32), plain_block.view(np.uint32))
    assert answers == {True, False}


def plain_completion_glyphs(face, whole):
    """A completion's glyph check as it was: both corner regions searched, then both wider ones
    when neither shows a glyph (regions, rows, heights, cut)."""
    from vision.pipeline import _wide_rows
    from vision.reader import region_rows
    regions = index_regions(face, whole)
    each, heights = region_rows(regions)
    if any(len(rows) for rows in each):
        return regions, each, heights, None
    each, heights = _wide_rows(face, whole)
    return regions, each, heights, INDEX_WIDE


def test_a_completions_glyph_check_searching_a_seen_corner_first_finds_what_searching_all_found():
    """With one corner of a completed outline seen by the first outline, its regions are
    searched first and the others only when they can still give a glyph at the seen corner:
    where searching all four regions found one there, the same regions, rows, heights and
    cut; where it found none, a refusal (regions None) or the same."""
    from vision.pipeline import _completion_glyphs
    kinds = set()
    for face in FACES:
        box = whole(face)
        h, w = face.shape[:2]
        # outlines whose corner regions show a glyph at both, one or neither corner, and
        # outlines inside the card whose wider regions find one
        shapes = outlines(face) + [box * np.float32([1.0, 1.0]) + np.float32([[0.06 * w, 0.05 * h]] * 4) * np.float32(
            [[1, 1], [-1, 1], [-1, -1], [1, -1]]), np.float32([[0, 0.3 * h], [w, 0.3 * h], [w, h], [0, h]])]
        for outline in shapes:
            plain = plain_completion_glyphs(face, outline)
            for seen in ((True, True), (True, False), (False, True)):
                regions, each, heights, cut = _completion_glyphs(face, outline, seen)
                passes = any(seen[i] and len(plain[1][i]) for i in (0, 1))
                kinds.add((seen != (True, True), passes, plain[3] is not None))
                if regions is None:
                    assert not passes
                    continue
                assert np.array_equal(regions, plain[0]) and cut == plain[3] and list(heights) == list(plain[2])
                assert all(a.shape == b.shape and np.array_equal(a, b) for a, b in zip(each, plain[1]))
    # one corner seen: a glyph there in the corner regions, in the wider ones, and none (refused)
    assert {(True, True, False), (True, True, True), (True, False, True)} <= kinds


def plain_best_of_classes(scores, classes, count):
    chosen, seen = [], set()
    for label in np.argsort(-scores):
        if not np.isfinite(scores[label]) or len(chosen) == count:
            break
        if classes[label] not in seen:
            seen.add(classes[label])
            chosen.append(int(label))
    return chosen


def test_a_built_in_decks_first_scores_and_candidates_are_the_plain_ones():
    """`classify`'s label scores (the better turn of each template by `np.maximum` of the
    two columns) are `scores.max(axis=1)`'s, and `_best_of_classes` over Python numbers
    chooses what the loop over numpy scalars chose: on random scores with ties, labels
    ruled out (-inf) and shared symbol classes."""
    from vision.classify import CANDIDATES, _best_of_classes
    rng = np.random.default_rng(12)
    for trial in range(300):
        n = int(rng.integers(1, 80))
        scores = rng.normal(size=(n * 9, 2)).astype(np.float32)
        starts = np.arange(0, n * 9, 9)
        assert np.array_equal(np.maximum.reduceat(np.maximum(scores[:, 0], scores[:, 1]), starts),
                              np.maximum.reduceat(scores.max(axis=1), starts))
        labels = np.round(rng.normal(size=n), int(rng.integers(1, 3))).astype(np.float32)  # ties
        labels[rng.random(n) < 0.3] = -np.inf
        classes = rng.integers(0, max(1, n // 2), n)
        for count in (1, CANDIDATES, n + 1):
            assert _best_of_classes(labels, classes, count) == plain_best_of_classes(labels, classes, count)
