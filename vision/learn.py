"""Training the learned reader (`vision.reader.LinearReader`) from a few faces per label.

Each taught face becomes many training views (`vision.augment.training_views`: other
sizes, angles, lights, casts, glare, a covering blob, blur, JPEG, corners as far off as
the finder's). The classifier is linear on HOG features of the ink map: a ridge
regression onto the classes (closed form, so training is a few seconds and the same every
time for a seed), then a softmax temperature fitted on views of a separate draw so the
probabilities mean what they say, and a "doubt" score that takes the probability of a
card that looks like none of the taught ones (see DOUBT). A "no card" class is trained
on negatives (patches of the teaching photos' own table, plain and striped fields, blobs).

What does not live here: the features and scoring (`vision.reader`), which faces to teach
(`vision.teach`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from vision.augment import negative_views, training_views
from vision.reader import LinearReader

RIDGE = 0.3             # regularisation, relative to the features' mean square
TRAIN_VIEWS = 120       # training views per label, shared among its faces
CHECK_VIEWS = 24        # views per label of the separate draw (temperature)
NEGATIVE_SHARE = 1.0    # negatives, as a share of one label's views
# The score of "none of these for sure", a share of what a view like the taught ones
# scores (see doubt_score; a view like none of them scores about 0). Real photos of cards
# the teaching photos did not quite show (another suit's court picture) score low for
# every class, but the softmax alone made the least unlikely class sure of itself. Measured on the real photos (bench/realphotos_read.py,
# teaching 2 photos a rank, 3 draws, the 825 train_ cards found; chosen there, the 235
# test_ cards in brackets): at the taught decks' bar 0.5, with no doubt score 90 % answered
# and 85.7 % of those right (87 %, 88.8 %); 0.4: 82 %, 89.3 %; 0.5: 72 %, 93.8 % (68 %,
# 93.8 %); 0.6: 64 %, 97.7 %. A wrong card costs a wrong play, an unknown a frame's wait.
DOUBT = 0.5


@dataclass(frozen=True, eq=False)
class Example:
    label: int              # the profile's label index
    face: np.ndarray        # upright face, BGR


def train_reader(examples: Sequence[Example], labels: int, features: Callable[[np.ndarray], np.ndarray],
                 size: tuple[int, int], backgrounds: Sequence[np.ndarray] = (), seed: int = 0,
                 views: int = TRAIN_VIEWS, progress: Callable[[float], None] | None = None) -> LinearReader:
    """A reader of `labels` classes plus "no card", from examples; `features(view)` gives
    a view's (2 x D) HOG pair. `progress` is told the share done (0..1) now and then."""
    rng = np.random.default_rng(seed)
    per_label = np.bincount([e.label for e in examples], minlength=labels)
    tell = progress or (lambda share: None)
    rows, targets = [], []
    done, total = 0, len(examples)
    for example in examples:
        count = max(8, views // max(int(per_label[example.label]), 1))
        for view in training_views(example.face, rng, count, size, backgrounds):
            rows.append(features(view)[0])
            targets.append(example.label)
        done += 1
        if done % 4 == 0:
            tell(0.8 * done / total)
    negatives = max(40, int(views * NEGATIVE_SHARE))
    for view in negative_views(rng, negatives, size, backgrounds):
        pair = features(view)
        rows += [pair[0], pair[1]]
        targets += [labels, labels]
    x = np.asarray(rows, np.float32)
    y = np.asarray(targets)
    reader = _ridge(x, y, labels + 1)
    tell(0.9)
    check_rows, check_targets = [], []
    for example in examples:
        count = max(2, CHECK_VIEWS // max(int(per_label[example.label]), 1))
        for view in training_views(example.face, rng, count, size, backgrounds):
            check_rows.append(features(view))
            check_targets.append(example.label)
    for view in negative_views(rng, max(10, CHECK_VIEWS), size, backgrounds):
        check_rows.append(features(view))
        check_targets.append(labels)
    scores = np.array([reader.scores(pair)[0] for pair in check_rows])
    truth = np.asarray(check_targets)
    temperature = fit_temperature(scores, truth)
    tell(1.0)
    return LinearReader(reader.classes, reader.mean, reader.weights, reader.bias, temperature,
                        doubt_score(scores, truth, labels))


def _ridge(x: np.ndarray, y: np.ndarray, classes: int) -> LinearReader:
    mean = x.mean(axis=0)
    xc = (x - mean).astype(np.float64)
    onehot = np.zeros((len(y), classes))
    onehot[np.arange(len(y)), y] = 1.0
    # Each class weighs the same, however many views it has.
    counts = np.bincount(y, minlength=classes).astype(np.float64)
    w = (len(y) / (classes * np.maximum(counts, 1)))[y]
    gram = (xc * w[:, None]).T @ xc
    lam = RIDGE * float(np.trace(gram)) / gram.shape[0]
    gram[np.diag_indices_from(gram)] += lam
    target_mean = (onehot * w[:, None]).sum(axis=0) / w.sum()
    weights = np.linalg.solve(gram, (xc * w[:, None]).T @ (onehot - target_mean))
    bias = target_mean
    order = np.append(np.arange(classes - 1), -1).astype(np.int64)
    return LinearReader(order, mean.astype(np.float32), weights.astype(np.float32),
                        bias.astype(np.float32), 10.0)


def doubt_score(scores: np.ndarray, truth: np.ndarray, labels: int) -> float:
    """DOUBT x the typical best score of the check views read right (the views of a deck
    taught from one rendered picture a card score about 0.6, two real photos a rank
    about 1)."""
    best = scores.argmax(axis=1)
    right = (best == truth) & (truth < labels)
    typical = float(np.median(scores[right, best[right]])) if right.any() else 1.0
    return DOUBT * typical


def fit_temperature(scores: np.ndarray, truth: np.ndarray) -> float:
    """The softmax temperature that makes the probabilities of held-out views honest
    (least negative log-likelihood over a grid)."""
    best, best_loss = 10.0, np.inf
    for t in np.geomspace(1.0, 200.0, 60):
        z = scores * t
        z -= z.max(axis=1, keepdims=True)
        log_p = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        loss = -float(log_p[np.arange(len(truth)), truth].mean())
        if loss < best_loss:
            best, best_loss = float(t), loss
    return best
