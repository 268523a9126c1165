"""Colour that survives the light: a card's ink judged after white balance from its own
paper, by hue angle and lightness against fixed ink prototypes, under strong warm and
cool casts and different exposures (green never read as yellow under a warm lamp)."""
import cv2
import numpy as np
import pytest

from vision.classify import face_features
from vision.colour import INKS, canonical, deck_inks, likelihoods

# Ink colours of a commercial deck of the UNO family, in RGB, and a deck that prints them.
INK_RGB = {"red": (215, 35, 45), "green": (40, 155, 70), "blue": (25, 90, 185), "yellow": (245, 205, 20)}
DECK = list(INK_RGB)


def card(ink_rgb, symbol: str = "7") -> np.ndarray:
    """A white card with a big symbol and a frame in the ink (BGR)."""
    face = np.full((280, 200, 3), 245, np.uint8)
    bgr = tuple(int(c) for c in ink_rgb[::-1])
    cv2.rectangle(face, (14, 14), (186, 266), bgr, 10)
    cv2.putText(face, symbol, (45, 200), cv2.FONT_HERSHEY_SIMPLEX, 5.5, bgr, 22)
    return face


def lit(face: np.ndarray, gains_bgr, exposure: float, gamma: float = 1.0) -> np.ndarray:
    """The card under a coloured light: per-channel gains, exposure and a tone curve."""
    f = face.astype(np.float32) / 255 * np.float32(gains_bgr) * exposure
    return np.clip(255 * np.clip(f, 0, 1) ** gamma, 0, 255).astype(np.uint8)


LIGHTS = {
    "daylight": ((1.0, 1.0, 1.0), 1.0, 1.0),
    "warm lamp": ((0.55, 0.85, 1.15), 0.9, 1.0),       # B, G, R: a tungsten cast
    "very warm, dim": ((0.45, 0.8, 1.2), 0.55, 1.2),
    "cool shade": ((1.25, 1.0, 0.7), 0.8, 0.9),
    "overexposed": ((1.0, 1.0, 1.0), 1.35, 0.8),
    "underexposed": ((0.9, 1.0, 1.05), 0.45, 1.1),
}


@pytest.mark.parametrize("light", LIGHTS)
@pytest.mark.parametrize("colour", DECK)
def test_each_ink_reads_as_its_colour_under_every_light(colour, light):
    gains, exposure, gamma = LIGHTS[light]
    face = cv2.resize(lit(card(INK_RGB[colour]), gains, exposure, gamma), (66, 92), interpolation=cv2.INTER_AREA)
    seen = face_features(face).ink_colour
    fit = likelihoods(seen, deck_inks(DECK), DECK)
    assert DECK[int(fit.argmax())] == colour, (seen, dict(zip(DECK, fit.round(3))))
    assert fit.max() > 3 * np.sort(fit)[-2], "the colour must win clearly"


def test_green_under_a_warm_lamp_is_not_yellow():
    gains, exposure, gamma = LIGHTS["very warm, dim"]
    face = cv2.resize(lit(card(INK_RGB["green"]), gains, exposure, gamma), (66, 92), interpolation=cv2.INTER_AREA)
    fit = likelihoods(face_features(face).ink_colour, INKS, ["green", "yellow"])
    assert fit[0] > 10 * fit[1]


def test_black_ink_is_black_and_unnamed_colours_fit_anything():
    face = cv2.resize(lit(card((25, 25, 30)), *LIGHTS["warm lamp"]), (66, 92), interpolation=cv2.INTER_AREA)
    seen = face_features(face).ink_colour
    fit = likelihoods(seen, INKS, ["black", "red", "", "sparkly"])
    assert fit.argmax() == 0 and fit[1] < 0.05
    assert fit[2] == fit[3] == 1.0     # no colour given, or one no prototype knows: no say
    assert canonical(" Green ") == "green" and canonical("G") == "green"
