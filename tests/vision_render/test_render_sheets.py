"""Printable pages: A4 at the asked resolution, cards at 63 x 88 mm, the whole deck."""
import struct

import cv2
import numpy as np
import pytest

from vision.render.cards import render_card
from vision.render.sheets import (PER_PAGE, page_count, page_layout, printable_sheet,
                                  sheet_codes, write_sheets)


def test_a4_page_at_300_dpi_holds_real_size_cards():
    page = printable_sheet("solo", 0, dpi=300)
    assert page.shape == (3508, 2480, 3)  # 210 x 297 mm
    lay = page_layout(300)
    assert lay.card == (744, 1039)  # 63 x 88 mm
    x, y = lay.origins[0]
    want = render_card("solo", sheet_codes("solo")[0], size=lay.card).astype(int)
    got = page[y:y + 1039, x:x + 744].astype(int)
    assert np.abs(got - want)[40:-40, 40:-40].mean() < 1
    for (ax, ay), (bx, by) in zip(lay.origins, lay.origins[1:]):  # no slots overlap
        assert bx >= ax + 744 or by >= ay + 1039


@pytest.mark.parametrize("game,pages", [("hitthedeck", 13), ("solo", 13), ("flip7", 11), ("raj", 10)])
def test_pages_hold_the_whole_deck(game, pages):
    assert page_count(game) == pages
    assert len(sheet_codes(game)) <= pages * PER_PAGE
    assert page_count(game, "faces") * PER_PAGE >= len(set(sheet_codes(game)))


def test_write_sheets_writes_pngs_that_know_their_resolution(tmp_path):
    paths = write_sheets("raj", tmp_path, dpi=100, which="faces")
    assert len(paths) == page_count("raj", "faces") + 1  # and a page of backs
    data = paths[0].read_bytes()
    i = data.index(b"pHYs")
    ppm_x, ppm_y, unit = struct.unpack(">IIB", data[i + 4:i + 13])
    assert unit == 1 and ppm_x == ppm_y == round(100 / 0.0254)
    img = cv2.imread(str(paths[0]))
    assert img.shape == (1169, 827, 3)


def test_bad_page_is_refused():
    with pytest.raises(ValueError, match="pages 0..10"):
        printable_sheet("flip7", 11)
