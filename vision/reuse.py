"""Readings kept from frame to frame: a card found where a card was read before, with its
pixels as they were when it was read, is not read again.

On a frame that changed, the camera loop finds every card again, but most of the cards in
view lie as they lay: a frame where one card was laid beside seven others need not read
the seven (reading is most of a changed frame's cost with eight cards in view). A card's
reading is kept when

* the finder's outline lies within `MOVE` pixels of the one it was read from, corner by
  corner (a card nudged is read again), and
* no pixel of its box (the outline's bounding box and `PAD` pixels around it), blurred
  over 5 x 5 pixels, differs by more than `DIFFERENCE` grey levels in any channel from
  the pixels it was read from: the frame of that first reading, not the last frame, so a
  slow change of light ends in a new reading, as in the still-frame test. A card laid on
  top of a card at the same place changes its pixels, and so does a hand over it.

Cards read "unknown" are not kept (the tracker waits for a frame that reads them), but
for a taught card looked for around its outline in vain (`vision.refind`, a whole frame's
finding on a window around it): that reading is kept with the pixels of the window
searched, not the outline's box, so that a card half in the shade is not looked around
again in every changed frame while neither it nor the window changes. A deck printed
with no white is always read whole (each card's reading depends on the
light judged from every card in view).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import cv2
import numpy as np

MOVE = 1.5         # pixels: the outline's corners this close to those it was read from
DIFFERENCE = 10    # grey levels, as the still-frame test's (`pipeline.STILL_DIFFERENCE`)
PAD = 3            # pixels of table around the outline's box that must not change either


@dataclass(frozen=True, eq=False)
class KeptReading:
    """A card's reading, the finder's outline it was read from and the frame's pixels
    in its box when it was read."""

    outline: np.ndarray                  # 4 x 2, frame pixels, the finder's corner order
    box: tuple[int, int, int, int]       # x0, y0, x1, y1 of `pixels` in the frame
    pixels: np.ndarray
    card: Any                            # the reading (`pipeline.SeenCard`)


def box_of(outline: np.ndarray, shape: tuple[int, ...], pad: int = PAD) -> tuple[int, int, int, int]:
    """The outline's bounding box grown by `pad` pixels, inside a frame of `shape`."""
    h, w = shape[:2]
    x0, y0 = np.floor(outline.min(axis=0)).astype(int) - pad
    x1, y1 = np.ceil(outline.max(axis=0)).astype(int) + pad + 1
    return max(int(x0), 0), max(int(y0), 0), min(int(x1), w), min(int(y1), h)


def keep(frame: np.ndarray, outline: np.ndarray, card: Any,
         box: tuple[int, int, int, int] | None = None) -> KeptReading:
    """The reading `card` of the card outlined by `outline` in `frame`, to keep, with the
    pixels of `box` (x0, y0, x1, y1; default the outline's box, `box_of`)."""
    x0, y0, x1, y1 = box = box or box_of(outline, frame.shape)
    return KeptReading(np.array(outline, np.float32), box, frame[y0:y1, x0:x1].copy(), card)


def unchanged(then: np.ndarray, now: np.ndarray, difference: int = DIFFERENCE) -> bool:
    """Whether no pixel of two same-sized pictures, blurred over 5 x 5, differs by more
    than `difference` in any channel."""
    if then.shape != now.shape or then.size == 0:
        return False
    if cv2.norm(then, now, cv2.NORM_INF) <= difference:
        return True   # no pixel differs by more, so no average of them does
    diff = cv2.absdiff(then, now)
    if diff.ndim == 3:
        # (numpy's max along the last axis costs ten times as much: 1 ms for a card's box)
        diff = cv2.max(cv2.max(diff[..., 0], diff[..., 1]), diff[..., 2])
    return float(cv2.blur(diff, (5, 5)).max()) <= difference


def kept_reading(kept: Sequence[KeptReading], frame: np.ndarray, outline: np.ndarray) -> KeptReading | None:
    """The kept reading of the card the finder outlined by `outline` in `frame`, if it
    lies as it lay when read and its pixels are unchanged; None: read it."""
    for old in kept:
        if float(np.abs(old.outline - outline).max()) <= MOVE:
            x0, y0, x1, y1 = old.box
            return old if unchanged(old.pixels, frame[y0:y1, x0:x1]) else None
    return None
