"""The slap pads: one contact per seat (and an optional shared turn button) read through
gpiozero, turned into `engine.observations.PadPressed` / `PadReleased` on a queue.

How a press is timed and judged:

* Each pin's edge callback (gpiozero `Pin.when_changed(ticks, state)`) only puts the raw
  `(ticks, state)` on an inbox; a worker thread does the rest. On a Pi with the lgpio
  pin factory the ticks are the kernel's edge timestamps, so a press is timed when the
  contact closed, not when Python got round to the callback.
* `TickClock` turns ticks into `time.monotonic_ns()` (the one clock of the device).
* gpiozero's own bounce time stays off (it would drop edges before we see their ticks);
  `on_edge` / `on_time` debounce on the ticks: chatter within `debounce_ms` of a release
  is the same press, a hand resting on a pad is one press until it lifts, a press that
  lasts `hold_ms` is a hold, a pad down for `stuck_s` is reported stuck.
* Edges from all pins wait `order_window_ms` and are then judged in tick order, so a
  late callback on one pin cannot put its press after a later press on another pin.

When is a press handed on? With holds enabled (`hold_ms` set) a tap is handed on when
it lifts and a hold when it has lasted `hold_ms` — in both cases with `t_ns` = the moment
the contact closed. With holds disabled every press is handed on as soon as its first
edge has waited out the order window.

What does not live here: LEDs and buzzer (`device.indicators`), the keyboard stand-in
(`device.keyboard_pads`), what a press means in a game (the engine's table referees).
"""
from __future__ import annotations

import heapq
import itertools
import logging
import queue
import threading
import time
from dataclasses import dataclass, replace
from typing import Any, Callable, Hashable, Mapping

from engine.observations import PadPressed, PadReleased

from device.config import Config, PadSettings

TURN_BUTTON = "turn"

log = logging.getLogger(__name__)

# ---------------------------------------------------------------- the judging of one contact


@dataclass(frozen=True)
class ContactRules:
    """`PadSettings` in nanoseconds."""

    debounce_ns: int = 10_000_000
    hold_ns: int | None = 600_000_000
    stuck_ns: int = 20_000_000_000

    @classmethod
    def from_settings(cls, settings: PadSettings) -> ContactRules:
        return cls(debounce_ns=round(settings.debounce_ms * 1e6),
                   hold_ns=None if settings.hold_ms is None else round(settings.hold_ms * 1e6),
                   stuck_ns=round(settings.stuck_s * 1e9))


@dataclass(frozen=True)
class ContactState:
    """What one contact is doing. phase: "idle" (up), "down", or "releasing" (went up at
    `release_t`, not yet up for a whole debounce time)."""

    phase: str = "idle"
    press_t: int = 0
    release_t: int = 0
    reported: bool = False   # the press has been handed on
    silent: bool = False     # was already down when we started: nothing to hand on
    stuck: bool = False


@dataclass(frozen=True)
class Pressed:
    t_ns: int
    held: bool


@dataclass(frozen=True)
class Released:
    t_ns: int


@dataclass(frozen=True)
class Stuck:
    since_ns: int


@dataclass(frozen=True)
class Freed:
    t_ns: int


ContactEvent = Pressed | Released | Stuck | Freed


def down_at_start(now_ns: int) -> ContactState:
    """A contact found pressed when the pads open: a resting hand, or a stuck pad."""
    return ContactState(phase="down", press_t=now_ns, reported=True, silent=True)


def on_time(state: ContactState, rules: ContactRules, now_ns: int) -> tuple[ContactState, tuple[ContactEvent, ...]]:
    """Everything that has become true by `now_ns` without a new edge."""
    events: list[ContactEvent] = []
    if state.phase == "idle":
        return state, ()
    if (state.phase == "down" and not state.reported and rules.hold_ns is not None
            and now_ns - state.press_t >= rules.hold_ns):
        events.append(Pressed(state.press_t, held=True))
        state = replace(state, reported=True)
    if not state.stuck:
        down_until = now_ns if state.phase == "down" else state.release_t
        if down_until - state.press_t >= rules.stuck_ns:
            events.append(Stuck(state.press_t))
            state = replace(state, stuck=True)
    if state.phase == "releasing" and now_ns - state.release_t >= rules.debounce_ns:
        if not state.reported:
            events.append(Pressed(state.press_t, held=False))
        if not state.silent:
            events.append(Released(state.release_t))
        if state.stuck:
            events.append(Freed(state.release_t))
        state = ContactState()
    return state, tuple(events)


