"""Pip cards placed from their ink where no edge shows (`vision.inkcards`, hooked into
`vision.realfind` as `RealSettings.ink`). Real photographs of
../shared/realphotos/cards-edje scored through the bench's own matching against the
finder without the pass; and the rules on drawn pictures."""
from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision import inkcards
from vision.detect import PLAIN_SETTINGS, DetectSettings
from vision.realfind import _unexplained_paper
from vision.warp import side_lengths

from tests.realphoto_helpers import PHOTOS, score

WITH_INK = DetectSettings(real=PLAIN_SETTINGS)
NO_INK = DetectSettings(real=replace(PLAIN_SETTINGS, ink=None))
needs_photos = pytest.mark.skipif(not PHOTOS.is_dir(), reason=f"the shared photos are not at {PHOTOS}")


@needs_photos
@pytest.mark.parametrize("name", ["train_IMG_2454",    # a nine on a white letter: no edge line at all
                                  "train_IMG_2491",    # a nine half on white paper, half on wood
                                  "train_IMG_2505"])   # a ten on a beige counter beside a book
def test_a_pip_card_with_no_edge_is_found_from_its_ink(name):
    before = score(name, NO_INK)
    after = score(name, WITH_INK)
    assert before.isolated_found == 0 and after.isolated_found == after.isolated == 1
    assert after.false <= before.false and after.duplicates == 0


def _pips(card: tuple[int, int, int, int]) -> list[tuple[int, int]]:
    """The centres of a nine's pips on an upright card (x, y, w, h): two columns of four
    and one in the middle, where the photos' pips lie at the finder's scale."""
    x, y, w, h = card
    columns = (x + round(0.25 * w), x + round(0.75 * w))
    rows = [y + round(h * t) for t in (0.18, 0.39, 0.61, 0.82)]
    return [(cx, cy) for cx in columns for cy in rows] + [(x + w // 2, y + h // 2)]


def _white_table(size: tuple[int, int] = (240, 320)) -> np.ndarray:
    return np.full(size, 225, np.uint8)


def test_a_nine_on_white_paper_is_outlined_from_its_pips():
    white = _white_table()
    card = (100, 60, 70, 98)                   # as white as the paper it lies on: no edge
    for cx, cy in _pips(card):
        cv2.circle(white, (cx, cy), 7, 20, -1)
    x, y, w, h = card
    for ix, iy in ((x + 4, y + 4), (x + w - 8, y + h - 13)):   # the index in two corners
        white[iy:iy + 9, ix:ix + 4] = 30
    out = inkcards.added([], white, (0, 0, 320, 240), (20.0, 200.0), lambda quad: True)
    assert len(out) == 1
    bx, by, bw, bh = cv2.boundingRect(np.round(out[0]).astype(np.int32))
    assert abs(bx - x) <= 6 and abs(by - y) <= 8 and abs(bw - w) <= 12 and abs(bh - h) <= 14
    short, long = sorted(side_lengths(out[0]))
    assert 1.25 <= long / short <= 1.6


def test_the_layout_kept_is_the_pips_symmetric_about_the_card_centre():
    pips = _pips((100, 60, 70, 98))
    centres = np.float32(pips + [(150, 20)])    # a stray blob (a pen's tip) linked with them
    sizes = np.full(len(centres), 12, np.float32)
    kept = inkcards._symmetric(centres, sizes, inkcards.InkSettings())
    assert kept.tolist() == list(range(len(pips)))


def test_a_page_of_print_is_no_card():
    rng = np.random.default_rng(3)
    white = _white_table()
    for row in range(30, 210, 14):               # lines of words: blobs side by side
        x = 40
        while x < 280:
            width = int(rng.integers(4, 12))
            white[row:row + 7, x:x + width] = 25
            x += width + int(rng.integers(3, 6))
    assert inkcards.added([], white, (0, 0, 320, 240), (20.0, 200.0), lambda quad: True) == []


def test_the_ink_is_looked_for_only_where_a_page_of_paper_shows():
    settings = PLAIN_SETTINGS                  # a card's short side 20 at the finder's scale
    white = np.full((240, 320), 60, np.uint8)
    white[40:90, 40:90] = 230                  # paper no outline holds, under 8 short sides squared
    assert _unexplained_paper(white, [], settings) == (10, 10, 110, 110)   # the line pass looks
    assert _unexplained_paper(white, [], settings, settings.ink.page) is None
    white[120:200, 150:250] = 230              # and a page: the box holds both patches
    assert _unexplained_paper(white, [], settings, settings.ink.page) == (10, 10, 270, 220)
