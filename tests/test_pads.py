"""The pads on gpiozero's own MockFactory: presses timed from the pins' edge ticks,
debounced, handed on in the order they happened even when a callback comes late, the
turn button, a stuck pad, a pin that cannot be opened.

Two ways of making edges, both gpiozero's own:
* `pin.drive_low()` / `drive_high()` on a MockPin: the pin changes state and calls its
  `when_changed(ticks, state)` with its own ticks (`MockFactory.ticks()`).
* scheduled edges: `pin.when_changed` is the documented Pin property holding the
  handler a pin driver calls with `(ticks, state)`; calling it with chosen ticks is
  exactly what lgpio's callback thread does, with the kernel's timestamp, when it is
  late. Scheduled ticks lie slightly in the future, so all of a schedule is delivered
  before the worker judges any of it.
"""
from __future__ import annotations

import queue
import time

import pytest
from gpiozero.pins.mock import MockFactory

from device.config import PadSettings
from device.pads import PadArray, PadError, TickClock, TurnButtonPressed
from engine.observations import PadPressed, PadReleased

MS = 1_000_000
FAST = PadSettings(debounce_ms=10, hold_ms=None, stuck_s=60, order_window_ms=2)


@pytest.fixture()
def factory():
    f = MockFactory()
    yield f
    f.reset()


def drain(q: queue.Queue, n: int, timeout: float = 2.0) -> list:
    out = []
    deadline = time.monotonic() + timeout
    while len(out) < n and time.monotonic() < deadline:
        try:
            out.append(q.get(timeout=max(0.0, deadline - time.monotonic())))
        except queue.Empty:
            break
    return out


def shape(out: list, base: int) -> list:
    """Observations with times made relative to `base` and rounded to 10 us (float ticks
    carry sub-microsecond rounding)."""
    rounded = []
    for o in out:
        rel = round((o.t_ns - base) / 10_000) * 10_000
        rounded.append(PadPressed(o.seat, rel, o.held) if isinstance(o, PadPressed) else PadReleased(o.seat, rel))
    return rounded


def eventually(condition, timeout: float = 2.0) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True


def quiet(q: queue.Queue, wait: float = 0.05) -> bool:
    time.sleep(wait)
    return q.empty()


def schedule(pads: PadArray, factory, edges, lead_s: float = 0.05) -> int:
    """Deliver (seat, offset_s, pressed) edges through the pins' when_changed handlers,
    in the order given, with ticks = base + offset. Returns base in monotonic ns."""
    base = factory.ticks() + lead_s
    for seat, offset, pressed in edges:
        level = not pressed   # pads pulled up: pressed reads low
        pads.pins[seat].when_changed(base + offset, level)
    return TickClock(factory).to_ns(base)


def test_a_press_on_a_mock_pin_is_timed_from_its_edge(factory):
    q = queue.Queue()
    with PadArray({0: 17, 1: 27}, FAST, q, pin_factory=factory) as pads:
        pin = pads.pins[1]
        before = time.monotonic_ns()
        pin.drive_low()
        after = time.monotonic_ns()
        time.sleep(0.03)
        pin.drive_high()
        press, release = drain(q, 2)
    assert isinstance(press, PadPressed) and press.seat == 1 and not press.held
    # within the drive_low() call, give or take the TickClock anchor's 1 us
    assert before - 1000 <= press.t_ns <= after + 1000
    assert isinstance(release, PadReleased) and release.seat == 1
    assert 25 * MS <= release.t_ns - press.t_ns


def test_chatter_on_every_press_still_gives_one_press_each(factory):
    q = queue.Queue()
    with PadArray({0: 17}, FAST, q, pin_factory=factory) as pads:
        edges = []
        for press_at in (0.0, 0.100):
            for i in range(5):   # a 5 ms burst of bounces
                edges += [(0, press_at + i * 0.001, True), (0, press_at + i * 0.001 + 0.0005, False)]
            edges += [(0, press_at + 0.005, True), (0, press_at + 0.050, False)]
        base = schedule(pads, factory, edges)
        out = drain(q, 4)
        assert quiet(q)
    assert shape(out, base) == [PadPressed(0, 0, False), PadReleased(0, 50 * MS),
                                PadPressed(0, 100 * MS, False), PadReleased(0, 150 * MS)]


def test_presses_1ms_apart_are_ordered_by_their_edges_not_by_callback_order(factory):
    q = queue.Queue()
    with PadArray({0: 17, 1: 27, 2: 22}, FAST, q, pin_factory=factory) as pads:
        # Seat 2 pressed first, then 0, then 1, each 1 ms apart — but the callbacks
        # arrive the other way round, seat 2's last.
        base = schedule(pads, factory, [(1, 0.002, True), (0, 0.001, True), (2, 0.0, True)])
        out = drain(q, 3)
    assert [o.seat for o in out] == [2, 0, 1]
    assert [o.t_ns for o in shape(out, base)] == [0, 1 * MS, 2 * MS]