def on_edge(state: ContactState, rules: ContactRules, t_ns: int,
            active: bool) -> tuple[ContactState, tuple[ContactEvent, ...]]:
    """The contact changed to `active` (pressed) or not at `t_ns`."""
    state, events = on_time(state, rules, t_ns)
    if state.phase == "idle" and active:
        state = ContactState(phase="down", press_t=t_ns)
        if rules.hold_ns is None:
            state = replace(state, reported=True)
            events += (Pressed(t_ns, held=False),)
    elif state.phase == "down" and not active:
        state = replace(state, phase="releasing", release_t=t_ns)
    elif state.phase == "releasing" and active:
        # Closed again within the debounce time (on_time above would have ended the
        # press otherwise): chatter, or a hand pressing on. Still the same press.
        state = replace(state, phase="down")
    return state, events


def next_deadline(state: ContactState, rules: ContactRules) -> int | None:
    """The next time at which `on_time` could change something, if any."""
    times = []
    if state.phase == "down" and not state.reported and rules.hold_ns is not None:
        times.append(state.press_t + rules.hold_ns)
    if state.phase == "down" and not state.stuck:
        times.append(state.press_t + rules.stuck_ns)
    if state.phase == "releasing":
        times.append(state.release_t + rules.debounce_ns)
    return min(times) if times else None


# ---------------------------------------------------------------- ticks -> monotonic ns


class TickClock:
    """Turns a pin factory's edge ticks into `time.monotonic_ns()`.

    gpiozero's ticks are opaque: only `factory.ticks_diff(later, earlier)` (seconds) may
    compare them. We sample `factory.ticks()` and `monotonic_ns()` back to back once (the
    anchor) and place an edge at anchor_ns + ticks_diff(edge, anchor). For the local
    factories (lgpio, rpigpio, native) and for `MockFactory`, ticks are
    `time.monotonic()` seconds, so the result is the edge's own monotonic time to well
    under a microsecond. Edges before the anchor are handled with the smaller of the two
    ticks_diff directions (pigpio's 32-bit microsecond ticks wrap).

    Some kernels stamp GPIO line events with CLOCK_REALTIME instead of CLOCK_MONOTONIC;
    lgpio hands those stamps on as ticks. An edge more than an hour away from the anchor
    cannot be a monotonic stamp, so it is read as wall-clock time and moved onto the
    monotonic clock with the current offset between the two.
    """

    FAR_S = 3600.0
    ANCHOR_TRIES = 5

    def __init__(self, factory: Any, monotonic_ns: Callable[[], int] = time.monotonic_ns,
                 realtime_ns: Callable[[], int] = time.time_ns):
        self._factory = factory
        self._monotonic_ns = monotonic_ns
        self._realtime_ns = realtime_ns
        # The middle of the two tick samples is when `now` was read, to within half
        # their spread; a thread switched out between them widens it (20 us seen on a
        # loaded host), so the narrowest of a few tries is the anchor.
        best = None
        for _ in range(self.ANCHOR_TRIES):
            before = factory.ticks()
            now = monotonic_ns()
            after = factory.ticks()
            spread = self._signed_diff(after, before)
            if best is None or spread < best[0]:
                best = (spread, before, now)
        spread, self._anchor_ticks, now = best
        self._anchor_ns = now - round(spread * 1e9 / 2)

    def _signed_diff(self, later: Any, earlier: Any) -> float:
        forward = self._factory.ticks_diff(later, earlier)
        backward = self._factory.ticks_diff(earlier, later)
        if forward >= 0 and (backward < 0 or forward <= backward):
            return forward
        return -backward

    def to_ns(self, ticks: Any) -> int:
        diff = self._signed_diff(ticks, self._anchor_ticks)
        if abs(diff) > self.FAR_S and isinstance(ticks, (int, float)):
            return round(ticks * 1e9) - self._realtime_ns() + self._monotonic_ns()
        return self._anchor_ns + round(diff * 1e9)


