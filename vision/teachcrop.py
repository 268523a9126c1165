"""The teaching crop: of the outlines a teaching photo offers for its one card, the one
whose face shows the card best, and whether the best is good enough to teach from.

The learned reader learns the corner index (`vision.reader`) from the teaching faces, so a
teaching face whose outline is a few pixels off, or holds only part of the card, teaches
the glyph badly or not at all: of the 36 teaching outlines of the real-photo bench's three
draws (bench/realphotos_read.py --shots 2 --seeds 3), 14 showed fewer than two glyphs. So:

* the outline first found is compared with the finder's outlines of the same card: the
  finder run again on the photo around it (`vision.realfind` with the teaching settings,
  where the card fills more of the search; a full-bleed face's as one) and any given by the
  caller (the whole photo's),
  of about the same box or lying inside it; the one showing the index glyph in more corner
  regions is taken, the first one on a tie (a deck with no corner index changes nothing);
* `poor` judges a set of teaching crops together: in a deck whose crops mostly show the
  glyph in both corners (a deck with a corner index), a crop showing it in neither is of a
  card covered, cut by the outline or too oblique to teach from, and so is one showing it in
  one corner only whose outline is not of the card's shape (a part of the card);
* `small` judges them together too: an outline covering far less of its photo than the
  deck's mostly do is of something small in a photo with no card (`vision.teach` asks it of
  a deck of colour-field faces, where it was measured).

What does not live here: finding (`vision.realfind`), the glyph itself (`vision.reader`),
what is done with a poor crop (`vision.teach.finish`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import cv2
import numpy as np

from vision.detect import BLEED_SETTINGS, FIELD_SETTINGS
from vision.reader import find_glyph, index_regions, region_ink
from vision.realfind import find_outlines
from vision.warp import order_corners, quad_overlap, side_lengths, warp_card
from vision.whiteframe import SIZE as FRAME_SIZE, bleeds_colour

GROW = 0.3           # the photo around the first outline searched again: grown by this share
SAME_CARD = 0.6      # bounding boxes overlapping this much (IoU) outline the same card
# An outline lying inside the first (this share of it), of the card's shape, this share of
# its area at least and showing the glyph in both corners is the card too: the whole
# photo's largest outline can take in the card's shadow or what it lies on (3 of the 36
# teaching photos of the bench's draws through `deckhand teach`'s finder, 0.27-0.72 of it).
INSIDE = 0.9
INSIDE_AREA = 0.25
INDEXED = 2 / 3      # of the crops showing the glyph in both corners: the deck has an index
SHAPE_TOLERANCE = 1.25   # side ratio at most this far (times or divided) from the deck's:
                         # the card's shape (beyond: a part of it, or a card seen very obliquely)
# An outline covering under this share of the picture that the deck's outlines mostly do
# (their median) is of no card of the deck. Measured on protocol 2's teaching photos
# (bench/protocols.py, 9 unstressed draws, 1,358 crops of a card): a card's outline 0.30 of
# the median at least; of 46 outlines found in photos of a bare table, 25 under 0.2.
SMALL_OUTLINE = 0.2
SMALL_JUDGED = 4         # crops needed for a median


@dataclass(frozen=True, eq=False)
class Crop:
    """A teaching photo's outline of its card and how its face shows the card."""

    corners: np.ndarray   # TL, TR, BR, BL in the photo's pixels
    glyphs: int           # corner regions showing an index glyph (0..2)
    shaped: bool          # side ratio near the deck's aspect
    share: float = float("nan")   # the share of the photo the outline covers


def glyphs_shown(image: np.ndarray, corners: np.ndarray) -> int:
    """In how many of the card's two corner regions an index glyph is found (0..2)."""
    return sum(find_glyph(ink) is not None for ink in region_ink(index_regions(image, corners)))


def shaped(corners: np.ndarray, aspect: float) -> bool:
    short, long = sorted(side_lengths(corners))
    ratio = long / max(short, 1e-6)
    return aspect / SHAPE_TOLERANCE <= ratio <= aspect * SHAPE_TOLERANCE


def best_crop(image: np.ndarray, first: np.ndarray, aspect: float,
              others: Sequence[np.ndarray] = ()) -> Crop:
    """Of `first` (an outline of the photo's card), `others` and the outlines the finder
    gives around it, those of the same card, the one showing the glyph in more corners."""
    first = np.asarray(first, np.float32)
    pixels = float(image.shape[0] * image.shape[1])
    best = Crop(first, glyphs_shown(image, first), shaped(first, aspect), cv2.contourArea(first) / pixels)
    if best.glyphs == 2:
        return best
    box, area = _box(first), cv2.contourArea(first)
    for outline in [np.asarray(o, np.float32) for o in others] + _found_around(image, first):
        if best.glyphs == 2:
            break
        same = _iou(_box(outline), box) >= SAME_CARD
        inside = not same and quad_overlap(outline, first) >= INSIDE and shaped(outline, aspect) \
            and cv2.contourArea(outline) >= INSIDE_AREA * area
        if not (same or inside):
            continue
        glyphs = glyphs_shown(image, outline)
        if glyphs > best.glyphs and (same or glyphs == 2):
            best = Crop(outline, glyphs, shaped(outline, aspect), cv2.contourArea(outline) / pixels)
    return best


def small(crops: Sequence[Crop | None]) -> list[bool]:
    """Which of a deck's teaching crops outline far less of their photo than the deck's
    crops mostly do (under SMALL_OUTLINE of the median share): something small in a photo
    of a bare table, not the card. None, or a share not measured: not judged."""
    shares = [c.share for c in crops if c is not None and np.isfinite(c.share)]
    if len(shares) < SMALL_JUDGED:
        return [False] * len(crops)
    bar = SMALL_OUTLINE * float(np.median(shares))
    return [c is not None and bool(np.isfinite(c.share)) and c.share < bar for c in crops]


def poor(crops: Sequence[Crop | None]) -> list[bool]:
    """Which of a deck's teaching crops are too poor to teach from (None: not judged, never
    poor). Judged only for a deck whose crops mostly show the glyph in both corners."""
    judged = [c for c in crops if c is not None]
    if not judged or sum(c.glyphs == 2 for c in judged) < INDEXED * len(judged):
        return [False] * len(crops)
    return [c is not None and (c.glyphs == 0 or (c.glyphs == 1 and not c.shaped)) for c in crops]


def _found_around(image: np.ndarray, outline: np.ndarray) -> list[np.ndarray]:
    """The finder's outlines in the photo around `outline` (grown by GROW), in the photo's
    pixels; a full-bleed face's (its colour running to its edge) looked for as one
    (`vision.detect.BLEED_SETTINGS`), as teaching found it."""
    h, w = image.shape[:2]
    x1, y1, x2, y2 = _box(outline)
    gx, gy = (x2 - x1) * GROW, (y2 - y1) * GROW
    left, top = int(max(0, x1 - gx)), int(max(0, y1 - gy))
    right, bottom = int(min(w, x2 + gx)), int(min(h, y2 + gy))
    if right - left < 8 or bottom - top < 8:
        return []
    face = warp_card(image, order_corners(outline), FRAME_SIZE)
    settings = BLEED_SETTINGS if bleeds_colour(face) else FIELD_SETTINGS
    return [q + np.float32([left, top]) for q in find_outlines(image[top:bottom, left:right], settings)]


def _box(corners: np.ndarray) -> tuple[float, float, float, float]:
    x, y = corners[:, 0], corners[:, 1]
    return float(x.min()), float(y.min()), float(x.max()), float(y.max())


def _iou(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    inter = max(0.0, w) * max(0.0, h)
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0
