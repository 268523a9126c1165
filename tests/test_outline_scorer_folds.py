"""The learned outline scorer's cross-validation folds (`bench/outline_scorer.py`): the fixed
assignment every chosen setting was measured on, and the repeated assignments that show how
much the fold assignment alone moves the out-of-fold counts."""
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import outline_scorer  # noqa: E402


def test_seed_zero_is_the_fixed_assignment():
    # photo i in fold i mod k: the out-of-fold figures of sessions 11-14 are reproduced
    for folds in (5, 10):
        assert np.array_equal(outline_scorer.fold_assignment(290, folds), np.arange(290) % folds)
        assert np.array_equal(outline_scorer.fold_assignment(290, folds, 0), np.arange(290) % folds)


def test_other_seeds_put_each_photo_in_one_fold_of_even_size_the_same_every_time():
    seen = set()
    for seed in range(1, 8):
        for folds in (5, 10):
            fold_of = outline_scorer.fold_assignment(290, folds, seed)
            assert fold_of.shape == (290,) and set(fold_of.tolist()) == set(range(folds))
            sizes = np.bincount(fold_of, minlength=folds)
            assert sizes.max() - sizes.min() <= 1
            assert np.array_equal(fold_of, outline_scorer.fold_assignment(290, folds, seed))
        seen.add(tuple(outline_scorer.fold_assignment(290, 5, seed).tolist()))
    seen.add(tuple(outline_scorer.fold_assignment(290, 5, 0).tolist()))
    assert len(seen) == 8   # eight different assignments


def test_apart_cross_validation_on_the_fixed_folds_is_unchanged_by_the_seed_argument():
    # a small made-up collection: the seed-0 chances are those of the code before `seed`
    rng = np.random.default_rng(3)
    n, photos = 240, 30
    X = rng.normal(size=(n, 4))
    y = (X[:, 0] + 0.5 * rng.normal(size=n) > 0.4).astype(int)
    data = {"X": X, "y": y, "photo": np.arange(n) % photos, "printed": (np.arange(n) % 17 == 0).astype(int)}
    columns = [0, 1, 2, 3]
    ours = outline_scorer.blend_cross_validate_apart(data, columns, 5)
    fold_of = np.arange(photos) % 5
    expected = np.zeros(n)
    rows = data["printed"] == 0
    for f in range(5):
        test = fold_of[data["photo"]] == f
        fit_rows = ~test & rows
        expected[test] = 0.5 * outline_scorer.chances(outline_scorer.fit(X[fit_rows], y[fit_rows], 3.0), X[test]) + \
            0.5 * outline_scorer.tree_chances(outline_scorer.fit_trees(X[fit_rows], y[fit_rows], 200, 0.1, 5.0), X[test])
    assert np.array_equal(ours, expected)
    other = outline_scorer.blend_cross_validate_apart(data, columns, 5, seed=1)
    assert not np.array_equal(ours, other)   # other folds, other out-of-fold chances


def test_each_pass_turned_off_differs_from_the_shipped_finder():
    from vision.detect import LEARNED_SETTINGS
    for name, change in outline_scorer.PASSES_OFF.items():
        off = replace(LEARNED_SETTINGS, **change)
        assert off != LEARNED_SETTINGS, name
        assert all(getattr(off, key) == value for key, value in change.items()), name
