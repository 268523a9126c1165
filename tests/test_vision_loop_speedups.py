"""The quicker code of the camera loop's changed frame gives the answers of the plain code
it replaced (kept here as it was), on inputs where the two could part: noise around the
threshold, a lone changed pixel, strided cuts of a larger frame, grey and colour; outlines
a pixel or two apart, turned, at every size and place. Bit for bit where it promises it."""
import cv2
import numpy as np

from test_vision_reading_speedups import plain_order_corners
from vision.detect import (FRAME_AGREES, _by_frame, _grow, _max_corner_skew, _move_sides, _outer_frame,
                           _side_samples, median_level)
from vision.reuse import unchanged
from vision.warp import along_and_across, length_of, order_corners, side_lengths


def plain_unchanged(then, now, difference=10):
    if then.shape != now.shape or then.size == 0:
        return False
    diff = cv2.absdiff(then, now)
    if diff.ndim == 3:
        diff = diff.max(axis=2)
    return float(cv2.blur(diff, (5, 5)).max()) <= difference


def test_unchanged_answers_as_the_plain_code():
    rng = np.random.default_rng(12)
    frame = rng.integers(0, 256, (120, 160, 3)).astype(np.uint8)
    answers = set()
    for i in range(300):
        spread = int(rng.integers(1, 40))
        noisy = np.clip(frame.astype(np.int16) + rng.integers(-spread, spread + 1, frame.shape), 0, 255
                        ).astype(np.uint8)
        if i % 3 == 0:   # one pixel changed a lot on a still picture: over the bar, its blur under
            noisy = frame.copy()
            noisy[int(rng.integers(120)), int(rng.integers(160)), int(rng.integers(3))] ^= 0x80
        y, x = int(rng.integers(0, 60)), int(rng.integers(0, 80))
        then, now = frame[y:y + 50, x:x + 70], noisy[y:y + 50, x:x + 70]   # a card's box, strided
        for a, b in ((then, now), (cv2.cvtColor(then, cv2.COLOR_BGR2GRAY), cv2.cvtColor(now, cv2.COLOR_BGR2GRAY))):
            expected = plain_unchanged(a, b)
            assert unchanged(a, b) == expected
            answers.add(expected)
    assert answers == {True, False}


def test_median_level_is_numpys_median():
    rng = np.random.default_rng(3)
    for _ in range(300):
        top = int(rng.integers(1, 257))
        picture = rng.integers(0, top, (int(rng.integers(1, 60)), int(rng.integers(1, 60)))).astype(np.uint8)
        for part in (picture, picture[::4, ::4], picture[1::3, ::2]):
            if part.size:
                assert median_level(part) == float(np.median(part))
    assert np.isnan(median_level(np.zeros((0, 5), np.uint8)))


def plain_by_frame(quad, framed):
    gaps = [min(float(np.linalg.norm(quad - np.roll(f, k, axis=0), axis=1).mean()) for k in range(4))
            for f in framed]
    best = int(np.argmin(gaps))
    if gaps[best] < FRAME_AGREES * side_lengths(quad)[0]:
        return order_corners(framed[best])
    return quad


def plain_outer_frame(quad, thick, insets):
    short = side_lengths(quad)[0]
    h, w = thick.shape
    for inset in insets:
        grow = inset * short / (1 - 2 * inset)
        grown = _move_sides(quad, [grow] * 4)
        hits, total = 0, 0
        for _, points, _ in _side_samples(grown):
            xs = np.clip(np.round(points[:, 0]).astype(int), 0, w - 1)
            ys = np.clip(np.round(points[:, 1]).astype(int), 0, h - 1)
            inside = (points[:, 0] >= 0) & (points[:, 0] < w) & (points[:, 1] >= 0) & (points[:, 1] < h)
            hits += int(np.count_nonzero(thick[ys, xs][inside]))
            total += len(points)
        if hits >= 0.7 * total:
            return grown
    return quad


def _quads(rng, n):
    """Card-like quads (TL, TR, BR, BL) of random size, place and turn, a few px off true."""
    out = []
    for _ in range(n):
        w, angle = rng.uniform(25, 120), rng.uniform(0, np.pi)
        c, s = np.cos(angle), np.sin(angle)
        box = np.array([[-w, -1.4 * w], [w, -1.4 * w], [w, 1.4 * w], [-w, 1.4 * w]]) / 2
        quad = box @ np.array([[c, s], [-s, c]]) + rng.uniform(0, 640, 2) + rng.normal(0, 1.5, (4, 2))
        out.append(order_corners(quad.astype(np.float32)))
    return out


