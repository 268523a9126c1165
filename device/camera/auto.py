"""From a `--camera` spec to a running source, and what `auto` picks.

Specs: `auto`, `picam` / `picam:N`, `usb:N` / `usb:/dev/videoN`, `replay:PATH`, `sim`.
`auto` takes picamera2 on a Pi that has a camera, else a USB camera if one opens and
delivers a frame, else the simulated table — and says which and why. Live cameras
(picam, usb) are wrapped in `ResilientSource` so a pulled cable is reported and retried
rather than stopping the appliance.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import cv2

from device.camera.base import FrameSource, SourceError
from device.camera.picam import PicameraSource, picamera_cameras
from device.camera.replay import ReplaySource
from device.camera.resilient import ResilientSource, StatusCallback
from device.camera.sim import Renderer, SimSource
from device.camera.usb import UsbSource

KINDS = ("auto", "picam", "usb", "replay", "sim")


def parse_spec(spec: str) -> tuple[str, str]:
    """("usb", "0") from "usb:0"; raises ValueError naming the spec if it is unknown."""
    kind, _, arg = spec.partition(":")
    if kind not in KINDS:
        raise ValueError(f"unknown camera {spec!r}: use auto, picam, usb:N, replay:PATH or sim")
    if kind == "replay" and not arg:
        raise ValueError("replay needs a path: replay:PATH (a video file or a folder of images)")
    if kind in ("auto", "sim") and arg:
        raise ValueError(f"{kind} takes no argument (got {spec!r})")
    if kind == "picam" and arg and not arg.isdigit():
        raise ValueError(f"picam:N needs a camera number, not {arg!r}")
    return kind, arg


def is_raspberry_pi(model_file: Path = Path("/proc/device-tree/model")) -> bool:
    try:
        return "Raspberry Pi" in model_file.read_text(errors="replace")
    except OSError:
        return False


def usb_camera_works(device: int | str = 0, capture_factory: Callable[[Any], Any] = cv2.VideoCapture) -> bool:
    """Whether a capture opens at `device` and delivers one frame."""
    if isinstance(device, int) and Path("/dev").is_dir() and not Path(f"/dev/video{device}").exists():
        return False  # Linux without the device node: skip OpenCV's noisy probe
    capture = capture_factory(device)
    try:
        return bool(capture.isOpened() and capture.read()[0])
    finally:
        capture.release()


def choose_auto(*, is_pi: Callable[[], bool] = is_raspberry_pi,
                cameras: Callable[[], list[dict[str, Any]]] = picamera_cameras,
                usb_works: Callable[[], bool] = usb_camera_works) -> tuple[str, str]:
    """(spec, reason in words) for `--camera auto`."""
    if is_pi():
        found = cameras()
        if found:
            model = found[0].get("Model", "camera")
            return "picam", f"picamera2: a Raspberry Pi camera ({model}) is connected"
    if usb_works():
        return "usb:0", "usb:0: a USB camera opened and delivered a frame"
    return "sim", "sim: no camera found, showing the simulated table"


def open_source(spec: str, size: tuple[int, int] = (640, 480), fps: float = 30.0, *,
                render: Renderer | None = None, on_status: StatusCallback | None = None,
                realtime: bool = True, camera_factory: Callable[[int], Any] | None = None,
                capture_factory: Callable[[Any], Any] = cv2.VideoCapture,
                chooser: Callable[[], tuple[str, str]] | None = None,
                resilient: bool = True) -> tuple[FrameSource, str]:
    """The source for `spec` and a line saying what it is. Replay and sim sources are
    opened (errors raise SourceError at once); picam and usb come wrapped in
    `ResilientSource`, which opens the camera when `frames()` starts and keeps retrying
    — or, with `resilient=False` (a one-off snapshot), are opened at once."""
    kind, arg = parse_spec(spec)
    why = ""
    if kind == "auto":
        spec, why = (chooser or choose_auto)()
        kind, arg = parse_spec(spec)
    if kind == "sim":
        return SimSource(render, size, fps, realtime=realtime), why or "sim: the simulated table"
    if kind == "replay":
        source = ReplaySource(arg, size, realtime=realtime)
        return source, why or f"{source.name} at {source.fps:g} frames/s"
    if kind == "picam":
        num = int(arg or 0)

        def opener() -> FrameSource:
            return PicameraSource(size, fps, num, camera_factory=camera_factory)

        name = f"picamera2:{num}"
    else:
        device: int | str = int(arg) if arg.isdigit() else (arg or 0)

        def opener() -> FrameSource:
            return UsbSource(device, size, fps, capture_factory=capture_factory)

        name = f"usb:{device}"
    if not resilient:
        source = opener()
        return source, why or source.name
    return (ResilientSource(opener, name=name, size=size, on_status=on_status),
            why or f"{name} (reconnects by itself if the camera goes away)")


__all__ = ["open_source", "choose_auto", "parse_spec", "is_raspberry_pi", "usb_camera_works", "SourceError"]
