"""The built-in decks' first template pass by matrix-vector products (`vision.firstpass`)
chooses exactly the labels the full pass (one matrix product) chooses, in the same order,
or says it cannot prove it (and `classify` makes the full pass): the readings are the
same, bit for bit. Checked on the built-in decks' camera views, faces blended from two
cards (near ties), and made-up templates with exact copies (true ties)."""
import numpy as np
import pytest

import vision.classify
from test_vision_support import profile
from vision.classify import CANDIDATES, _best_of_classes, _label_scores, _members, classify
from vision.firstpass import SLACK, first_pass
from vision.profile import rendered_samples


def faces(game, rng):
    """Whitened faces (2 x D: the face and its turn) of a deck's rendered camera views, and
    blends of two of them (a card read between two symbols)."""
    prof = profile(game)
    symbols = [s.features.symbol for s in rendered_samples(game, views=1)]
    out = []
    for symbol in symbols[1::2]:   # the views (a clean face may tie with its copy in another colour)
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


@pytest.mark.parametrize("game", ["solo", "hitthedeck", "flip7", "raj"])
def test_the_first_pass_chooses_as_the_full_pass_or_says_it_cannot(game):
    rng = np.random.default_rng(5)
    prof, plains = faces(game, rng)
    proved = 0
    for plain in plains:
        for label in rng.choice(len(prof.labels), 3, replace=False):
            gap = np.linalg.norm(prof.colour_protos - prof.colour_protos[label], axis=1)
            class_fits = _members(prof.symbol_class, prof.symbol_class[gap <= 1.0])
            scores = _label_scores(prof, plain)
            best = _best_of_classes(np.where(class_fits, scores, -np.inf), prof.symbol_class, CANDIDATES)
            pruned = first_pass(prof.templates, prof.label_starts, prof.symbol_class, plain,
                                class_fits, CANDIDATES, _best_of_classes)
            if pruned is None:
                continue
            proved += 1
            assert pruned[0] == best
            assert np.all(pruned[1] >= scores)   # an upper bound of every label's full-pass score
            assert np.all(pruned[1] <= scores + 2 * SLACK)
    assert proved >= 0.6 * 3 * len(plains)   # it pays: most reads need not the full pass
    # (real photos' faces: 144 of Solo's 165 reads of bench/find_cost.py's frames)


def test_exact_ties_are_left_to_the_full_pass():
    """Made-up templates where a label of another class copies label 0: a face like it
    scores both the same, and which one is chosen first is the full pass's to say."""
    rng = np.random.default_rng(2)
    templates = rng.normal(size=(300, 120)).astype(np.float32)
    templates[10:20] = templates[:10]            # label 1 copies label 0
    templates /= np.linalg.norm(templates, axis=1, keepdims=True)
    starts = np.arange(0, 300, 10)
    classes = np.arange(30) % 12
    classes[1] = 5                                # label 0 is class 0, its copy class 5
    class_fits = np.ones(30, bool)
    proved = 0
    for row in (3, 13, 40, 70, 120, 200, 250):
        tied = row < 20
        x = templates[row] + 0.05 * rng.normal(size=120).astype(np.float32) * (not tied)
        x /= np.linalg.norm(x)
        plain = np.stack([x, x[::-1]]).astype(np.float32)
        pruned = first_pass(templates, starts, classes, plain, class_fits, CANDIDATES, _best_of_classes)
        scores = np.maximum.reduceat((templates @ plain.T).max(axis=1), starts)
        if tied:
            assert pruned is None
        elif pruned is not None:
            proved += 1
            assert pruned[0] == _best_of_classes(scores, classes, CANDIDATES)
    assert proved


@pytest.mark.parametrize("game", ["solo", "raj"])
def test_readings_with_the_first_pass_are_the_full_pass_readings(game, monkeypatch):
    prof = profile(game)
    samples = rendered_samples(game, views=1)[1::3]
    quick = [classify(s.features, prof) for s in samples]
    monkeypatch.setattr(vision.classify, "first_pass", lambda *args: None)   # always the full pass
    assert quick == [classify(s.features, prof) for s in samples]
