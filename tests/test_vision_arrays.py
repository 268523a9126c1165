"""`vision.arrays`: numpy steps for less, held to the plain steps bit for bit (session 17)."""
from __future__ import annotations

import numpy as np

from vision.arrays import every_nth, less, moved
from vision.warp import along_and_across, length_of


def test_every_nth_is_the_strided_copy():
    """Pictures of every dtype the finder and reader sample, sizes down to one pixel, views
    whose rows are not whole (a slice, a turn) and pictures of one channel."""
    rng = np.random.default_rng(11)
    for n in range(400):
        dtype = (np.uint8, np.float32, np.float64, np.int16)[n % 4]
        shape = (int(rng.integers(1, 50)), int(rng.integers(1, 50)), int(rng.choice((1, 2, 3, 4))))
        picture = (rng.uniform(-5, 300, shape)).astype(dtype)
        for view in (picture, picture[1:, 2:], picture[:, ::-1], picture[::2], picture[:, :, :2],
                     np.asfortranarray(picture)):
            for step in (1, 2, 3, 4):
                quick, plain = every_nth(view, step), np.ascontiguousarray(view[::step, ::step])
                assert quick.dtype == plain.dtype and quick.shape == plain.shape
                assert quick.flags.c_contiguous and np.array_equal(quick, plain)
    flat = np.zeros((0, 5, 3), np.uint8)
    assert every_nth(flat, 3).shape == (0, 2, 3)


def test_less_is_the_plain_difference_and_a_side_the_same():
    """`less` gives `points - a` to the bit, and `along_and_across` (whose `rel @ u` is a
    BLAS product, its bits resting on the layout) the plain steps' numbers, on point sets
    of every count a refit sees and odd ones (none, one, whole pixels, a side of length 0)."""
    rng = np.random.default_rng(12)
    for n in list(range(0, 33)) + [255, 256, 257, 999, 1000, 1001, 1684, 4097]:
        for k in range(6):
            points = (rng.uniform(-60, 700, (n, 2)) * rng.choice((1.0, 1e-3, 1e3))).astype(np.float32)
            if k % 2:
                points = np.round(points)
            a = rng.uniform(-60, 700, 2).astype(np.float32)
            b = a.copy() if k == 5 else rng.uniform(-60, 700, 2).astype(np.float32)
            assert np.array_equal(less(points, a), points - a)
            length, u, along, across = along_and_across(points, a, b)
            direction = b - a
            plain_length = float(length_of(direction))
            plain_u = direction / max(plain_length, 1e-6)
            rel = points - a
            assert length == plain_length and np.array_equal(u, plain_u)
            assert along.dtype == (rel @ plain_u).dtype and np.array_equal(along, rel @ plain_u)
            assert np.array_equal(across, rel[:, 0] * plain_u[1] - rel[:, 1] * plain_u[0])
    doubles = rng.uniform(0, 9, (7, 2))
    assert np.array_equal(less(doubles, np.float32((1, 2))), doubles - np.float32((1, 2)))


def test_moved_whole_pixels_are_the_int32_sums():
    rng = np.random.default_rng(13)
    for n in (0, 1, 2, 1000, 3001):
        found = rng.integers(0, 2000, (n, 1, 2)).astype(np.int32)
        dx, dy = (int(v) for v in rng.integers(0, 2000, 2))
        quick = moved(found.reshape(-1, 2).astype(np.float32), dx, dy)
        assert quick.dtype == np.float32 and np.array_equal(quick, (found.reshape(-1, 2) + np.int32((dx, dy))).astype(np.float32))
