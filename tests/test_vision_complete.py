"""Whole-card outlines from an outline of part of a card (`vision.complete`): a strip is
widened or lengthened to the deck's aspect on either side, a card cut along a diagonal
or with one corner on the table is completed from a corner whose sides have the card's
shape or from one whole side, and an outline that already has a card's shape is only
offered as part of a larger card."""
import cv2
import numpy as np
import pytest

from vision.complete import completions
from vision.warp import CARD_ASPECT, order_corners, side_lengths

W = 100.0
H = W * CARD_ASPECT
CARD = np.float32([[200, 100], [200 + W, 100], [200 + W, 100 + H], [200, 100 + H]])


def turned(points, degrees, about=(250, 170)):
    a = np.radians(degrees)
    m = np.float32([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    return ((np.float32(points) - about) @ m.T + about).astype(np.float32)


def has(outlines, card, tolerance=1.0):
    want = order_corners(card)
    return any(np.abs(order_corners(o) - want).max() <= tolerance for o in outlines)


def inside(outline, whole):
    contour = np.float32(whole).reshape(-1, 1, 2)
    return all(cv2.pointPolygonTest(contour, (float(x), float(y)), True) >= -0.5 for x, y in outline)


@pytest.mark.parametrize("degrees", [0, 25, -60])
def test_a_whole_card_is_only_offered_as_part_of_a_larger_card(degrees):
    card = turned(CARD, degrees)
    found = completions(card, CARD_ASPECT)
    assert all(inside(card, whole) and cv2.contourArea(whole) > 1.5 * cv2.contourArea(card) for whole in found)


def test_a_card_cut_across_to_a_quarter_turned_card_shape_is_lengthened():
    # cut where the part left is as wide as a card turned a quarter is long
    part = CARD.copy()
    part[[2, 3], 1] = 100 + W / CARD_ASPECT
    assert has(completions(part, CARD_ASPECT), CARD)


@pytest.mark.parametrize("degrees", [0, 30])
def test_a_strip_cut_along_the_card_is_widened_on_either_side(degrees):
    left_strip = CARD.copy()
    left_strip[[1, 2], 0] = 200 + 0.45 * W          # the card's right part is missing
    found = completions(turned(left_strip, degrees), CARD_ASPECT)
    assert has(found, turned(CARD, degrees))
    # the other way round is offered too (the outline alone cannot say which side was cut)
    mirrored = CARD - np.float32([0.55 * W, 0])
    assert has(found, turned(mirrored, degrees))
    assert all(abs(np.divide(*side_lengths(o)[::-1]) - CARD_ASPECT) < 0.01 for o in found)


def test_a_card_cut_across_its_length_is_lengthened():
    top = CARD.copy()
    top[[2, 3], 1] = 100 + 0.6 * H                  # cut where the picture begins
    assert has(completions(top, CARD_ASPECT), CARD)


def test_a_card_cut_along_a_diagonal_is_completed_from_its_right_corner():
    # three of the card's corners, the fourth pulled in along the diagonal
    cut = CARD.copy()
    cut[2] = CARD[2] - np.float32([0.6 * W, 0.6 * W])
    assert has(completions(turned(cut, 15), CARD_ASPECT), turned(CARD, 15))


def test_a_corner_pulled_out_onto_the_table_is_put_back():
    pulled = CARD.copy()
    pulled[1] += np.float32([60, -20])
    assert has(completions(pulled, CARD_ASPECT), CARD)


@pytest.mark.parametrize("width, height", [(0.3, 1.0), (1.0, 0.6), (0.5, 0.8)])
def test_a_strip_lies_inside_each_of_its_completions(width, height):
    strip = np.float32([[200, 100], [200 + width * W, 100], [200 + width * W, 100 + height * H],
                        [200, 100 + height * H]])
    found = completions(strip, CARD_ASPECT)
    assert found and all(inside(strip, whole) for whole in found)


def test_a_card_cut_along_a_diagonal_through_two_sides_is_grown_from_its_whole_side():
    # the card's top side whole, its two long sides cut at different lengths
    cut = CARD.copy()
    cut[2], cut[3] = CARD[1] + np.float32([0, 0.3 * H]), CARD[0] + np.float32([0, 0.7 * H])
    assert has(completions(turned(cut, -20), CARD_ASPECT), turned(CARD, -20))


def test_no_more_than_a_few_outlines_are_offered():
    from vision.complete import MOST
    rough = np.float32([[0, 0], [100, 5], [95, 60], [3, 50]])
    assert 0 < len(completions(rough, CARD_ASPECT)) <= MOST
