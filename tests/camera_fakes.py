"""A stand-in for picamera2's `Picamera2` (no Pi camera exists in CI), with the real
API's shape: Picamera2(camera_num), global_camera_info(), create_video_configuration(main=,
buffer_count=, controls=), configure, start, capture_array(name), stop, close,
camera_properties. It records what it was asked, and can be told to fail."""
from __future__ import annotations

from typing import Any

import numpy as np


class FakePicamera2:
    cameras = [{"Model": "imx708", "Location": 2, "Rotation": 180, "Id": "/base/i2c@0/imx708@1a", "Num": 0}]

    def __init__(self, camera_num: int = 0, *, fail_after: int | None = None, fail_open: bool = False):
        if fail_open:
            raise RuntimeError("Failed to acquire camera: Device or resource busy")
        self.camera_num = camera_num
        self.camera_properties = {"Model": "imx708"}
        self.calls: list[tuple[str, Any]] = []
        self.config: dict[str, Any] | None = None
        self.started = False
        self.closed = False
        self.captured = 0
        self.fail_after = fail_after

    @staticmethod
    def global_camera_info() -> list[dict[str, Any]]:
        return list(FakePicamera2.cameras)

    def create_video_configuration(self, main: dict | None = None, lores: dict | None = None,
                                   raw: dict | None = None, transform: Any = None, colour_space: Any = None,
                                   buffer_count: int = 6, controls: dict | None = None,
                                   display: str | None = "main", encode: str | None = "main",
                                   queue: bool = True, sensor: dict | None = None) -> dict[str, Any]:
        self.calls.append(("create_video_configuration", {"main": main, "buffer_count": buffer_count,
                                                          "controls": controls, "display": display}))
        return {"use_case": "video", "main": dict(main or {}), "buffer_count": buffer_count,
                "controls": dict(controls or {})}

    def configure(self, config: dict[str, Any]) -> None:
        self.calls.append(("configure", config))
        self.config = config

    def start(self, config: dict | None = None, show_preview: bool = False) -> None:
        assert self.config is not None, "picamera2 must be configured before start"
        self.calls.append(("start", {"show_preview": show_preview}))
        self.started = True

    def capture_array(self, name: str = "main", wait: bool | None = None) -> np.ndarray:
        if not self.started:
            raise RuntimeError("Camera is not running")
        if self.fail_after is not None and self.captured >= self.fail_after:
            raise RuntimeError("Camera frontend has timed out!")
        width, height = self.config[name]["size"]
        # RGB888 in picamera2 is B, G, R byte order: put a blue-ish, numbered frame.
        image = np.zeros((height, width, 3), np.uint8)
        image[:, :, 0] = 200
        image[:, :, 2] = (20 * self.captured) % 250
        self.captured += 1
        return image

    def stop(self) -> None:
        self.started = False

    def close(self) -> None:
        self.closed = True