def test_a_late_callback_within_the_order_window_is_still_put_first(factory):
    q = queue.Queue()
    settings = PadSettings(debounce_ms=10, hold_ms=None, order_window_ms=200)
    with PadArray({0: 17, 1: 27}, settings, q, pin_factory=factory) as pads:
        now = factory.ticks()
        pads.pins[1].when_changed(now, False)           # seat 1 pressed now
        time.sleep(0.005)                               # seat 0's callback is 5 ms late
        pads.pins[0].when_changed(now - 0.001, False)   # ...for a press 1 ms earlier
        out = drain(q, 2)
    assert [o.seat for o in out] == [0, 1]


def test_tap_and_hold_on_the_pins(factory):
    q = queue.Queue()
    settings = PadSettings(debounce_ms=10, hold_ms=150, stuck_s=60, order_window_ms=2)
    with PadArray({0: 17, 1: 27}, settings, q, pin_factory=factory) as pads:
        base = schedule(pads, factory, [(0, 0.0, True), (0, 0.080, False),
                                        (1, 0.0, True), (1, 0.300, False)])
        out = drain(q, 4)
    assert shape(out, base) == [PadPressed(0, 0, False), PadReleased(0, 80 * MS),
                                PadPressed(1, 0, True), PadReleased(1, 300 * MS)]


def test_a_resting_hand_is_one_press_until_it_lifts(factory):
    q = queue.Queue()
    settings = PadSettings(debounce_ms=10, hold_ms=100, stuck_s=60)
    with PadArray({0: 17}, settings, q, pin_factory=factory) as pads:
        pads.pins[0].drive_low()
        assert isinstance(drain(q, 1)[0], PadPressed)
        assert quiet(q, 0.3)                # resting: nothing more
        pads.pins[0].drive_high()
        assert isinstance(drain(q, 1)[0], PadReleased)


def test_a_stuck_pad_is_reported_and_freed(factory):
    q = queue.Queue()
    statuses = []
    settings = PadSettings(debounce_ms=10, hold_ms=None, stuck_s=0.1)
    with PadArray({0: 17}, settings, q, pin_factory=factory,
                  on_status=lambda key, status: statuses.append((key, status))) as pads:
        pads.pins[0].drive_low()
        assert eventually(lambda: statuses == [(0, "stuck")])
        pads.pins[0].drive_high()
        assert eventually(lambda: len(statuses) == 2)
    assert statuses == [(0, "stuck"), (0, "ok")]


def test_the_turn_button_goes_to_its_own_callback(factory):
    q = queue.Queue()
    turns = []
    with PadArray({0: 17}, FAST, q, pin_factory=factory, turn_button=16, on_turn=turns.append) as pads:
        pads.pins["turn"].drive_low()
        pads.pins["turn"].drive_high()
        assert eventually(lambda: turns)
        time.sleep(0.03)
    assert len(turns) == 1 and isinstance(turns[0], TurnButtonPressed) and q.empty()


def test_a_pad_down_when_the_pads_open_reports_nothing_until_it_lifts(factory):
    pin = factory.pin(17)
    pin.drive_high()   # an FSR comparator output holding the line high: "pressed"
    q = queue.Queue()
    settings = PadSettings(pull="none", active_high=True, debounce_ms=10, hold_ms=None)
    with PadArray({0: 17}, settings, q, pin_factory=factory) as pads:
        assert quiet(q)
        pads.pins[0].drive_low()
        assert quiet(q)
        pads.pins[0].drive_high()
        press = drain(q, 1)
    assert press and isinstance(press[0], PadPressed)


def test_gpiozero_bounce_time_is_off_and_both_edges_are_watched(factory):
    with PadArray({0: 17}, FAST, queue.Queue(), pin_factory=factory) as pads:
        pin = pads.pins[0]
        assert pin.bounce is None and pin.edges == "both" and pin.pull == "up"
        assert pads.kind == "mock"
    with PadArray({}, FAST, queue.Queue(), pin_factory=factory) as no_pads:
        assert no_pads.kind == "none"


def test_a_pin_that_cannot_be_opened_names_the_seat_and_pin(factory):
    with pytest.raises(PadError, match=r"seat 1's pad on BCM 17 cannot be opened: GPIOPinInUse"):
        PadArray({0: 17, 1: 17}, FAST, queue.Queue(), pin_factory=factory)
    with pytest.raises(PadError, match=r"seat 0's pad on BCM 99 cannot be opened"):
        PadArray({0: 99}, FAST, queue.Queue(), pin_factory=factory)
    # the pins opened before the failure were given back
    PadArray({0: 17}, FAST, queue.Queue(), pin_factory=factory).close()


def test_closing_releases_the_pins_and_stops_the_worker(factory):
    q = queue.Queue()
    pads = PadArray({0: 17}, FAST, q, pin_factory=factory)
    pin = pads.pins[0]
    pads.close()
    assert pin.when_changed is None
    assert not pads._thread.is_alive()
    PadArray({0: 17}, FAST, q, pin_factory=factory).close()


def test_tick_clock_places_mock_ticks_on_the_monotonic_clock(factory):
    clock = TickClock(factory)
    ticks = factory.ticks()
    now = time.monotonic_ns()
    assert abs(clock.to_ns(ticks) - now) < 1 * MS
    assert clock.to_ns(ticks + 0.001) - clock.to_ns(ticks) == 1 * MS


