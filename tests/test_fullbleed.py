"""Full-bleed colour faces (no white frame: the colour field runs to the card's edge) are
found and taught (`vision.realfind`'s `full_bleed`, `vision.detect.BLEED_SETTINGS`): a
green card on green felt under a warm lamp, a blue one on a dark cloth under a very warm
dim webcam, an oblique phone photo on wood or cloth, none of which the framed-field finder
outlined. Decks that print the white frame keep the finder they had; teaching looks for a
full-bleed face only where the card it found first shows no frame."""
import dataclasses

import cv2
import numpy as np
import pytest

from tests.test_fieldfind import taught
from vision.detect import BLEED_SETTINGS, FIELD_SETTINGS, READ_BLEED_SETTINGS, READ_FIELD_SETTINGS
from vision.pipeline import Recognizer, to_working_size
from vision.profile import builtin_profile
from vision.realfind import find_outlines
from vision.render.sessions import SESSIONS
from vision.render.table import table_texture
from vision.render.uno_deck import CLOTHS, Design, cloth_photo, deck, phone_photo
from vision.teach import TeachError, card_face_and_corners
from vision.warp import warp_card
from vision.whiteframe import SIZE, bleeds_colour, shows_frame

FULL = deck(symbols=13, wilds=False, design=Design(frame=0))
FRAMED = deck(symbols=13, wilds=False)


def iou(a: np.ndarray, b: np.ndarray) -> float:
    inter, _ = cv2.intersectConvexConvex(np.float32(a), np.float32(b))
    return inter / (cv2.contourArea(np.float32(a)) + cv2.contourArea(np.float32(b)) - inter)


def best(picture: np.ndarray, corners: np.ndarray, settings) -> float:
    return max((iou(q, corners) for q in find_outlines(picture, settings)), default=0.0)


def on_cloth(session: int, colour: str, faces=FULL) -> tuple[np.ndarray, np.ndarray]:
    """Protocol 1's photo (`bench/protocols.py`): one face on the session's cloth (warm
    lamp: green felt; very warm dim webcam: dark blue cloth), at the working size."""
    face = [f for f in faces if f.colour == colour][3]
    picture, corners = cloth_photo(face.image(), list(CLOTHS.values())[session % len(CLOTHS)],
                                   SESSIONS[session], np.random.default_rng(session))
    picture, scale = to_working_size(picture)
    return picture, corners * scale


@pytest.mark.parametrize("session, colour", [(1, "green"), (1, "red"), (2, "blue")])
def test_a_full_bleed_face_on_a_cloth_as_dark_as_itself_is_found(session, colour):
    """Its edge against the cloth is faint in grey, it has no white frame to grow its
    field to, and field and cloth are both saturated: not found before (IoU 0). Each
    stretched channel's edges and the colour step outline it."""
    picture, corners = on_cloth(session, colour)
    assert best(picture, corners, FIELD_SETTINGS) < 0.5
    assert best(picture, corners, BLEED_SETTINGS) > 0.95


