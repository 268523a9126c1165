"""Teaching a deck live from the camera (the host's camera page).

The host names a face, or a row of different faces laid left to right, and starts
collecting: a collector thread takes the camera's newest frames, finds the cards in each
and keeps a shot of every face whenever it has moved or turned since its last shot (a
card lying still teaches nothing new). Each face has enough at `ENOUGH` shots; the page
shows the count per face. Training (`vision.teach.finish`: the learned reader and an
honest self-check on held-out shots) runs in a background thread with its progress on
the page; the profile is saved beside the event store, and `on_trained` (the appliance's
`device.decks.DeckSwitch.trained`) makes the camera read it for the game it fits; what it
says is shown on the page. "Teach" on one frame (the older single-shot button) adds one
shot and trains in the background too.

All state is in one `LiveTeacher` per appliance, behind a lock; `status()` is what the
page polls. What it says ("seen", "message", the self-check's "check", a shot's
"message") is messages ({"code", "params"}, web.messages "teach.live_*" and the reasons
of vision.teach), which the page's view says in the device's language.
"""
from __future__ import annotations

import dataclasses
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

ENOUGH = 8             # shots of a face that are enough (held-out ones included)
MOVED = 0.12           # of the card's short side: a shot this far from the last is new
TURNED_DEG = 8.0       # or turned this much
POLL_S = 0.15          # how often the collector looks at the newest frame


class Refused(ValueError):
    """A request live teaching cannot take; `said` is why as a message (web.words.say),
    str() the English."""

    def __init__(self, english: str, code: str, **params: Any):
        super().__init__(english)
        self.said = said(code, **params)


@dataclass
class FaceProgress:
    label: str
    shots: int = 0
    last: tuple[float, float, float] | None = None   # centre x, y and angle of the last shot


@dataclass
class TeachState:
    collecting: tuple[str, ...] = ()       # labels being collected, left to right
    faces: dict[str, FaceProgress] = field(default_factory=dict)
    seen: dict[str, Any] | None = None     # what the collector sees now (a message)
    training: bool = False
    progress: float = 0.0                  # of the current training, 0..1
    stale: bool = False                    # shots came in while training
    result: list[dict[str, Any]] = field(default_factory=list)   # the last self-check (messages)
    message: dict[str, Any] | None = None
    trained_at: float = 0.0
    trained_seconds: float = 0.0
    deck: dict[str, Any] | None = None    # what became of the trained deck (a message)


