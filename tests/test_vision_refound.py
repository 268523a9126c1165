"""A taught colour deck's card read "unknown" from a poor outline (the finder's outline with
the table beside the card in it, a corner pulled onto the table) is read from the other
outlines of it the finder gives on a window around it (`vision.refind.others_around`,
`vision.pipeline.Recognizer._refound`), taken only at REFOUND_BAR and when no other of
them reads another card that surely. A drawn deck taught with its reader, real OpenCV."""
import numpy as np
import pytest

from test_vision_steady import QUAD, crop, crop_read_as, table
from test_teach_no_field import DECK
from vision import pipeline, refind
from vision.pipeline import REFOUND_BAR, Recognizer
from vision.profile import profile_from_faces
from vision.teach import with_reader
from vision.warp import quad_iou

# the Red 0 at QUAD outlined with the cloth to its right (as a card and the paper under it)
WIDE = QUAD + np.float32([[0, 0], [70, 0], [70, 0], [0, 0]])
# ... and with the table below it
TALL = QUAD + np.float32([[0, 0], [0, 0], [0, 60], [0, 60]])


@pytest.fixture(scope="module")
def recognizer():
    profile = profile_from_faces("deck", [(s.label, s.colour, s.face) for s in DECK], views=2, harsh=True)
    return Recognizer.create(with_reader(profile, DECK))


@pytest.mark.parametrize("poor", [WIDE, TALL])
def test_a_card_read_unknown_from_a_poor_outline_is_read_from_its_outline_found_around(recognizer, monkeypatch, poor):
    frame = table(DECK[0].face)
    reading, read_from = recognizer.reading(frame, poor)
    assert (reading.label, reading.confidence >= REFOUND_BAR) == ("Red 0", True)
    assert quad_iou(read_from, QUAD) > 0.95
    monkeypatch.setattr(refind, "others_around", lambda *a: [])   # as before
    assert recognizer.reading(frame, poor)[0].label == "unknown"


def test_the_other_outlines_around_are_neither_the_outline_again_nor_elsewhere(recognizer):
    frame = table(DECK[0].face)
    assert refind.others_around(frame, QUAD, recognizer.settings) == []   # the card's own outline again
    found = refind.others_around(frame, WIDE, recognizer.settings)
    assert len(found) == 1 and quad_iou(found[0], QUAD) > 0.95
    apart = WIDE + np.float32([150, 0])   # beside the card: the card's outline lies on a third of it
    assert refind.others_around(np.pad(frame, ((0, 0), (0, 200), (0, 0)), constant_values=90), apart,
                                recognizer.settings) == []


def test_an_outline_found_around_is_taken_only_at_the_bar(recognizer, monkeypatch):
    frame = table(DECK[0].face)
    whole = refind.others_around(frame, WIDE, recognizer.settings)[0]
    crop_read_as(monkeypatch, crop(frame, whole, recognizer), "Red 0", REFOUND_BAR - 0.01)
    assert recognizer.reading(frame, WIDE)[0].label == "unknown"


def test_two_outlines_found_around_reading_two_cards_surely_leave_it_unknown(recognizer, monkeypatch):
    frame = table(DECK[0].face)
    whole = refind.others_around(frame, WIDE, recognizer.settings)[0]
    other = whole + np.float32([[4, 0], [4, 0], [4, 0], [4, 0]])
    monkeypatch.setattr(refind, "others_around", lambda *a: [whole, other])
    crop_read_as(monkeypatch, crop(frame, other, recognizer), "Red 5", 0.99)
    assert recognizer.reading(frame, WIDE)[0].label == "unknown"
    monkeypatch.setattr(refind, "others_around", lambda *a: [whole])
    assert recognizer.reading(frame, WIDE)[0].label == "Red 0"


def test_a_card_looked_around_twice_searches_its_window_once(recognizer, monkeypatch):
    """A card whose outline is worth a look around (`refind.worth_a_look`) and that look
    leaves "unknown" is read from the other outlines around it (`_refound`) from the same
    search of the same window: one finder pass, not two, and the same reading."""
    frame = table(DECK[0].face)
    alone = recognizer.reading(frame, WIDE)
    searched, looks = [], []
    in_window, around, others_around = refind._in_window, refind.around, refind.others_around
    monkeypatch.setattr(refind, "_in_window", lambda *a: searched.append(a[1]) or in_window(*a))
    monkeypatch.setattr(refind, "worth_a_look", lambda features: True)
    monkeypatch.setattr(refind, "around", lambda *a: looks.append("around") or around(*a))
    monkeypatch.setattr(refind, "others_around", lambda *a: looks.append("others") or others_around(*a))
    reading, read_from = recognizer.reading(frame, WIDE)
    assert looks == ["around", "others"] and len(searched) == 1
    assert (reading, read_from.tobytes()) == (alone[0], alone[1].tobytes())

