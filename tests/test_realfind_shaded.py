"""Cards in the shade and cards merged with a large page (`vision.shadedcards`, and
`vision.wholecards`' look into large outlines, hooked into `vision.realfind`). Real
photographs of ../shared/realphotos/cards-edje scored through the bench's own matching,
each against the finder without the pass; and the rules on drawn pictures."""
from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision import shadedcards, wholecards
from vision.detect import DetectSettings
from vision.realfind import RealSettings

from tests.realphoto_helpers import PHOTOS, score

NO_SHADE = replace(DetectSettings(), real=replace(RealSettings(), shaded=None))
NOT_LARGE = replace(DetectSettings(), real=replace(RealSettings(), whole=wholecards.WholeSettings(look=())))
needs_photos = pytest.mark.skipif(not PHOTOS.is_dir(), reason=f"the shared photos are not at {PHOTOS}")


@needs_photos
def test_a_jack_a_shadow_cuts_across_is_found_whole():
    """train_IMG_2457: low sun across a carpet; the shadow's edge cuts the jack in two and
    the finder kept the two pieces (neither counted the card, both false outlines)."""
    before = score("train_IMG_2457", NO_SHADE)
    after = score("train_IMG_2457", DetectSettings())
    assert before.found == 0 and before.false == 2
    assert after.found == after.labels == 1 and after.false == 0 and after.duplicates == 0


@needs_photos
def test_a_card_in_the_shade_with_its_corner_off_the_frame_is_found():
    """train_IMG_2572: a king at the frame's right border lies in the shade, less white
    than the floor's tiles in the light: its paper share failed the cut card's check."""
    before = score("train_IMG_2572", NO_SHADE)
    after = score("train_IMG_2572", DetectSettings())
    assert after.isolated_found == after.isolated == before.isolated_found + 1
    assert after.false <= before.false


@needs_photos
def test_a_card_lying_over_a_postcard_is_found_beside_their_merged_outline():
    """train_IMG_2525: a king lies over a postcard on a carpet; the maps gave one outline
    of both, a large share of the frame and no card's face."""
    before = score("train_IMG_2525", NOT_LARGE)
    after = score("train_IMG_2525", DetectSettings())
    assert before.found == 0
    assert after.found == after.labels == 1
    assert after.false <= before.false


def test_shade_evened_out_makes_shaded_paper_white_again():
    white = np.full((100, 100), 230, np.uint8)
    white[:, 50:] = 80                     # the shaded half of a sheet
    white[40:50, 20:30] = 20               # ink in the light
    white[40:50, 70:80] = 7                # ink in the shade (as dark for its light)
    flat = shadedcards.shade_flattened(white, shadedcards.ShadedSettings())
    assert abs(int(flat[20, 20]) - int(flat[20, 80])) <= 10 and flat[20, 80] >= 220
    assert flat[45, 25] < 60 and flat[45, 75] < 60


def test_only_sides_whose_neighbours_run_on_along_an_edge_are_a_shadows_edge():
    edges = np.zeros((200, 200), np.uint8)
    piece = np.float32(((50, 50), (110, 50), (110, 100), (50, 100)))   # TL TR BR BL
    cv2.line(edges, (50, 50), (50, 160), 255, 3)    # the left side runs on down
    assert shadedcards._continued_sides(piece, edges, shadedcards.ShadedSettings()) == []
    cv2.line(edges, (110, 50), (110, 160), 255, 3)  # and the right: the bottom side may be
    assert shadedcards._continued_sides(piece, edges, shadedcards.ShadedSettings()) == [2]


def _shaded_card() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Gray, whiteness and edges of an upright card on a dark table, its lower part in a
    shadow as dark as the table, and the lit piece the finder keeps."""
    white = np.full((260, 200), 40, np.uint8)
    white[30:198, 40:160] = 235
    for x, y in ((48, 38), (140, 170)):            # the index, in two opposite corners
        white[y:y + 20, x:x + 12] = 30
    white[80:110, 85:115] = 30                     # a pip
    white[120:198, 40:160] = white[120:198, 40:160] // 4 + 10   # the shadow
    white[120:198, 20:40] = 20                     # the table in the shadow beside it
    white[120:198, 160:180] = 20
    gray = white.copy()
    edges = cv2.dilate(cv2.Canny(gray, 10, 30), np.ones((3, 3), np.uint8))
    piece = np.float32(((40, 30), (159, 30), (159, 119), (40, 119)))
    return gray, white, edges, piece


def test_the_lit_piece_of_a_shaded_card_is_replaced_by_the_whole_card():
    gray, white, edges, piece = _shaded_card()
    out = shadedcards.wholes([piece], gray, white, edges, (20.0, 300.0), lambda quad, angles, unlike: 1.0,
                             lambda quad: 0.0)
    assert len(out) == 1
    x, y, w, h = cv2.boundingRect(np.round(out[0]).astype(np.int32))
    assert abs(x - 40) <= 3 and abs(y - 30) <= 3 and abs(w - 120) <= 4 and abs(h - 168) <= 4
    # two card-shaped outlines inside what the segments outline: cards side by side, kept
    other = np.float32(((40, 125), (159, 125), (159, 197), (40, 197)))
    kept = shadedcards.wholes([piece, other], gray, white, edges, (20.0, 300.0),
                              lambda quad, angles, unlike: 1.0, lambda quad: 0.05)
    assert len(kept) == 2 and kept[0] is piece and kept[1] is other
