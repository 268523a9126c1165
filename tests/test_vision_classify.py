"""Reading a card: symbol and colour judged apart, answers only from the selected deck,
"unknown" rather than a guess."""
import cv2
import numpy as np
import pytest

from test_vision_support import profile
from vision.classify import UNKNOWN, classify, face_features
from vision.render.cards import deck_codes, render_back, render_card


@pytest.mark.parametrize("game", ["solo", "flip7"])
def test_every_card_of_the_deck_reads_as_itself_either_way_up(game):
    p = profile(game)
    for code in deck_codes(game):
        face = render_card(game, code)
        for turned in (False, True):
            shown = np.ascontiguousarray(face[::-1, ::-1]) if turned else face
            reading = classify(face_features(shown), p)
            assert (reading.label, reading.turned) == (code, turned)


def test_colour_decides_between_cards_with_the_same_symbol():
    p = profile("solo")
    for code, colour in (("R5", "red"), ("G5", "green"), ("B5", "blue"), ("Y5", "yellow")):
        reading = classify(face_features(render_card("solo", code)), p)
        assert (reading.label, reading.colour) == (code, colour)


@pytest.mark.parametrize("gains", [(0.7, 0.9, 1.25), (1.2, 1.0, 0.75), (0.45, 0.45, 0.45)])
def test_coloured_or_dim_light_does_not_change_the_colour(gains):
    """Warm, cool and dim light (BGR gains) with light falling off across the card: the
    card's own paper sets the white balance."""
    p = profile("solo")
    h, w = 280, 200
    fall_off = np.linspace(1.0, 0.7, w, dtype=np.float32)[None, :, None]
    for code in ("R3", "G3", "B3", "Y3", "Y-SWAP", "B-SWAP"):
        face = render_card("solo", code).astype(np.float32) * np.float32(gains) * fall_off
        reading = classify(face_features(np.clip(face, 0, 255).astype(np.uint8)), p)
        assert reading.label == code


def test_things_not_in_the_deck_are_unknown():
    p = profile("flip7")
    white = np.full((280, 200, 3), 245, np.uint8)
    noise = np.random.default_rng(1).integers(0, 255, (280, 200, 3)).astype(np.uint8)
    for face in (render_back(), white, noise):
        assert classify(face_features(face), p).label == UNKNOWN


def test_answers_come_only_from_the_selected_deck():
    """A Solo card shown to the Flip 7 profile is a Flip 7 label or unknown, never a Solo
    code; a Flip 7 card is read as itself."""
    p = profile("flip7")
    for code in ("R-SWAP", "CHOOSE", "B-TAKE2"):
        assert classify(face_features(render_card("solo", code)), p).label in set(p.labels) | {UNKNOWN}
    assert classify(face_features(render_card("flip7", "FREEZE")), p).label == "FREEZE"


def test_a_half_covered_face_is_unknown_or_right():
    p = profile("solo")
    for code in ("R7", "G-MISS", "ROTATE"):
        face = render_card("solo", code)
        covered = face.copy()
        cv2.rectangle(covered, (0, 110), (200, 280), (70, 75, 80), -1)  # a dark sleeve
        reading = classify(face_features(covered), p)
        assert reading.label in (code, UNKNOWN)
