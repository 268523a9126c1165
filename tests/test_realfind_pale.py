"""Partly covered cards in the shade (`vision.palecovered`, hooked into `vision.realfind`
as `RealSettings.pale`). Real photographs of ../shared/realphotos/cards-edje scored
through the bench's own matching against the finder without the pass; and the rules on
drawn pictures."""
from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision import palecovered
from vision.detect import PLAIN_SETTINGS, DetectSettings

from tests.realphoto_helpers import PHOTOS, score

WITH_PALE = DetectSettings(real=PLAIN_SETTINGS)
NO_PALE = DetectSettings(real=replace(PLAIN_SETTINGS, pale=None))
SMALLEST = 20 * 28   # the finder's smallest card at 320 pixels
needs_photos = pytest.mark.skipif(not PHOTOS.is_dir(), reason=f"the shared photos are not at {PHOTOS}")


@needs_photos
@pytest.mark.parametrize("name", ["train_IMG_2471",    # a nine half in a belt's shade
                                  "train_IMG_2518",    # a king under a book's corner, in its shade
                                  "train_IMG_2549"])   # a jack under a box, its paper grey
def test_a_partly_covered_card_in_the_shade_is_found(name):
    before = score(name, NO_PALE)
    after = score(name, WITH_PALE)
    assert before.isolated_found == 0 and after.isolated_found == after.isolated == 1
    assert after.false <= before.false and after.duplicates == 0


def _card_in_shade(shade: int) -> tuple[np.ndarray, np.ndarray]:
    """A whiteness map: a dark table, and a card (paper `shade`, much of it printed)
    partly covered, its visible part's outline."""
    white = np.full((240, 320), 60, np.uint8)
    quad = np.float32(((100, 60), (170, 60), (170, 160), (100, 130)))   # cut on the slant
    cv2.fillConvexPoly(white, quad.astype(np.int32), shade)
    for cx in range(108, 165, 8):               # a court picture's print, small at 320
        for cy in range(68, 130, 8):
            cv2.circle(white, (cx, cy), 3, 20, -1)
    return white, quad


def test_a_grey_card_with_ink_passes_and_a_blank_grey_patch_does_not():
    white, quad = _card_in_shade(150)            # paper in the shade: under 200
    assert palecovered.added([], [(0.9, 6000.0, quad)], white, SMALLEST) == [quad]
    blank = np.full((240, 320), 60, np.uint8)
    cv2.fillConvexPoly(blank, quad.astype(np.int32), 150)   # no index, no pips
    assert palecovered.added([], [(0.9, 6000.0, quad)], blank, SMALLEST) == []


def test_a_piece_beside_a_card_found_is_no_other_card():
    white, quad = _card_in_shade(150)
    found = np.float32(((95, 10), (175, 10), (175, 90), (95, 90)))   # the boxes overlap
    assert palecovered.added([found], [(0.9, 6000.0, quad)], white, SMALLEST) == [found]
    far = found + np.float32((150, 150))
    assert len(palecovered.added([far], [(0.9, 6000.0, quad)], white, SMALLEST)) == 2


def test_a_dark_patch_evened_out_is_no_card():
    white, quad = _card_in_shade(100)            # never white anywhere: a dark table
    assert palecovered.added([], [(0.9, 6000.0, quad)], white, SMALLEST) == []


def test_a_speck_is_no_covered_card():
    white, quad = _card_in_shade(150)
    small = (quad - quad.mean(axis=0)) * 0.3 + quad.mean(axis=0)   # a twelfth of it
    assert palecovered.added([], [(0.9, float(cv2.contourArea(small)), small)], white, SMALLEST) == []
