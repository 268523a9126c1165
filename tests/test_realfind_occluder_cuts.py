"""A card under something as white as its paper (`vision.occludercuts`, on in
`detect.LEARNED_SETTINGS` only): the whiteness of the card runs on into the object's, and
the finder's maps give one region round both; cut along the object's long straight edge,
the card's visible part is a region of its own for the gates and the learned scorer. On
train_IMG_2536 of ../shared/realphotos/cards-edje (a king tucked under a cream book on
brick) the king is found only so."""
from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision import occludercuts, outlinescore
from vision.detect import FIELD_SETTINGS, LEARNED_SETTINGS, PLAIN_SETTINGS, DetectSettings
from vision.realsettings import RealSettings

from tests.realphoto_helpers import PHOTOS, score

needs_photos = pytest.mark.skipif(not PHOTOS.is_dir(), reason=f"the shared photos are not at {PHOTOS}")


def test_only_the_learned_settings_cut_along_occluders():
    assert LEARNED_SETTINGS.occluder_cuts is not None
    assert PLAIN_SETTINGS.occluder_cuts is None and FIELD_SETTINGS.occluder_cuts is None
    assert RealSettings().occluder_cuts is None


def _card_under_a_book() -> np.ndarray:
    """A card (paper 225) whose lower part lies under a book (200) on a dark table (60)."""
    picture = np.full((240, 320), 60, np.uint8)
    cv2.rectangle(picture, (100, 40), (160, 130), 225, -1)
    cv2.rectangle(picture, (40, 110), (280, 230), 200, -1)
    return picture


def test_the_card_part_is_cut_from_the_book_along_its_edge():
    picture = _card_under_a_book()
    # the plain whiteness cut: card and book one region
    whole = cv2.findContours(cv2.threshold(picture, 153, 255, cv2.THRESH_BINARY)[1], cv2.RETR_EXTERNAL,
                             cv2.CHAIN_APPROX_SIMPLE)[0]
    assert len(whole) == 1
    regions = occludercuts.cut_regions(picture, picture, 20.0, occludercuts.CutSettings(), (0, 0, 320, 240))
    boxes = [cv2.boundingRect(r) for r in regions]
    # the card's visible part, above the book's top edge (y 110), at each level
    card = [b for b in boxes if abs(b[0] - 100) <= 2 and abs(b[1] - 40) <= 2 and abs(b[0] + b[2] - 161) <= 2]
    assert card and all(106 <= b[1] + b[3] <= 110 for b in card)


def test_no_segment_long_enough_no_cut():
    picture = _card_under_a_book()
    assert occludercuts.cut_regions(picture, picture, 200.0, occludercuts.CutSettings(), (0, 0, 320, 240)) == []


def test_a_cut_part_is_barred_unless_sure_or_inside_a_weaker_outline():
    square = np.float32(((0, 0), (10, 0), (10, 10), (0, 10)))
    part = outlinescore.Considered(square, 100.0, cut=True)
    big = outlinescore.Considered(square * 5 - 5, 2500.0)
    settings = occludercuts.CutSettings()
    # alone: under `chance` it is no card
    assert occludercuts.cut_bar([part], np.array([0.3]), settings).tolist() == [0.0]
    assert occludercuts.cut_bar([part], np.array([0.6]), settings).tolist() == [0.6]
    # inside a less sure outline (card and book as one): that outline gives way
    assert occludercuts.cut_bar([part, big], np.array([0.3, 0.4]), settings).tolist() == [0.3, 0.0]
    # ... not a sure one (a card cut along its print)
    assert occludercuts.cut_bar([part, big], np.array([0.3, 0.8]), settings).tolist() == [0.0, 0.8]


@needs_photos
def test_the_king_under_the_book_is_found():
    without = score("train_IMG_2536", DetectSettings(real=replace(LEARNED_SETTINGS, occluder_cuts=None)))
    assert without.found == 0
    found = score("train_IMG_2536", DetectSettings(real=LEARNED_SETTINGS))
    assert found.found == 1
