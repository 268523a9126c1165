"""numpy steps that give the same numbers for fewer instructions, where numpy's way runs
its inner loop once per pixel or point: a strided copy of a picture's pixels (their
channels are the innermost axis, three or so values long) and a 2-vector broadcast over
n x 2 points. Each keeps the layout of the plain step's result, so what is computed from
it after (a BLAS product among them) is the same bit for bit
(tests/test_vision_arrays.py)."""
from __future__ import annotations

import numpy as np


def every_nth(image: np.ndarray, step: int) -> np.ndarray:
    """`np.ascontiguousarray(image[::step, ::step])` of an h x w x c picture, copied a pixel
    (c values) at a time where each row's pixels lie side by side (numpy copies the
    strided view c values at a time: ~35 instructions a pixel)."""
    if image.ndim == 3 and image.shape[0] and image.shape[1] and image.shape[2] and \
            image.strides[2] == image.itemsize and image.strides[1] == image.shape[2] * image.itemsize:
        pixels = image.view(np.dtype((np.void, image.shape[2] * image.itemsize)))[::step, ::step]
        return np.ascontiguousarray(pixels).view(image.dtype).reshape(pixels.shape[0], pixels.shape[1],
                                                                        image.shape[2])
    return np.ascontiguousarray(image[::step, ::step])


def less(points: np.ndarray, a: np.ndarray) -> np.ndarray:
    """`points - a` for n x 2 float32 points and a float32 point: each pair taken as one
    complex number, so that numpy subtracts a point in one step (broadcasting a 2-vector
    over n x 2 rows runs numpy's inner loop once a row: ~35 instructions each, and a
    corner refit looks at ~1,000 points a side). The same floats in the same layout: a
    complex difference is its parts' differences."""
    if points.dtype == np.float32 and a.dtype == np.float32 and a.shape == (2,) and points.ndim == 2 and \
            points.shape[1] == 2 and points.flags.c_contiguous:
        return (points.view(np.complex64) - np.complex64(complex(float(a[0]), float(a[1])))).view(np.float32)
    return points - a


def moved(points: np.ndarray, dx: int, dy: int) -> np.ndarray:
    """n x 2 float32 points moved by whole pixels (dx, dy) in place, a point a step (as
    `less`); whole-pixel points and moves far below 2**24 give the float32 of the int32
    sums."""
    if points.dtype == np.float32 and points.ndim == 2 and points.shape[1] == 2 and points.flags.c_contiguous:
        points.view(np.complex64)[:] += np.complex64(complex(dx, dy))
    else:
        points += np.float32((dx, dy))
    return points
