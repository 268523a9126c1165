"""The simulated table: what `deckhand run` shows on a machine with no camera and no pads.

Seeded bots play a real match. Every card they put down is laid on a `SimScene`, which
the camera's `sim` source renders frame by frame as the overhead camera would see it (a
hand reaching over the pile, then the card lying there); those frames go through the
real vision pipeline and the real referee. Every pad press a bot makes drives one of
gpiozero's mock pins, so it goes through the real pad debounce too. Choices the table
cannot see (a Flip 7 action card's target, a chosen colour, a draw) are entered the way
a host would enter them.

`physical_event` is the one place that says which actions are cards on the table, which
are pad presses, which are host input and which the referee produces by itself.
"""
from __future__ import annotations

import importlib
import logging
import random
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterator

import numpy as np

from engine.core import Action, IllegalAction, MatchSpec, Seat
from engine.observations import DISCARD, REVEAL

log = logging.getLogger("deckhand.sim")

PLAYER_NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon")
DEFAULT_PLAYERS = {"flip7": 4, "raj": 3, "solo": 4, "hitthedeck": 4}
DEFAULT_STRATEGIES = {"flip7": ("odds", "stay:25"), "raj": ("shade", "match", "random"),
                      "solo": ("greedy", "random"), "hitthedeck": ("careful",)}


# --- what each action is at a real table ---------------------------------------------

@dataclass(frozen=True)
class CardDown:
    """A card laid face up in a zone (the camera reads it)."""
    zone: str
    code: str


@dataclass(frozen=True)
class PadPress:
    """A pad pressed by `seat` (held: a long press). `t_ns` is the bot's own time for it,
    where the game cares (slaps)."""
    seat: int
    held: bool = False
    t_ns: int | None = None


@dataclass(frozen=True)
class HostInput:
    """Something a person enters on the host phone (or the turn button)."""


@dataclass(frozen=True)
class Automatic:
    """The referee produces it by itself (a slap window's timeout)."""


PhysicalEvent = CardDown | PadPress | HostInput | Automatic

CARD_ZONE = {"raj": REVEAL}


def physical_event(game: str, action: Action) -> PhysicalEvent:
    """How `action` happens at a real table."""
    kind = action.kind
    zone = CARD_ZONE.get(game, DISCARD)
    if game == "flip7":
        if kind == "flip":
            return CardDown(zone, action.card)
        if kind in ("hit", "stay"):
            return PadPress(action.seat, held=kind == "stay")
    elif game == "raj":
        if kind in ("reveal_point", "bid"):
            return CardDown(zone, action.card)
        if kind == "bid_down":
            return PadPress(action.seat)
    elif game == "solo":
        if kind == "start_round":
            return CardDown(zone, action.starter)
        if kind == "play":
            return CardDown(zone, action.card)
        if kind in ("claim", "call_solo"):
            return PadPress(action.seat, t_ns=getattr(action, "t_ns", None))
        if kind == "catch_solo":
            return PadPress(action.catcher)
    elif game == "hitthedeck":
        if kind in ("turn_up", "play"):
            return CardDown(zone, action.card)
        if kind in ("cut", "flip"):
            return CardDown(zone, action.exposed_card)
        if kind in ("slap", "fake_out"):
            return PadPress(action.seat, t_ns=action.t_ns)
        if kind == "close_window":
            return Automatic()
    return HostInput()


def host_part(game: str, action: Action) -> Action | None:
    """What of a card action the camera cannot see and the host must add (Solo's chosen
    colour for a black card), as the action that carries it; None if nothing."""
    if game == "solo" and getattr(action, "colour", None):
        from engine.solo.actions import ChooseColour
        seat = getattr(action, "seat", None)
        if seat is None:   # the starter: the dealer names the colour
            return None
        return ChooseColour(seat, action.colour)
    return None


def strip_host_part(action: Action) -> Action:
    """The action as the camera alone would report it."""
    if getattr(action, "colour", None):
        return replace(action, colour=None)
    return action


