"""A fan's top card for less (session 24): the cheaper ways `vision.wholecards` and
`vision.edgequads` take give the same numbers as the plain ones they replaced."""
from __future__ import annotations

import math

import cv2
import numpy as np

from vision import edgequads, wholecards
from vision.realfind import RealSettings, _whole_gates, _whole_gates_of
from vision.warp import order_corners, quad_overlap


def _corners(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Random corners: points and two unit sides each about square, some on a grid (ties)."""
    points = (rng.random((n, 2)) * 300).astype(np.float32)
    angle = rng.random(n) * 2 * np.pi
    other = angle + np.pi / 2 * rng.choice([-1, 1], n) + rng.normal(0, 0.2, n)
    first = np.stack([np.cos(angle), np.sin(angle)], 1).astype(np.float32)
    second = np.stack([np.cos(other), np.sin(other)], 1).astype(np.float32)
    if n % 3 == 0:
        points, first, second = np.round(points / 40) * 40, np.round(first), np.round(second)
    return points, first, second


def _side_quads_plain(points, first, second, ratio, sizes, settings):
    """`edgequads.side_quads` as session 23 wrote it (dot products by `.sum(1)`)."""
    n = len(points)
    if n < 2:
        return np.zeros((0, 4, 2), np.float32)
    cos_par = math.cos(math.radians(settings.parallel))
    i, j = np.triu_indices(n, 1)
    d = points[j] - points[i]
    length = np.hypot(d[:, 0], d[:, 1])
    with np.errstate(divide="ignore", invalid="ignore"):
        u = d / length[:, None]
    ux, uy = u[:, 0], u[:, 1]
    at_b = np.maximum(first[i, 0] * ux + first[i, 1] * uy, second[i, 0] * ux + second[i, 1] * uy) >= cos_par
    at_a = np.minimum(first[j, 0] * ux + first[j, 1] * uy, second[j, 0] * ux + second[j, 1] * uy) <= -cos_par
    keep = np.flatnonzero(at_b & at_a & (length >= sizes[0]) & (length <= sizes[1]))
    i, j, length, u = i[keep], j[keep], length[keep], u[keep]
    out = []
    for ai, bi in ((first, second), (second, first)):
        for cj, ej in ((first, second), (second, first)):
            ok = ((ai[i] * u).sum(1) >= cos_par) & ((cj[j] * -u).sum(1) >= cos_par) & \
                ((bi[i] * ej[j]).sum(1) >= cos_par)
            if not ok.any():
                continue
            v = bi[i][ok] + ej[j][ok]
            v /= np.maximum(np.hypot(v[:, 0], v[:, 1]), 1e-6)[:, None]
            pa, pb, side = points[i][ok], points[j][ok], length[ok][:, None]
            for depth in (side / ratio, side * ratio):
                out.append(np.stack((pa, pb, pb + depth * v, pa + depth * v), axis=1))
    if not out:
        return np.zeros((0, 4, 2), np.float32)
    found = np.concatenate(out).astype(np.float32)
    sides = np.linalg.norm(found - np.roll(found, -1, axis=1), axis=2)
    short = np.minimum(sides[:, 0] + sides[:, 2], sides[:, 1] + sides[:, 3]) / 2
    long = np.maximum(sides[:, 0] + sides[:, 2], sides[:, 1] + sides[:, 3]) / 2
    return found[(short >= sizes[0]) & (long <= sizes[1])]


def test_side_quads_are_the_plain_ones_bit_for_bit():
    rng = np.random.default_rng(24)
    settings = edgequads.QuadSettings()
    total = 0
    for n in list(range(0, 60)) * 5:
        corners = _corners(rng, n)
        sizes = (float(rng.uniform(10, 40)), float(rng.uniform(150, 400)))
        plain = _side_quads_plain(*corners, 1.4, sizes, settings)
        quick = edgequads.side_quads(*corners, 1.4, sizes, settings)
        assert plain.shape == quick.shape and np.array_equal(plain, quick)
        total += len(quick)
    assert total > 1000   # (the draws make many)


def test_quads_ahead_and_sides_as_by_rows():
    """`edgequads.quads`: every quad's corners ahead of each other, and its sides as
    `np.linalg.norm` measures them (the short and long side gates)."""
    rng = np.random.default_rng(7)
    settings = edgequads.QuadSettings()
    for n in range(4, 60):
        points, first, second = _corners(rng, n)
        sizes = (20.0, 300.0)
        with np.errstate(invalid="ignore"):   # (random corners: some sides parallel)
            found = edgequads.quads(points, first, second, sizes, settings)
        for quad in found:
            sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
            assert min(sides[0] + sides[2], sides[1] + sides[3]) / 2 >= sizes[0]
            assert max(sides[0] + sides[2], sides[1] + sides[3]) / 2 <= sizes[1]


def test_the_boxes_apart_leave_out_no_overlapping_outline():
    rng = np.random.default_rng(3)
    square = np.float32(((0, 0), (1, 0), (1, 1), (0, 1)))
    quads = [square * rng.uniform(10, 80) + rng.uniform(0, 200, 2).astype(np.float32) for _ in range(60)]
    kept = quads[:20]
    for quad, meeting in zip(quads, wholecards._meeting(quads, kept)):
        overlapping = [i for i, q in enumerate(kept) if quad_overlap(quad, q) > 0]
        assert set(overlapping) <= set(meeting)
        for i in meeting:
            q32 = np.float32(kept[i])
            assert wholecards._overlap(quad, cv2.contourArea(quad), q32, cv2.contourArea(q32)) == \
                quad_overlap(quad, kept[i])


def test_half_turn_from_known_corners_is_the_same():
    rng = np.random.default_rng(5)
    gray = rng.integers(0, 255, (240, 320), np.uint8)
    quad = np.float32(((40, 30), (150, 42), (140, 190), (35, 175)))
    assert wholecards._half_turn_alike(quad, gray, order_corners(quad)) == wholecards._half_turn_alike(quad, gray)


def test_the_gates_at_once_are_each_ones():
    """`_whole_gates_of` gives each quad `_whole_gates`' share (its side left out), or None."""
    white = np.full((240, 320), 60, np.uint8)
    white[40:200, 60:180] = 230
    edges = cv2.Canny(white, 50, 150)
    settings = RealSettings()
    quads = [np.float32(((60, 40), (179, 40), (179, 199), (60, 199))),     # the card
             np.float32(((62, 41), (178, 43), (176, 198), (61, 196))),     # nearly
             np.float32(((0, 0), (30, 0), (30, 30), (0, 30))),             # too small, cut
             np.float32(((100, 60), (300, 60), (300, 120), (100, 120)))]   # no card's shape
    angles, unlikes, skips = (78.0, 102.0), [0.15, 0.15, 0.15, 0.3], [-1, 2, -1, -1]
    together = _whole_gates_of(quads, angles, unlikes, skips, edges, white, (320, 240), settings)
    each = [_whole_gates(q, angles, u, edges, white, (320, 240), settings, skip_side=s)
            for q, u, s in zip(quads, unlikes, skips)]
    assert together == each
    assert together[0] is not None and together[2] is None
