"""The card's outline looked for again around an outline that holds no corner of it.

On real photos a card lying across light and shade is sometimes outlined along the
shadow's edge: the outline holds the card's middle (or the lit part plus some table) and
none of its corners, so no index glyph shows and the reader says "unknown" whatever it
does with the ink. Read from the card's own outline the same reader reads these cards
right at 1.0 (the light and shade across the face are not what fails: `vision.classify`
white-balances the face by a plane fitted to its paper, and the learned features are
gradients). The finder run again on a window around the outline alone (its whiteness
levels and thresholds are then the window's, not the whole photo's) outlines the whole
card on most of them.

This module gives those outlines (`around`) and says which first reads are worth the
search (`worth_a_look`): a whole finder pass costs about as much as finding a frame, so
only an outline with no glyph in any corner region, partly paper and not evenly light
is looked around. A taught colour deck's card (the UNO family, whose corner index the
reader cannot read) read "unknown" is read from the window's other outlines of it
(`others_around`): the finder's outline of it was poor (a corner cut off, the card cut
short across its field, the card with the paper it lies on). Nothing here reads a card
(`vision.pipeline.Recognizer` does). In the camera loop a card looked around in vain keeps
its reading while the pixels of its `window` lie unchanged (`vision.reuse`), so it is not
looked around again in every changed frame.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

from vision.classify import FaceFeatures
from vision.detect import DetectSettings, find_cards
from vision.warp import quad_iou, quad_overlap

# The window searched: the outline's bounding box after growing the outline by this
# factor about its centre (measured on the train_ photos' outlines first read "unknown",
# 2 photos a rank, 3 draws: 1.4 and 2.2 read only the ten under the case, 1.8 the sunbeam
# nine too; at 2.2 the window's side cuts the nine's outline). Windows are searched at their
# own size: shrunk to 200 pixels they lost the nine and read 3 overlapped queens 9.
GROW = 1.8
# A new outline counts only when it holds this share of the first one's area at least:
# the same card, not a neighbour in the window.
HOLD = 0.6
# `others_around`: an outline found on the window is another outline of the same card when
# it is not the first one again (their IoU under SAME: read again, the same outline reads
# the same), lies on it (their intersection OTHER_OVERLAP of the smaller one's area at
# least: a corner cut off, the card cut short across its field, the card and the paper
# under it) and is of a like size (areas within OTHER_AREA times of each other).
# Protocol 2's poor outlines read right from the window (session 22, helper p2-refit):
# IoU with the first 0.52-0.87, overlap 0.93-1.0, area 0.59-1.25 times the first's.
SAME = 0.9
OTHER_OVERLAP = 0.5
OTHER_AREA = 2.5
# `worth_a_look`: the face has this share of its pixels paper at least (ink under
# PAPER_INK; a card's face is mostly paper, a table or a cloth is not) ...
PAPER = 0.35
PAPER_INK = 12.0
# ... and its mean lightness, relative to its paper, is under this (a white object,
# a page or plain paper evenly lit is 90-100; a card part with pips in light and shade
# 63-85).
LIGHT = 88.0


def worth_a_look(features: FaceFeatures) -> bool:
    """Whether a first read "unknown" is worth a search around its outline: no corner
    region (nor a wider one) shows an index glyph, at least PAPER of the face is paper
    and its mean lightness is under LIGHT. Chosen on the train_ photos (2 photos a rank,
    3 draws, main 6681caa's finder): of the 207 train_ outlines still "unknown" after their completions it keeps
    54, among them 5 of the 6 isolated cards a search around every one of them read right
    (not a king whose corners show a glyph), and not the webcam king that search read J
    (its corners show one too). Of the 1,963 outlines
    of all the photos under the 3 draws, 74 are looked around (66 M instructions each, about
    a whole frame's finding)."""
    if features.regions is None or len(features.index_rows):
        return False
    if float(features.lightness.mean()) >= LIGHT:
        return False
    return float(np.count_nonzero(features.ink < PAPER_INK)) >= PAPER * features.ink.size


def window(corners: np.ndarray, shape: tuple[int, ...]) -> tuple[int, int, int, int] | None:
    """The box (x0, y0, x1, y1) `around` searches: the bounding box of `corners` grown GROW
    times about their centre, inside a frame of `shape`; None when a side is under 8 pixels."""
    h, w = shape[:2]
    centre = corners.mean(axis=0)
    grown = centre + (corners - centre) * GROW
    x0, y0 = np.maximum(np.floor(grown.min(axis=0)).astype(int), 0)
    x1, y1 = np.ceil(grown.max(axis=0)).astype(int)
    x1, y1 = min(int(x1), w), min(int(y1), h)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    return int(x0), int(y0), x1, y1


@dataclass(frozen=True, eq=False)
class Search:
    """The finder's outlines on the window around `corners` (GROW), found when first
    asked for and then kept: a taught colour deck's card looked around by
    `Recognizer._found_around` and, still "unknown", by `Recognizer._refound` pays one
    finder pass (about a whole frame's finding), not two."""

    frame: np.ndarray
    corners: np.ndarray
    settings: DetectSettings

    @cached_property
    def outlines(self) -> list[np.ndarray]:
        """Every card outline (frame coordinates, float32) found on the window, largest first."""
        return _in_window(self.frame, self.corners, self.settings)


def around(frame: np.ndarray, corners: np.ndarray, settings: DetectSettings,
           search: Search | None = None) -> list[np.ndarray]:
    """Card outlines (frame coordinates, float32) the finder gives on the window around
    `corners` (GROW), each holding HOLD of the outline's area at least, largest first
    (`search`: the same window's search, when one was made already or may be asked again)."""
    area = cv2.contourArea(corners.astype(np.float32))
    out = []
    for quad in _outlines(frame, corners, settings, search):
        held, _ = cv2.intersectConvexConvex(quad, corners.astype(np.float32))
        if held >= HOLD * area:
            out.append(quad)
    return out


def others_around(frame: np.ndarray, corners: np.ndarray, settings: DetectSettings,
                  search: Search | None = None) -> list[np.ndarray]:
    """The outlines the finder gives on the window around `corners` (GROW) that may be the
    same card outlined better (a taught colour deck's card read "unknown" from a poor
    outline, `vision.pipeline.Recognizer._refound`): not that outline again (IoU under
    SAME), lying on it (OTHER_OVERLAP of the smaller one's area) and of a like size (their
    areas within OTHER_AREA times of each other); largest first (`search`: as `around`'s)."""
    area = cv2.contourArea(corners.astype(np.float32))
    return [quad for quad in _outlines(frame, corners, settings, search)
            if quad_iou(quad, corners) < SAME and quad_overlap(quad, corners) >= OTHER_OVERLAP
            and 1 / OTHER_AREA <= cv2.contourArea(quad) / max(area, 1e-6) <= OTHER_AREA]


def _outlines(frame: np.ndarray, corners: np.ndarray, settings: DetectSettings,
              search: Search | None) -> list[np.ndarray]:
    """`search`'s outlines, or those of a new search of the window around `corners`."""
    return (search if search is not None else Search(frame, corners, settings)).outlines


def _in_window(frame: np.ndarray, corners: np.ndarray, settings: DetectSettings) -> list[np.ndarray]:
    """Every card outline (frame coordinates, float32) the finder gives on the window
    around `corners` (GROW), largest first."""
    box = window(corners, frame.shape)
    if box is None:
        return []
    x0, y0, x1, y1 = box
    return [(found.corners + np.float32([x0, y0])).astype(np.float32)
            for found in find_cards(frame[y0:y1, x0:x1], None, settings)]
