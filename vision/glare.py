"""Glare streaks on a glossy colour card: where they lie on the face, and a reading
confirmed without them.

A glossy card under a tube light shows bright streaks across it. Over the colour field a
streak is a band of the field whitened part way (its flanks; its core may be white as
paper). The learned reader (`vision.reader`) was taught from photos that may carry their
own streaks, and a streaked face can look to it like another taught face: under
`bench/protocols.py --stress glare` it answered 27 cards wrong (of 270).

What is here: `glare_mask` finds the streaks' flanks in a face's ink map (ink well under
the face's field strength, in patches wider than an edge's anti-aliasing), widened by a
pixel to take in the core; `clear_cells` says which of the reader's feature cells the mask
leaves clear; `masked_scores` is the linear reader's score over those cells only (a cell
under glare counts as the taught mean: no evidence either way). A reading is taken only
when that masked score agrees (`vision.classify`): a streak makes the card "cannot
confirm" (unknown: the tracker waits for another frame) rather than a wrong card.

A blurred or unevenly lit view with no glare shows such flanks too: its own edges between
the colour field and the white paper, widened by the blur. Those lie along the edges of the
ink the answer's face was taught with (`DeckProfile.taught_ink`), where a streak's flanks
cross the face wherever the lamp fell: `edge_band` is where those taught edges lie, and the
mask is taken without it before the share test and the masked score.

Under a warm lamp or a dim webcam a streak is whiter than the paper by a third or more,
and the face's paper fit goes through it: a framed face whose frame shows only under the
streak is balanced by its frame's paper instead (`vision.classify.frame_paper`), and
`undo_streaks` takes the streaks out against that paper (each pixel's blend towards white,
explained by one of the few colours a face is printed in).

What does not live here: the reading itself (`vision.classify.classify_learned`).
"""
from __future__ import annotations

import cv2
import numpy as np

from vision.reader import BINS, BLUR_WINDOW, CELL, DENSITY_GRID, HOG_WINDOW

FLANK_INK = 15.0        # ink above this (Lab units from the paper) ...
FLANK_SHARE = 0.6       # ... and under this share of the field's (the face's 90th percentile)
GLARE_SHARE = 0.02      # a reading is confirmed when more of the face than this is under glare
COVERED = 0.2           # a cell this much under glare is left out of the masked score
EDGE_SHARE = 0.3        # a taught ink edge: its gradient above this share of the taught ink's largest
EDGE_BAND = 1           # work-size pixels either side of a taught edge where blur makes flanks
_KERNEL = np.ones((3, 3), np.uint8)


def glare_mask(ink: np.ndarray) -> np.ndarray:
    """Where a face's ink map (float32, `vision.classify.ink_planes`) shows a glare streak
    (uint8 0 / 255, the ink's shape): ink between FLANK_INK and FLANK_SHARE of the field's
    strength (the ink's 90th percentile), opened by 3 x 3 (an edge between the field and
    the white paper is a pixel or two of such ink, a streak's flank several) and dilated
    by 3 x 3."""
    field = _percentile_90(ink)
    mask = cv2.inRange(ink, FLANK_INK, FLANK_SHARE * field)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _KERNEL)
    return cv2.dilate(mask, _KERNEL)


def glare_share(mask: np.ndarray) -> float:
    """The share of the face `glare_mask` covers."""
    return cv2.countNonZero(mask) / mask.size


def _percentile_90(values: np.ndarray) -> float:
    """`np.percentile(values, 90)` (its linear interpolation between the two values
    around the 90 % rank), from one partition: a tenth of percentile's cost."""
    flat = values.ravel()
    rank = 0.9 * (flat.size - 1)
    low = int(rank)
    pair = np.partition(flat, (low, low + 1))[low:low + 2].astype(np.float64) if low + 1 < flat.size \
        else np.array([flat.max()] * 2, np.float64)
    return float(pair[0] + (pair[1] - pair[0]) * (rank - low))


