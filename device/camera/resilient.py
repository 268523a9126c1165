"""A camera that may go away: `ResilientSource` wraps a way to open a source, reports
"lost" (cable pulled, device busy) through a callback, keeps yielding nothing while the
camera is away instead of ending, and reopens it with back-off; "ok" when frames flow
again. Frame numbers keep counting up across reconnects.

What does not live here: the sources themselves.
"""
from __future__ import annotations

import threading
from typing import Callable, Iterator, Sequence

from device.camera.base import CameraLost, Frame, FrameSource, SourceError

StatusCallback = Callable[[str, str], None]   # (status "ok" | "lost", detail in words)

DEFAULT_BACKOFF_S = (0.5, 1.0, 2.0, 4.0, 8.0)


class ResilientSource:
    def __init__(self, open_source: Callable[[], FrameSource], *, name: str, size: tuple[int, int],
                 on_status: StatusCallback | None = None,
                 backoff_s: Sequence[float] = DEFAULT_BACKOFF_S):
        self.name = name
        self.size = (int(size[0]), int(size[1]))
        self._open_source = open_source
        self._on_status = on_status or (lambda status, detail: None)
        self._backoff_s = tuple(backoff_s)
        self._stop = threading.Event()
        self._inner: FrameSource | None = None
        self._lock = threading.Lock()
        self.status = "none"
        self.reconnects = 0

    def _report(self, status: str, detail: str) -> None:
        if status != self.status:
            self.status = status
            self._on_status(status, detail)

    def _wait(self, attempt: int) -> None:
        self._stop.wait(self._backoff_s[min(attempt, len(self._backoff_s) - 1)])

    def frames(self) -> Iterator[Frame]:
        index = 0
        attempt = 0
        while not self._stop.is_set():
            try:
                inner = self._open_source()
            except SourceError as exc:
                self._report("lost", str(exc))
                self._wait(attempt)
                attempt += 1
                continue
            with self._lock:
                if self._stop.is_set():
                    inner.close()
                    return
                self._inner = inner
            if self.status == "lost":
                self.reconnects += 1
            self._report("ok", f"{inner.name} delivering frames")
            try:
                for frame in inner.frames():
                    attempt = 0
                    yield Frame(frame.image, frame.t_ns, index)
                    index += 1
                return  # the source ended by itself (a replay ran out, or we were closed)
            except CameraLost as exc:
                self._report("lost", str(exc))
            finally:
                with self._lock:
                    self._inner = None
                inner.close()
            self._wait(attempt)
            attempt += 1

    def close(self) -> None:
        self._stop.set()
        with self._lock:
            inner = self._inner
        if inner is not None:
            inner.close()
