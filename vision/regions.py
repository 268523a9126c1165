"""Finding cards again only where the frame changed.

At the table a frame that changed usually shows one card laid in one place: finding
every card of the frame again (the empty-table finder, `vision.detect`) costs the whole
frame for that one card. Here the frame (at the working size) is compared with the last
frame whose cards were found, on grey copies `SHRINK` times smaller (as the still-frame
test compares its thumbnails). Searched: the boxes of the pixels that changed by more
than `DIFFERENCE` grey levels, grown by `MARGIN` pixels; the box of every earlier outline
they touch and of every region of what differs from the empty table whose own pixels
changed (a card a hand uncovers changed only in part), each grown by `CONTEXT`. Each box
is cut from the frame and from the empty table and searched with the whole frame's
changed-pixels mask cut to it (so its noise level is the frame's). Outlines found there
are kept when they stay `BORDER` pixels inside their box wherever it is not the frame's
border (a card cut by the box is not a card) and lie on no earlier outline kept; the
earlier outlines no box touches are kept as they were; the cards come in the whole
finder's order.

The whole frame is searched when there is no earlier finding (a new recognizer, or no
empty table), or when the boxes would cover more than `WHOLE_SHARE` of the frame (a hand
over the table, a change of light): there the boxes cost more than the whole frame.

The frame after a hand differs from the frame with the hand over the table by the whole
hand, yet from the table as it lay still before the hand came only by what the hand
changed there (a card laid, a card taken). So the frame is also compared with the last
few STILL frames (`anchors`: frames the camera loop saw twice alike; a hand held still
over the table makes one too, hence a few) and searched where it differs least from one
of them; any finding serves as the earlier one, as long as the frame is compared with
the picture that finding was made in.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Sequence

import cv2
import numpy as np

from vision.detect import (DetectSettings, Detection, EmptyTable, FoundCard, FramePart, changed_pixels,
                           detect)
from vision.warp import quad_overlap

SHRINK = 4          # the compared grey copies are this many times smaller (160 x 120)
DIFFERENCE = 10     # grey levels: as the still-frame test's (`pipeline.STILL_DIFFERENCE`)
MARGIN = 24         # working-size pixels around what changed: the finder's reach (edge
                    # groups, the changed regions' opening, the second look's padding)
CONTEXT = 12        # pixels around an earlier outline near a change: its edges and shadow
UNCOVERED = 150     # square pixels (a tenth of the smallest card, `DetectSettings.min_short_side`)
BORDER = 4          # an outline found this near its box's cut side is cut by it
WHOLE_SHARE = 1 / 3  # boxes covering more of the frame than this: the whole frame


@dataclass(frozen=True, eq=False)
class LastFind:
    """What the last frame whose cards were found showed: its grey copy `SHRINK` times
    smaller (None when no empty table was known: nothing is compared with it then) and
    what was found in it (at the working size). One per camera loop, held with the
    readings kept (`pipeline.StillFrames`)."""

    grey: np.ndarray | None
    detection: Detection
    shape: tuple[int, ...]


def shrunk(frame: np.ndarray) -> np.ndarray:
    """The frame's grey copy `SHRINK` times smaller (area-averaged: noise averages out).
    The frame is made grey first, then shrunk: area averaging costs ~5 instructions a
    byte read, so shrinking one channel instead of three is the cheaper order (2.6 M
    instructions for this copy and the still-frame thumbnail halved from it, against
    9.5 M for both shrunk from the colour frame; `pipeline.small_copies`)."""
    h, w = frame.shape[:2]
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    return cv2.resize(grey, (max(1, w // SHRINK), max(1, h // SHRINK)), interpolation=cv2.INTER_AREA)


def find(frame: np.ndarray, table: EmptyTable | None, settings: DetectSettings,
         last: LastFind | None, anchors: Sequence[LastFind] = (), grey: np.ndarray | None = None
         ) -> tuple[Detection, LastFind]:
    """The cards of `frame` (as `detect` finds them), searched only where it changed
    since `last` or since one of `anchors` (the last still frames), the one it differs
    from least, when that can be done; and what to compare the next frame with.
    `grey`: `shrunk(frame)` made already (the camera loop makes it with its thumbnail).
    With no empty table (`deckhand recognize`, a photo) no earlier finding is compared
    with, so the grey copy is not made (2.6 M instructions of a whole new 640x480 frame's
    71.6 M, callgrind): the next frame, with a table, searches the whole frame."""
    if grey is None and table is not None:
        grey = shrunk(frame)
    detection, changed = None, None
    earliers: list[LastFind] = []
    for earlier in (last, *anchors):
        if earlier is not None and table is not None and earlier.shape == frame.shape \
                and earlier.grey is not None and earlier.grey.shape == grey.shape and not any(earlier is seen for seen in earliers):
            earliers.append(earlier)
    # a hand over the table is too large a change before anything costly is done
    for earlier, difference, moved, area in _least_changed(earliers, grey, frame.shape):
        if area > WHOLE_SHARE * frame.shape[0] * frame.shape[1]:
            break
        if changed is None:
            changed = changed_pixels(cv2.GaussianBlur(frame, (3, 3), 0), table, settings)
        search = _boxes_to_search(difference, moved, earlier.detection.cards, changed)
        if search is not None:
            detection = _find_within(frame, table, settings, changed, *search)
            break
    if detection is None:
        detection = detect(frame, table, settings, changed=changed)
    return detection, LastFind(grey, detection, frame.shape)


@dataclass(eq=False)
class _Earlier:
    """An earlier finding as a frame may be compared with it: its place in the list, its
    difference from the frame, the pixels that difference covers at least (its changed
    pixels alone, `SHRINK` x `SHRINK` each) and, once worked out, its boxes and their area."""
    order: int
    finding: LastFind
    difference: np.ndarray
    at_least: int
    boxes: list[Box] | None = None
    area: int | None = None


def _least_changed(earliers: list[LastFind], grey: np.ndarray, shape: tuple[int, ...]
                   ) -> Iterator[tuple[LastFind, np.ndarray, list[Box], int]]:
    """The earlier findings with their grey copies' difference, its boxes (`_moved`) and
    their area, the least area first (the one given first where two are alike). A
    finding's boxes are worked out only when it may come next: its changed pixels alone
    cover no more than the least area worked out so far (at the table the older still
    frames differ by more than the last frame, and their boxes would cost as much as the
    last frame's)."""
    left = []
    for order, finding in enumerate(earliers):
        difference = _difference(finding.grey, grey)
        left.append(_Earlier(order, finding, difference, cv2.countNonZero(difference) * SHRINK * SHRINK))
    while left:
        while True:
            best = min((e for e in left if e.area is not None), key=lambda e: (e.area, e.order), default=None)
            may = [e for e in left if e.area is None and (best is None or (e.at_least, e.order) < (best.area, best.order))]
            if not may:
                break
            nearest = min(may, key=lambda e: (e.at_least, e.order))
            nearest.boxes = _moved(nearest.difference, shape)
            nearest.area = _area(nearest.boxes)
        left.remove(best)
        yield best.finding, best.difference, best.boxes, best.area


def _difference(then: np.ndarray, now: np.ndarray) -> np.ndarray:
    """The pixels of two grey copies that differ by more than DIFFERENCE (uint8 0/255)."""
    return cv2.threshold(cv2.absdiff(then, now), DIFFERENCE, 255, cv2.THRESH_BINARY)[1]


def _moved(difference: np.ndarray, shape: tuple[int, ...]) -> list[Box]:
    """The boxes (in the pixels of a frame of `shape`, grown by MARGIN) of what changed
    between two grey copies (`_difference`): the least `changed_boxes` searches."""
    h, w = shape[:2]
    count, _, stats, _ = cv2.connectedComponentsWithStats(difference, connectivity=8)
    return [_grown((x * SHRINK, y * SHRINK, (x + bw) * SHRINK, (y + bh) * SHRINK), MARGIN, w, h)
            for x, y, bw, bh, _ in stats[1:count]]


def _too_large(boxes: list[Box], shape: tuple[int, ...]) -> bool:
    """Whether boxes merged cover more than WHOLE_SHARE of the frame. `changed_boxes` only
    adds and merges boxes, so what is too large here is too large there."""
    return _area(boxes) > WHOLE_SHARE * shape[0] * shape[1]


def _area(boxes: list[Box]) -> int:
    """The pixels the boxes cover, merged where they overlap."""
    return sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in _merged(boxes))


