"""bench/realphotos_perturb.py: the perturbed copies of the train_ photos carry their label
boxes with them (a quarter turn, a smaller and a larger view, a cut across a card at the
frame's border), so that a card lost on a copy is the finder's loss, not the bench's."""
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import realphotos_perturb as perturb  # noqa: E402


def _card_on_cloth(w: int = 378, h: int = 504, box=(200, 300, 290, 425)) -> np.ndarray:
    image = np.full((h, w, 3), (60, 90, 120), np.uint8)
    x1, y1, x2, y2 = box
    cv2.rectangle(image, (x1, y1), (x2 - 1, y2 - 1), (245, 245, 245), -1)
    return image


def _white_box(image: np.ndarray) -> tuple[float, float, float, float]:
    ys, xs = np.nonzero(image.min(axis=2) > 200)
    return float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1)


@pytest.mark.parametrize("kind", ["turned", "smaller", "larger", "shifted"])
def test_a_copy_carries_its_card_box(kind):
    box = (200.0, 300.0, 290.0, 425.0)
    image = _card_on_cloth()
    out, boxes, counted = perturb.PERTURBATIONS[kind](image, [box], "x")
    assert counted == [True]
    assert np.allclose(_white_box(out), boxes[0], atol=1.5)


def test_the_larger_view_counts_only_the_cards_wholly_in_it():
    image = _card_on_cloth(box=(5, 10, 90, 130))
    _, boxes, counted = perturb.larger(image, [(5.0, 10.0, 90.0, 130.0)], "x")
    assert counted == [False]


def test_an_edge_cut_crosses_the_card_a_fifth_in_from_its_nearest_border():
    box = (250.0, 200.0, 340.0, 325.0)   # 38 pixels from the right border, the least room
    image = _card_on_cloth(box=(250, 200, 340, 325))
    cut, clipped, corner = perturb.edge_cuts(image, [box], 0)
    assert corner == (0, 0) and cut.shape[1] == 322 and cut.shape[0] == 504   # 340 - 0.2 * 90
    assert clipped == (250.0, 200.0, 322.0, 325.0)
    assert np.allclose(_white_box(cut), clipped, atol=1.0)
    # a card already on the border is not cut again
    assert perturb.edge_cuts(image, [(0.0, 300.0, 90.0, 425.0)], 0) is None


def test_a_card_barely_in_view_is_neither_card_nor_not():
    seen, unseen = perturb._clipped([(0.0, 0.0, 100.0, 100.0), (250.0, 0.0, 350.0, 100.0)], (0, 0), (280, 200))
    assert seen == [(0.0, 0.0, 100.0, 100.0)]
    assert unseen == [(250.0, 0.0, 280.0, 100.0)]


def test_the_photometric_copies_keep_the_boxes_and_the_size():
    image = _card_on_cloth()
    box = (200.0, 300.0, 290.0, 425.0)
    for kind in ("jpeg", "blur", "noise", "dark", "bright", "warm", "cool"):
        out, boxes, counted = perturb.PERTURBATIONS[kind](image, [box], "x")
        assert out.shape == image.shape and out.dtype == np.uint8
        assert boxes == [box] and counted == [True]
    # the noise is fixed per photo name: the bench prints the same figures every run
    assert np.array_equal(perturb.noise(image, [], "a")[0], perturb.noise(image, [], "a")[0])


def test_the_noise_floor_copies_move_a_pixel_or_add_faint_noise():
    image = _card_on_cloth()
    box = (200.0, 300.0, 290.0, 425.0)
    out, boxes, counted = perturb.shifted(image, [box], "x")
    assert out.shape == (503, 377, 3) and boxes == [(199.0, 299.0, 289.0, 424.0)] and counted == [True]
    out, boxes, counted = perturb.faint(image, [box], "x")
    assert out.shape == image.shape and boxes == [box] and counted == [True]
    change = np.abs(out.astype(int) - image.astype(int))
    assert 0 < change.mean() < 2 and change.max() <= 8
    assert np.array_equal(perturb.faint(image, [], "a")[0], perturb.faint(image, [], "a")[0])
