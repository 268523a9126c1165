"""A USB webcam (or anything else `cv2.VideoCapture` opens) through OpenCV.

`usb:0` is /dev/video0; `usb:/dev/video2` a device path. The capture is asked for the
working size, the rate and a one-frame buffer (so frames are not stale); frames of
another size are resized. A read that fails means the camera is gone: `CameraLost`.

What does not live here: replaying files at their own rate (`device.camera.replay`).
"""
from __future__ import annotations

import threading
import time
from typing import Any, Callable, Iterator

import cv2

from device.camera.base import CameraLost, Frame, SourceError, to_bgr


class UsbSource:
    def __init__(self, device: int | str = 0, size: tuple[int, int] = (640, 480), fps: float = 30.0, *,
                 capture_factory: Callable[[Any], Any] = cv2.VideoCapture,
                 monotonic_ns: Callable[[], int] = time.monotonic_ns):
        self.size = (int(size[0]), int(size[1]))
        self.name = f"usb:{device}"
        self._monotonic_ns = monotonic_ns
        self._closed = False
        self._lock = threading.Lock()
        self._capture = capture_factory(device)
        if not self._capture.isOpened():
            self._capture.release()
            raise SourceError(f"{self.name}: no camera opens there (is it plugged in, or busy in another program?)",
                              "camera.usb_closed", camera=self.name)
        self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
        self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        self._capture.set(cv2.CAP_PROP_FPS, fps)
        self._capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)

    def frames(self) -> Iterator[Frame]:
        index = 0
        while not self._closed:
            with self._lock:
                if self._closed:
                    return
                ok, image = self._capture.read()
            if not ok or image is None:
                if self._closed:
                    return
                raise CameraLost(f"{self.name} stopped delivering frames", "camera.lost", camera=self.name)
            yield Frame(to_bgr(image, self.size), self._monotonic_ns(), index)
            index += 1

    def close(self) -> None:
        self._closed = True
        with self._lock:
            self._capture.release()
