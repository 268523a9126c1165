"""Training the learned reader (`vision.reader.LinearReader`) from a few faces per label.

Each taught face becomes many training views (`vision.augment.training_views`: other
sizes, angles, lights, casts, glare, a covering blob, blur, JPEG, corners as far off as
the finder's). The classifier is linear on HOG features of the ink map and of the corner
index: a ridge regression onto the classes per feature block (closed form, so training is
a few seconds and the same every time for a seed; the blocks' scores are then added, see
INDEX_SHARE), then a softmax temperature fitted on views of a separate draw so the
probabilities mean what they say, and a "doubt" score that takes the probability of a
card that looks like none of the taught ones (see DOUBT). A "no card" class is trained
on negatives (patches of the teaching photos' own table, plain and striped fields, blobs).

What does not live here: the features and scoring (`vision.reader`), which faces to teach
(`vision.teach`).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from vision.augment import negative_views, training_views
from vision.reader import INDEX_DIM, LinearReader

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
# Retuned with the corner index block (INDEX_SHARE), the 837 train_ cards found, right /
# wrong / unknown at the bar 0.5: 0.4: 89.0 / 1.8 / 9.2 %; 0.5: 87.5 / 1.3 / 11.2 %;
# 0.6: 84.7 / 0.7 / 14.6 %. Wrong answers stay under 2 % and more cards are read.
DOUBT = 0.4
# The corner index block's share of the score (the card's HOG has the rest). Each block is
# fitted alone and their scores added: fitted together on views of two photos a rank, the
# card's HOG (which also learns the suit's pips and the court picture the photos show) fits
# the views alone and the index gets little weight. Measured on the real photos (teaching
# 2 photos a rank, 3 draws, train_ cards through the finder, right / wrong / unknown):
# without the index 68.9 / 3.9 / 27.1 %; fitted together 70.7 / 4.1 / 25.2 (a fixed
# corner patch, not the glyph); added, shares 1/3: 83.3 / 1.8 / 14.9, 1/2: 87.0 / 1.3 / 11.7,
# 2/3: 87.6 / 1.6 / 10.9; the index alone 76.8 / 1.0 / 22.2 (the glyph's ink as a Lab
# distance; with the darkest channel's, as now, 1/2: 87.5 / 1.3 / 11.2; doubt 0.5).
INDEX_SHARE = 0.5
INDEX_TRUST = 0.3
VIEW_WIDTHS = (70, 150)  # pixels: the card's width in a training view (its index glyph is
                         # 5 pixels high at 40)


@dataclass(frozen=True, eq=False)
class Example:
    label: int              # the profile's label index
    face: np.ndarray        # upright face, BGR


def train_reader(examples: Sequence[Example], labels: int, features: Callable[..., np.ndarray],
                 size: tuple[int, int], backgrounds: Sequence[np.ndarray] = (), seed: int = 0,
                 views: int = TRAIN_VIEWS, progress: Callable[[float], None] | None = None) -> LinearReader:
    """A reader of `labels` classes plus "no card", from examples; `features(image,
    corners)` gives the (2 x D) features of the card outlined in a picture (HOG pair, then
    the corner index block of INDEX_DIM; `corners` None: the picture is the card).
    `progress` is told the share done (0..1) now and then."""
    rng = np.random.default_rng(seed)
    per_label = np.bincount([e.label for e in examples], minlength=labels)
    tell = progress or (lambda share: None)
    rows, targets = [], []
    done, total = 0, len(examples)
    for example in examples:
        count = max(8, views // max(int(per_label[example.label]), 1))
        for picture, corners in _views(example.face, rng, count, size, backgrounds):
            rows.append(features(picture, corners)[0])
            targets.append(example.label)
        done += 1
        if done % 4 == 0:
            tell(0.8 * done / total)
    negatives = max(40, int(views * NEGATIVE_SHARE))
    for view in negative_views(rng, negatives, size, backgrounds):
        pair = features(view, None)
        rows += [pair[0], pair[1]]
        targets += [labels, labels]
    x = np.asarray(rows, np.float32)
    y = np.asarray(targets)
    index = x.shape[1] - INDEX_DIM
    card, corner = _ridge(x[:, :index], y, labels + 1), _ridge(x[:, index:], y, labels + 1)
    tell(0.9)
    check_rows, check_targets = [], []
    for example in examples:
        count = max(2, CHECK_VIEWS // max(int(per_label[example.label]), 1))
        for picture, corners in _views(example.face, rng, count, size, backgrounds):
            check_rows.append(features(picture, corners))
            check_targets.append(example.label)
    for view in negative_views(rng, max(10, CHECK_VIEWS), size, backgrounds):
        check_rows.append(features(view, None))
        check_targets.append(labels)
    truth = np.asarray(check_targets)
    share = index_share([card.scores(pair[:, :index])[0] for pair in check_rows],
                        [corner.scores(pair[:, index:])[0] for pair in check_rows], truth)
    reader = LinearReader(card.classes, np.concatenate([card.mean, corner.mean]),
                          np.concatenate([card.weights * (1 - share), corner.weights * share]),
                          card.bias * (1 - share) + corner.bias * share, index=True, share=share)
    scores = np.array([reader.scores(pair)[0] for pair in check_rows])
    temperature = fit_temperature(scores, truth)
    tell(1.0)
    return dataclasses.replace(reader, temperature=temperature, doubt=doubt_score(scores, truth, labels))


def index_share(card_scores: Sequence[np.ndarray], index_scores: Sequence[np.ndarray], truth: np.ndarray) -> float:
    """The index block's share of the score: INDEX_SHARE when it reads the check views at
    least INDEX_TRUST as far above chance as the card's HOG does, less below that, none at
    chance: a deck with no corner index, or one printed white on a colour field, leaves
    the block nothing to read. (The glyph alone reads augmented check views worse than
    real photos: about 0.5 of 6 ranks and "no card" right on the cards-edje photos,
    against 0.99 for the card's HOG; 0.08 of 12 faces, chance, on Flip 7's and Solo's
    full-bleed "alt" printings, 0.77-0.87 on their printings on paper.)"""
    chance = 1.0 / len(card_scores[0])
    card = float(np.mean(np.argmax(card_scores, axis=1) == truth))
    corner = float(np.mean(np.argmax(index_scores, axis=1) == truth))
    return INDEX_SHARE * float(np.clip((corner - chance) / max(INDEX_TRUST * (card - chance), 1e-6), 0.0, 1.0))


def _views(face: np.ndarray, rng: np.random.Generator, count: int, size: tuple[int, int],
           backgrounds: Sequence[np.ndarray]) -> list[tuple[np.ndarray, np.ndarray]]:
    """Training pictures of the face and the card's corners as a finder would outline
    them (the index is cut from the picture, not from a small warp)."""
    return training_views(face, rng, count, size, backgrounds, cut=lambda picture, corners: (picture, corners),
                          widths=VIEW_WIDTHS)


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
