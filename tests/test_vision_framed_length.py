"""A card's length told by its white frame's width keeps a card's shape
(`vision.framescale.LONGEST`): glare seed 130, protocol 2, a book's spine label along the
photo's border showed a thin "frame", the length so told was 5.3 of its widths, and the
outline so grown read as a Red Reverse on a bare table."""
import cv2
import numpy as np

from test_vision_protocol import phone_view_of_card
from vision.framescale import LONGEST, face_frame_widths, grown_by_frame
from vision.offframe import border_side
from vision.render.uno_deck import deck
from vision.warp import CANONICAL_SIZE


def side_ratio(quad: np.ndarray) -> float:
    sides = np.hypot(*(quad - np.roll(quad, -1, axis=0)).T)
    pairs = (sides[0] + sides[2], sides[1] + sides[3])
    return max(pairs) / min(pairs)


def test_a_length_told_by_a_thin_frame_past_a_cards_shape_is_no_length():
    """The stand-in face tilted 45 degrees with its far end off the frame (as in
    test_vision_protocol): its frame's true width tells the card's length (1.5 of its
    widths); a frame half as wide tells 3.5, still taken; a third as wide 6.2, more than
    LONGEST: no length then (before, that outline was read)."""
    face = deck(symbols=1, wilds=False)[0].image()
    end, side = face_frame_widths(cv2.resize(face, CANONICAL_SIZE, interpolation=cv2.INTER_AREA))
    card = phone_view_of_card(45, [10, -90, 230])
    h, w = face.shape[:2]
    matrix = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), card)
    picture = np.full((480, 640, 3), (70, 90, 110), np.uint8)
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), matrix, (640, 480))
    picture[mask > 127] = cv2.warpPerspective(face, matrix, (640, 480))[mask > 127]

    def at_border(p, q):
        return p + (q - p) * (0 - p[1]) / (q[1] - p[1])
    outline = np.float32([at_border(card[3], card[0]), at_border(card[2], card[1]), card[2], card[3]])
    assert border_side(outline, (640, 480), 3.0) == 0
    whole = grown_by_frame(picture, outline, 0, (end, side))
    assert whole is not None and side_ratio(whole) < 1.6
    half = grown_by_frame(picture, outline, 0, (end / 2, side))
    assert half is not None and 3.0 < side_ratio(half) < LONGEST
    assert grown_by_frame(picture, outline, 0, (end / 3, side)) is None
