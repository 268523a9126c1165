"""The camera interface every source implements, the `Frame` it yields, and small
helpers they share (fitting an image to the working size, pacing to a frame rate).

What does not live here: any particular camera (see the sibling modules)."""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Protocol, runtime_checkable

import cv2
import numpy as np


@dataclass(frozen=True, eq=False)
class Frame:
    """One picture: an H x W x 3 uint8 BGR array, when it was captured (monotonic ns,
    the device's one clock) and its number since the source opened (0, 1, 2, ...)."""

    image: np.ndarray
    t_ns: int
    index: int


class CameraProblem(RuntimeError):
    """A camera problem; `said` is it as a code and params for a person (web.messages
    "camera.*"), where it was given; str() is the English for logs."""

    def __init__(self, message: str, code: str = "", **params: Any):
        super().__init__(message)
        self.said = {"code": code, "params": params} if code else None


class SourceError(CameraProblem):
    """The source cannot be opened at all (no such camera, file or folder)."""


class CameraLost(CameraProblem):
    """A working camera stopped delivering (cable pulled, device busy or gone)."""


@runtime_checkable
class FrameSource(Protocol):
    """`name` says what it is ("usb:0", "picamera2 imx708", ...); `size` is (width,
    height) of every frame; `frames()` yields frames until the source ends (replay) or is
    closed, and raises `CameraLost` if the camera goes away; `close()` frees it and may be
    called from another thread and more than once."""

    name: str
    size: tuple[int, int]

    def frames(self) -> Iterator[Frame]: ...

    def close(self) -> None: ...


def to_bgr(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """`image` as a size[0] x size[1] BGR uint8 array (grey and BGRA are converted)."""
    if image.dtype != np.uint8:
        image = np.clip(image, 0, 255).astype(np.uint8)
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    elif image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    height, width = image.shape[:2]
    if (width, height) != tuple(size):
        shrinking = width > size[0] or height > size[1]
        image = cv2.resize(image, tuple(size), interpolation=cv2.INTER_AREA if shrinking else cv2.INTER_LINEAR)
    return np.ascontiguousarray(image)


class Pacer:
    """Sleeps so that successive `wait()` calls return `1/fps` apart (no catching up
    in a burst after a stall: a late frame moves the schedule)."""

    def __init__(self, fps: float | None, monotonic: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Any] = time.sleep):
        self._period = 1.0 / fps if fps else 0.0
        self._monotonic = monotonic
        self._sleep = sleep
        self._next: float | None = None

    def wait(self) -> None:
        if not self._period:
            return
        now = self._monotonic()
        if self._next is None or now - self._next > self._period:
            self._next = now
        elif self._next > now:
            self._sleep(self._next - now)
        self._next += self._period
