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
# Games whose card zone is emptied after every card: Flip 7's dealer turns a card over in
# the flip spot and then moves it into the receiving player's line.
CLEARED_AFTER_EACH_CARD = ("flip7",)

# Every action kind of every game's vocabulary, by how it happens at a real table.
# "card": laid in the game's card zone (the camera reads it); "pad": a pad press;
# "host": entered on the host phone (or the turn button); "auto": the referee produces
# it from the clock. A kind missing here is an error, never a silent default.
SHARED_HOW = {"undo": "host", "end_match": "host", "set_totals": "host", "correct_round": "host"}
HOW: dict[str, dict[str, str]] = {
    "flip7": {"flip": "card", "hit": "pad", "stay": "pad", "target": "pad",
              **SHARED_HOW},
    "raj": {"reveal_point": "card", "bid": "card", "bid_down": "pad",
            **SHARED_HOW},
    "solo": {"start_round": "card", "play": "card", "claim": "pad", "call_solo": "pad",
             "catch_solo": "pad", "choose_colour": "host", "swap": "host", "draw": "host",
             "pass": "host", "take_penalty": "host", "settle_play": "host", "hold_card": "card",
             "set_hand_size": "host", "round_cards": "host",   # laid out: no scoring zone in the sim
             **SHARED_HOW},
    "hitthedeck": {"turn_up": "card", "play": "card", "cut": "card", "flip": "card",
                   "slap": "pad", "fake_out": "pad", "close_window": "auto",
                   "start_hand": "host", "draw": "host", "pass": "host", "forgot_call": "host",
                   "set_hand_size": "host", "hand_cards": "host",
                   **SHARED_HOW},
}


def physical_event(game: str, action: Action) -> PhysicalEvent:
    """How `action` happens at a real table; ValueError for a kind the table does not know."""
    try:
        how = HOW[game][action.kind]
    except KeyError:
        raise ValueError(f"the simulated table does not know how {game} action "
                         f"{action.kind!r} happens") from None
    if how == "card":
        return CardDown(CARD_ZONE.get(game, DISCARD), _card_of(action))
    if how == "pad":
        return PadPress(_pad_of(game, action), held=game == "flip7" and action.kind == "stay",
                        t_ns=getattr(action, "t_ns", None))
    if how == "auto":
        return Automatic()
    return HostInput()


def _card_of(action: Action) -> str:
    for name in ("card", "starter", "exposed_card"):
        code = getattr(action, name, None)
        if code is not None:
            return code
    raise ValueError(f"{action} names no card")


def _pad_of(game: str, action: Action) -> int:
    """Whose pad is pressed: Flip 7's chooser presses the pad of the player picked; a
    Solo catch is the catcher's press."""
    if game == "flip7" and action.kind == "target":
        return action.target
    if game == "solo" and action.kind == "catch_solo":
        return action.catcher
    return action.seat


