"""Card outlines from what shows of a partly covered card (vision/partial.py): the
geometry alone; tests/test_vision_realphotos.py has the real photos it finds."""
from __future__ import annotations

import numpy as np

from vision.partial import over_frame_corner, restored_corner, visible_part

ASPECT = 88 / 63
CARD = np.float32([(100, 100), (163, 100), (163, 188), (100, 188)])   # TL TR BR BL


def test_a_card_with_a_covered_corner_gets_its_corner_back():
    # a shoe over the bottom right corner: the hull runs across it
    hull = np.float32([(100, 100), (163, 100), (163, 160), (135, 188), (100, 188)]).reshape(-1, 1, 2)
    card = restored_corner(hull, ASPECT)
    assert card is not None
    assert np.abs(card - CARD).max() < 1.0, card


def test_a_pentagon_of_no_card_shape_is_not_completed():
    # a house-shaped outline: putting back a corner leaves no card's proportions
    house = np.float32([(100, 100), (300, 100), (300, 130), (200, 160), (100, 130)]).reshape(-1, 1, 2)
    assert restored_corner(house, ASPECT) is None
    # four corners are not five
    assert restored_corner(CARD.reshape(-1, 1, 2), ASPECT) is None


def test_a_card_cut_on_the_slant_is_a_visible_part():
    # a book's edge from the top side to the bottom right corner: the left and bottom
    # sides whole, with their corners square
    assert visible_part(np.float32([(100, 100), (140, 100), (163, 188), (100, 188)]), ASPECT)


def test_no_visible_part_without_two_square_corners_or_a_card_to_hold_it():
    rhombus = np.float32([(100, 150), (150, 63), (250, 63), (200, 150)])   # 60 and 120 degrees
    assert not visible_part(rhombus, ASPECT)
    # two square corners, but a long thin band: no card of the aspect holds it
    band = np.float32([(0, 0), (300, 0), (280, 30), (0, 30)])
    assert not visible_part(band, ASPECT)


def test_a_card_over_the_frames_corner_is_checked_off_both_borders():
    size = (320, 240)
    over = np.float32([(0, 0), (40, 0), (45, 60), (0, 55)])
    moved = over_frame_corner(over, size, 2)
    assert moved is not None
    assert moved[0].tolist() == [-1, -1] and moved[1][1] == -1 and moved[3][0] == -1
    assert moved[2].tolist() == over[2].tolist()
    # a page over the corner, larger than half the frame, is no card
    page = np.float32([(0, 0), (200, 0), (210, 170), (0, 160)])
    assert over_frame_corner(page, size, 2) is None
    # a card inside the frame, or running off one border only, is not this case
    assert over_frame_corner(CARD, size, 2) is None
    assert over_frame_corner(np.float32([(0, 50), (60, 40), (70, 120), (0, 130)]), size, 2) is None
