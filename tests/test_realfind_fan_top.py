"""A fan's top card from two corners and a side (`wholecards.WholeSettings.top_sides`, on in
`detect.LEARNED_SETTINGS` only): where cards overlap in a row, the top card's side over the
card below lies white on white and line segments show no corner opposite the two it shows,
so no quadrilateral from opposite corners is that card. Two corners at the ends of one side,
their other sides about parallel, make the card with a card's side ratio
(`edgequads.side_quads`), taken inside a group's outline only, when its fourth side is on an
edge and its face is like itself turned half round (a card's half cut across its court
picture is not). On train_IMG_2669 of ../shared/realphotos/cards-edje (three cards in a row)
two of the three are found only so."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision import edgequads, wholecards
from vision.detect import LEARNED_SETTINGS, PLAIN_SETTINGS, DetectSettings
from vision.quadgates import CARD_RATIO

from tests.realphoto_helpers import PHOTOS, score

needs_photos = pytest.mark.skipif(not PHOTOS.is_dir(), reason=f"the shared photos are not at {PHOTOS}")

_OFF = replace(LEARNED_SETTINGS, whole=replace(LEARNED_SETTINGS.whole, top_sides=0.0))


def test_only_the_learned_settings_take_a_top_card_from_two_corners():
    assert LEARNED_SETTINGS.whole.top_sides > 0
    assert PLAIN_SETTINGS.whole.top_sides == 0 and wholecards.WholeSettings().top_sides == 0


def test_two_corners_at_the_ends_of_a_side_make_a_card_each_way():
    """Corners (100, 200) and (200, 200), their sides running up: the card reaches 100 / R
    and 100 * R up; corners whose other sides part make none."""
    points = np.float32(((100, 200), (200, 200)))
    first = np.float32(((1, 0), (-1, 0)))
    second = np.float32(((0, -1), (0, -1)))
    found = edgequads.side_quads(points, first, second, CARD_RATIO, (20.0, 400.0), edgequads.QuadSettings())
    tops = sorted(float(q[:, 1].min()) for q in found)
    assert len(found) == 2 and tops == pytest.approx([200 - 100 * CARD_RATIO, 200 - 100 / CARD_RATIO], abs=0.01)
    parted = np.float32(((0, -1), (0, 1)))
    assert not len(edgequads.side_quads(points, first, parted, CARD_RATIO, (20.0, 400.0), edgequads.QuadSettings()))


@needs_photos
def test_two_cards_of_a_row_of_three_are_found():
    without = score("train_IMG_2669", DetectSettings(real=_OFF))
    assert (without.found, without.false) == (0, 1)     # the row is taken for a card
    found = score("train_IMG_2669", DetectSettings(real=LEARNED_SETTINGS))
    assert (found.found, found.false) == (2, 0)


@needs_photos
def test_half_a_court_card_is_no_top_card():
    """A queen alone: the half above her picture's middle line shows two corners and a side,
    an index and a fourth side on an edge; only its half-turn likeness tells it is no card."""
    asym = replace(LEARNED_SETTINGS, whole=replace(LEARNED_SETTINGS.whole, top_symmetry=-1.0))
    assert (score("train_IMG_2426", DetectSettings(real=asym)).found) == 0
    found = score("train_IMG_2426", DetectSettings(real=LEARNED_SETTINGS))
    assert (found.found, found.false) == (1, 0)
