"""Whole-card outlines from an outline of part of a card (pure geometry).

On real photographs many outlines the finder gives hold only part of a card: a strip
(the card cut where the court picture or a shadow begins), a card cut along a diagonal
(one side of the outline runs across the face), or a card with one corner pulled out
onto the table. A taught deck's reader reads most of those "unknown": the corner index
is cut off or not where it should be. Knowing the deck's card aspect, such an outline
can be completed to a whole card in a few ways (`completions`); the reader reads each
and keeps a sure answer (`vision.pipeline.Recognizer`).

* **A strip** (its long / short side ratio more than STRIP_OFF from the deck's aspect):
  a strip too long for a card is a card whose width was cut, widened to the aspect on
  either side; one too short was cut across its length, lengthened either way (or, as
  its short sides may be the cut ones, widened either way).
* **A corner whose two sides have the card's aspect** (within CORNER_ASPECT) and meet at
  about a right angle: the parallelogram on those two sides is the card, when its far
  corner lies clearly away from the outline's.
* **One whole side at a right-angled corner** (a card cut along a diagonal, or where a
  shadow crosses it at a slant): either side of the corner taken as the card's whole
  short or long side, the other side grown to the card's length for it.

Outlines within SAME of another one are given once, and at most MOST (the first ones in
the order above: each is read, and a card read "unknown" should not cost a frame).

A completion is read only where a corner showing the corner index is one the outline
had too (`seen_corner`). Nothing here reads a card or finds one.
"""
from __future__ import annotations

import math

import numpy as np

from vision.warp import order_corners, order_corners_of

STRIP_OFF = 0.1        # a side ratio this far from the deck's aspect (a share of it) is a strip
CORNER_ASPECT = 0.12   # a corner's two sides this near the aspect (a share of it) may be the card's
CORNER_ANGLE = 15.0    # degrees from a right angle a card's corner may look (mild perspective)
CORNER_MOVE = 0.08     # the completed far corner must lie this far (shares of the short side)
                       # from the outline's, else the outline is already the card
GROW = 1.1             # a side taken as partial is grown by this factor at least
SAME = 0.08            # outlines whose corners are all this near (shares of the short side) are one
MOST = 6               # whole-card outlines given at most
# A completed outline is read from its corner index only when a corner showing the glyph
# lies within this share of its short side of a corner of the outline it completes: a
# corner the finder saw, not one the completion drew. A glyph at a drawn corner was the
# table's texture or a wire mesh read as an index (train_ photos, 2 photos a rank, 3
# draws: the glyphs of the completions read right lie 0-0.36 of the short side from a
# seen corner, or one of two glyphs does; three of the twelve read wrong 0.42-0.58 with
# no other glyph).
SEEN = 0.4


def completions(corners: np.ndarray, aspect: float) -> list[np.ndarray]:
    """Whole-card outlines (TL, TR, BR, BL, float32) that the outline `corners` may be
    part of, for a deck of cards `aspect` (long / short) in shape. An outline of a card's
    shape may be part of a larger card too (a card cut across where the part left has the
    card's shape turned a quarter): it gets only outlines that hold it."""
    quad = order_corners(corners)
    right = list(_right_corners(quad))
    drawn = _strips(quad, aspect) + _from_corners(quad, aspect, right) + _from_whole_sides(quad, aspect, right)
    if not drawn:
        return []
    wholes = order_corners_of(np.stack(drawn))   # each put in order as `order_corners` does
    step = wholes[:, [1, 3]] - wholes[:, [0, 0]]
    shorts = np.minimum(np.hypot(step[:, 0, 0], step[:, 0, 1]), np.hypot(step[:, 1, 0], step[:, 1, 1]))
    # the outlines kept so far, in one array (np.stack of them, without a stack a candidate)
    kept = np.empty((MOST, 8), np.float32)
    out: list[np.ndarray] = []
    for whole, short in zip(wholes, shorts.tolist()):
        flat = whole.reshape(8)
        if not out or not (np.abs(kept[:len(out)] - flat).max(axis=1) < SAME * short).any():
            kept[len(out)] = flat
            out.append(whole)
            if len(out) == MOST:
                break
    return out


