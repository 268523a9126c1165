"""Print groups (`RealSettings.print_groups`, `vision.regionjudge.print_outlines`): a card whose
own outline joined a bright neighbour's (a manila folder, a towel, a floor) still shows its
print as one group of edges inside that merged cell of the edges. Such a group, four-cornered
and moved out a little, is handed to the learned outline scorer, which takes it only when sure
(`print_chance`, `print_bar`). On train_IMG_2579 of ../shared/realphotos/cards-edje (four
cards on a manila folder, as light as their paper) the jack of clubs is found only so."""
from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision import outlinescore
from vision.detect import LEARNED_SETTINGS, DetectSettings
from vision.realfind import RealSettings
from vision.realmaps import mapped_regions, whiteness
from vision.regionjudge import print_bar

from tests.realphoto_helpers import PHOTOS, score

needs_photos = pytest.mark.skipif(not PHOTOS.is_dir(), reason=f"the shared photos are not at {PHOTOS}")


def test_a_print_inside_a_merged_cell_is_listed_with_its_cell():
    """A card's print (a court picture's frame) lying in a large cell whose own edge runs far
    round it (the folder's) is a nested group; the cell itself is a region as before."""
    edges = np.zeros((240, 320), np.uint8)
    cv2.rectangle(edges, (20, 20), (300, 220), 255, 1)          # the folder's edge
    frame = np.int32(((120, 70), (170, 66), (176, 150), (126, 154)))
    cv2.polylines(edges, [frame], True, 255, 1)                  # the print's frame
    cv2.circle(edges, (148, 110), 10, 255, 1)                    # the picture inside it
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    nested: list = []
    whites, edged = mapped_regions(whiteness(np.full((240, 320, 3), 90, np.uint8)), edges, RealSettings(), nested)
    plain = mapped_regions(whiteness(np.full((240, 320, 3), 90, np.uint8)), edges, RealSettings())[1]
    assert len(plain) == len(edged) and all(np.array_equal(a, b) for a, b in zip(plain, edged))
    # the print's frame with its picture (one group), the picture alone (a hole in the frame's
    # cell) and the folder's edge (a hole in the cell round it, out to the picture's border)
    boxes = sorted(cv2.boundingRect(c) for c in nested)
    assert len(boxes) == 3
    x, y, w, h = boxes[1]
    assert abs(x - 118) <= 3 and abs(y - 64) <= 3 and abs(x + w - 178) <= 3 and abs(y + h - 156) <= 3


def test_a_print_is_taken_only_when_sure():
    quad = np.float32(((0, 0), (10, 0), (10, 14), (0, 14)))
    pool = [outlinescore.Considered(quad, 140.0), outlinescore.Considered(quad, 140.0, True),
            outlinescore.Considered(quad, 140.0, True)]
    barred = print_bar(pool, np.array([0.2, 0.4, 0.6]), 0.5)
    assert barred.tolist() == [0.2, 0.0, 0.6]


@needs_photos
def test_a_jack_on_a_manila_folder_is_found_from_its_print():
    without = score("train_IMG_2579", DetectSettings(real=replace(LEARNED_SETTINGS, print_groups=-1.0)))
    assert (without.isolated_found, without.false) == (3, 0)    # main's code misses the jack
    found = score("train_IMG_2579", DetectSettings(real=LEARNED_SETTINGS))
    assert (found.isolated_found, found.found, found.false) == (4, 4, 0)
