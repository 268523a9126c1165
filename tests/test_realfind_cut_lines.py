"""A card running off the frame found from its straight sides, the frame's border as its
fourth side (`vision.edgequads.cut_quads`, hooked into `vision.realfind._line_candidates`
behind the off-frame gates). Real photographs of ../shared/realphotos/cards-edje (train_),
each cut as bench/realphotos_perturb.py cuts it: the frame's border a fifth of the way
into one card, from its nearest border."""
from __future__ import annotations

import sys
from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision import edgequads
from vision.detect import LEARNED_SETTINGS, DetectSettings, find_cards
from vision.pipeline import to_working_size

from tests.realphoto_helpers import PHOTOS, ROOT, bench

pytestmark = pytest.mark.skipif(not PHOTOS.is_dir(), reason=f"the shared photos are not at {PHOTOS}")

WITHOUT = DetectSettings(real=replace(LEARNED_SETTINGS, line_cut=False))


def _cut(name: str, j: int):
    """Photo `name`'s card `j` cut a fifth in by the frame's border: (the cut photo, the
    card's clipped box), as bench/realphotos_perturb.py makes them."""
    sys.path.insert(0, str(ROOT / "bench"))
    import realphotos_perturb as perturb
    module = bench()
    image, scale = to_working_size(cv2.imread(str(PHOTOS / "images" / f"{name}.jpg"), cv2.IMREAD_COLOR))
    boxes = [tuple(v * scale for v in b) for b in module.load_labels(PHOTOS)[f"images/{name}.jpg"]]
    cut, box, _ = perturb.edge_cuts(image, boxes, j)
    return cut, box


def _found(image: np.ndarray, box, settings: DetectSettings) -> bool:
    module = bench()
    return any(module.iou(module.outline_box(f.corners), box) >= 0.5 for f in find_cards(image, None, settings))


@pytest.mark.parametrize("name, j, side", [
    ("train_IMG_2523", 0, "right"),   # a card on a light counter: no outline of it before
    ("train_IMG_2587", 3, "right"),   # one among other cards
])
def test_a_card_cut_by_the_frames_border_is_found_from_its_three_straight_sides(name, j, side):
    image, box = _cut(name, j)
    assert (box[2] == image.shape[1]) if side == "right" else (box[0] == 0)   # it runs off the frame
    assert _found(image, box, DetectSettings(real=LEARNED_SETTINGS)), f"{name}: the cut card not found"
    # the evidence is new: without the border as a fourth side the card is not found
    assert not _found(image, box, WITHOUT)


def test_two_corners_and_their_sides_to_the_border_make_a_cut_card():
    """Corners A (10, 50) and B (60, 50) joined by a side, their other sides running down
    to the bottom border of a 100 x 120 frame: the quad A, B, B's foot, A's foot."""
    down, right, left = np.float32((0, 1)), np.float32((1, 0)), np.float32((-1, 0))
    points = np.float32(((10, 50), (60, 50)))
    first = np.stack((right, left))    # A's side towards B, B's back towards A
    second = np.stack((down, down))
    quads = edgequads.cut_quads(points, first, second, (20.0, 200.0), (100, 120), edgequads.QuadSettings())
    assert len(quads) >= 1
    assert np.allclose(quads[0], ((10, 50), (60, 50), (60, 119), (10, 119)))
    # B's other side running back up, not along A's: no card
    assert not len(edgequads.cut_quads(points, first, np.stack((down, -down)), (20.0, 200.0), (100, 120),
                                       edgequads.QuadSettings()))
