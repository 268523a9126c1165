"""Cards placed from their ink: a pip card on a white or light table whose edge shows no
line at all.

On a white page, a plate or a beige counter a card's paper is no whiter than what it
lies on, and often no edge, step or line segment follows its sides: every map of the
finder gives nothing there, or the table's patch with the card inside it. Its print is
still plain to see: the corner indices and the pips are dark or red blobs of one size
on paper, in a rectangular arrangement of a card's proportions (the indices in two
opposite corners, a little in from the edge).

So the ink is looked at: blobs darker than the paper around them by `ink_step`, each of
about a pip's size, linked to the blobs near them (a pip's spacing is a few of its
sizes); a group of a pip card's number of blobs, not inside a card already found, whose
tightest rectangle is a card's shape, is grown by the card's margins (`margins`) to the
card's outline. It is kept when its inside is a card's face (`vision.wholecards`: an
index in two opposite corners, white margins), like itself turned half round (a pip
card's print is; a page of text or a pattern is not), and no outline of about its size
was found there.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision import wholecards
from vision.warp import quad_overlap


@dataclass(frozen=True)
class InkSettings:
    paper_window: int = 15          # pixels (at the finder's 320): the local paper (maximum) window
    min_paper: int = 90             # the paper around a blob at least this white
    flat_paper: int = 235           # the whiteness divided by the paper's, taken to this
    ink_step: int = 100             # ink: this much darker than the paper around it (of that)
    blob_area: tuple[float, float] = (0.008, 2.0)   # a blob's box, shares of the smallest card's
                                    # short side squared
    link: float = 2.6               # blobs linked this many times their size apart (discs of
                                    # this many sizes across round each touch)
    blobs: tuple[int, int] = (6, 24)   # a group of this many blobs (a pip card: 2-10 pips, 4 index glyphs)
    pip_size: float = 0.6           # pips: blobs of the pairs this share of their median size
                                    # at least (the indices are smaller)
    pip_ratio: tuple[float, float] = (1.3, 1.9)    # the pips' rectangle's side ratio
    grow: tuple[float, float] = (1.42, 1.24)       # the card: the pips' rectangle grown this many
                                    # times across and along (the medians of 86 pip cards found
                                    # on train_ photos, their pips as these blobs)
    pair_ratio: float = 1.6         # blobs paired about the card's centre: their sizes within
    pair_reach: float = 0.4         # ... this factor, their midpoints within this share of a
                                    # blob's size of the centre
    pair_slack: float = 0.1         # ... and this share of their distance from it
    min_paired: int = 6             # ... at least this many blobs so paired
    same_size: tuple[float, float] = (0.6, 2.5)   # an outline kept of this many times its area
    overlap: float = 0.3            # ... overlapping this much: the card found already
    large: float = 0.2              # looked for where no outline kept of less than this share
                                    # of the frame holds the paper (`vision.realfind`)
    page: float = 8.0               # ... and only when one such patch of paper is at least this
                                    # many smallest short sides squared: the card merged with the
                                    # page it lies on (13.9 to 130 on the 11 train_ frames where
                                    # a card was placed; under 8 on 37 % of those looked at)
    piece_inside: float = 0.85      # a smaller outline kept this much inside it is a piece of it
    holes: int = 6                  # ... and that patch holds at least this many holes: the
                                    # pips of a card merged with it, as many as a group's least
                                    # (`min_paired`; 0: not asked; on train_ 81 of 290 frames
                                    # looked, 49 with 6, the same outlines; 8 lost a card)
    unlike: float = math.inf        # an outline kept holds its paper when its side ratio is this
                                    # near a card's (log; any: a covered part, a card seen
                                    # aslant; 0.3 before: 105 of 290 train_ frames looked, now 81,
                                    # the same outlines)


def _groups(centres: np.ndarray, sizes: np.ndarray, shape: tuple[int, int],
            settings: InkSettings) -> list[np.ndarray]:
    """The groups of `settings.blobs` linked blobs (indexes): a disc of `link` times its
    size across drawn round each blob, the blobs whose discs touch linked."""
    points = np.rint(centres).astype(int)
    radii = [round(r) for r in (settings.link / 2 * sizes).tolist()]
    # labelled only in the discs' box (from an even corner: the labelling's 2x2 blocks,
    # and so its labels' order, as in the whole picture); a third of the pixels or fewer
    reach = max(radii) + 1
    x0, y0 = max(int(points[:, 0].min()) - reach, 0) & ~1, max(int(points[:, 1].min()) - reach, 0) & ~1
    x1 = min(int(points[:, 0].max()) + reach + 1, shape[1])
    y1 = min(int(points[:, 1].max()) + reach + 1, shape[0])
    local = points - (x0, y0)
    discs = np.zeros((y1 - y0, x1 - x0), np.uint8)
    for (x, y), radius in zip(local.tolist(), radii):
        cv2.circle(discs, (x, y), radius, 255, -1)
    _, labelled = cv2.connectedComponents(discs, connectivity=8)
    labels = labelled[local[:, 1], local[:, 0]]
    counts = np.bincount(labels)
    low, high = settings.blobs
    return [np.flatnonzero(labels == r) for r in np.flatnonzero((counts >= low) & (counts <= high)).tolist()]


@lru_cache(maxsize=32)
def _pairs(n: int) -> tuple[np.ndarray, np.ndarray]:
    """`np.triu_indices(n)` (it costs more than the rest of a small group's pairing),
    read-only: every caller shares the cached arrays."""
    i, j = np.triu_indices(n)
    i.flags.writeable = j.flags.writeable = False
    return i, j


def _symmetric(centres: np.ndarray, sizes: np.ndarray, settings: InkSettings) -> np.ndarray:
    """The blobs of the group laid out symmetrically about one point (a pip card's pips and
    indices are, turned half round about its centre): the pairs of blobs of a like size
    (a blob with itself too: a centre pip) whose midpoints agree best; their indexes."""
    i, j = _pairs(len(centres))
    like = np.maximum.outer(sizes, sizes) <= settings.pair_ratio * np.minimum.outer(sizes, sizes)
    alike = like[i, j]
    i, j = i[alike], j[alike]
    middles = (centres[i] + centres[j]) / 2
    tolerance = settings.pair_reach * _middle(sizes)
    # the fullest cell of midpoints (cells `tolerance` wide, and those shifted by half a cell)
    best, most = middles[:1], 0
    cells = (middles - middles.min(axis=0)) / tolerance
    for shift in (0.0, 0.5):
        cell = np.floor(cells + shift).astype(np.int64)
        keys = cell[:, 0] * (int(cell[:, 1].max()) + 1) + cell[:, 1]
        counts = np.bincount(keys)
        fullest = int(counts.argmax())
        if counts[fullest] > most:
            most = int(counts[fullest])
            best = middles[keys == fullest]
    centre = np.add.reduce(best, axis=0) / len(best)   # (its mean, to the bit, for less)
    # then every blob whose mirror about that centre lies near a blob of a like size, the
    # nearer the centre the nearer (a slight tilt moves the far corners' indices most)
    gaps = (2 * centre - centres)[:, None, :] - centres[None, :, :]
    apart = np.hypot(gaps[..., 0], gaps[..., 1])
    off = centres - centre
    reach = tolerance + settings.pair_slack * np.hypot(off[:, 0], off[:, 1])
    return np.flatnonzero(((apart <= reach[:, None]) & like).any(axis=1))


def _middle(values: np.ndarray) -> float:
    """The median of a few values (the upper of the middle two)."""
    return float(np.sort(values)[len(values) // 2])


def _card_around(pips: np.ndarray, size: float, settings: InkSettings) -> np.ndarray | None:
    """The card's outline around its pips' tightest rectangle (their centres', grown by
    their `size`), or None when that rectangle is no pip card's layout."""
    (cx, cy), (w, h), angle = cv2.minAreaRect(pips)
    w, h = w + size, h + size
    short, long = min(w, h), max(w, h)
    if short < 1 or not settings.pip_ratio[0] <= long / short <= settings.pip_ratio[1]:
        return None
    a, b = settings.grow
    w, h = (w * a, h * b) if w <= h else (w * b, h * a)
    return cv2.boxPoints(((cx, cy), (w, h), angle)).astype(np.float32)


def added(kept: list[np.ndarray], white: np.ndarray, box: tuple[int, int, int, int], sizes: tuple[float, float],
          gates, settings: InkSettings = InkSettings(),
          face: wholecards.WholeSettings = wholecards.WholeSettings(),
          whole: list[bool] | None = None) -> list[np.ndarray]:
    """`kept` with the pip cards placed from their ink inside `box` (x, y, w, h) added (and
    the pieces of them kept dropped; `whole`: for each outline kept, whether it is known to
    be a whole card, a colour field grown to its white frame: never a piece, and a pip card
    over one is not added). `sizes`: a card's smallest short side and largest
    long side; `gates(quad)`: the finder's own checks of one outline (inside the frame, a
    card's shape), True when it passes."""
    x0, y0, w0, h0 = box
    roi = white[y0:y0 + h0, x0:x0 + w0]
    k = settings.paper_window
    paper = cv2.morphologyEx(roi, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    flat = cv2.divide(roi, cv2.max(paper, 1), scale=settings.flat_paper)
    ink = cv2.bitwise_and(cv2.compare(flat, settings.flat_paper - settings.ink_step, cv2.CMP_LT),
                          cv2.compare(paper, settings.min_paper, cv2.CMP_GE))
    # (Grana's algorithm: the same labels as the default for under half its cost here)
    count, _, stats, centres = cv2.connectedComponentsWithStatsWithAlgorithm(ink, 8, cv2.CV_32S, cv2.CCL_GRANA)
    if count <= settings.min_paired:
        return kept
    boxes = stats[1:, 2].astype(np.float32) * stats[1:, 3]
    smallest = sizes[0] ** 2
    low, high = settings.blob_area
    chosen = np.flatnonzero((boxes >= low * smallest) & (boxes <= high * smallest) &
                            (np.maximum(stats[1:, 2], stats[1:, 3]) <= 4 * np.minimum(stats[1:, 2], stats[1:, 3])))
    if len(chosen) < settings.min_paired:
        return kept
    centres = centres[1:][chosen].astype(np.float32)
    pip_sizes = np.sqrt(boxes[chosen])
    offset = np.float32((x0, y0))
    areas = [cv2.contourArea(q) for q in kept]
    new: list[np.ndarray] = []
    dropped: set[int] = set()
    for group in _groups(centres, pip_sizes, ink.shape, settings):
        group = group[_symmetric(centres[group], pip_sizes[group], settings)]
        if len(group) < settings.min_paired:
            continue
        group = group[pip_sizes[group] >= settings.pip_size * _middle(pip_sizes[group])]
        quad = _card_around(centres[group], _middle(pip_sizes[group]), settings)
        if quad is None or not gates(quad + offset):
            continue
        card_area = cv2.contourArea(quad)
        low, high = settings.same_size
        near = [(i, areas[i] / card_area, overlap) for i, q in enumerate(kept)
                if (overlap := quad_overlap(quad + offset, q)) >= settings.overlap]
        if any(low <= ratio < high or (whole and whole[i]) for i, ratio, _ in near) or \
                any(quad_overlap(quad + offset, q) >= settings.overlap for q in new):
            continue   # (the card found already)
        if not wholecards.looks_like_a_card(quad, flat, face):
            continue
        new.append(quad + offset)
        # the pieces of it found (its pips' outline, the lit part of it) give way to it
        dropped.update(i for i, ratio, overlap in near if ratio < low and overlap >= settings.piece_inside)
    return [q for i, q in enumerate(kept) if i not in dropped] + new
