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


def plain_hog_blocks(cells):
    blocks = np.stack([cells[:-1, :-1], cells[:-1, 1:], cells[1:, :-1], cells[1:, 1:]], axis=2)
    blocks /= np.sqrt((blocks ** 2).sum(axis=(2, 3), keepdims=True) + 1e-3)
    blocks = np.minimum(blocks, 0.2)
    blocks /= np.sqrt((blocks ** 2).sum(axis=(2, 3), keepdims=True) + 1e-3)
    return blocks.astype(np.float32)


def plain_hog_pair(ink):
    h, w = ink.shape
    ink = ink.astype(np.float32)
    sharp = plain_hog_cells(cv2.resize(ink, HOG_WINDOW, interpolation=cv2.INTER_AREA))
    blurred = plain_hog_cells(cv2.resize(cv2.GaussianBlur(ink, (0, 0), BLUR * h), BLUR_WINDOW,
                                         interpolation=cv2.INTER_AREA))
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
