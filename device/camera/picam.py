"""The Raspberry Pi camera (Camera Module 3, HQ camera, ...) through picamera2.

A low-latency video configuration at the working size: `create_video_configuration`
with main = {"size": (w, h), "format": "RGB888"} (an H x W x 3 array whose bytes are in
B, G, R order, which is what OpenCV wants), a small `buffer_count` so a frame is never
stale, no preview; frames come from `capture_array("main")`.

picamera2 exists only on a Pi (Debian's python3-picamera2), so it is imported inside
the functions that need it. Tests inject a stand-in with picamera2's API shape through
`camera_factory`.
"""
from __future__ import annotations

import threading
import time
from typing import Any, Callable, Iterator

from device.camera.base import CameraLost, Frame, SourceError, to_bgr


def _picamera2_class() -> Any:
    from picamera2 import Picamera2  # only on a Pi
    return Picamera2


def picamera_cameras() -> list[dict[str, Any]]:
    """The cameras libcamera sees (picamera2's `global_camera_info()`), or [] where
    picamera2 is not installed or cannot start."""
    try:
        return list(_picamera2_class().global_camera_info())
    except Exception:
        return []


class PicameraSource:
    """picamera2 at `size` and `fps`. `camera_factory(camera_num)` returns an object
    with picamera2's API (default: `picamera2.Picamera2`)."""

    def __init__(self, size: tuple[int, int] = (640, 480), fps: float = 30.0, camera_num: int = 0, *,
                 buffer_count: int = 2,
                 camera_factory: Callable[[int], Any] | None = None,
                 monotonic_ns: Callable[[], int] = time.monotonic_ns):
        self.size = (int(size[0]), int(size[1]))
        self._monotonic_ns = monotonic_ns
        self._lock = threading.Lock()
        self._closed = False
        factory = camera_factory or (lambda num: _picamera2_class()(num))
        try:
            self._camera = factory(camera_num)
        except Exception as exc:
            raise SourceError(f"picamera2 camera {camera_num} cannot be opened: {exc}", "camera.picam_closed",
                              number=camera_num) from exc
        try:
            config = self._camera.create_video_configuration(
                main={"size": self.size, "format": "RGB888"},
                buffer_count=buffer_count,
                controls={"FrameDurationLimits": (int(1e6 / fps), int(1e6 / fps))},
            )
            self._camera.configure(config)
            self._camera.start()
        except Exception as exc:
            self._camera.close()
            raise SourceError(f"picamera2 camera {camera_num} cannot start: {exc}", "camera.picam_closed",
                              number=camera_num) from exc
        model = ""
        try:
            model = str(self._camera.camera_properties.get("Model", ""))
        except Exception:
            pass
        self.name = f"picamera2:{camera_num}" + (f" ({model})" if model else "")

    def frames(self) -> Iterator[Frame]:
        index = 0
        while not self._closed:
            try:
                array = self._camera.capture_array("main")
            except Exception as exc:
                if self._closed:
                    return
                raise CameraLost(f"{self.name} stopped delivering frames: {exc}", "camera.lost",
                                 camera=self.name) from exc
            if array is None:
                raise CameraLost(f"{self.name} returned no frame", "camera.lost", camera=self.name)
            # capture_array has returned: the frame is as fresh as we can know here.
            t_ns = self._monotonic_ns()
            yield Frame(to_bgr(array, self.size), t_ns, index)
            index += 1

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
        try:
            self._camera.stop()
        except Exception:
            pass
        self._camera.close()