def bot_actions(spec: MatchSpec, seed: int, strategies: tuple[str, ...] | None = None,
                rounds: int | None = None) -> Iterator[Action]:
    selfplay = importlib.import_module(f"engine.{spec.game}.selfplay")
    chosen = strategies or DEFAULT_STRATEGIES.get(spec.game) or selfplay.STRATEGIES[:1]
    chosen = tuple(s for s in chosen if s.split(":")[0] in {x.split(":")[0] for x in selfplay.STRATEGIES}) \
        or tuple(selfplay.STRATEGIES[:1])
    return selfplay.play_match(spec, list(chosen), seed, rounds)


def sim_spec(game: str, players: int | None, seed: int) -> MatchSpec:
    n = players or DEFAULT_PLAYERS.get(game, 4)
    return MatchSpec(game, tuple(Seat(PLAYER_NAMES[i % len(PLAYER_NAMES)]) for i in range(n)),
                     {}, seed)


# --- the table the camera sees ----------------------------------------------------------

@dataclass
class _Pile:
    placements: list = field(default_factory=list)


class SimScene:
    """The cards lying on the simulated table and a hand that may be over them; renders
    camera frames of it. Thread-safe: the bots lay cards while the camera renders."""

    MAX_PILE = 6   # older cards are squared away under the pile (not drawn)

    def __init__(self, game: str, seed: int, size: tuple[int, int] = (640, 480),
                 noise: float = 2.0, table: str = "felt"):
        from vision.render.scene import SceneSpec, set_table
        self.game = game
        self._rng = np.random.default_rng(seed)
        self._spec = SceneSpec(table=table, tilt_deg=8.0, light="warm", noise=noise,
                               jpeg_quality=None, size=size, card_width=0.16)
        self._table = set_table(self._spec, self._rng)
        self._lock = threading.Lock()
        self._piles: dict[str, _Pile] = {}
        self._hand = None
        self._frame_rng = np.random.default_rng(seed + 1)
        self.frames_rendered = 0

    @property
    def spec(self):
        return self._spec

    def empty_frame(self) -> np.ndarray:
        return self._render([], None)

    def zone_rects(self) -> dict[str, tuple[float, float, float, float]]:
        """Each zone's bounding rectangle in the picture, normalized (x0, y0, x1, y1)."""
        from vision.render.scene import zone_polygons
        w, h = self._table.size
        out = {}
        for name, poly in zone_polygons(self._table).items():
            poly = np.asarray(poly, float)
            out[name] = (max(0.0, poly[:, 0].min() / w), max(0.0, poly[:, 1].min() / h),
                         min(1.0, poly[:, 0].max() / w), min(1.0, poly[:, 1].max() / h))
        return out

    def lay(self, zone: str, code: str) -> None:
        from vision.render.scene import ZONE_RECTS, Placement
        x0, y0, x1, y1 = ZONE_RECTS.get(zone, ZONE_RECTS[DISCARD])
        rng = self._rng
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        with self._lock:
            pile = self._piles.setdefault(zone, _Pile())
            base = pile.placements[-1].angle_deg if pile.placements else float(rng.uniform(-20, 20))
            p = Placement(code, cx + float(rng.uniform(-0.02, 0.02)), cy + float(rng.uniform(-0.03, 0.03)),
                          base + float(rng.uniform(-25, 25)), zone, True, self.game)
            pile.placements = [replace(q, top=False) for q in pile.placements][-(self.MAX_PILE - 1):] + [p]

    def clear(self, zone: str | None = None) -> None:
        with self._lock:
            if zone is None:
                self._piles.clear()
            else:
                self._piles.pop(zone, None)

    def reach(self, zone: str) -> None:
        """A hand reaches over the zone's pile (as when a card is being put down)."""
        from vision.render.scene import ZONE_RECTS, hand_over
        with self._lock:
            pile = self._piles.get(zone)
            target = None
            if pile and pile.placements:
                from vision.render.scene import image_corners
                target = image_corners(self._table, pile.placements[-1])
            self._hand = hand_over(self._table, self._rng, target, float(self._rng.uniform(0.3, 0.7)))

    def withdraw(self) -> None:
        with self._lock:
            self._hand = None

    def render(self, index: int = 0) -> np.ndarray:
        with self._lock:
            placements = [p for pile in self._piles.values() for p in pile.placements]
            hand = self._hand
        return self._render(placements, hand)

    def _render(self, placements: list, hand: Any) -> np.ndarray:
        from vision.render.scene import compose
        scene = compose(self._table, self.game, placements, self._frame_rng,
                        [hand] if hand is not None else [])
        self.frames_rendered += 1
        return scene.image


