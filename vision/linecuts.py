"""Straight lines across an outline: a card lying over another (a fan), shifted
sideways, whose outlines merge into one shape of about a card's: the outline cut along a
straight edge running right across it, leaving a piece more like a card than the
outline (the top card) and the strip that shows of the other (`cut_over`). The outline
is warped to a small square and every straight line from one side to the other counted
for its edge pixels (`_line_table`, `_line_runs`, `_best_line`).
"""
from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from vision.quadgates import shape_ok, skew, unlike_card
from vision.realsettings import RealSettings
from vision.warp import order_corners


_N = 64   # pixels of the square an outline is looked at in for a straight edge across it


@lru_cache(maxsize=4)
def _line_table(least: float, tilt: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For every line from the top row to the bottom row of an N x N picture (starting
    `least` of N from either side, its end shifted at most `tilt` of N): the flat indexes
    of every other row's pixel on it, and where each line starts and ends."""
    starts = np.arange(int(least * _N), int((1 - least) * _N))
    shifts = np.arange(-int(tilt * _N), int(tilt * _N) + 1)
    rows = np.arange(3, _N - 3)
    xs = starts[:, None, None] + shifts[None, :, None] * (rows / (_N - 1))[None, None, :]
    xs = np.clip(np.round(xs), 0, _N - 1).astype(np.int32)
    table = (rows * _N)[None, None, :] + xs
    ends = np.broadcast_to(starts[:, None] + shifts[None, :], table.shape[:2])
    return table.reshape(-1, len(rows)), np.repeat(starts, len(shifts)), ends.ravel()


@lru_cache(maxsize=4)
def _line_runs(least: float, tilt: float) -> tuple[np.ndarray, ...] | None:
    """`_line_table`'s lines as runs of rows: with the shipped settings a line from start
    column s with shift d crosses row r at s + o(d, r) for every s (d r / (N - 1) is never
    a half, and no line reaches the picture's side: checked here, not assumed); the rows
    where o(d, r) stays the same make a run.
    For each run, the flat indexes (in `_best_line`'s running counts, N - 5 rows of N)
    of the counts after its last row and before its first, at every start column (runs x
    starts), and where each shift's runs begin; None when some line's columns are not
    its start's plus an offset shared by every start (then `_best_line` gathers every
    pixel)."""
    table, starts, _ = _line_table(least, tilt)
    rows = np.arange(3, _N - 3)
    shifts = len(table) // len(np.unique(starts))
    columns = (table - rows * _N).reshape(-1, shifts, len(rows))        # starts x shifts x rows
    offsets = columns - starts.reshape(-1, shifts)[:, :, None]
    if not (offsets == offsets[:1]).all():
        return None
    first, after, offset, begins = [], [], [], []
    for d in range(shifts):
        o = offsets[0, d]
        cuts = [0] + (np.flatnonzero(np.diff(o)) + 1).tolist() + [len(rows)]
        begins.append(len(first))
        for r0, r1 in zip(cuts[:-1], cuts[1:]):
            first.append(r0)
            after.append(r1)
            offset.append(int(o[r0]))
    at = np.unique(starts)[None, :] + np.array(offset)[:, None]
    return (np.array(after)[:, None] * _N + at, np.array(first)[:, None] * _N + at, np.array(begins))


def _best_line(warped: np.ndarray, settings: RealSettings) -> tuple[float, int, int]:
    """The best-edged straight line from the top row to the bottom row of `warped`
    (N x N): its share edged, and where it starts and ends (columns). Each line's
    pixels are counted a run of rows at a time, from the columns' running counts (the
    counts of gathering every line's every pixel, tests/realfind_reference.py)."""
    table, starts, ends = _line_table(settings.cut_least, settings.cut_tilt)
    runs = _line_runs(settings.cut_least, settings.cut_tilt)
    if runs is None:
        hits = np.count_nonzero(warped.ravel()[table], axis=1)
    else:
        after, before, begins = runs
        # counted[r, x]: the edge pixels of column x in rows 3 .. 3 + r - 1 (from the integral)
        summed = cv2.integral((warped[3:_N - 3] != 0).view(np.uint8))
        counted = (summed[:, 1:] - summed[:, :-1]).ravel()
        by_run = (counted.take(after) - counted.take(before))   # runs x starts
        hits = np.add.reduceat(by_run, begins, axis=0).T.ravel()   # (start, shift), as the table
    best = int(np.argmax(hits))
    return hits[best] / table.shape[1], int(starts[best]), int(ends[best])


def cut_over(quad: np.ndarray, edges: np.ndarray, gray: np.ndarray, settings: RealSettings) -> list[np.ndarray]:
    """The outline, or the two pieces it falls into along a straight edge running right
    across it: a card lying over another, shifted sideways, whose outlines merge into one
    shape of about a card's (the top card, and what shows of the other). A court card's
    printed frame is such an edge too, but too near a side (`cut_least`), and cutting a
    single card along it leaves a piece less like a card than the card (`cut_better`).
    The edge of a white card over a white card is faint: where the frame's edges give no
    cut, Canny's at `cut_canny` on the outline's box are tried, the fainter after."""
    pieces = _cut_along(quad, edges, settings)
    if len(pieces) == 1 and settings.cut_canny and unlike_card(quad) > settings.cut_better:
        x, y, w, h = cv2.boundingRect(np.round(quad).astype(np.int32))
        x0, y0 = max(x - 2, 0), max(y - 2, 0)
        roi = gray[y0:y + h + 2, x0:x + w + 2]
        offset = np.float32((x0, y0))
        for low in settings.cut_canny:
            faint = cv2.dilate(cv2.Canny(roi, low, 3 * low, L2gradient=True), np.ones((3, 3), np.uint8))
            pieces = [p + offset for p in _cut_along(quad - offset, faint, settings)]
            if len(pieces) > 1:
                break
    return pieces


def _cut_along(quad: np.ndarray, edges: np.ndarray, settings: RealSettings) -> list[np.ndarray]:
    """`cut_over` with one edge map."""
    if unlike_card(quad) <= settings.cut_better:  # (no piece could be more like a card)
        return [quad]
    corners = order_corners(quad)
    square = np.array(((0, 0), (_N - 1, 0), (_N - 1, _N - 1), (0, _N - 1)), np.float32)
    to_square = cv2.getPerspectiveTransform(corners, square)
    warped = cv2.warpPerspective(edges, to_square, (_N, _N), flags=cv2.INTER_LINEAR)
    back = np.linalg.inv(to_square)
    m = _N - 1
    (cover, a, b), turn = max((_best_line(warped, settings), False), (_best_line(warped.T, settings), True),
                              key=lambda line: line[0][0])
    if cover < settings.cut_cover:
        return [quad]
    pieces = []
    for piece in (((0, 0), (a, 0), (b, m), (0, m)), ((a, 0), (m, 0), (m, m), (b, m))):
        pts = np.array(piece, np.float32)[:, ::-1] if turn else np.array(piece, np.float32)
        pieces.append(cv2.perspectiveTransform(np.ascontiguousarray(pts).reshape(-1, 1, 2), back).reshape(4, 2))
    card, rest = pieces if cv2.contourArea(pieces[0]) >= cv2.contourArea(pieces[1]) else pieces[::-1]
    if not shape_ok(card, settings) or max(skew(card), skew(rest)) > settings.cut_skew or \
            unlike_card(card) + settings.cut_better >= unlike_card(quad):
        return [quad]
    return [card, rest]