def clear_cells(mask: np.ndarray, dim: int) -> np.ndarray:
    """Per dimension of the learned reader's features (dim: the whole row, the index block
    last) under `mask` (`glare_mask`'s, 0 / 255): 1 where the HOG block or density cell it
    belongs to is under glare for less than COVERED of its area, else 0 (float32). The
    corner index block is always kept (its glyphs are cut from the frame and found by their
    own search)."""
    mask = mask.astype(np.float32) * (1 / 255)
    parts = []
    for window in (HOG_WINDOW, BLUR_WINDOW):
        cells = (window[0] // CELL, window[1] // CELL)
        share = cv2.resize(mask, cells, interpolation=cv2.INTER_AREA)
        block = np.maximum(np.maximum(share[:-1, :-1], share[:-1, 1:]), np.maximum(share[1:, :-1], share[1:, 1:]))
        parts.append(np.repeat((block < COVERED).ravel(), 4 * BINS))
    parts.append((cv2.resize(mask, DENSITY_GRID, interpolation=cv2.INTER_AREA) < COVERED).ravel())
    keep = np.concatenate(parts).astype(np.float32)
    return np.concatenate([keep, np.ones(dim - len(keep), np.float32)])


def masked_scores(reader, row: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """The linear reader's scores per class of one view's features `row`, with the cells
    `keep` leaves out counted as the taught mean."""
    return ((row - reader.mean) * keep) @ reader.weights + reader.bias


def edge_band(taught: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """Where a face's ink map of `shape` (h, w) lies within EDGE_BAND pixels of an edge of
    the taught ink `taught` (2-D, any size, in the face's orientation): the taught ink
    scaled to the ink map, its Sobel gradient above EDGE_SHARE of its largest, dilated
    (uint8 0 / 255)."""
    ink = cv2.resize(taught.astype(np.float32), (shape[1], shape[0]), interpolation=cv2.INTER_LINEAR)
    gradient = cv2.magnitude(cv2.Sobel(ink, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(ink, cv2.CV_32F, 0, 1, ksize=3))
    edges = cv2.compare(gradient, EDGE_SHARE * float(gradient.max()), cv2.CMP_GT)
    side = 2 * EDGE_BAND + 1
    return cv2.dilate(edges, np.ones((side, side), np.uint8))


STREAK_MOST = 0.85      # a streak's blend towards white taken as at most this (beyond, nothing is left to read)
STREAK_PRIOR = 0.05     # a candidate colour's misfit is charged this per unit of blend (less blend is likelier)
FIELD_SHARE = 0.4       # the field's colour: the median of the face's darkest share this large


def undo_streaks(inner: np.ndarray, paper: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A face (BGR 0..1, h x w x 3) with the glare streaks undone, given how its paper looks
    (`paper`, the frame's fit: `vision.classify.frame_paper`). A streak blends a pixel
    towards the camera's white: seen relative to the paper, v = r + (W - r) s, where r is
    the ink's colour relative to the paper, W = 1 / paper and s the blend. A face is
    printed in few colours: the paper (r = 1), its field (the median of its darkest
    FIELD_SHARE, which no streak lightened) and black; each pixel's blend is that of the
    colour that explains it best (least squares, less blend preferred by STREAK_PRIOR),
    and undone: (v - W s) / (1 - s). Returns the face undone and each pixel's blend s
    (h x w; where it is large, ink and paper blend to nearly the same white and which was
    there is a guess: `vision.classify.STREAK_UNSEEN`)."""
    white = 1.0 / paper
    seen = inner / paper
    h, w = seen.shape[:2]
    flat, whites = seen.reshape(-1, 3), white.reshape(-1, 3)
    # each channel a row of its own: numpy's sum over a three-long last axis adds the
    # three in order, as the rows' sums below do, at a tenth of the cost (the same bits)
    planes, white_planes = np.ascontiguousarray(flat.T), np.ascontiguousarray(whites.T)
    brightness = _rows_sum(planes)
    k = int(FIELD_SHARE * (len(brightness) - 1))
    field = np.median(flat[brightness <= np.partition(brightness, k)[k]], axis=0)
    best_cost = np.full(len(flat), np.inf, np.float32)
    best_blend = np.zeros(len(flat), np.float32)
    for colour in (np.ones(3, np.float32), field.astype(np.float32), np.zeros(3, np.float32)):
        towards = white_planes - colour[:, None]
        off = planes - colour[:, None]
        blend = _rows_sum(off * towards) / np.maximum(_rows_sum(towards * towards), 1e-6)
        np.clip(blend, 0.0, STREAK_MOST, out=blend)
        misfit = off - towards * blend
        cost = np.sqrt(_rows_sum(misfit * misfit)) + STREAK_PRIOR * blend
        better = cost < best_cost
        best_cost[better], best_blend[better] = cost[better], blend[better]
    blend = best_blend[:, None]
    undone = (flat - whites * blend) / (1.0 - blend)
    return np.clip(undone.reshape(h, w, 3) * paper, 0.0, 1.0).astype(np.float32), best_blend.reshape(h, w)


def _rows_sum(planes: np.ndarray) -> np.ndarray:
    """`planes.T.sum(axis=1)` of three rows (3 x n): the first plus the second, plus the third."""
    total = planes[0] + planes[1]
    total += planes[2]
    return total
