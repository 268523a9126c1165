"""Rendered playing-card scenes as extra training rows for the learned outline scorer
(`bench/render_outlines.py`, `bench/outline_scorer.py --extra`): the label boxes are the cards'
visible parts, the tables come from train_ photos only, the rendered rows never come from a
held-out photo's table, and weighted trees are the old trees when every weight is 1."""
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import outline_scorer  # noqa: E402
import render_outlines  # noqa: E402

from vision.render.table import PHOTOS  # noqa: E402


def _square(x0, y0, x1, y1):
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)


def test_a_covered_card_is_labelled_by_its_visible_part_and_a_hidden_one_not_at_all():
    below = _square(10, 10, 60, 80)
    above = _square(40, 0, 100, 90)            # covers the right part of `below`
    boxes = render_outlines.visible_boxes([below, above], (120, 100))
    assert boxes[0] == (10.0, 10.0, 40.0, 81.0) and boxes[1] == (40.0, 0.0, 101.0, 91.0)
    hidden = render_outlines.visible_boxes([_square(45, 10, 55, 80), above], (120, 100))
    assert len(hidden) == 1                     # under 15 % seen: no label
    cut = render_outlines.visible_boxes([_square(-30, 10, 30, 80)], (120, 100))
    assert cut == [(0.0, 10.0, 31.0, 81.0)]     # inside the frame only


def test_weighted_trees_with_every_weight_one_are_the_old_trees():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(300, 3))
    y = (X[:, 0] - X[:, 1] + rng.normal(size=300) > 0).astype(int)
    old = outline_scorer.fit_trees(X, y, 30, 0.1, 5.0)
    new = outline_scorer.fit_trees(X, y, 30, 0.1, 5.0, weight=np.ones(300))
    assert old[0] == new[0] and all(np.array_equal(a, b) for a, b in zip(old[1:], new[1:]))
    heavy = outline_scorer.fit_trees(X, y, 30, 0.1, 5.0, weight=np.where(y == 1, 3.0, 1.0))
    assert heavy[0] > old[0]                    # the cards weigh more: a higher base chance


def test_rendered_rows_from_a_held_out_photos_table_are_left_out_of_its_fold():
    rng = np.random.default_rng(3)
    n, photos = 240, 30
    X = rng.normal(size=(n, 4))
    y = (X[:, 0] + 0.5 * rng.normal(size=n) > 0.4).astype(int)
    names = np.array([f"images/train_{k}.jpg" for k in range(photos)])
    data = {"X": X, "y": y, "photo": np.arange(n) % photos, "printed": np.zeros(n, int), "names": names}
    m = 80
    EX = rng.normal(size=(m, 4))
    # every rendered scene's table cut from photo 0, 5, 10, ...: all in fold 0 of the fixed assignment
    extra = {"X": EX, "y": (EX[:, 0] > 0.4).astype(int), "printed": np.zeros(m, int),
             "photo": np.arange(m) % 8, "sources": names[[0, 5, 10, 15, 20, 25, 0, 5]]}
    columns = [0, 1, 2, 3]
    base = outline_scorer.blend_cross_validate_apart(data, columns, 5)
    more = outline_scorer.cross_validate_extra(data, columns, 5, 0, extra, 0.5)
    fold0 = (data["photo"] % 5) == 0
    assert np.array_equal(more[fold0], base[fold0])        # fold 0's fit saw none of them
    assert not np.array_equal(more[~fold0], base[~fold0])  # the others' did


@pytest.mark.skipif(not PHOTOS.is_dir(), reason=f"no real photos at {PHOTOS}")
def test_tables_come_from_train_photos_only_and_a_scene_is_the_same_for_a_seed():
    from vision.render.table import photo_patches
    variants = render_outlines.train_variants()
    patches = photo_patches()
    assert variants and all("/train_" in patches[v][0] for v in variants)
    assert any("/test_" in name for name, _ in patches)    # there were test_ tables to leave out
    a, boxes, source = render_outlines.render(np.random.default_rng(4), variants)
    b, boxes2, source2 = render_outlines.render(np.random.default_rng(4), variants)
    assert np.array_equal(a, b) and boxes == boxes2 and source == source2 and "/train_" in source
    h, w = a.shape[:2]
    assert boxes and all(0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h for x0, y0, x1, y1 in boxes)