class LiveTeacher:
    def __init__(self, profile_path: Path, name: str = "taught deck",
                 on_trained: Callable[[Any], dict[str, Any] | None] | None = None,
                 colour_of: Callable[[str], str] | None = None,
                 for_game: Callable[[str], bool] | None = None):
        from vision.teach import start_session
        self.path = Path(profile_path)
        self._session = start_session(name)
        self._lock = threading.Lock()
        self._state = TeachState()
        self._collector: threading.Thread | None = None
        self._trainer: threading.Thread | None = None
        self._stop = threading.Event()
        self._on_trained = on_trained
        self._colour_of = colour_of
        self._for_game = for_game

    # -- one frame, one shot (the "Teach" button) ----------------------------------------

    def __call__(self, label: str, latest: Any) -> dict[str, Any]:
        """Learn the card in the newest frame (`device.vision_loop.LatestFrame`) as
        `label`, then train in the background."""
        from vision.teach import TeachError, add_frame
        label = self._label(label)
        with self._lock:
            try:
                self._session = add_frame(self._session, latest.image, label, self._colour(label))
            except TeachError as exc:
                return {"ok": False, "message": said("teach.live_not_learned", label=label, why=exc.why.message())}
            counts = self._session.counts()
            self._face(label).shots = counts[label]
        self.train()
        return {"ok": True, "cards": len(counts), "profile": str(self.path),
                "message": said("teach.live_learned", label=label, count=len(counts))}

    # -- collecting many frames -----------------------------------------------------------

    def start(self, labels: list[str], frames: Callable[[], Any],
              empty: Callable[[], np.ndarray | None] = lambda: None) -> dict[str, Any]:
        """Collect shots of these faces (laid left to right) from `frames()` (the newest
        LatestFrame; cards are found against `empty()`, the picture of the empty table)
        until each has ENOUGH or `stop()`."""
        clean = tuple(self._label(label) for label in labels)
        if not clean:
            raise Refused("say which card (or cards, left to right) lie under the camera", "teach.live_no_labels")
        if len(set(clean)) != len(clean):
            raise Refused("each card of a row must be a different card", "teach.live_same_card")
        self.stop()
        with self._lock:
            self._state.collecting = clean
            for label in clean:
                self._face(label)
            self._state.seen = said("teach.live_looking", count=len(clean))
        self._stop.clear()
        self._collector = threading.Thread(target=self._collect, args=(clean, frames, empty),
                                           name="teach-collect", daemon=True)
        self._collector.start()
        return self.status()

    def stop(self) -> None:
        self._stop.set()
        if self._collector is not None:
            self._collector.join(timeout=5)
            self._collector = None
        with self._lock:
            self._state.collecting = ()

    def _collect(self, labels: tuple[str, ...], frames: Callable[[], Any],
                 empty: Callable[[], np.ndarray | None]) -> None:
        from vision.detect import EmptyTable
        last_index, table, table_of = None, None, None
        while not self._stop.is_set():
            latest = frames()
            if latest is not None and latest.index != last_index:
                last_index = latest.index
                picture = empty()
                if picture is not table_of:
                    table_of = picture
                    table = EmptyTable.from_image(picture) if picture is not None \
                        and picture.shape == latest.image.shape else None
                self._take(labels, latest.image, table)
                with self._lock:
                    done = all(self._state.faces[lb].shots >= ENOUGH for lb in labels)
                if done:
                    self.train()   # training before collecting ends: `wait` never sees neither
                    with self._lock:
                        self._state.collecting = ()
                        self._state.seen = said("teach.live_enough", names=list(labels))
                    return
            self._stop.wait(POLL_S)

    def _take(self, labels: tuple[str, ...], image: np.ndarray, table: Any = None) -> None:
        """Keep a shot of each face of the row that moved since its last shot."""
        from vision.detect import find_cards
        from vision.teach import add_face, table_around
        from vision.warp import CANONICAL_SIZE, side_lengths, warp_card
        found = sorted(find_cards(image, table), key=lambda c: c.centre[0])
        if len(found) != len(labels):
            with self._lock:
                self._state.seen = said("teach.live_count", found=len(found), count=len(labels))
            return
        kept = 0
        for label, card in zip(labels, found):
            short = side_lengths(card.corners)[0]
            edge = card.corners[1] - card.corners[0]
            pose = (*card.centre, float(np.degrees(np.arctan2(edge[1], edge[0]))))
            with self._lock:
                face = self._state.faces[label]
                if face.shots >= ENOUGH or not _moved(face.last, pose, short):
                    continue
            shot_face = warp_card(image, card.corners, CANONICAL_SIZE)
            background = table_around(image, card.corners)
            with self._lock:
                self._session = add_face(self._session, shot_face, label, self._colour(label),
                                         source="camera", background=background)
                face.shots += 1
                face.last = pose
                kept += 1
        with self._lock:
            self._state.seen = said("teach.live_kept") if kept else said("teach.live_move", count=len(labels))

    # -- training --------------------------------------------------------------------------

    def train(self) -> None:
        """Train on every shot so far, in the background (again after, if shots arrive
        meanwhile)."""
        with self._lock:
            if self._state.training:
                self._state.stale = True
                return
            self._state.training = True
            self._state.progress = 0.0
            self._state.stale = False
        self._trainer = threading.Thread(target=self._train, name="teach-train", daemon=True)
        self._trainer.start()

    def _train(self) -> None:
        from vision.profile import save_profile
        from vision.teach import TeachError, finish
        while True:
            with self._lock:
                session = self._of_game(self._session)
            started = time.monotonic()
            try:
                taught = finish(session, progress=self._progress)
                save_profile(taught.profile, self.path)
                lines = [w.message() for w in taught.check.said()]
                message = said("teach.live_trained", count=len(session.shots))
            except TeachError as exc:
                taught, lines, message = None, [], said("teach.live_failed", why=exc.why.message())
            except OSError:
                taught, lines = None, []
                message = said("teach.live_failed", why=said("profile.not_saved", path=str(self.path)))
            # the deck is put to use before the page hears that training is over
            deck = self._on_trained(taught.profile) if taught is not None and self._on_trained else None
            with self._lock:
                self._state.result = lines
                self._state.message = message
                self._state.deck = deck
                self._state.trained_seconds = round(time.monotonic() - started, 1)
                self._state.trained_at = time.time()
                again = self._state.stale
                self._state.stale = False
                if not again:
                    self._state.training = False
                    self._state.progress = 1.0
            if not again:
                return

    def _progress(self, share: float) -> None:
        with self._lock:
            self._state.progress = round(float(share), 3)

    def wait(self, timeout: float = 120.0) -> bool:
        """Until training and collecting are over (tests, benches)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self._lock:
                busy = self._state.training or bool(self._state.collecting)
            if not busy:
                return True
            time.sleep(0.05)
        return False

    # -- what the page shows ---------------------------------------------------------------

    def status(self) -> dict[str, Any]:
        with self._lock:
            s = self._state
            return {"collecting": list(s.collecting), "seen": s.seen, "enough": ENOUGH,
                    "faces": [{"label": f.label, "shots": f.shots, "enough": f.shots >= ENOUGH}
                              for f in s.faces.values()],
                    "training": s.training, "progress": s.progress, "check": list(s.result),
                    "message": s.message, "seconds": s.trained_seconds, "deck": s.deck,
                    "profile": str(self.path) if s.trained_at else None}

    def _of_game(self, session: Any) -> Any:
        """The shots of the cards of the game being played (`for_game`), when some are:
        a deck taught earlier for another game, in the same run, is not trained into
        this one (it would not fit the game)."""
        if self._for_game is None:
            return session
        kept = tuple(s for s in session.shots if self._for_game(s.label))
        return dataclasses.replace(session, shots=kept) if kept else session

    def _colour(self, label: str) -> str:
        """The colour of the card a label names: the game's own (a card code or name,
        when the appliance says it), else a colour word in the label."""
        return (self._colour_of(label) if self._colour_of is not None else "") or colour_named(label)

    def _face(self, label: str) -> FaceProgress:
        return self._state.faces.setdefault(label, FaceProgress(label))

    @staticmethod
    def _label(label: Any) -> str:
        if not isinstance(label, str) or not label.strip():
            raise Refused("say which card this is (its label)", "teach.live_no_label")
        return label.strip()


def said(code: str, **params: Any) -> dict[str, Any]:
    """A message for the page (web.words.say)."""
    return {"code": code, "params": params}


def colour_named(label: str) -> str:
    """The colour a label names ("Red 7" -> "red"), or "": cards that differ only by
    colour are told apart by their ink's colour, which the reader then judges."""
    from vision.colour import INKS, canonical
    words = [canonical(w) for w in label.replace("-", " ").split()]
    return next((w for w in words if w in INKS), "")


def _moved(last: tuple[float, float, float] | None, pose: tuple[float, float, float], short: float) -> bool:
    if last is None:
        return True
    shift = float(np.hypot(pose[0] - last[0], pose[1] - last[1]))
    turn = abs((pose[2] - last[2] + 90) % 180 - 90)
    return shift > MOVED * short or turn > TURNED_DEG
