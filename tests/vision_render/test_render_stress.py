"""The protocols' stresses (`vision.render.stress`): other printings of the stand-in deck
and changes to a finished photo keep the card's true corners on the card."""
import cv2
import numpy as np
import pytest

from vision.render.sessions import SESSIONS
from vision.render.stress import STRESSES
from vision.render.uno_deck import UNO_SIZE, Design, deck, phone_photo


def a_photo(seed=1, face=None):
    table = np.full((600, 800, 3), (90, 110, 130), np.uint8)
    face = deck()[3].image() if face is None else face
    return phone_photo(face, table, SESSIONS[0], np.random.default_rng(seed), (1008, 756), tilt=(15, 30))


def card_red(picture, corners):
    """The share of the card's middle that is red ink or white (not the table's blue-grey)."""
    middle = corners.mean(axis=0)
    inner = np.int32(middle + 0.7 * (corners - middle))
    mask = np.zeros(picture.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, inner, 1)
    b, g, r = (picture[..., i].astype(int)[mask > 0] for i in range(3))
    return ((r > b + 40) | (np.minimum(b, g) > 170)).mean()


def test_the_default_design_draws_the_faces_as_before_and_others_differ():
    plain = deck()[5].image()
    assert plain.shape == (UNO_SIZE[1], UNO_SIZE[0], 3)
    thin = deck(design=Design(frame=5))[5].image()
    assert (thin[8, 100] != plain[8, 100]).any()        # the field reaches where the frame was
    rounded = deck(design=Design(radius=12))[5].image()
    assert rounded.shape[2] == 4 and rounded[0, 0, 3] == 0 and rounded[150, 100, 3] == 255


def test_a_rounded_card_shows_the_table_at_its_corners():
    face = deck(design=Design(radius=12))[3].image()
    picture, corners = a_photo(face=face)
    tip = corners[0] + 0.01 * (corners.mean(axis=0) - corners[0])     # just inside the corner
    x, y = np.int32(np.round(tip))
    table = picture[5, 5].astype(int)
    assert np.abs(picture[y, x].astype(int) - table).sum() < 60


@pytest.mark.parametrize("name", ["noise", "jpeg", "motion", "defocus", "uneven", "cast", "small", "large",
                                  "glare", "oblique"])
def test_a_changed_photo_keeps_the_card_where_its_corners_say(name):
    picture, corners = a_photo()
    changed, moved = STRESSES[name].apply(picture, corners, "IMG_1.jpg", "daylight phone", 0, True, 1)
    assert card_red(changed, moved) > 0.9
    again, _ = STRESSES[name].apply(picture, corners, "IMG_1.jpg", "daylight phone", 0, True, 1)
    assert (again == changed).all()                      # fixed seeds


def test_a_card_at_the_edge_runs_off_the_photo_and_only_photos_read_are_changed():
    picture, corners = a_photo()
    stress = STRESSES["edge"]
    changed, moved = stress.apply(picture, corners, "PXL_1.jpg", "daylight phone", 0, True, 2)
    h, w = changed.shape[:2]
    outside = (moved[:, 0] < 0) | (moved[:, 0] > w) | (moved[:, 1] < 0) | (moved[:, 1] > h)
    assert outside.any() and not outside.all()
    centre = moved.mean(axis=0)
    assert 0 < centre[0] < w and 0 < centre[1] < h
    taught, same = stress.apply(picture, corners, "IMG_1.jpg", "daylight phone", 0, False, 2)
    assert taught is picture and same is corners
