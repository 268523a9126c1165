"""Partly covered cards in the shade: the visible part of a card that something covers,
whose paper is too dark for the finder's paper-white test.

`vision.realfind` takes the visible part of a partly covered card (a corner put back, a
side cut on the slant, a part longer than a card) only when a good share of it is
paper-white: a patch of sunlit carpet or a book's page cut by a shadow has a card's
outline as well. Under a jacket, a belt or a book a card often lies in the object's
shade, and its paper is grey there. Such outlines, refused for their paper alone, are
handed here and looked at again once the light is evened out (`vision.shadedcards`):
the paper share is asked of the whiteness divided by its local maximum, the paper must
be white somewhere (a dark table evened out is white too), the face must hold some ink
(a card's index or pips; a blank patch holds none), and no outline kept may overlap it
(what the maps cut from a card found is a piece of that card, not another one).
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.shadedcards import ShadedSettings, shade_flattened


@dataclass(frozen=True)
class PaleSettings:
    min_flat_paper: float = 0.4     # share of it paper-white once the light is evened out
    paper: int = 200                # ... that whiteness (of 255)
    min_lit: int = 120              # its paper (90th percentile of whiteness) at least this white
    ink_step: int = 60              # ink: this much darker than the evened-out paper
    min_ink: float = 0.2            # ... this share of its inside at least
    min_area: float = 2.0           # its area at least this many times the smallest card's (a
                                    # speck of a patterned table has a covered part's outline too)
    max_box_overlap: float = 0.25   # an outline kept whose box overlaps its box more than this
                                    # share of the smaller box: a piece of that card (a toy across
                                    # it leaves two), or what lies on it


def _inside(quad: np.ndarray, shape: tuple[int, int], grow: int = 0) -> tuple[tuple[slice, slice], np.ndarray]:
    """The quad's box (grown by `grow` pixels all round, inside the frame) and its inside
    as a mask of that box."""
    x, y, w, h = cv2.boundingRect(np.round(quad).astype(np.int32))
    x0, y0 = max(x - grow, 0), max(y - grow, 0)
    x1, y1 = min(x + w + grow, shape[1]), min(y + h + grow, shape[0])
    mask = np.zeros((max(y1 - y0, 1), max(x1 - x0, 1)), np.uint8)
    cv2.fillConvexPoly(mask, np.round(quad - (x0, y0)).astype(np.int32), 255)
    return (slice(y0, y1), slice(x0, x1)), mask > 0


def _box_overlap(a: np.ndarray, b: np.ndarray) -> float:
    """The overlap of the two quads' upright boxes over the smaller box's area."""
    (ax0, ay0), (ax1, ay1) = a.min(axis=0), a.max(axis=0)
    (bx0, by0), (bx1, by1) = b.min(axis=0), b.max(axis=0)
    inter = max(0.0, min(ax1, bx1) - max(ax0, bx0)) * max(0.0, min(ay1, by1) - max(ay0, by0))
    smaller = min((ax1 - ax0) * (ay1 - ay0), (bx1 - bx0) * (by1 - by0))
    return float(inter / smaller) if smaller > 0 else 0.0


def features(quad: np.ndarray, white: np.ndarray, settings: PaleSettings = PaleSettings(),
             shade: ShadedSettings = ShadedSettings()) -> tuple[float, float, float]:
    """(paper share once the light is evened out, lit: the 90th percentile of the
    whiteness, ink share) inside the quad. The light is evened out on the quad's box only,
    grown past the reach of `shade_flattened`'s window: the same values as on the whole
    frame, for a fraction of the cost."""
    box, mask = _inside(quad, white.shape, 2 * shade.flat_window)
    flat_in = shade_flattened(white[box], shade)[mask]
    if flat_in.size == 0:
        return 0.0, 0.0, 0.0
    paper = np.count_nonzero(flat_in >= settings.paper) / flat_in.size
    ink = np.count_nonzero(flat_in < settings.paper - settings.ink_step) / flat_in.size
    return paper, float(np.percentile(white[box][mask], 90)), ink


def added(kept: list[np.ndarray], pale: list[tuple[float, float, np.ndarray]], white: np.ndarray,
          smallest: float, settings: PaleSettings = PaleSettings(),
          shade: ShadedSettings = ShadedSettings()) -> list[np.ndarray]:
    """`kept` and, after it, the pale outlines (outline share, area, quad) that pass as a
    card's visible part in the shade, best first (as the finder sorts its outlines).
    `smallest`: the area of the smallest card the finder takes."""
    out = list(kept)
    for _, area, quad in sorted(pale, key=lambda c: (-round(c[0], 1), -c[1])):
        if area < settings.min_area * smallest or any(_box_overlap(quad, other) > settings.max_box_overlap for other in out):
            continue
        paper, lit, ink = features(quad, white, settings, shade)
        if paper >= settings.min_flat_paper and lit >= settings.min_lit and ink >= settings.min_ink:
            out.append(quad)
    return out