# --- the bots at the live table ----------------------------------------------------------

@dataclass
class DriverStats:
    actions: int = 0
    seen_by_camera: int = 0
    camera_missed: int = 0        # cards the bots had to enter by hand after a timeout
    pad_presses: int = 0
    resyncs: int = 0
    matches: int = 0


class BotDriver:
    """Plays seeded bot matches on a live table through the scene, the mock pads and
    host input, forever (a new match after each), until `stop()`.

    table: device.table.LiveTable; press: callable(seat, held) that presses a mock pad;
    sleep: time.sleep (scaled by speed inside)."""

    def __init__(self, table: Any, scene: SimScene, press: Callable[[int, bool], None], *,
                 game: str, seed: int, speed: float = 1.0, players: int | None = None,
                 rounds: int | None = None, card_timeout: float = 4.0,
                 sleep: Callable[[float], None] = time.sleep):
        self.table = table
        self.scene = scene
        self.press = press
        self.game = game
        self.seed = seed
        self.speed = max(0.05, float(speed))
        self.players = players
        self.rounds = rounds
        self.card_timeout = card_timeout
        self._sleep = sleep
        self._stop = threading.Event()
        self.stats = DriverStats()
        self._thread: threading.Thread | None = None

    def start(self) -> "BotDriver":
        self._thread = threading.Thread(target=self._run, name="deckhand-bots", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _pause(self, seconds: float) -> bool:
        """Sleep (scaled); True if asked to stop."""
        return self._stop.wait(seconds / self.speed)

    def _run(self) -> None:
        seed = self.seed
        while not self._stop.is_set():
            try:
                spec, skip = self._match_to_play(seed)
                self._play(spec, skip)
            except Exception:   # the demo must keep going; the log says what broke
                log.exception("simulated match stopped")
                self.stats.resyncs += 1
            seed += 1
            self.scene.clear()
            if self._pause(3.0):
                return

    def _match_to_play(self, seed: int) -> tuple[MatchSpec, int]:
        """Resume the table's unfinished simulated match (after a restart), else start one."""
        match = self.table.current_match
        if match is not None and not match.view.get("finished") \
                and match.record.spec.seed is not None and match.record.spec.game == self.game:
            return match.record.spec, match.timeline.depth
        spec = sim_spec(self.game, self.players, seed)
        self.table.new_match(spec.to_json(), "bot")
        self.stats.matches += 1
        return spec, 0

    def _play(self, spec: MatchSpec, skip: int) -> None:
        for number, action in enumerate(bot_actions(spec, spec.seed or 0, rounds=self.rounds)):
            if number < skip:
                continue
            if self._stop.is_set():
                return
            self._perform(action)
            self.stats.actions += 1
            if self._pause(0.6):
                return

    def _perform(self, action: Action) -> None:
        event = physical_event(self.game, action)
        before = self.table.seq
        if isinstance(event, CardDown):
            self.scene.reach(event.zone)
            if self._pause(0.25):
                return
            self.scene.lay(event.zone, event.code)
            if self._pause(0.15):
                return
            self.scene.withdraw()
            if self._wait_for_log(before, self.card_timeout):
                self.stats.seen_by_camera += 1
            else:
                self.stats.camera_missed += 1
                log.warning("camera did not read %s in time: entered by hand", action)
                self.table.submit_action(strip_host_part(action), "bot")
            extra = host_part(self.game, action)
            if extra is not None:
                self._submit(extra)
        elif isinstance(event, PadPress):
            self.press(event.seat, event.held)
            self.stats.pad_presses += 1
            self._wait_for_log(before, 2.0)
        elif isinstance(event, Automatic):
            self._wait_for_log(before, 10.0)
        else:
            self._submit(action)

    def _submit(self, action: Action) -> None:
        try:
            self.table.submit_action(action, "bot")
        except IllegalAction as exc:
            raise RuntimeError(f"the live table refused the bots' {action}: {exc.reason}") from exc

    def _wait_for_log(self, before: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.table.seq > before:
                return True
            if self._stop.wait(0.02):
                return False
        return False
