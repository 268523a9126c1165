"""A teaching photo whose outline covers far less of the photo than the deck's outlines
mostly do (`vision.teachcrop.small`, asked by `vision.teach.unlike_the_deck` of a deck of
colour-field faces) holds no card of the deck: left out and named, its label taught from its
other photos. Protocol 2's bare tables outlined a coaster or a patch of wood grain and
taught it as a red card. Drawn faces and photos, real OpenCV."""
import cv2
import numpy as np

from test_teach_no_field import BLUE, DECK, GREEN, RED, YELLOW, card
from vision.teach import Shot, taught_shots
from vision.teachcrop import SMALL_OUTLINE, Crop, best_crop, small
from vision.warp import CARD_ASPECT
from web.words import say


def cropped(shot: Shot, share: float) -> Shot:
    return Shot(shot.label, shot.colour, shot.face, shot.source, None,
                Crop(np.zeros((4, 2), np.float32), 2, True, share))


def test_an_outline_far_smaller_than_the_decks_is_left_out_and_named():
    deck = [cropped(s, 0.2 + 0.02 * i) for i, s in enumerate(DECK)]
    # a red coaster on a bare table, labelled as the Red 0 the user meant to photograph
    odd = cropped(Shot("Red 0", "red", card(RED, "0", 11), "IMG_0155.jpg"), 0.01)
    kept, dropped = taught_shots(deck + [odd])
    assert [s.source for s, _ in dropped] == ["IMG_0155.jpg"]
    assert len(kept) == len(deck) and all(s is not odd for s in kept)
    reason = dropped[0][1]
    assert reason.code == "teach.too_small" and str(reason).startswith("no card found")
    assert say(reason.message(), "en") == str(reason)
    assert say(reason.message(), "fr").startswith("aucune carte trouvée")


def test_a_card_a_little_further_away_a_labels_only_photo_and_a_white_deck_are_taught():
    deck = [cropped(s, 0.25) for s in DECK]
    further = cropped(Shot("Red 0", "red", card(RED, "0", 12), "far.jpg"), 0.25 * SMALL_OUTLINE * 1.5)
    alone = cropped(Shot("Red 9", "red", card(RED, "9", 13), "only.jpg"), 0.01)
    kept, dropped = taught_shots(deck + [further, alone])
    assert dropped == [] and len(kept) == len(deck) + 2
    # a deck of white faces (playing cards) is not judged by its outlines' size
    white = [cropped(Shot(s.label, s.colour, card(bgr, "7", 20 + i, field=False), s.source), 0.25)
             for i, (s, bgr) in enumerate(zip(DECK, [RED, RED, GREEN, GREEN, BLUE, BLUE, YELLOW, YELLOW]))]
    tiny = cropped(Shot("Red 0", "red", card(RED, "0", 14, field=False), "tiny.jpg"), 0.01)
    assert taught_shots(white + [tiny])[1] == []


def test_small_needs_a_few_measured_crops():
    def crop(share):
        return Crop(np.zeros((4, 2), np.float32), 2, True, share)
    assert small([crop(0.3), crop(0.3), crop(0.3), crop(0.01), None, crop(float("nan"))]) == \
        [False, False, False, True, False, False]
    assert small([crop(0.3), crop(0.01), None]) == [False, False, False]   # too few for a median


def test_a_teaching_crop_measures_the_share_of_its_photo():
    photo = np.full((600, 800, 3), 90, np.uint8)
    corners = np.float32([[300, 200], [420, 200], [420, 380], [300, 380]])
    face = card(RED, "5", 3)
    h, w = face.shape[:2]
    warp = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), corners)
    cv2.warpPerspective(face, warp, (800, 600), photo, borderMode=cv2.BORDER_TRANSPARENT)
    crop = best_crop(photo, corners, CARD_ASPECT)
    assert abs(crop.share - 120 * 180 / (600 * 800)) < 1e-6