def test_the_frames_outline_is_chosen_as_by_the_plain_code():
    rng = np.random.default_rng(5)
    chosen = 0
    for _ in range(400):
        quad = _quads(rng, 1)[0]
        framed = _quads(rng, int(rng.integers(1, 9)))
        if rng.random() < 0.7:   # one frame inside this card: its outline a pixel or two off, turned
            framed.insert(int(rng.integers(len(framed) + 1)),
                          np.roll(quad + rng.normal(0, 2.0, (4, 2)).astype(np.float32), int(rng.integers(4)), axis=0))
        expected, got = plain_by_frame(quad, framed), _by_frame(quad, framed)
        assert got.dtype == expected.dtype and np.array_equal(got, expected)
        chosen += got is not quad
    assert 100 < chosen < 400


def test_a_printed_frames_card_edge_is_found_as_by_the_plain_code():
    rng = np.random.default_rng(6)
    grown_found = 0
    for quad in _quads(rng, 300):
        thick = np.zeros((480, 640), np.uint8)
        # edges at the card's edge a frame's width out (sometimes), noise elsewhere
        edge = _move_sides(quad, [float(rng.uniform(2, 12))] * 4)
        cv2.polylines(thick, [np.round(edge).astype(np.int32)], True, 255, int(rng.integers(1, 4)))
        thick[rng.random(thick.shape) < rng.uniform(0, 0.3)] = 255
        insets = tuple(sorted(rng.uniform(0.02, 0.12, int(rng.integers(1, 3)))))
        expected, got = plain_outer_frame(quad, thick, insets), _outer_frame(quad, thick, insets)
        assert np.array_equal(got, expected)
        grown_found += got is not quad
    assert 30 < grown_found < 300


def plain_max_corner_skew(quad):
    worst = 0.0
    for i in range(4):
        u = quad[i - 1] - quad[i]
        v = quad[(i + 1) % 4] - quad[i]
        cos = float(u @ v) / (float(np.linalg.norm(u) * np.linalg.norm(v)) + 1e-9)
        worst = max(worst, abs(90.0 - np.degrees(np.arccos(np.clip(cos, -1, 1)))))
    return worst


def plain_grow(quad, pixels):
    centre = quad.mean(axis=0)
    offsets = quad - centre
    norms = np.linalg.norm(offsets, axis=1, keepdims=True)
    return (quad + offsets / np.maximum(norms, 1e-6) * pixels * 1.41).astype(np.float32)


def plain_along_and_across(points, a, b):
    direction = b - a
    length = float(np.linalg.norm(direction))
    u = direction / max(length, 1e-6)
    rel = points - a
    return length, u, rel @ u, rel[:, 0] * u[1] - rel[:, 1] * u[0]


def test_the_fits_lengths_are_np_linalg_norms_bit_for_bit():
    """`length_of` and the fits' arithmetic without np.linalg.norm (its argument handling
    cost ~3 us a call, ~70 calls a changed frame): the same floats, degenerate quads too."""
    rng = np.random.default_rng(31)
    quads = _quads(rng, 300) + [np.float32([[5, 5], [5, 5], [9, 9], [1, 9]]),
                                np.zeros((4, 2), np.float32)]
    for quad in quads:
        for i in range(4):
            side = quad[(i + 1) % 4] - quad[i]
            assert length_of(side) == np.linalg.norm(side)
            assert type(length_of(side)) is type(np.linalg.norm(side))
        skew, plain = _max_corner_skew(quad), plain_max_corner_skew(quad)
        assert skew == plain or (np.isnan(skew) and np.isnan(plain))
        np.testing.assert_array_equal(_grow(quad, 1.5), plain_grow(quad, 1.5))
        np.testing.assert_array_equal(order_corners(quad), plain_order_corners(quad))
        points = (rng.random((200, 2)) * 640).astype(np.float32)
        for got, want in zip(along_and_across(points, quad[0], quad[1]),
                             plain_along_and_across(points, quad[0], quad[1])):
            np.testing.assert_array_equal(got, want)
    wide = (rng.standard_normal((50, 3)) * 100).astype(np.float32)[:, ::2]     # strided
    for row in wide:
        assert length_of(row) == np.linalg.norm(row)


def plain_side_samples(quad, step=2.0):
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        length = float(np.linalg.norm(b - a))
        u = (b - a) / max(length, 1e-6)
        t = np.linspace(0.1, 0.9, max(4, int(0.8 * length / step)))
        yield i, a + np.outer(t, b - a), np.array([u[1], -u[0]], np.float32)


def test_side_samples_are_the_plain_codes():
    rng = np.random.default_rng(32)
    for quad in _quads(rng, 200) + [np.zeros((4, 2), np.float32)]:
        for step in (1.0, 2.0):
            for (i, got, normal), (j, want, plain_normal) in zip(_side_samples(quad, step),
                                                                 plain_side_samples(quad, step), strict=True):
                assert i == j and got.dtype == want.dtype
                np.testing.assert_array_equal(got, want)
                np.testing.assert_array_equal(normal, plain_normal)
