"""The simulated table: frames drawn by a callable `render(index) -> image` (the
appliance passes the vision renderer's picture of the bots' game), at a frame rate or
as fast as possible. `plain_table` is a stand-in picture (green felt) for when nothing
better is given.
"""
from __future__ import annotations

import time
from typing import Callable, Iterator

import cv2
import numpy as np

from device.camera.base import Frame, Pacer, to_bgr

Renderer = Callable[[int], np.ndarray]


MAT = (0.08, 0.06, 0.84, 0.88)   # where plain_table's mat lies (x, y, w, h), normalized


def plain_table(size: tuple[int, int] = (640, 480)) -> Renderer:
    """An empty green mat on a wooden table, the frame number in a corner."""
    width, height = size
    felt = np.zeros((height, width, 3), np.uint8)
    felt[:] = (45, 80, 120)   # wood
    x, y, w, h = MAT
    felt[round(y * height):round((y + h) * height), round(x * width):round((x + w) * width)] = (40, 110, 30)

    def render(index: int) -> np.ndarray:
        image = felt.copy()
        cv2.putText(image, f"sim {index}", (10, height - 12), cv2.FONT_HERSHEY_SIMPLEX, 0.5,
                    (200, 220, 200), 1, cv2.LINE_AA)
        return image

    return render


class SimSource:
    def __init__(self, render: Renderer | None = None, size: tuple[int, int] = (640, 480),
                 fps: float | None = 30.0, *, realtime: bool = True, limit: int | None = None,
                 monotonic_ns: Callable[[], int] = time.monotonic_ns):
        self.size = (int(size[0]), int(size[1]))
        self.name = "sim"
        self._render = render or plain_table(self.size)
        self._pacer = Pacer(fps if realtime else None)
        self._limit = limit
        self._monotonic_ns = monotonic_ns
        self._closed = False

    def frames(self) -> Iterator[Frame]:
        index = 0
        while not self._closed and (self._limit is None or index < self._limit):
            self._pacer.wait()
            image = self._render(index)
            yield Frame(to_bgr(np.asarray(image), self.size), self._monotonic_ns(), index)
            index += 1

    def close(self) -> None:
        self._closed = True