def test_tick_clock_anchors_on_the_narrowest_of_its_samples():
    """A thread switched out between the first tick sample and the clock read (40 us
    lost) must not shift every edge by 20 us: the tightest sample pair is the anchor."""
    class Stalling:
        def __init__(self):
            self.reads = iter([0.0, 40e-6, 41e-6, 41e-6, 42e-6, 42e-6, 43e-6, 43e-6, 44e-6, 44e-6])

        def ticks(self):
            return next(self.reads)

        @staticmethod
        def ticks_diff(later, earlier):
            return later - earlier

    mono = iter([40_000, 41_000, 42_000, 43_000, 44_000])   # monotonic ns, read between tick samples
    clock = TickClock(Stalling(), monotonic_ns=lambda: next(mono))
    # true relation: ticks t <-> t * 1e9 ns, which the second sample pair pins exactly
    assert clock.to_ns(0.000100) == 100_000


class WrappingFactory:
    """Ticks like pigpio's: microseconds in 32 bits, wrapping."""

    WRAP = 2**32

    def __init__(self, start: int):
        self.now = start

    def ticks(self):
        return self.now

    def ticks_diff(self, later, earlier):
        return ((later - earlier) % self.WRAP) / 1e6


def test_tick_clock_follows_wrapping_ticks_both_ways():
    factory = WrappingFactory(WrappingFactory.WRAP - 500)   # 0.5 ms before the wrap
    clock = TickClock(factory, monotonic_ns=lambda: 10**12)
    assert clock.to_ns(1500) - clock.to_ns(WrappingFactory.WRAP - 500) == 2 * MS   # across the wrap
    assert clock.to_ns(WrappingFactory.WRAP - 1500) == 10**12 - 1 * MS             # before the anchor


def test_tick_clock_reads_wall_clock_stamps_as_such():
    class Local:
        @staticmethod
        def ticks():
            return 1000.0

        @staticmethod
        def ticks_diff(later, earlier):
            return later - earlier

    clock = TickClock(Local, monotonic_ns=lambda: 1000 * 10**9, realtime_ns=lambda: 1_700_000_000 * 10**9)
    # a CLOCK_REALTIME stamp 3 ms ago
    assert abs(clock.to_ns(1_700_000_000 - 0.003) - (1000 * 10**9 - 3 * MS)) < 1000


def test_random_chattering_presses_on_four_pads_match_the_model(factory):
    """The threaded pads against the pure model: random presses with chatter on four
    seats, callbacks shuffled across pins; every seat's presses are what the model says,
    and presses reach the queue in time order."""
    import random

    from device.pads import ContactRules
    from tests.test_pads_logic import model

    rng = random.Random(11)
    rules = ContactRules(debounce_ns=10 * MS, hold_ns=None, stuck_ns=10**18)
    settings = PadSettings(debounce_ms=10, hold_ms=None, stuck_s=60, order_window_ms=2)
    per_seat: dict[int, list[tuple[int, bool]]] = {}
    for seat in range(4):
        edges, t, level = [], 0, False
        for _ in range(rng.randint(2, 6)):   # alternate press / release, each after a pause
            t += rng.randint(12, 40) * MS
            for _ in range(rng.choice([0, 1, 2])):   # bounces before the contact settles
                edges += [(t, not level), (t + rng.randint(200, 900) * 1000, level)]
                t += MS
            level = not level
            edges.append((t, level))
        if level:
            edges.append((t + 20 * MS, False))
        clean, current = [], False   # strictly alternating, starting with a press
        for t_ns, pressed in edges:
            if pressed != current:
                clean.append((t_ns, pressed))
                current = pressed
        per_seat[seat] = clean
    q = queue.Queue()
    with PadArray({0: 17, 1: 27, 2: 22, 3: 23}, settings, q, pin_factory=factory) as pads:
        cursors = {seat: 0 for seat in per_seat}
        base = factory.ticks() + 0.05
        while any(cursors[s] < len(per_seat[s]) for s in per_seat):
            seat = rng.choice([s for s in per_seat if cursors[s] < len(per_seat[s])])
            t_ns, pressed = per_seat[seat][cursors[seat]]   # each pin in order, pins interleaved
            cursors[seat] += 1
            pads.pins[seat].when_changed(base + t_ns / 1e9, not pressed)
        base_ns = TickClock(factory).to_ns(base)
        total = sum(len(model(edges, rules)) for edges in per_seat.values())
        out = drain(q, total, timeout=5)
        assert quiet(q)
    names = {"Pressed": "PadPressed", "Released": "PadReleased"}
    for seat, edges in per_seat.items():
        expected = [(names[type(e).__name__], round(e.t_ns / 10_000)) for e in model(edges, rules)]
        got = [(type(o).__name__, round((o.t_ns - base_ns) / 10_000)) for o in out if o.seat == seat]
        assert got == expected, seat
    presses = [o.t_ns for o in out if isinstance(o, PadPressed)]
    assert presses == sorted(presses)
