"""The visible part of a card that something as white as its paper lies over: a book, a
box, a sheet. The card's whiteness runs on into the object's, so the whiteness maps give
one region round both, and its outline, card and object taken as one, is all the finder
has there. But the object's edge is a long straight line where the card goes under it.
Cut along that line (drawn dark into the whiteness, as the frame's border cuts a card
running off the photo), the card's part is a region of its own, a card's visible part,
and `vision.regionjudge` judges it as any other (a covered card's gates: paper-white,
its outline followed); the learned outline scorer has the last say.

Here, for `vision.realfind` (taught decks' real-table settings only,
`RealSettings.occluder_cuts`):

* `where_to_cut`: only round the outlines the scorer takes but is unsure of (card and
  object as one is such an outline; looking everywhere cost five times as much, for a
  few cards more under pale objects drawn over train_ photos: docs/vision-history.md);
* `cut_regions`: the whiteness regions there once the long straight segments
  (`cv2.createLineSegmentDetector`, through `vision.edgequads`) are drawn into it, those
  that meet a drawn line;
* `cut_bar`: a cut region is a card only when the scorer is sure of it, or when it lies
  inside an unsure outline several times its size (card and object as one), which then
  gives way to it.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.edgequads import QuadSettings, segments
from vision.warp import quad_overlap


@dataclass(frozen=True)
class CutSettings:
    least: float = 2.0              # segments this many smallest short sides long at least
    width: int = 2                  # pixels of the dark line drawn along each
    reach: float = 0.75             # ... drawn on past each end this many short sides (LSD
                                    # breaks the object's edge where the card's corner meets it)
    levels: tuple[float, ...] = (0.6, 0.75, 0.88)   # whiteness cuts (of 255) looked at
    chance: float = 0.5              # the learned model's chance a cut region needs at least
    under: float = 0.2              # ... or this much, inside a less sure outline it gives way to:
    holder: float = 0.5             # ... one under this sure
    holder_area: float = 4.0        # ... this many times its area or more
    inside: float = 0.6             # ... holding this share of it
    grow: float = 0.1               # the box looked in round the unsure outlines, grown so
    segments: QuadSettings = QuadSettings()


def where_to_cut(pool: list, chances: np.ndarray, threshold: float, settings: CutSettings,
                 size: tuple[int, int]) -> tuple[int, int, int, int] | None:
    """The box (x, y, w, h) around the outlines of `pool` the learned model takes but is
    unsure of (at least `threshold`, under `holder`): where a card and the object over it
    may have been taken as one; grown by `grow` of its larger side; None when there is none."""
    unsure = [c.quad for c, p in zip(pool, chances) if threshold <= p < settings.holder]
    if not unsure:
        return None
    points = np.concatenate(unsure).reshape(-1, 2)
    x0, y0 = points.min(axis=0)
    x1, y1 = points.max(axis=0)
    grow = settings.grow * max(x1 - x0, y1 - y0)
    x0, y0 = max(int(x0 - grow), 0), max(int(y0 - grow), 0)
    x1, y1 = min(int(x1 + grow) + 1, size[0]), min(int(y1 + grow) + 1, size[1])
    return (x0, y0, x1 - x0, y1 - y0) if x1 > x0 and y1 > y0 else None


def cut_regions(white: np.ndarray, gray: np.ndarray, short: float, settings: CutSettings,
                box: tuple[int, int, int, int]) -> list[np.ndarray]:
    """The outer contours, in `box` (x, y, w, h), of the whiteness above each of `levels`
    once every straight segment at least `least` x `short` pixels long is drawn dark into
    it, those with a point on a drawn line (a region the cut made or changed); none when
    no segment is that long. In the pixels of the whole picture."""
    x, y, w, h = box
    white, gray = white[y:y + h, x:x + w], gray[y:y + h, x:x + w]
    segs = segments(gray, settings.least * short, settings.segments)
    if not len(segs):
        return []
    lines = np.zeros_like(white)
    ends = segs.reshape(-1, 2, 2)
    along = ends[:, 1] - ends[:, 0]
    along *= (settings.reach * short / np.hypot(along[:, 0], along[:, 1]))[:, None]
    ends = np.stack([ends[:, 0] - along, ends[:, 1] + along], axis=1)
    for (x1, y1), (x2, y2) in np.round(ends).astype(np.int32).tolist():
        cv2.line(lines, (x1, y1), (x2, y2), 255, settings.width)
    cut = cv2.bitwise_and(white, cv2.bitwise_not(lines))
    near = cv2.dilate(lines, np.ones((3, 3), np.uint8))
    out = []
    for level in settings.levels:
        mask = cv2.threshold(cut, int(level * 255), 255, cv2.THRESH_BINARY)[1]
        for contour in cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE, offset=(x, y))[0]:
            points = contour.reshape(-1, 2)
            if near[points[:, 1] - y, points[:, 0] - x].any():
                out.append(contour)
    return out


def cut_bar(pool: list, chances: np.ndarray, settings: CutSettings) -> np.ndarray:
    """The learned model's chances with a cut region's (`outlinescore.Considered.cut`) under
    `chance` made 0, unless it is at least `under` sure and lies inside an outline less
    than `holder` sure `holder_area` times its area or more (the card and the object over
    it taken as one): that outline's chance is made 0 instead."""
    out = chances.copy()
    for i, c in enumerate(pool):
        if not c.cut or chances[i] >= settings.chance:
            continue
        holders = [j for j, h in enumerate(pool) if settings.under <= chances[i] and not h.cut
                   and chances[i] < chances[j] < settings.holder and h.area >= settings.holder_area * c.area
                   and quad_overlap(c.quad, h.quad) >= settings.inside] if settings.under > 0 else []
        if holders:
            out[holders] = 0.0
        else:
            out[i] = 0.0
    return out
