"""Whole cards from their four straight sides where the finder's maps merged them with
what they lie on (`vision.wholecards`, hooked into `vision.realfind`). Real photographs
of ../shared/realphotos/cards-edje, scored through the bench's own matching; and the
face check on a card and on a tile, and the rules that keep a whole card from replacing
cards side by side."""
from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision import wholecards
from vision.detect import DetectSettings
from vision.realfind import RealSettings

from tests.realphoto_helpers import PHOTOS, score


WITHOUT = replace(DetectSettings(), real=replace(RealSettings(), whole=None))


@pytest.mark.skipif(not PHOTOS.is_dir(), reason=f"the shared photos are not at {PHOTOS}")
def test_cards_lying_on_a_game_case_are_found_whole_and_the_case_is_not_reported():
    """train_IMG_2584: a queen lies on an Xbox game's case and a court card half on it;
    the case's outline held both (one false outline, two cards missed)."""
    before = score("train_IMG_2584", WITHOUT)
    after = score("train_IMG_2584", DetectSettings())
    assert after.found == after.labels == 4, f"found {after.found} of {after.labels}"
    assert after.isolated_found == after.isolated
    assert after.false == 0 and after.duplicates == 0
    assert before.found == 2 and before.false == 1   # the evidence is new


@pytest.mark.skipif(not PHOTOS.is_dir(), reason=f"the shared photos are not at {PHOTOS}")
@pytest.mark.parametrize("name, found_before", [
    ("train_IMG_2526", 0),   # a king on a white plate: the plate's edge shows, the card's hardly
    ("train_IMG_2477", 0),   # a queen on a book's white page, half in the shade
    ("train_IMG_2579", 2),   # four cards on a manila folder: a court card among them
])
def test_a_court_card_on_white_is_found_from_its_printed_frame(name, found_before):
    before = score(name, WITHOUT)
    after = score(name, DetectSettings())
    assert before.found == found_before
    assert after.found == found_before + 1, f"{name}: found {after.found} of {after.labels}"
    assert after.false <= before.false


def test_a_frame_is_grown_by_the_card_margins_in_its_own_perspective():
    frame = np.float32(((100, 100), (164, 100), (164, 201), (100, 201)))   # 64 x 101
    card = wholecards.grown_frame(frame, wholecards.WholeSettings())
    x, y, w, h = cv2.boundingRect(np.round(card).astype(np.int32))
    assert w == pytest.approx(64 * 1.36, abs=2) and h == pytest.approx(101 * 1.2, abs=2)
    assert (x + w / 2, y + h / 2) == pytest.approx((132, 150.5), abs=1.5)


def test_a_court_picture_is_alike_turned_half_round_and_a_photograph_is_not():
    rng = np.random.default_rng(7)
    half = rng.integers(0, 255, (24, 32)).astype(np.uint8)
    court = np.vstack([half, half[::-1, ::-1]])   # printed twice, head to foot
    gray = np.zeros((100, 100), np.uint8)
    gray[20:68, 30:62] = court
    quad = np.float32(((30, 20), (61, 20), (61, 67), (30, 67)))
    assert wholecards._half_turn_alike(quad, gray) > 0.9
    gray[20:68, 30:62] = rng.integers(0, 255, (48, 32)).astype(np.uint8)
    assert wholecards._half_turn_alike(quad, gray) < 0.3


def _card_face(size: tuple[int, int] = (120, 168)) -> np.ndarray:
    """A whiteness picture of an upright card on a dark table: white paper, an index in
    two opposite corners, pips in the middle."""
    w, h = size
    white = np.full((h + 40, w + 40), 40, np.uint8)
    white[20:20 + h, 20:20 + w] = 235
    for x, y in ((30, 30), (20 + w - 22, 20 + h - 30)):   # the indexes
        white[y:y + 20, x:x + 10] = 30
    for x, y in ((55, 70), (100, 70), (55, 140), (100, 140)):   # pips
        white[y:y + 18, x:x + 14] = 30
    return white


def _outline(size: tuple[int, int] = (120, 168)) -> np.ndarray:
    w, h = size
    return np.float32(((20, 20), (20 + w - 1, 20), (20 + w - 1, 20 + h - 1), (20, 20 + h - 1)))


def test_a_card_face_passes_the_face_check_and_a_blank_tile_does_not():
    settings = wholecards.WholeSettings()
    assert wholecards.looks_like_a_card(_outline(), _card_face(), settings)
    tile = np.full_like(_card_face(), 40)
    tile[20:188, 20:140] = 235   # paper-white, no index: a tile, a sheet
    assert not wholecards.looks_like_a_card(_outline(), tile, settings)
    printed = _card_face()   # a court card's frame: its picture (two thirds ink) right up to it
    ys, xs = np.mgrid[20:188, 20:140]
    printed[20:188, 20:140] = np.where((ys // 12 + xs // 12) % 3 == 0, 235, 40)
    assert not wholecards.looks_like_a_card(_outline(), printed, settings)


def _added(kept: list[np.ndarray], others: list[np.ndarray], white: np.ndarray,
           settings: wholecards.WholeSettings = wholecards.WholeSettings()) -> list[np.ndarray]:
    return wholecards.added(kept, others, white.copy(), white, (20.0, 400.0),
                            lambda quads, angles, unlikes, skips: [1.0] * len(quads), lambda quad: 0.0, settings)


def test_a_whole_card_replaces_the_piece_the_case_held_and_the_case():
    white = np.full((320, 340), 40, np.uint8)
    white[10:310, 10:330] = 120                    # a case, outlined by the finder
    white[60:228, 110:230] = _card_face()[20:188, 20:140]   # a card lying on it
    case = np.float32(((10, 10), (329, 10), (329, 309), (10, 309)))
    piece = np.float32(((110, 60), (229, 60), (229, 130), (110, 130)))   # the card's top, dropped
    out = _added([case], [piece], white)
    assert len(out) == 1, out
    x, y, w, h = cv2.boundingRect(np.round(out[0]).astype(np.int32))
    assert abs(x - 110) <= 3 and abs(y - 60) <= 3 and abs(w - 120) <= 4 and abs(h - 168) <= 4
    # nothing is looked for where no outline held a smaller one, unless the outline is a
    # large share of the frame and no card's face (the default: a card merged with a page)
    nowhere = wholecards.WholeSettings(look=())
    assert _added([case], [], white, nowhere) == [case]
    assert wholecards.WholeSettings().look == ("large",)
    found = _added([case], [], white)
    assert len(found) == 1, found   # the card, and the case holding it dropped
    x, y, w, h = cv2.boundingRect(np.round(found[0]).astype(np.int32))
    assert abs(x - 110) <= 3 and abs(y - 60) <= 3 and abs(w - 120) <= 4 and abs(h - 168) <= 4


def test_two_cards_side_by_side_are_not_made_one():
    white = np.full((220, 320), 40, np.uint8)
    face = _card_face()[20:188, 20:140]
    white[20:188, 30:150] = face
    white[20:188, 156:276] = face
    left = np.float32(((30, 20), (149, 20), (149, 187), (30, 187)))
    right = left + np.float32((126, 0))
    everywhere = wholecards.WholeSettings(look=("large",), large=0.0)
    assert len(_added([left, right], [], white, everywhere)) == 2
