"""The top card of a group (`wholecards.WholeSettings.group_tops`, on in `detect.LEARNED_SETTINGS`
only): cards overlapping in a fan merge into one outline a little larger than a card, which
`vision.wholecards` used to take for the card found already. Where the finder dropped an
outline of a card's size inside it, the group is looked in for four straight sides, and the
top card, whole, is added beside it for the learned scorer. On train_IMG_2649 of
../shared/realphotos/cards-edje (a nine over two jacks on wood) the nine is found only so."""
from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision import wholecards
from vision.detect import LEARNED_SETTINGS, PLAIN_SETTINGS, DetectSettings
from vision.quadgates import unlike_card

from tests.realphoto_helpers import PHOTOS, score

needs_photos = pytest.mark.skipif(not PHOTOS.is_dir(), reason=f"the shared photos are not at {PHOTOS}")

_OFF = replace(LEARNED_SETTINGS, whole=replace(LEARNED_SETTINGS.whole, group_tops=0.0))


def test_only_the_learned_settings_look_for_group_tops():
    assert LEARNED_SETTINGS.whole.group_tops > 0
    assert PLAIN_SETTINGS.whole.group_tops == 0 and wholecards.WholeSettings().group_tops == 0


def test_an_outline_holding_a_dropped_card_is_looked_in_only_for_group_tops():
    """A group (a card-shaped outline) holding an outline of two thirds of its area the finder
    dropped: looked in with `group_tops`, not without (its side ratio is a card's, it is not
    large, and what it holds is not under `same_size[0]` of it: a piece's)."""
    white = np.full((240, 320), 60, np.uint8)
    group = np.float32(((100, 40), (220, 40), (220, 200), (100, 200)))
    card = np.float32(((100, 40), (200, 40), (200, 170), (100, 170)))
    areas = [cv2.contourArea(group)]
    settings = wholecards.WholeSettings(look=())
    assert wholecards._where_to_look([group], areas, [card], white, unlike_card, settings) is None
    tops = replace(settings, group_tops=1.25)
    box = wholecards._where_to_look([group], areas, [card], white, unlike_card, tops)
    assert box is not None and box[0] <= 100 and box[0] + box[2] >= 220
    # an outline dropped inside it of about its own size is the card found again, not a group's
    same = np.float32(((102, 42), (218, 42), (218, 198), (102, 198)))
    assert wholecards._where_to_look([group], areas, [same], white, unlike_card, tops) is None


@needs_photos
def test_the_nine_over_two_jacks_is_found_whole():
    without = score("train_IMG_2649", DetectSettings(real=_OFF))
    assert (without.found, without.false) == (1, 1)     # the group is taken for a card
    found = score("train_IMG_2649", DetectSettings(real=LEARNED_SETTINGS))
    assert (found.found, found.false) == (2, 0)
