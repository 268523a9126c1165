"""A card cut by the photo's border, its length told by its white frame's width.

A taught deck whose faces print a white frame (`DeckProfile.white_frame`) prints it a
known share of the card wide: at the card's short ends a share of its length, along its
long sides a share of its width (`taught_frame_widths`, measured on the taught faces,
warped upright: a share of the face is the same whatever the view). A card running off
the photo's edge shows its whole end opposite the border; the frame there, measured in
the photo along the card's sides (`frame_depth`: the rise from the table to the paper,
then the fall from the paper to the colour field, across lines from the end inwards),
is a known share of the card's length. Flat, the card's length would be that width over
the share; seen at a slant, the card's two sides converge, and along a side the card's
plane maps to the photo projectively: from the end (0), the frame's inner edge (its
share) and the sides' vanishing point (infinitely far), the card's far end (1) is where
the side reaches 1 (`grown_by_frame`). No card shape and no focal length is assumed.

Measured on `bench/protocols.py --stress edge` (see docs/vision-history.md): the length so told
lies within 8 % of the true card's on 29 of 48 outlines along the border (median 6 %,
mostly short), against 17 for the flat growth to the deck's true shape. Geometry and a
few hundred pixels sampled; nothing here reads a card.

The length told is a card's only when the outline grown to it keeps a card's shape in a
photo: no longer than LONGEST times its width (a card 1.6 long seen 66 degrees from
overhead, tilted about its length). A white label on a book's spine along the border
(glare seed 130, protocol 2) showed a thin "frame" with its sides converging, and the
length so told was 5.3 widths: read as a Red Reverse at 0.89 on a bare table. The
longest true card so grown on the session-13 stress sets: 2.5 (--stress edge, protocol
2, a Blue 6 seen steeply; the finder's own side-ratio gate, 2.3, would lose it).
"""
from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

from vision.warp import order_corners

STEP = 0.25            # pixels between the points sampled along a line
LONGEST = 4.0          # the grown outline's long sides over its short ones at most
OUTSIDE = 6.0          # a line starts this many pixels outside the card's edge
EDGE_NEAR = (-5.0, 4.0)  # the table-to-paper rise looked for this near the edge (pixels)
FALL = 0.5             # the paper-to-field fall: the first dip at least this share of the deepest
REACH = 0.12           # the field's edge looked for within this share of the whole side
LINES = 25             # lines across the end (its middle, ACROSS)
ACROSS = (0.2, 0.8)    # the stretch of an edge the lines start from (the corner index left out)
FACE_REACH = 0.2       # on a taught face: the frame looked for this share of its side in


def frame_depth(image: np.ndarray, p0: np.ndarray, p1: np.ndarray, inward: np.ndarray,
                reach: float, lines: int = LINES, across: tuple[float, float] = ACROSS,
                border: int = cv2.BORDER_REPLICATE) -> float:
    """The median width (pixels) of the white frame along the edge from `p0` to `p1` of
    `image` (BGR), measured along the unit direction `inward` across `lines` lines
    starting on the stretch `across` of the edge: from the table-to-paper rise near the
    edge to the first clear paper-to-field fall within `reach` pixels. NaN when no
    line shows both. Outside the image the lines read its edge's pixels (`border`), or
    black for a face cut at the card's edge (the rise then at the face's border)."""
    s = np.arange(-OUTSIDE, reach, STEP, dtype=np.float32)
    t = np.linspace(across[0], across[1], lines, dtype=np.float32)
    starts = p0[None, :] + t[:, None] * (p1 - p0)[None, :]
    xs = (starts[:, 0:1] + s[None, :] * inward[0]).astype(np.float32)
    ys = (starts[:, 1:2] + s[None, :] * inward[1]).astype(np.float32)
    sampled = cv2.remap(image, xs, ys, cv2.INTER_LINEAR, borderMode=border, borderValue=0)
    least = sampled.min(axis=2).astype(np.float32) if sampled.ndim == 3 else sampled.astype(np.float32)
    least = cv2.GaussianBlur(least, (5, 1), 0)
    grad = np.gradient(least, axis=1)
    near = (s > EDGE_NEAR[0]) & (s < EDGE_NEAR[1])
    widths = []
    for g in grad:
        i0 = int(np.argmax(np.where(near, g, -np.inf)))
        after = (s > s[i0] + 1.5) & (s < s[i0] + reach * 0.6 + 1.5)
        falls = np.where(after, g, 0.0)
        deepest = float(falls.min())
        if deepest >= 0 or g[i0] <= 0:
            continue
        dips = np.flatnonzero((falls <= FALL * deepest) & (falls <= np.roll(falls, 1)) & (falls <= np.roll(falls, -1)))
        i1 = int(dips[0]) if len(dips) else int(np.argmin(falls))
        widths.append(_peak(g, s, i1) - _peak(g, s, i0))
    return float(np.median(widths)) if widths else float("nan")