def host_part(game: str, action: Action, state: Any = None) -> Action | None:
    """What of a card action the camera cannot see and the host must add (Solo's colour
    named with a black card), as the action that carries it; None if nothing. `state`
    (before the action) tells who the dealer is, for a starter."""
    if game == "solo" and getattr(action, "colour", None):
        from engine.solo.actions import ChooseColour
        seat = getattr(action, "seat", None)
        if seat is None:   # the starter: the dealer names the colour
            match = getattr(state, "match", None)
            seat = getattr(match, "dealer", None)
            if seat is None:
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
    SPREAD = 0.3   # a card lands within this share of the zone's size from its middle
    OFFSET = (0.3, 0.36)   # ... this many card widths off the card below

    def __init__(self, game: str, seed: int, size: tuple[int, int] = (640, 480),
                 noise: float = 2.0, table: str = "felt", blur: float = 0.0,
                 card_width: float = 0.16, light: str = "warm", style: str = "deckhand"):
        from vision.render.live import LiveTable
        from vision.render.scene import SceneSpec, set_table
        self.game = game
        self.style = style      # the cards' printing (vision.render.cards.STYLES)
        self._rng = np.random.default_rng(seed)
        self._spec = SceneSpec(table=table, tilt_deg=8.0, light=light, noise=noise, blur=blur,
                               jpeg_quality=None, size=size, card_width=card_width)
        self._table = set_table(self._spec, self._rng)
        # drawn for less than `compose` draws a benchmark's scene (vision.render.live): the
        # simulator's drawing is on the camera thread, where a real camera costs nothing
        self._camera = LiveTable(self._table, game, style)
        # the scene's changes counted, (cards, hand): an unchanged scene is not drawn again,
        # and a hand reaching in or going away is drawn on the cards as they were laid
        self._version = (0, 0)
        self._lock = threading.Lock()
        self._piles: dict[str, _Pile] = {}
        self._hand = None
        self._frame_rng = np.random.default_rng(seed + 1)
        self.frames_rendered = 0

    @property
    def spec(self):
        return self._spec

    def empty_frame(self) -> np.ndarray:
        return self._render([], None, None)

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
        """Put `code` face up on the zone's pile: about the pile's middle, but clearly off
        the card below (as a tossed card lands), which is how the tracker tells a new card
        from the same card read again (vision.track's `moved_share`)."""
        from vision.render.scene import ZONE_RECTS, Placement
        x0, y0, x1, y1 = ZONE_RECTS.get(zone, ZONE_RECTS[DISCARD])
        rng = self._rng
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        with self._lock:
            pile = self._piles.setdefault(zone, _Pile())
            below = pile.placements[-1] if pile.placements else None
            reach_x, reach_y = self.SPREAD * (x1 - x0), self.SPREAD * (y1 - y0)
            x = cx + float(rng.uniform(-reach_x, reach_x)) * 0.3
            y = cy + float(rng.uniform(-reach_y, reach_y)) * 0.3
            if below is not None:
                # a step off the card below: far enough to read as another card, not so
                # far that the card below still shows whole
                width = self._spec.card_width
                for _ in range(30):
                    turn = float(rng.uniform(0, 2 * np.pi))
                    step = float(rng.uniform(*self.OFFSET)) * width
                    x, y = below.x + step * np.cos(turn), below.y + step * np.sin(turn) * 4 / 3
                    if abs(x - cx) <= reach_x and abs(y - cy) <= reach_y:
                        break
            base = below.angle_deg if below is not None else float(rng.uniform(-20, 20))
            p = Placement(code, x, y, base + float(rng.uniform(-25, 25)), zone, True, self.game)
            pile.placements = [replace(q, top=False) for q in pile.placements][-(self.MAX_PILE - 1):] + [p]
            self._changed(cards=True)

    def clear(self, zone: str | None = None) -> None:
        with self._lock:
            if zone is None:
                self._piles.clear()
            else:
                self._piles.pop(zone, None)
            self._changed(cards=True)

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
            self._changed(cards=False)

    def withdraw(self) -> None:
        with self._lock:
            self._hand = None
            self._changed(cards=False)

    def _changed(self, cards: bool) -> None:
        """Count a change of the cards laid or of the hand (the lock held)."""
        laid, hand = self._version
        self._version = (laid + 1, hand) if cards else (laid, hand + 1)

    def render(self, index: int = 0) -> np.ndarray:
        with self._lock:
            placements = [p for pile in self._piles.values() for p in pile.placements]
            hand, version = self._hand, self._version
        return self._render(placements, hand, version)

    def _render(self, placements: list, hand: Any, version: tuple[int, int] | None) -> np.ndarray:
        image = self._camera.picture(placements, [hand] if hand is not None else [], self._frame_rng, version)
        self.frames_rendered += 1
        return image


# --- the bots at the live table ----------------------------------------------------------

@dataclass
class DriverStats:
    actions: int = 0
    seen_by_camera: int = 0
    camera_missed: int = 0        # cards the bots had to enter by hand after a timeout
    misread: int = 0              # cards the table took for something else (undone, re-entered)
    pad_presses: int = 0
    pads_missed: int = 0          # presses that made nothing (entered by hand)
    extra_undone: int = 0         # actions the table made that the bots did not (undone)
    resyncs: int = 0              # matches abandoned after a refusal
    matches: int = 0


