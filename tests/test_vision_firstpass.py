"""The built-in decks' first template pass cut short by a bound (`vision.firstpass`)
chooses exactly the labels the full pass chooses, in the same order, or says it cannot
prove it (and `classify` makes the full pass): the readings are the same, bit for bit.
Checked on the built-in decks' own faces and camera views, faces blended from two cards
(near ties), and made-up templates with exact duplicates (true ties)."""
import dataclasses

import numpy as np
import pytest

from test_vision_support import profile
from vision.classify import CANDIDATES, _best_of_classes, _label_scores, _members, classify
from vision.firstpass import first_pass, template_basis
from vision.profile import rendered_samples


def full_choice(prof, plain, class_fits):
    scores = _label_scores(prof, plain)
    return _best_of_classes(np.where(class_fits, scores, -np.inf), prof.symbol_class, CANDIDATES), scores


def faces(game, rng):
    """Whitened faces (2 x D: the face and its turn) of a deck's rendered views, and
    blends of two of them (a card read between two symbols)."""
    prof = profile(game)
    symbols = [s.features.symbol for s in rendered_samples(game, views=1)]
    out = []
    for symbol in symbols[1::2]:   # the camera-like views (a clean face may tie with its copy in another colour)
        white = prof.whiten(symbol)
        out.append(white[[0, len(white) // 2]])
    for _ in range(60):
        a, b = rng.choice(len(symbols), 2, replace=False)
        w = rng.uniform(0.3, 0.7)
        mixed = w * symbols[a] + (1 - w) * symbols[b] + rng.normal(0, 0.01, symbols[a].shape).astype(np.float32)
        mixed /= np.linalg.norm(mixed, axis=-1, keepdims=True)
        white = prof.whiten(mixed.astype(np.float32))
        out.append(white[[0, len(white) // 2]])
    return prof, out


@pytest.mark.parametrize("game", ["solo", "hitthedeck", "raj"])
def test_the_first_pass_chooses_as_the_full_pass_or_says_it_cannot(game):
    rng = np.random.default_rng(5)
    prof, plains = faces(game, rng)
    assert prof.basis is not None
    proved = 0
    for plain in plains:
        for label in rng.choice(len(prof.labels), 3, replace=False):
            gap = np.linalg.norm(prof.colour_protos - prof.colour_protos[label], axis=1)
            class_fits = _members(prof.symbol_class, prof.symbol_class[gap <= 1.0])
            best, scores = full_choice(prof, plain, class_fits)
            pruned = first_pass(prof.templates, prof.label_starts, prof.symbol_class, prof.basis, plain,
                                class_fits, CANDIDATES, _best_of_classes)
            if pruned is None:
                continue
            proved += 1
            assert pruned[0] == best
            assert np.all(pruned[1] >= scores - 1e-6)   # an upper bound of every label's score
    assert proved >= 0.75 * 3 * len(plains)   # it pays: most reads need not the full pass


def test_exact_ties_are_left_to_the_full_pass():
    """Made-up templates where two labels of other classes are copies: a face equal to one
    of them scores both the same, and which is chosen is the full pass's to say."""
    rng = np.random.default_rng(2)
    templates = rng.normal(size=(300, 120)).astype(np.float32)
    templates[10:20] = templates[:10]            # label 1 copies label 0
    templates /= np.linalg.norm(templates, axis=1, keepdims=True)
    starts = np.arange(0, 300, 10)
    classes = np.arange(30) % 12
    classes[1] = 5                                # label 0 is class 0, its copy class 5
    basis = template_basis(templates, starts)
    assert basis is not None
    class_fits = np.ones(30, bool)
    checked = 0
    for row in (3, 13, 40, 200):
        x = templates[row] + 0.05 * rng.normal(size=120).astype(np.float32) * (row >= 40)
        x /= np.linalg.norm(x)
        plain = np.stack([x, x[::-1]]).astype(np.float32)
        pruned = first_pass(templates, starts, classes, basis, plain, class_fits, CANDIDATES, _best_of_classes)
        scores = np.maximum.reduceat((templates @ plain.T).max(axis=1), starts)
        best = _best_of_classes(scores, classes, CANDIDATES)
        if row < 20:
            assert pruned is None                 # labels 0 and 1 tie: not proved
        elif pruned is not None:
            checked += 1
            assert pruned[0] == best
    assert checked


@pytest.mark.parametrize("game", ["solo", "raj"])
def test_readings_with_the_bound_are_the_full_pass_readings(game):
    prof = profile(game)
    full = dataclasses.replace(prof)
    full.__dict__["basis"] = None                 # the cached bound left out: the full pass
    for sample in rendered_samples(game, views=1)[::3]:
        assert classify(sample.features, prof) == classify(sample.features, full)