def oblique(seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    kind = ("wood", "cloth", "felt", "light", "dark")[seed % 5]
    face = FULL[seed * 7 % len(FULL)]
    return phone_photo(face.image(), table_texture(kind, seed), SESSIONS[seed % 8], rng, (640, 480))


@pytest.mark.parametrize("seed", [5, 6])
def test_an_oblique_full_bleed_face_is_found_whole(seed):
    """A phone photo on wood (overexposed) or a cloth (dark window light): not found
    before; found whole from its colour field, which no white frame grows."""
    picture, corners = oblique(seed)
    assert best(picture, corners, FIELD_SETTINGS) < 0.5
    assert best(picture, corners, BLEED_SETTINGS) > 0.85


@pytest.mark.parametrize("seed", [25, 41])
def test_a_full_bleed_face_cut_by_its_oval_is_found_whole_when_read(seed):
    """A yellow face on light wood, a green one on cloth, the oval reaching both long sides:
    the face is three cells between edges (field above, oval, field below), none of them
    the card, so `BLEED_SETTINGS` outlines a piece (IoU < 0.5); reading joins a cell with two
    of its neighbours (`realmaps.joined_cells`) and finds it whole."""
    picture, corners = oblique(seed)
    assert best(picture, corners, BLEED_SETTINGS) < 0.5
    assert best(picture, corners, READ_BLEED_SETTINGS) > 0.8


def test_a_full_bleed_face_bleeds_colour_and_a_framed_one_shows_its_frame():
    full, full_corners = on_cloth(1, "green")
    framed, framed_corners = on_cloth(1, "green", FRAMED)
    full_face, framed_face = (warp_card(p, c, SIZE) for p, c in ((full, full_corners), (framed, framed_corners)))
    assert bleeds_colour(full_face) and not shows_frame(full_face)
    assert shows_frame(framed_face) and not bleeds_colour(framed_face)
    white = np.full((SIZE[1], SIZE[0], 3), 235, np.uint8)   # a white card's border, ink in the middle
    cv2.putText(white, "7", (18, 62), cv2.FONT_HERSHEY_DUPLEX, 1.5, (40, 40, 40), 3)
    assert not bleeds_colour(white)


@pytest.mark.parametrize("session, colour", [(1, "green"), (2, "blue")])
def test_teaching_takes_a_full_bleed_face(session, colour):
    """Teaching looked with the framed-field finder alone: no card (the photo skipped)."""
    picture, corners = on_cloth(session, colour)
    _, found = card_face_and_corners(picture, source="IMG_1.jpg")
    assert iou(found, corners) > 0.95


def test_teaching_a_framed_face_looks_no_further(monkeypatch):
    """A face showing its white frame (on one side at least: an oblique framed face may
    show it on one) is taken as the framed-field finder outlined it."""
    from vision import teach
    asked = []
    original = teach.find_cards
    monkeypatch.setattr(teach, "find_cards", lambda image, table, settings: asked.append(settings.real)
                        or original(image, table, settings))
    picture, corners = on_cloth(1, "green", FRAMED)
    _, found = card_face_and_corners(picture, source="IMG_2.jpg")
    assert iou(found, corners) > 0.95
    assert asked == [FIELD_SETTINGS]


def test_a_bare_cloth_is_no_card_to_teach():
    cloth = np.zeros((480, 640, 3), np.uint8)
    cloth[:] = CLOTHS["green felt"][::-1]
    cloth = cv2.add(cloth, np.random.default_rng(0).integers(0, 12, cloth.shape, dtype=np.uint8))
    with pytest.raises(TeachError):
        card_face_and_corners(cloth, source="IMG_3.jpg")


def test_only_full_bleed_decks_are_looked_for_as_full_bleed():
    printed = builtin_profile("solo")
    framed = dataclasses.replace(taught(printed), white_frame=True)
    unmeasured = dataclasses.replace(taught(printed), white_frame=False)   # glare hid its frame
    full = dataclasses.replace(taught(printed), white_frame=False, full_bleed=True)
    assert Recognizer.create(framed).settings.real == READ_FIELD_SETTINGS
    assert Recognizer.create(unmeasured).settings.real == READ_FIELD_SETTINGS
    assert Recognizer.create(full).settings.real == READ_BLEED_SETTINGS
    assert BLEED_SETTINGS == dataclasses.replace(FIELD_SETTINGS, full_bleed=BLEED_SETTINGS.full_bleed)
    # reading also looks at the pale chroma level (a washed-out photo); teaching does not
    assert READ_BLEED_SETTINGS == dataclasses.replace(BLEED_SETTINGS, joined_cells=True, pale_fields=True)
    assert not BLEED_SETTINGS.pale_fields and not FIELD_SETTINGS.pale_fields
    assert not FIELD_SETTINGS.full_bleed and BLEED_SETTINGS.full_bleed > 0
    ranks = dataclasses.replace(printed, colours=("",) * len(printed.colours))   # playing cards by rank
    assert not Recognizer.create(taught(ranks)).settings.real.full_bleed
    assert not Recognizer.create(printed).settings.real.full_bleed