class BotDriver:
    """Plays seeded bot matches on a live table through the scene, the mock pads and
    host input, forever (a new match after each), until `stop()`.

    The bots act as careful players with a host who watches the screen: after each
    action the live log must hold the bots' action; a card the camera missed or misread
    and a press that made nothing are corrected the way a host would (undo, then enter
    it on the host phone), and counted in `stats`. So the live match stays the bots'
    match, and after a restart it resumes from the number of actions in the log.

    table: device.table.LiveTable; press: callable(seat, held) that presses a mock pad.
    Pauses are scaled by `speed`; the time between a HAND and its slaps is the bots'
    own reaction time (also scaled), because the referee's slap window is real time."""

    PAUSE = 0.6             # seconds between actions at speed 1
    MAX_REACTION = 0.6      # a slap comes at most this long (speed 1) after the last action
    CLEAR_SECONDS = 0.3     # a cleared card spot stays bare at least this long (real time)

    def __init__(self, table: Any, scene: SimScene, press: Callable[[int, bool], None], *,
                 game: str, seed: int, speed: float = 1.0, players: int | None = None,
                 rounds: int | None = None, card_timeout: float = 4.0, pad_timeout: float = 2.0,
                 camera_ready: Callable[[], bool] | None = None):
        self.table = table
        self.scene = scene
        self.press = press
        self.game = game
        self.seed = seed
        self.speed = max(0.05, float(speed))
        self.players = players
        self.rounds = rounds
        self.card_timeout = card_timeout
        self.pad_timeout = pad_timeout
        self._stop = threading.Event()
        self.stats = DriverStats()
        self._thread: threading.Thread | None = None
        self._last_t_ns: int | None = None
        self._camera_ready = camera_ready

    def start(self) -> "BotDriver":
        self._thread = threading.Thread(target=self._run, name="deckhand-bots", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _pause(self, seconds: float) -> bool:
        """Sleep (scaled); True if asked to stop."""
        return self._stop.wait(seconds / self.speed)

    def _run(self) -> None:
        seed = self.seed
        while not self._stop.is_set():
            try:
                spec, skip = self._match_to_play(seed)
                if not self._wait_for_camera(60.0):
                    return
                self._play(spec, skip)
            except Exception:   # the demo must keep going; the log says what broke
                log.exception("simulated match stopped")
                self.stats.resyncs += 1
                self._give_up()
            seed += 1
            self.scene.clear()
            if self._pause(3.0):
                return

    def _give_up(self) -> None:
        """End the match the bots can no longer follow (as the host would), so the next
        start does not resume it into the same wall."""
        from engine.core import EndMatch
        match = self.table.current_match
        if match is None or match.view.get("finished"):
            return
        try:
            self.table.submit_action(EndMatch(), "bot")
        except IllegalAction as exc:
            log.warning("could not end match %s: %s", match.id, exc.reason)

    def _wait_for_camera(self, timeout: float) -> bool:
        """Wait (up to `timeout`) until the camera reads frames of the match's game, so the
        first cards are not entered by hand while the recognizer loads; False if stopped."""
        deadline = time.monotonic() + timeout
        while self._camera_ready is not None and not self._camera_ready():
            if time.monotonic() > deadline:
                log.warning("the camera is not reading frames yet; the bots start anyway")
                break
            if self._stop.wait(0.05):
                return False
        return not self._stop.is_set()

    def _match_to_play(self, seed: int) -> tuple[MatchSpec, int]:
        """Resume the table's unfinished simulated match (after a restart), else start one."""
        match = self.table.current_match
        if match is not None and not match.view.get("finished") \
                and match.record.spec.seed is not None and match.record.spec.game == self.game:
            log.info("the bots resume match %s after %s actions", match.id, match.timeline.depth)
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
            if self._pause(self._delay_before(action)):
                return
            self._perform(action, number)
            self.stats.actions += 1
            self._last_t_ns = getattr(action, "t_ns", None)

    def _delay_before(self, action: Action) -> float:
        t = getattr(action, "t_ns", None)
        if self.game == "hitthedeck" and action.kind in ("slap", "fake_out") and t is not None:
            if self._last_t_ns is None:
                return 0.0
            return min(max(0.0, (t - self._last_t_ns) / 1e9), self.MAX_REACTION)
        return self.PAUSE

    # -- one action ----------------------------------------------------------------------

    def _depth(self) -> int:
        match = self.table.current_match
        return match.timeline.depth if match is not None else 0

    def _rows(self) -> int:
        match = self.table.current_match
        return match.rows_logged if match is not None else 0

    def _perform(self, action: Action, number: int) -> None:
        event = physical_event(self.game, action)
        before = (self._depth(), self._rows())
        state = self.table.current_match.state
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
            self._settle(strip_host_part(action), number, before, "misread")
            if self.game in CLEARED_AFTER_EACH_CARD:
                self.scene.clear(event.zone)
                # the camera must see the spot bare (the tracker's empty_frames) before the
                # next card, whatever the speed
                if self._stop.wait(self.CLEAR_SECONDS):
                    return
            extra = host_part(self.game, action, state)
            if extra is not None:
                self._submit(extra)
        elif isinstance(event, PadPress):
            self.press(event.seat, event.held)
            self.stats.pad_presses += 1
            if not self._wait_for_log(before, self.pad_timeout):
                self.stats.pads_missed += 1
                log.warning("pad %s made nothing for %s: entered by hand", event.seat, action)
            self._settle(action, number, before, "pad")
        elif isinstance(event, Automatic):
            self._wait_for_log(before, 10.0)
            self._settle(action, number, before, "timeout")
        else:
            self._submit(action)

    def _settle(self, action: Action, number: int, before: tuple[int, int], what: str) -> None:
        """Make the live log hold exactly `action` after the actions it had `before`, as a
        host would: undo what the table made of it if that was something else (or more),
        then enter the action by hand."""
        from engine.core import Undo
        depth, rows = before
        made = self._rows_after(rows)
        if len(made) == 1 and same_action(made[0], action):
            return
        if made:
            log.warning("action %d: the table made %s of the bots' %s: undone", number,
                        ", ".join(map(str, made)), action)
            if what == "misread":
                self.stats.misread += 1
            else:
                self.stats.extra_undone += 1
        while self._depth() > depth:
            self._submit(Undo())
        if self._depth() != depth:
            raise RuntimeError(f"the live match lost actions under the bots ({self._depth()} < {depth})")
        if getattr(action, "t_ns", None) is not None:
            # entered now, on the table's clock (slap windows are timed on it), not the bots'
            action = replace(action, t_ns=time.monotonic_ns())
        self._submit(action)

    def _rows_after(self, rows: int) -> list[Action]:
        """The actions logged in the live match after its first `rows` rows."""
        import json
        match = self.table.current_match
        if match.rows_logged <= rows:
            return []
        return [match.parse(json.loads(text)) for _, text in match.store.action_texts(match.id, rows)]

    def _submit(self, action: Action) -> None:
        try:
            self.table.submit_action(action, "bot")
        except IllegalAction as exc:
            raise RuntimeError(f"the live table refused the bots' {action}: {exc.reason}") from exc

    def _wait_for_log(self, before: tuple[int, int], timeout: float) -> bool:
        """Wait until the live match has logged rows after `before` (depth, rows)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._rows() > before[1]:
                return True
            if self._stop.wait(0.01):
                return False
        return False


def same_action(a: Action, b: Action) -> bool:
    """The same action apart from time stamps (the table's own clock) and a named colour."""
    def plain(action: Action) -> dict:
        data = action.to_json()
        data.pop("t_ns", None)
        data.pop("colour", None)
        return data
    return plain(a) == plain(b)
