"""Pads without GPIO: keys in the terminal stand for the seats' pads.

Keys 1 2 3 ... 9 0 tap the pads of seats 0..9; with Shift (! @ # ...  on a US
keyboard) they are holds; the space bar is the turn button. Each key gives a
`PadPressed` then a `PadReleased` on the same queue the GPIO pads use, timed when the
key was read. The terminal is put in cbreak mode (keys arrive without Enter; Ctrl-C
still works) and restored on close.

What does not live here: GPIO pads (`device.pads`), pads on a web page (the web layer).
"""
from __future__ import annotations

import os
import queue
import select
import sys
import threading
import time
from typing import Any, Callable

from engine.observations import PadPressed, PadReleased

from device.pads import TurnButtonPressed

TAP_KEYS = "1234567890"
HOLD_KEYS = "!@#$%^&*()"
TURN_KEY = " "


def key_to_observations(key: str, t_ns: int, seats: int) -> tuple[Any, ...]:
    """What one key means: (PadPressed, PadReleased) for a seat's key, (TurnButtonPressed,)
    for the space bar, () for any other key or a seat that is not at the table."""
    if key == TURN_KEY:
        return (TurnButtonPressed(t_ns),)
    for keys, held in ((TAP_KEYS, False), (HOLD_KEYS, True)):
        if key in keys:
            seat = keys.index(key)
            if seat < seats:
                return (PadPressed(seat, t_ns, held), PadReleased(seat, t_ns + 1))
    return ()


def help_line(seats: int) -> str:
    shown = min(seats, len(TAP_KEYS))
    return (f"pads: keys {' '.join(TAP_KEYS[:shown])} tap seats 0..{shown - 1}, "
            f"with Shift they hold; space is the turn button")


class KeyboardPads:
    """Reads keys from `stream` (default: the terminal) on a thread and puts pad
    observations on `out`; turn-button presses go to `on_turn` (or onto `out`)."""

    def __init__(self, out: queue.Queue, seats: int, *, stream: Any = None,
                 on_turn: Callable[[TurnButtonPressed], None] | None = None,
                 monotonic_ns: Callable[[], int] = time.monotonic_ns):
        self._out = out
        self._seats = seats
        self._on_turn = on_turn
        self._monotonic_ns = monotonic_ns
        stream = stream if stream is not None else sys.stdin
        self._fd = stream if isinstance(stream, int) else stream.fileno()
        self._saved_mode = None
        self._stop = threading.Event()
        if os.isatty(self._fd):
            import termios
            import tty
            self._saved_mode = termios.tcgetattr(self._fd)
            tty.setcbreak(self._fd)
        self._thread = threading.Thread(target=self._run, name="deckhand-keyboard-pads", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            ready, _, _ = select.select([self._fd], [], [], 0.1)
            if not ready:
                continue
            data = os.read(self._fd, 64)
            if not data:
                return   # end of input
            t_ns = self._monotonic_ns()
            for key in data.decode("utf-8", "replace"):
                for observation in key_to_observations(key, t_ns, self._seats):
                    if isinstance(observation, TurnButtonPressed) and self._on_turn is not None:
                        self._on_turn(observation)
                    else:
                        self._out.put(observation)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=1)
        if self._saved_mode is not None:
            import termios
            termios.tcsetattr(self._fd, termios.TCSADRAIN, self._saved_mode)
            self._saved_mode = None

    def __enter__(self) -> KeyboardPads:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()