# ---------------------------------------------------------------- the pads on their pins


class PadError(RuntimeError):
    """A pad pin that cannot be opened (says which seat, which pin, and why)."""


@dataclass(frozen=True)
class TurnButtonPressed:
    """The shared turn button (a device event, not a seat's pad)."""

    t_ns: int
    held: bool = False


@dataclass(frozen=True, order=True)
class _Edge:
    t_ns: int
    seq: int
    key: Hashable
    active: bool


class _PinWatcher:
    """What gpiozero calls on an edge. It only queues; it must never block gpiozero's
    thread. (gpiozero keeps a weak reference to a bound method, so PadArray keeps us.)"""

    def __init__(self, key: Hashable, inbox: queue.SimpleQueue, active_high: bool):
        self.key = key
        self._inbox = inbox
        self._active_high = active_high

    def changed(self, ticks: Any, state: Any) -> None:
        self._inbox.put((ticks, self.key, bool(state) == self._active_high))


_STOP = object()


class PadArray:
    """All the pads of the table (seat -> BCM pin), plus the optional turn button.

    Presses and releases go onto `out` as `PadPressed(seat, t_ns, held)` and
    `PadReleased(seat, t_ns)`; turn-button presses go to `on_turn(TurnButtonPressed)`
    (or onto `out` if no `on_turn` is given); a pad stuck down and freed again is told to
    `on_status(key, "stuck" | "ok")` where key is the seat or "turn". Both callbacks run on
    the pads' worker thread and must be quick.
    """

    def __init__(self, seat_pins: Mapping[int, int], settings: PadSettings, out: queue.Queue, *,
                 turn_button: int | None = None,
                 on_turn: Callable[[TurnButtonPressed], None] | None = None,
                 on_status: Callable[[Hashable, str], None] | None = None,
                 pin_factory: Any = None,
                 monotonic_ns: Callable[[], int] = time.monotonic_ns):
        from gpiozero import InputDevice  # gpiozero is only needed where pads are used

        self._out = out
        self._on_turn = on_turn
        self._on_status = on_status
        self._rules = ContactRules.from_settings(settings)
        self._window_ns = round(settings.order_window_ms * 1e6)
        self._monotonic_ns = monotonic_ns
        self._inbox: queue.SimpleQueue = queue.SimpleQueue()
        self._devices: dict[Hashable, Any] = {}
        self._watchers: list[_PinWatcher] = []
        self._states: dict[Hashable, ContactState] = {}
        self._pending: list[_Edge] = []
        self._seq = itertools.count()
        pull_up = {"up": True, "down": False, "none": None}[settings.pull]
        active_state = settings.active_high if pull_up is None else None

        wanted: list[tuple[Hashable, int]] = [(seat, pin) for seat, pin in sorted(seat_pins.items())]
        if turn_button is not None:
            wanted.append((TURN_BUTTON, turn_button))
        try:
            for key, pin in wanted:
                try:
                    device = InputDevice(pin, pull_up=pull_up, active_state=active_state,
                                         pin_factory=pin_factory)
                except Exception as exc:  # gpiozero raises many kinds; all mean "not this pin"
                    what = "the turn button" if key == TURN_BUTTON else f"seat {key}'s pad"
                    raise PadError(f"{what} on BCM {pin} cannot be opened: "
                                   f"{type(exc).__name__}: {exc}") from exc
                self._devices[key] = device
            self._factory = next(iter(self._devices.values())).pin_factory if self._devices else pin_factory
            self._tick_clock = TickClock(self._factory, monotonic_ns) if self._devices else None
            now = monotonic_ns()
            for key, device in self._devices.items():
                self._states[key] = down_at_start(now) if device.is_active else ContactState()
                watcher = _PinWatcher(key, self._inbox, settings.active_high)
                self._watchers.append(watcher)
                pin = device.pin
                pin.bounce = None      # we debounce on the ticks ourselves
                pin.edges = "both"
                pin.when_changed = watcher.changed
        except BaseException:
            self._close_devices()
            raise
        self._thread = threading.Thread(target=self._run, name="deckhand-pads", daemon=True)
        self._thread.start()

    @classmethod
    def from_config(cls, config: Config, out: queue.Queue, **kwargs: Any) -> PadArray:
        return cls(config.pad_pins, config.pads, out, turn_button=config.turn_button, **kwargs)

    @property
    def pins(self) -> dict[Hashable, Any]:
        """The gpiozero pin of each pad (seat numbers, and "turn")."""
        return {key: device.pin for key, device in self._devices.items()}

    @property
    def kind(self) -> str:
        """"mock" on gpiozero's MockFactory, "gpio" on real pins, "none" without pads
        (the words of the table status line)."""
        if not self._devices:
            return "none"
        return "mock" if type(self._factory).__name__ == "MockFactory" else "gpio"

    def __enter__(self) -> PadArray:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def close(self) -> None:
        if self._thread.is_alive():
            self._inbox.put(_STOP)
            self._thread.join(timeout=2)
        self._close_devices()

    def _close_devices(self) -> None:
        for device in self._devices.values():
            try:
                device.pin.when_changed = None
            except Exception:
                pass
            device.close()
        self._devices.clear()

    # -- the worker thread

    def _run(self) -> None:
        while True:
            try:
                item = self._inbox.get(timeout=self._timeout_s())
            except queue.Empty:
                item = None
            while item is not None:
                if item is _STOP:
                    return
                ticks, key, active = item
                heapq.heappush(self._pending, _Edge(self._tick_clock.to_ns(ticks), next(self._seq), key, active))
                try:
                    item = self._inbox.get_nowait()
                except queue.Empty:
                    item = None
            try:
                self._judge_until(self._monotonic_ns() - self._window_ns)
            except Exception:   # a failing callback must not leave the table without pads
                log.exception("pads: handing on an observation failed")

    def _timeout_s(self) -> float:
        now = self._monotonic_ns()
        soonest = [edge_t + self._window_ns for edge_t in (self._pending[0].t_ns,)] if self._pending else []
        for state in self._states.values():
            deadline = next_deadline(state, self._rules)
            if deadline is not None:
                soonest.append(deadline + self._window_ns)
        if not soonest:
            return 1.0
        return min(1.0, max(0.0, (min(soonest) - now) / 1e9))

    def _judge_until(self, horizon_ns: int) -> None:
        while self._pending and self._pending[0].t_ns <= horizon_ns:
            edge = heapq.heappop(self._pending)
            self._advance_all(edge.t_ns)
            state, events = on_edge(self._states[edge.key], self._rules, edge.t_ns, edge.active)
            self._states[edge.key] = state
            self._hand_on(edge.key, events)
        self._advance_all(horizon_ns)

    def _advance_all(self, t_ns: int) -> None:
        for key, state in self._states.items():
            if state.phase != "idle":
                state, events = on_time(state, self._rules, t_ns)
                self._states[key] = state
                self._hand_on(key, events)

    def _hand_on(self, key: Hashable, events: tuple[ContactEvent, ...]) -> None:
        for event in events:
            if isinstance(event, Pressed):
                if key == TURN_BUTTON:
                    press = TurnButtonPressed(event.t_ns, event.held)
                    if self._on_turn is not None:
                        self._on_turn(press)
                    else:
                        self._out.put(press)
                else:
                    self._out.put(PadPressed(key, event.t_ns, event.held))
            elif isinstance(event, Released):
                if key != TURN_BUTTON:
                    self._out.put(PadReleased(key, event.t_ns))
            elif self._on_status is not None:
                self._on_status(key, "stuck" if isinstance(event, Stuck) else "ok")
