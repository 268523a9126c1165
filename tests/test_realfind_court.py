"""Court cards from their printed picture (`vision.courtframes`, `RealSettings.court`, on in
`detect.LEARNED_SETTINGS` only): a king, queen or jack whose edge is lost in a white cloth or
a light counter still shows its picture, a block of ink much darker than the paper round
it, in a printed frame at a fixed inset from the card's edge; that block's rectangle grown
to the card is handed to the learned scorer as a print outline. On train_IMG_2508 of
../shared/realphotos/cards-edje (a jack on a counter, the card merged with the sunlit
counter) the jack is found only so."""
from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision import courtframes, wholecards
from vision.detect import FIELD_SETTINGS, LEARNED_SETTINGS, PLAIN_SETTINGS, DetectSettings
from vision.realsettings import RealSettings

from tests.realphoto_helpers import PHOTOS, score

needs_photos = pytest.mark.skipif(not PHOTOS.is_dir(), reason=f"the shared photos are not at {PHOTOS}")


def test_only_the_learned_settings_look_for_court_pictures():
    assert LEARNED_SETTINGS.court is not None
    assert RealSettings().court is None and PLAIN_SETTINGS.court is None and FIELD_SETTINGS.court is None


def _page() -> np.ndarray:
    """A white page (whiteness 220) with a picture's block (26 x 38, whiteness 60) and an
    L-shaped block that fills little of its rectangle (each narrower than the paper's
    window: the page round it is the paper)."""
    white = np.full((240, 320), 220, np.uint8)
    white[60:98, 40:66] = 60
    white[40:100, 200:210] = 60
    white[90:100, 200:240] = 60
    return white


def test_a_block_of_a_frames_shape_is_a_frame_and_an_l_is_not():
    found = courtframes.frames(_page(), 20.0, courtframes.CourtSettings())
    assert len(found) == 1
    x, y, w, h = cv2.boundingRect(np.round(found[0]).astype(np.int32))
    assert abs(x - 40) <= 1 and abs(y - 60) <= 1 and abs(w - 26) <= 2 and abs(h - 38) <= 2


def test_the_card_is_the_frame_grown_and_a_pip_of_a_card_found_is_not_handed_on():
    white = _page()
    whole = wholecards.WholeSettings()
    settings = courtframes.CourtSettings()
    out = courtframes.outlines(white, [], 20.0, settings, whole, lambda quad, angles, unlike: 1.0)
    assert len(out) == 1 and out[0].printed
    frame = courtframes.frames(white, 20.0, settings)[0]
    assert cv2.contourArea(out[0].quad) == pytest.approx(cv2.contourArea(wholecards.grown_frame(frame, whole)))
    # an outline kept round it `inside` times its area or more: the block is its print
    card = out[0].quad
    big = (card - card.mean(axis=0)) * 2.6 + card.mean(axis=0)
    assert not courtframes.outlines(white, [big], 20.0, settings, whole, lambda quad, angles, unlike: 1.0)
    assert courtframes.outlines(white, [card.copy()], 20.0, settings, whole, lambda quad, angles, unlike: 1.0)
    # the finder's gates have their say
    assert not courtframes.outlines(white, [], 20.0, settings, whole, lambda quad, angles, unlike: None)
    assert not courtframes.outlines(white, [], 20.0, settings, whole, lambda quad, angles, unlike: 0.2)


@needs_photos
def test_a_jack_merged_with_a_light_counter_is_found():
    without = score("train_IMG_2508", DetectSettings(real=replace(LEARNED_SETTINGS, court=None)))
    assert (without.found, without.false) == (0, 1)     # the counter's sunlit patch round it
    found = score("train_IMG_2508", DetectSettings(real=LEARNED_SETTINGS))
    assert (found.found, found.false) == (1, 0)
