"""Reading one upright card face against a deck profile: symbol and colour, judged apart.

* White balance comes from the card itself: its brightest pixels are its paper (the
  white face, or the white medallion of a coloured card), scaled to neutral white.
* The symbol is the card's "ink" (its colour distance from the paper, in Lab, whatever
  the ink's colour), shrunk to a small template and compared by normalised
  cross-correlation with every template of the deck at once (one matrix product), in
  both 180-degree orientations. Cards whose symbols match each other (a red 5 and a green
  5) form one symbol class in the profile.
* The colour is the mean Lab chroma (a, b) of the ink, and picks the card within the
  winning symbol class (nearest colour prototype).
* Confidence is the margin: of the best symbol class over the next one, and of the
  nearest colour over the next nearest. Below the threshold the answer is "unknown",
  never a guess. Answers can only be labels of the profile (the selected game's deck).

What does not live here: finding cards in a frame (`vision.detect`), building and storing
profiles (`vision.profile`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np

if TYPE_CHECKING:
    from vision.profile import DeckProfile

WORK_SIZE = (66, 92)        # (w, h) a card is warped to for reading
TEMPLATE_SIZE = (30, 42)    # (w, h) of a symbol template
MARGIN = 3                  # work-size pixels around the edge left out (table at the corners)
UNKNOWN = "unknown"


@dataclass(frozen=True, eq=False)
class FaceFeatures:
    """What is compared: the symbol template upright and turned 180 degrees (2 x D,
    zero-mean, unit-norm) and the ink's colour (a, b) after white balance."""

    symbol: np.ndarray
    colour: np.ndarray


@dataclass(frozen=True)
class Reading:
    """One card's answer. `label` is UNKNOWN when not confident; `turned` says the face
    was read upside down relative to its corners' order."""

    label: str
    colour: str
    confidence: float
    symbol_score: float
    turned: bool

    @property
    def known(self) -> bool:
        return self.label != UNKNOWN


def face_features(face: np.ndarray) -> FaceFeatures:
    """Features of an upright face image (BGR uint8, any size of card shape)."""
    w, h = WORK_SIZE
    if face.shape[1] != w or face.shape[0] != h:
        face = cv2.resize(face, WORK_SIZE, interpolation=cv2.INTER_AREA)
    inner = face[MARGIN:h - MARGIN, MARGIN:w - MARGIN].astype(np.float32) * (1 / 255)
    balanced = cv2.convertScaleAbs(inner * (255.0 / paper_light(inner)))
    lab = cv2.cvtColor(balanced, cv2.COLOR_BGR2Lab).astype(np.float32)  # 8-bit: table lookups, fast
    lightness = lab[..., 0] * (100 / 255)
    a = lab[..., 1] - 128.0
    b = lab[..., 2] - 128.0
    ink = np.sqrt((100.0 - lightness) ** 2 + a * a + b * b)
    small = cv2.resize(ink, TEMPLATE_SIZE, interpolation=cv2.INTER_AREA).ravel()
    small = small - small.mean()
    small /= max(float(np.linalg.norm(small)), 1e-6)
    symbol = np.stack([small, small[::-1]])  # reversing the raster is a 180-degree turn
    inked = ink > 25.0
    count = max(int(inked.sum()), 1)
    chroma = np.sqrt(a * a + b * b)
    chromatic = inked & (chroma > 18.0)
    colour = np.array([a[chromatic].sum(), b[chromatic].sum()], np.float32) / count
    return FaceFeatures(symbol.astype(np.float32), colour)


def _plane_basis(h: int, w: int) -> np.ndarray:
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    return np.stack([np.ones_like(xs), xs / w - 0.5, ys / h - 0.5], axis=-1)


_BASIS = _plane_basis(WORK_SIZE[1] - 2 * MARGIN, WORK_SIZE[0] - 2 * MARGIN)


def paper_light(inner: np.ndarray) -> np.ndarray:
    """How the card's paper looks under this light at every pixel (h x w x 3): a plane
    per channel fitted to the paper (the brightest pixels, then those near the fit).
    Dividing by it white-balances the card and takes out a shadow or light falling off
    across it."""
    basis = _BASIS if _BASIS.shape[:2] == inner.shape[:2] else _plane_basis(*inner.shape[:2])
    x = basis[::2, ::2].reshape(-1, 3)
    values = inner[::2, ::2].reshape(-1, 3)
    bright = values.sum(axis=1)
    paper = bright >= np.partition(bright, int(bright.size * 0.75))[int(bright.size * 0.75)]
    for _ in range(2):
        coef, *_ = np.linalg.lstsq(x[paper], values[paper], rcond=None)
        paper = bright >= 0.88 * (x @ coef).sum(axis=1)
    return np.maximum(basis @ coef, 0.05)


@dataclass(frozen=True)
class Thresholds:
    min_symbol_score: float = 0.55     # NCC of the best template
    full_symbol_margin: float = 0.12   # a margin this large is full confidence
    max_colour_distance: float = 30.0  # Lab a/b units from the chosen colour prototype
    min_confidence: float = 0.5


def classify(features: FaceFeatures, profile: "DeckProfile",
             thresholds: Thresholds = Thresholds()) -> Reading:
    """The card a face shows, limited to the profile's labels, or UNKNOWN."""
    upright = profile.whiten(features.symbol[0])
    symbol = np.stack([upright, upright[::-1]])
    scores = profile.templates @ symbol.T                       # (templates, 2)
    best_turn = scores.argmax(axis=1)
    best = scores[np.arange(len(scores)), best_turn]
    label_scores = np.maximum.reduceat(best, profile.label_starts)
    top = int(label_scores.argmax())
    top_score = float(label_scores[top])
    group = profile.symbol_class[top]
    in_group = profile.symbol_class == group
    rivals = label_scores[~in_group]
    margin = top_score - (float(rivals.max()) if rivals.size else -1.0)
    symbol_conf = min(1.0, max(0.0, margin / thresholds.full_symbol_margin))
    if top_score < thresholds.min_symbol_score:
        symbol_conf = 0.0

    members = np.flatnonzero(in_group)
    distances = np.linalg.norm(profile.colour_protos[members] - features.colour, axis=1)
    order = np.argsort(distances)
    chosen = int(members[order[0]])
    nearest = float(distances[order[0]])
    colour_conf = max(0.0, 1.0 - nearest / thresholds.max_colour_distance)
    if len(members) > 1:
        second = float(distances[order[1]])
        colour_conf = min(colour_conf, (second - nearest) / max(second, 1e-6) * 2.0)
    colour_conf = min(1.0, max(0.0, colour_conf))

    confidence = min(symbol_conf, colour_conf)
    start = profile.label_starts[chosen]
    stop = profile.label_starts[chosen + 1] if chosen + 1 < len(profile.label_starts) else len(best)
    turned = bool(best_turn[start + int(best[start:stop].argmax())])
    if confidence < thresholds.min_confidence:
        return Reading(UNKNOWN, "", round(confidence, 3), round(top_score, 3), turned)
    return Reading(profile.labels[chosen], profile.colours[chosen], round(confidence, 3),
                   round(top_score, 3), turned)
