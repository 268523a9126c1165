"""Replay of recorded pictures: a video file (played at its own frame rate) or a folder
of images (sorted by name, played at the rate asked for), or either as fast as
possible (`realtime=False`, for tests and benchmarks). When the recording ends,
`frames()` ends (or starts again with `loop=True`).

`replay:PATH` on the command line.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Callable, Iterator

import cv2

from device.camera.base import Frame, Pacer, SourceError, to_bgr

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


class ReplaySource:
    def __init__(self, path: str | Path, size: tuple[int, int] = (640, 480), fps: float | None = None, *,
                 realtime: bool = True, loop: bool = False,
                 monotonic_ns: Callable[[], int] = time.monotonic_ns):
        self.path = Path(path)
        self.size = (int(size[0]), int(size[1]))
        self.name = f"replay:{self.path}"
        self._loop = loop
        self._monotonic_ns = monotonic_ns
        self._closed = False
        if self.path.is_dir():
            self._images = sorted(p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            if not self._images:
                raise SourceError(f"{self.name}: the folder has no images ({', '.join(IMAGE_SUFFIXES)})",
                                  "camera.no_images", path=str(self.path), names=list(IMAGE_SUFFIXES))
            own_fps = fps or 30.0
        elif self.path.is_file():
            self._images = None
            probe = cv2.VideoCapture(str(self.path))
            if not probe.isOpened():
                probe.release()
                raise SourceError(f"{self.name}: OpenCV cannot read this video file", "camera.bad_video",
                                  path=str(self.path))
            own_fps = probe.get(cv2.CAP_PROP_FPS) or fps or 30.0
            probe.release()
            if fps:
                own_fps = fps
        else:
            raise SourceError(f"{self.name}: no such file or folder", "camera.no_such_path", path=str(self.path))
        self.fps = float(own_fps)
        self._pacer = Pacer(self.fps if realtime else None)

    def frames(self) -> Iterator[Frame]:
        index = 0
        while not self._closed:
            produced = 0
            for image in (self._read_folder() if self._images is not None else self._read_video()):
                if self._closed:
                    return
                self._pacer.wait()
                yield Frame(to_bgr(image, self.size), self._monotonic_ns(), index)
                index += 1
                produced += 1
            if not self._loop or produced == 0:
                return

    def _read_folder(self) -> Iterator:
        for path in self._images:
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                raise SourceError(f"{self.name}: {path.name} is not an image OpenCV can read", "camera.bad_image",
                                  path=str(path))
            yield image

    def _read_video(self) -> Iterator:
        capture = cv2.VideoCapture(str(self.path))
        try:
            while not self._closed:
                ok, image = capture.read()
                if not ok:
                    return
                yield image
        finally:
            capture.release()

    def close(self) -> None:
        self._closed = True