def face_frame_widths(face: np.ndarray) -> tuple[float, float]:
    """(end, side): the white frame's width on an upright face (BGR), at its short ends as
    a share of its height and along its long sides as a share of its width (NaN when
    not seen)."""
    h, w = face.shape[:2]
    corners = np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])
    down, right = np.float32([0, 1]), np.float32([1, 0])
    ends = [frame_depth(face, corners[0], corners[1], down, FACE_REACH * h, border=cv2.BORDER_CONSTANT),
            frame_depth(face, corners[3], corners[2], -down, FACE_REACH * h, border=cv2.BORDER_CONSTANT)]
    sides = [frame_depth(face, corners[0], corners[3], right, FACE_REACH * w, border=cv2.BORDER_CONSTANT),
             frame_depth(face, corners[1], corners[2], -right, FACE_REACH * w, border=cv2.BORDER_CONSTANT)]
    return float(np.nanmedian(ends)) / (h - 1) if not np.isnan(ends).all() else float("nan"), \
        float(np.nanmedian(sides)) / (w - 1) if not np.isnan(sides).all() else float("nan")


def taught_frame_widths(faces: Sequence[np.ndarray]) -> tuple[float, ...]:
    """The deck's white frame as its taught faces show it: (end, side), the medians of
    `face_frame_widths`; () when fewer than half the faces show it."""
    measured = np.array([face_frame_widths(face) for face in faces], np.float64).reshape(-1, 2)
    seen = ~np.isnan(measured).any(axis=1)
    if not len(faces) or seen.sum() < 0.5 * len(faces):
        return ()
    return tuple(float(v) for v in np.median(measured[seen], axis=0))


def grown_by_frame(frame: np.ndarray, corners: np.ndarray, side: int,
                   widths: tuple[float, ...]) -> np.ndarray | None:
    """The whole-card outline (TL, TR, BR, BL, float32) of a card whose outline `corners`
    has its side `side` on the frame's border (`vision.offframe.border_side`), its two
    sides to the border grown to the card's length as its frame's width at the whole
    end tells it (`widths`: the deck's (end, side) shares, `taught_frame_widths`); None
    when the frame is not measured there, the length told is no longer than the part
    in view, or the outline so grown is longer than LONGEST of its widths."""
    quad = np.asarray(corners, np.float32).reshape(4, 2)
    a, b, c, d = side, (side + 1) % 4, (side + 2) % 4, (side + 3) % 4   # a-b on the border, c-d whole
    run_a, run_b = quad[a] - quad[d], quad[b] - quad[c]
    la, lb = float(np.hypot(*run_a)), float(np.hypot(*run_b))
    whole = float(np.hypot(*(quad[c] - quad[d])))
    if min(la, lb, whole) < 1.0:
        return None
    inward = run_a / la + run_b / lb
    inward /= max(float(np.hypot(*inward)), 1e-6)
    # the whole end is the card's short one when the part in view is longer than it
    # (as `vision.offframe.grown_past` takes it): its frame is then a share of the length
    share = widths[0] if (la + lb) / 2 >= whole else widths[1]
    depth = frame_depth(frame, quad[d], quad[c], inward, REACH / 0.6 * whole)
    if not np.isfinite(depth) or depth <= 1.0 or not share > 0:
        return None
    end = (quad[c] - quad[d]) / whole
    grown = quad.copy()
    for start, run, length, far in ((quad[d], run_a, la, a), (quad[c], run_b, lb, b)):
        unit = run / length
        # along this side, the frame's inner edge (parallel to the end) lies further off
        # as the side leans from the end's normal more than the direction measured along
        depth_here = depth * _sine(inward, end) / max(_sine(unit, end), 0.5)
        # the sides' vanishing point along this side (1/distance, signed: 0 when parallel)
        other_start, other_run = (quad[c], run_b) if far == a else (quad[d], run_a)
        cross = float(run[0] * other_run[1] - run[1] * other_run[0])
        if abs(cross) < 1e-9:
            inverse = 0.0
        else:
            along = float((other_start - start)[0] * other_run[1] - (other_start - start)[1] * other_run[0]) / cross
            inverse = 1.0 / (along * length)
        denominator = share + depth_here * inverse * (1.0 - share)
        if denominator <= 0:
            return None
        card = depth_here / denominator
        if card <= length:
            return None
        grown[far] = start + unit * card
    sides = np.hypot(*(grown - np.roll(grown, -1, axis=0)).T)
    pairs = (sides[0] + sides[2], sides[1] + sides[3])
    if max(pairs) > LONGEST * min(pairs):
        return None
    return order_corners(grown)


def _sine(u: np.ndarray, v: np.ndarray) -> float:
    """|sin| of the angle between the unit vectors u and v."""
    return abs(float(u[0] * v[1] - u[1] * v[0]))


def _peak(g: np.ndarray, s: np.ndarray, i: int) -> float:
    """The sub-sample position of the extremum of `g` at index `i` (a parabola's)."""
    if 0 < i < len(g) - 1:
        den = float(g[i - 1] - 2 * g[i] + g[i + 1])
        if abs(den) > 1e-9:
            return float(s[i]) + 0.5 * float(g[i - 1] - g[i + 1]) / den * STEP
    return float(s[i])
