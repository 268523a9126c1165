"""The camera loop: frames → vision (recognizer + tracker) → observations → the table.

One thread reads the camera source; each frame is read by the recognizer of the game
being played (the deck profile follows the match), the zone tracker turns stable cards
into `CardSeen` / `ZoneEmpty` / `CardsLaidOut` observations, and those go to the
table's referee (source "camera"). A refused observation (a card that may not be played
now) is shown on the screens as the camera's last refusal; nothing is logged for it.
The newest frame and its reading are kept for the teaching and calibration pages.
"""
from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from engine.core import IllegalAction
from vision.pipeline import StillFrames

log = logging.getLogger("deckhand.camera")

Rect = tuple[float, float, float, float]   # normalized x0, y0, x1, y1


@dataclass(frozen=True)
class LatestFrame:
    image: np.ndarray
    t_ns: int
    index: int
    reading: Any          # vision.pipeline.FrameReading or None
    game: str | None


class VisionLoop:
    def __init__(self, source: Any, table: Any, zones: dict[str, Rect], *,
                 make_recognizer: Callable[[str, np.ndarray | None], Any],
                 make_tracker: Callable[[dict[str, Rect]], Any],
                 empty_table: np.ndarray | None = None):
        self.source = source
        self.table = table
        self._zones = dict(zones)
        self._make_recognizer = make_recognizer
        self._make_tracker = make_tracker
        self._empty = empty_table
        self._lock = threading.Lock()
        self._latest: LatestFrame | None = None
        self._game: str | None = None
        self._recognizer = None
        self._still = StillFrames()  # a frame like the last one read is not read again
        self._tracker = make_tracker(self._zones)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.frames_read = 0
        self.observations = 0
        self.refused = 0
        self.heartbeat = time.monotonic()
        self.error: str | None = None

    # -- running -------------------------------------------------------------------------

    def start(self) -> "VisionLoop":
        self._thread = threading.Thread(target=self._run, name="deckhand-camera", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        try:
            self.source.close()
        except Exception:  # closing a lost camera may fail; we are stopping anyway
            log.debug("closing the camera failed", exc_info=True)
        if self._thread is not None:
            self._thread.join(timeout=5)

    def reading(self, game: str) -> bool:
        """True once a frame has been read with `game`'s recognizer."""
        latest = self.latest
        return latest is not None and latest.reading is not None and latest.game == game

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _run(self) -> None:
        try:
            for frame in self.source.frames():
                if self._stop.is_set():
                    break
                self.heartbeat = time.monotonic()
                self.process(frame.image, frame.t_ns, frame.index)
        except Exception as exc:  # the service stays up; the screens say the camera stopped
            self.error = f"{type(exc).__name__}: {exc}"
            log.exception("camera loop stopped")
            self.table.set_status(camera="lost")

    def process(self, image: np.ndarray, t_ns: int, index: int = 0) -> list[Any]:
        """Read one frame and hand what it shows to the table; returns the observations."""
        self.frames_read += 1
        if self._empty is None:
            self._empty = image.copy()   # the first picture is taken as the empty table
        game = self._current_game()
        reading = None
        sent: list[Any] = []
        if game is not None and not self.table.camera_paused:
            if game != self._game:
                self._game = game
                self._recognizer = self._make_recognizer(game, self._empty)
                self._tracker = self._make_tracker(self._zones)
                self._still.forget()
            reading = self._still.read(self._recognizer, image)
            for observation in self._tracker.update(reading, t_ns):
                sent.append(observation)
                self._send(observation)
        with self._lock:
            self._latest = LatestFrame(image, t_ns, index, reading, game)
        return sent

    def _current_game(self) -> str | None:
        match = self.table.current_match
        return match.record.spec.game if match is not None else None

    def _send(self, observation: Any) -> None:
        self.observations += 1
        try:
            self.table.observe_event(observation, "camera")
        except IllegalAction as exc:
            self.refused += 1
            self.table.set_status(camera_refused=exc.reason)
            log.info("camera: %s refused: %s", observation, exc.reason)

    # -- what the pages read ---------------------------------------------------------------

    @property
    def latest(self) -> LatestFrame | None:
        with self._lock:
            return self._latest

    @property
    def zones(self) -> dict[str, Rect]:
        with self._lock:
            return dict(self._zones)

    def set_zones(self, zones: dict[str, Rect]) -> None:
        with self._lock:
            self._zones = dict(zones)
            self._tracker = self._make_tracker(self._zones)

    @property
    def empty_table(self) -> np.ndarray | None:
        """The picture of the table without cards (live teaching finds cards against it)."""
        with self._lock:
            return self._empty

    def set_empty_table(self, image: np.ndarray) -> None:
        with self._lock:
            self._empty = image.copy()
            self._game = None    # the recognizer is rebuilt with the new picture

    def reload_recognizer(self) -> None:
        """Read with a new recognizer (`make_recognizer` gives another deck now) from the
        next frame on. The camera thread builds it between two frames, so no frame is
        read half with each deck; the cards lying on the table then are taken as already
        there, as after a restart (a card the old deck could not read is not played late)."""
        with self._lock:
            self._game = None


class ZoneTracker:
    """`vision.track` (a pure state machine) held for one camera: `update(reading, t_ns)`
    steps it and returns the observations the frame settles. The first frame is taken as
    what already lies on the table (after a restart, the cards still there are not played
    again). The scoring zone is read as a spread (hands laid out for counting).
    `settings`: `vision.track.TrackSettings` (the default: the tracker's own)."""

    def __init__(self, zones: dict[str, Rect], settings: Any = None):
        from vision import track
        from engine.observations import SCORING
        self._track = track
        self._state = track.start([track.Zone(name, tuple(rect), spread=name == SCORING)
                                   for name, rect in zones.items()], settings or track.TrackSettings())
        self._primed = False

    def update(self, reading: Any, t_ns: int) -> list[Any]:
        if not self._primed:
            self._primed = True
            self._state = self._track.prime(self._state, reading)
            return []
        self._state, events = self._track.step(self._state, reading, t_ns)
        return list(events)
