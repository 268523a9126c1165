"""Seat LEDs and the buzzer on gpiozero's MockFactory, and the keyboard standing in for
pads (through a real pipe, as the terminal would deliver keys)."""
from __future__ import annotations

import os
import queue
import time

import pytest
from gpiozero.pins.mock import MockFactory

from device.indicators import IndicatorError, SeatLights
from device.keyboard_pads import KeyboardPads, help_line, key_to_observations
from device.pads import TurnButtonPressed
from engine.observations import PadPressed, PadReleased


@pytest.fixture()
def factory():
    f = MockFactory()
    yield f
    f.reset()


def eventually(condition, timeout=2.0):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def test_whose_turn_lights_only_that_seat(factory):
    lights = SeatLights({0: 5, 1: 6, 2: 12}, pin_factory=factory)
    lights.show_turn(1)
    assert [lights.leds[s].pin.state for s in range(3)] == [False, True, False]
    lights.show_turn(2)
    assert [lights.leds[s].pin.state for s in range(3)] == [False, False, True]
    lights.show_turn(None)
    assert not any(lights.leds[s].pin.state for s in range(3))
    lights.close()


def test_the_slap_loser_flashes_and_the_buzzer_sounds(factory):
    lights = SeatLights({0: 5, 1: 6}, buzzer=18, pin_factory=factory)
    loser_pin = lights.leds[1].pin
    loser_pin.clear_states()
    lights.show_slap_loser(1, flashes=2)
    # on, off, on, off after the initial state: two flashes, then dark
    assert eventually(lambda: [s.state for s in loser_pin.states] == [False, True, False, True, False])
    assert eventually(lambda: any(s.state for s in lights.buzzer.pin.states))
    assert not lights.leds[0].pin.state
    lights.close()


def test_a_stuck_pad_blinks_until_told_otherwise(factory):
    lights = SeatLights({0: 5}, pin_factory=factory)
    lights.show_stuck(0)
    assert eventually(lambda: len(lights.leds[0].pin.states) >= 2)
    lights.show_turn(0)
    assert lights.leds[0].pin.state
    lights.all_off()
    assert not lights.leds[0].pin.state
    lights.close()


def test_an_led_pin_that_cannot_be_opened_is_named(factory):
    with pytest.raises(IndicatorError, match=r"seat 1's LED on BCM 5 cannot be opened"):
        SeatLights({0: 5, 1: 5}, pin_factory=factory)
    with pytest.raises(IndicatorError, match=r"the buzzer on BCM 5 cannot be opened"):
        SeatLights({0: 5}, buzzer=5, pin_factory=factory)
    SeatLights({0: 5}, buzzer=18, pin_factory=factory).close()   # nothing was left open


def test_keys_mean_taps_holds_and_the_turn_button():
    assert key_to_observations("1", 100, 4) == (PadPressed(0, 100, False), PadReleased(0, 101))
    assert key_to_observations("#", 100, 4) == (PadPressed(2, 100, True), PadReleased(2, 101))
    assert key_to_observations("0", 100, 10)[0] == PadPressed(9, 100, False)
    assert key_to_observations("5", 100, 4) == ()      # no seat 4 at this table
    assert key_to_observations("x", 100, 4) == ()
    assert key_to_observations(" ", 100, 4) == (TurnButtonPressed(100),)
    assert "1 2 3" in help_line(3)


def test_keyboard_pads_read_keys_from_the_terminal_stream():
    read_end, write_end = os.pipe()
    q = queue.Queue()
    turns = []
    with KeyboardPads(q, 3, stream=read_end, on_turn=turns.append):
        os.write(write_end, b"2@ 9")
        assert eventually(lambda: q.qsize() == 4 and turns)
    os.close(write_end)
    os.close(read_end)
    got = [q.get_nowait() for _ in range(4)]
    assert [(type(o).__name__, o.seat) for o in got] == [
        ("PadPressed", 1), ("PadReleased", 1), ("PadPressed", 1), ("PadReleased", 1)]
    assert [o.held for o in got if isinstance(o, PadPressed)] == [False, True]