Box = tuple[int, int, int, int]   # x0, y0, x1, y1 (exclusive) in working-size pixels


def changed_boxes(then: np.ndarray, now: np.ndarray, cards: tuple[FoundCard, ...],
                  changed: np.ndarray) -> tuple[list[Box], list[FoundCard]] | None:
    """The boxes to search and the earlier outlines to keep: what changed between two
    grey copies, grown by MARGIN; the box of every earlier outline those touch, grown by
    CONTEXT; and the box (grown by CONTEXT) of every region of `changed` (what differs
    from the empty table, at the working size) that changed and reaches out of the boxes
    and of every earlier outline by more than UNCOVERED (a card a hand uncovered changed
    only in part, and must be searched whole); merged where they overlap. The earlier
    outlines no box touches are kept. None when the boxes cover more than WHOLE_SHARE of
    the frame (search the whole frame)."""
    difference = _difference(then, now)
    return _boxes_to_search(difference, _moved(difference, changed.shape), cards, changed)


def _boxes_to_search(mask: np.ndarray, moved: list[Box], cards: tuple[FoundCard, ...],
                     changed: np.ndarray) -> tuple[list[Box], list[FoundCard]] | None:
    """`changed_boxes` from the grey copies' difference `mask` and its boxes `moved`."""
    h, w = changed.shape[:2]
    boxes = list(moved)
    if not boxes:
        return [], list(cards)
    kept, near = [], []
    for card in cards:
        box = _box_of(card.corners)
        if any(_touch(box, b) for b in boxes):
            near.append(_grown(box, CONTEXT, w, h))
        else:
            kept.append(card)
    boxes += near
    # what differs from the empty table, sampled every SHRINK pixels: its regions
    sampled = changed[::SHRINK, ::SHRINK]
    count, labels, stats, _ = cv2.connectedComponentsWithStats(sampled, connectivity=8)
    outside = np.ones(sampled.shape, np.uint8)
    for x0, y0, x1, y1 in boxes + [_grown(_box_of(card.corners), CONTEXT, w, h) for card in kept]:
        outside[y0 // SHRINK:-(-y1 // SHRINK), x0 // SHRINK:-(-x1 // SHRINK)] = 0
    reaching = np.bincount(labels[outside > 0], minlength=count)
    rows, cols = min(mask.shape[0], labels.shape[0]), min(mask.shape[1], labels.shape[1])
    # the regions that changed (numpy 2's np.unique imports numpy.ma on its first call: 50 ms)
    for i in np.flatnonzero(np.bincount(labels[:rows, :cols][mask[:rows, :cols] > 0], minlength=count)):
        x, y, bw, bh, _ = stats[i]
        thing = _grown((x * SHRINK, y * SHRINK, (x + bw) * SHRINK, (y + bh) * SHRINK), CONTEXT, w, h)
        # reaching out of the boxes, or so near a box's side that a card in it may be cut
        if i and (reaching[i] * SHRINK * SHRINK > UNCOVERED or not any(_holds(b, thing) for b in boxes)):
            boxes.append(thing)
    if _too_large(boxes, changed.shape):
        return None
    return _merged(boxes), kept


def _find_within(frame: np.ndarray, table: EmptyTable, settings: DetectSettings, changed: np.ndarray,
                 boxes: list[Box], earlier: list[FoundCard]) -> Detection:
    """The earlier outlines kept, and what the finder finds in each box: outlines not
    cut by the box's side and not lying on an earlier outline kept (a card beside the
    change that the box takes in part of)."""
    h, w = frame.shape[:2]
    cards = list(earlier)
    for x0, y0, x1, y1 in boxes:
        within = (BORDER if x0 > 0 else 0, BORDER if y0 > 0 else 0,
                  x1 - x0 - BORDER if x1 < w else x1 - x0, y1 - y0 - BORDER if y1 < h else y1 - y0)
        lo, hi = np.float32(within[:2]) - 1, np.float32(within[2:]) + 1
        found = detect(frame[y0:y1, x0:x1], EmptyTable(table.image[y0:y1, x0:x1], table.edges[y0:y1, x0:x1]),
                       settings, FramePart(changed[y0:y1, x0:x1], float(h * w), within))
        for card in found.cards:
            # the outline fitted to a contour within the box may still reach past it a little
            if (card.corners >= lo).all() and (card.corners <= hi).all():
                corners = (card.corners + np.float32([x0, y0])).astype(np.float32)
                if all(quad_overlap(corners, old.corners) < 0.3 for old in earlier):
                    cards.append(FoundCard(corners, card.rank))
    # in the whole-frame finder's order: the tracker takes the first of cards read alike
    cards.sort(key=lambda c: (c.rank, -cv2.contourArea(c.corners)))
    return Detection(tuple(cards), changed)


def _box_of(corners: np.ndarray) -> Box:
    x0, y0 = np.floor(corners.min(axis=0)).astype(int)
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 1
    return int(x0), int(y0), int(x1), int(y1)


def _grown(box: Box, by: int, w: int, h: int) -> Box:
    return max(0, box[0] - by), max(0, box[1] - by), min(w, box[2] + by), min(h, box[3] + by)


def _holds(a: Box, b: Box) -> bool:
    return a[0] <= b[0] and a[1] <= b[1] and a[2] >= b[2] and a[3] >= b[3]


def _touch(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _merged(boxes: list[Box]) -> list[Box]:
    """The boxes with every overlapping pair replaced by the box around both, sorted."""
    boxes = list(boxes)
    merged = True
    while merged:
        merged = False
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                if _touch(boxes[i], boxes[j]):
                    a, b = boxes[i], boxes.pop(j)
                    boxes[i] = min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])
                    merged = True
                    break
            if merged:
                break
    return sorted(set(boxes))
