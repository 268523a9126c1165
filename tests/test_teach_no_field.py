"""A teaching photo whose outline holds no card of a deck whose faces are colour fields
(`vision.teach.unlike_the_deck`, `vision.colour.without_colour_field`): a crop under a
tenth coloured, that little unlike its label's colour, is left out and named, its label
taught from its other photos; a coloured face, a face with no colour name, a label's only
photo and a deck of mostly white faces are taught as before. Drawn faces, real OpenCV."""
import cv2
import numpy as np

from vision.classify import face_features
from vision.colour import coloured_area, prototype_fit, without_colour_field
from vision.teach import Shot, taught_shots
from vision.warp import CANONICAL_SIZE
from web.words import say

RED, GREEN, BLUE, YELLOW = (40, 40, 200), (60, 150, 30), (170, 70, 30), (30, 200, 230)


def card(bgr, digit: str, seed: int, field: bool = True) -> np.ndarray:
    """A face in the UNO manner: a colour field in a white frame, a tilted white oval, a
    digit (field False: a white face with only the digit in the colour)."""
    w, h = CANONICAL_SIZE
    face = np.full((h, w, 3), 235, np.uint8)
    m = int(0.07 * w)
    if field:
        cv2.rectangle(face, (m, m), (w - m, h - m), bgr, -1)
        cv2.ellipse(face, (w // 2, h // 2), (int(w * 0.3), int(h * 0.4)), 30, 0, 360, (235, 235, 235), -1)
    cv2.putText(face, digit, (w // 2 - 25, h // 2 + 25), cv2.FONT_HERSHEY_SIMPLEX, 2.5, bgr, 8)
    noise = np.random.default_rng(seed).integers(-6, 7, face.shape)
    return np.clip(face.astype(np.int16) + noise, 0, 255).astype(np.uint8)


def coupon() -> np.ndarray:
    """A pale blue coupon mirrored into a diamond, green leaves printed on it, a dark
    strip of table across it (protocol 2's IMG_0153): no red at all."""
    w, h = CANONICAL_SIZE
    face = np.full((h, w, 3), (240, 225, 200), np.uint8)
    cv2.line(face, (0, h), (w, 0), (40, 40, 40), 14)
    for centre in [(w // 3, h // 3), (2 * w // 3, 2 * h // 3)]:
        cv2.circle(face, centre, 16, (60, 150, 60), -1)
    return face


def shot(label, colour, face, source) -> Shot:
    return Shot(label, colour, face, source)


DECK = [shot(f"{name} {d}", name.lower(), card(bgr, d, i), f"{name}{d}.jpg")
        for i, (name, bgr) in enumerate([("Red", RED), ("Green", GREEN), ("Blue", BLUE), ("Yellow", YELLOW)])
        for d in "05"]


def ink(face):
    return face_features(face, two_levels=True).ink_colour


def test_the_drawn_faces_measure_as_the_rule_expects():
    assert all(coloured_area(ink(s.face)) > 0.3 for s in DECK)
    seen = ink(coupon())
    assert coloured_area(seen) < 0.1 and prototype_fit(seen, "red") < 0.01


def test_a_coupon_taught_as_a_red_card_is_left_out_and_named():
    odd = shot("Red 0", "red", coupon(), "IMG_0153.jpg")
    kept, dropped = taught_shots(DECK + [odd])
    assert [s.source for s, _ in dropped] == ["IMG_0153.jpg"]
    assert all(s is not odd for s in kept) and len(kept) == len(DECK)
    reason = dropped[0][1]
    assert reason.code == "teach.no_field" and reason.params == {"colour": "red"}
    assert str(reason).startswith("no red card found") and "its other photos teach it" in str(reason)
    assert say(reason.message(), "en") == str(reason)
    assert say(reason.message(), "fr").startswith("aucune carte rouge trouvée")


def test_a_face_with_no_colour_name_or_a_labels_only_photo_is_still_taught():
    no_colour = shot("Red 0", "", coupon(), "nocolour.jpg")
    alone = shot("Red 9", "red", coupon(), "only.jpg")
    kept, dropped = taught_shots(DECK + [no_colour, alone])
    assert dropped == [] and len(kept) == len(DECK) + 2


def test_a_deck_of_white_faces_is_not_judged():
    white = [(s.colour, ink(card(bgr, "7", 9, field=False)))
             for s, bgr in zip(DECK, [RED, RED, GREEN, GREEN, BLUE, BLUE, YELLOW, YELLOW])]
    assert without_colour_field(white + [("red", ink(coupon()))]) == [False] * (len(white) + 1)
    coloured = [(s.colour, ink(s.face)) for s in DECK]
    assert without_colour_field(coloured + [("red", ink(coupon()))]) == [False] * len(coloured) + [True]


def test_hardly_coloured_ink_that_fits_its_name_is_kept():
    """A yellow face under a warm lamp shows little coloured ink, but yellow (oblique
    IMG_0067: 0.007 coloured, fitting yellow 0.93)."""
    pale = card((150, 215, 225), "5", 3)
    seen = ink(pale)
    coloured = [(s.colour, ink(s.face)) for s in DECK]
    assert without_colour_field(coloured + [("yellow", seen)])[-1] is False