def seen_corner(whole: np.ndarray, outline: np.ndarray, glyph_corners: list[int]) -> bool:
    """Whether any of the completed outline `whole`'s corners `glyph_corners` (indices,
    TL TR BR BL: those whose index region shows a glyph) lies within SEEN of its short
    side of a corner of `outline`, the outline it completes."""
    if not glyph_corners:
        return False
    short = min(_length(whole[1] - whole[0]), _length(whole[3] - whole[0]))
    near = np.hypot(*(whole[glyph_corners, None, :] - outline[None, :, :]).transpose(2, 0, 1)).min(axis=1)
    return bool((near <= SEEN * short).any())


def _strips(quad: np.ndarray, aspect: float) -> list[np.ndarray]:
    width = (_length(quad[1] - quad[0]) + _length(quad[2] - quad[3])) / 2
    height = (_length(quad[3] - quad[0]) + _length(quad[2] - quad[1])) / 2
    ratio = height / max(width, 1e-6)
    if ratio > aspect * (1 + STRIP_OFF):        # too long: the width was cut
        return _both_ways(quad, (0, 3), (1, 2), height / aspect / width)
    if ratio < aspect * (1 - STRIP_OFF):        # too short: cut across its length ...
        return (_both_ways(quad, (0, 1), (3, 2), width * aspect / height)
                # ... or the sides the outline has as short are the cut ones
                + _both_ways(quad, (0, 3), (1, 2), height * aspect / width))
    return []


def _both_ways(quad: np.ndarray, one: tuple[int, int], other: tuple[int, int], factor: float) -> list[np.ndarray]:
    """The outline stretched by `factor` across the sides from corners `one` to corners
    `other`: once keeping `one` where they are, once keeping `other` (not yet in order)."""
    out = []
    for fixed, moved in ((one, other), (other, one)):
        grown = quad.copy()
        for f, m in zip(fixed, moved):
            grown[m] = quad[f] + (quad[m] - quad[f]) * factor
        out.append(grown)
    return out


def _right_corners(quad: np.ndarray):
    """(index, corner, side to the corner before, its length, side to the one after, its
    length) of the outline's corners that may be a card's."""
    for i in range(4):
        before, corner, after = quad[i - 1], quad[i], quad[(i + 1) % 4]
        u, v = before - corner, after - corner
        lu, lv = _length(u), _length(v)
        if min(lu, lv) < 1.0:
            continue
        angle = math.degrees(math.acos(min(max(float(u @ v) / (lu * lv), -1.0), 1.0)))
        if abs(angle - 90.0) <= CORNER_ANGLE:
            yield i, corner, u, lu, v, lv


def _from_corners(quad: np.ndarray, aspect: float, right: list) -> list[np.ndarray]:
    out = []
    for i, corner, u, lu, v, lv in right:
        if abs(max(lu, lv) / min(lu, lv) / aspect - 1) > CORNER_ASPECT:
            continue
        far = corner + u + v
        if _length(far - quad[(i + 2) % 4]) < CORNER_MOVE * min(lu, lv):
            continue
        whole = quad.copy()
        whole[(i + 2) % 4] = far
        out.append(whole)
    return out


def _from_whole_sides(quad: np.ndarray, aspect: float, right: list) -> list[np.ndarray]:
    out = []
    for _, corner, u, lu, v, lv in right:
        for whole_side, length, partial, partial_length in ((u, lu, v, lv), (v, lv, u, lu)):
            for wanted in (length * aspect, length / aspect):   # the card's short side, its long one
                if wanted < GROW * partial_length:
                    continue
                grown = partial * (wanted / partial_length)
                out.append(np.float32([corner, corner + whole_side, corner + whole_side + grown, corner + grown]))
    return out


def _length(v: np.ndarray) -> float:
    return float(np.hypot(v[0], v[1]))
