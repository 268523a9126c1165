"""The pads loop: `PadPressed` observations from the pads' queue go to the table's
referee (source "pad"), and the seat lights follow whose turn it is and who lost a slap.

The pads are rebuilt when the game changes, because what a press means differs: Flip 7
tells a tap (Hit) from a hold (Stay), so a press is known only at release or at the hold
time; in the other games a press is a slap or a claim and is reported at once.
"""
from __future__ import annotations

import logging
import queue
import threading
import time
from dataclasses import replace
from typing import Any, Callable

from engine.core import IllegalAction
from engine.observations import PadPressed

log = logging.getLogger("deckhand.pads")

GAMES_WITH_HOLDS = ("flip7",)


def settings_for_game(settings: Any, game: str | None) -> Any:
    """Pad settings for `game`: holds only where a hold means something."""
    if game in GAMES_WITH_HOLDS:
        return settings if settings.hold_ms is not None else replace(settings, hold_ms=600.0)
    return replace(settings, hold_ms=None)


class PadLoop:
    def __init__(self, table: Any, make_pads: Callable[[Any, queue.Queue], Any], settings: Any,
                 lights: Any = None):
        self.table = table
        self._make_pads = make_pads
        self._settings = settings
        self._lights = lights
        self._shown_turn: Any = _UNSHOWN
        self._shown_losers: tuple[int, ...] = ()
        self._turn_after = 0.0
        self._queue: queue.Queue = queue.Queue()
        self._game: str | None = None
        self.pads = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.presses = 0
        self.refused = 0
        self.heartbeat = time.monotonic()
        self._rebuild(self._current_game())

    def _current_game(self) -> str | None:
        match = self.table.current_match
        return match.record.spec.game if match is not None else None

    def _rebuild(self, game: str | None) -> None:
        if self.pads is not None:
            self.pads.close()
        self._game = game
        self.pads = self._make_pads(settings_for_game(self._settings, game), self._queue)

    @property
    def kind(self) -> str:
        return getattr(self.pads, "kind", "none")

    def start(self) -> "PadLoop":
        self._thread = threading.Thread(target=self._run, name="deckhand-pad-loop", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        if self.pads is not None:
            self.pads.close()

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def press(self, seat: int, held: bool = False) -> None:
        """Press a mock pad as a person would (the simulated table's bots)."""
        pin = self.pads.pins[seat]
        pin.drive_low()
        time.sleep(0.75 if held else 0.06)
        pin.drive_high()

    def _run(self) -> None:
        while not self._stop.is_set():
            self.heartbeat = time.monotonic()
            game = self._current_game()
            if game != self._game:
                self._rebuild(game)
            self._show_turn()
            try:
                item = self._queue.get(timeout=0.1)
            except queue.Empty:
                continue
            if isinstance(item, PadPressed):
                self.presses += 1
                try:
                    self.table.observe_event(item, "pad")
                except IllegalAction as exc:
                    self.refused += 1
                    self.table.set_status(pad_refused=exc.reason)
                    log.info("pad %s refused: %s", item.seat, exc.reason)

    def _show_turn(self) -> None:
        """Tell the seat lights what changed: a slap lost (the loser's LED flashes and
        the buzzer sounds; the turn light waits until the flashing is over) or whose turn
        it is. Nothing is sent while nothing changes."""
        if self._lights is None:
            return
        match = self.table.current_match
        now = time.monotonic()
        turn, losers = light_signals(match.view if match is not None else None)
        if losers != self._shown_losers:
            self._shown_losers = losers
            for seat in losers:
                self._lights.show_slap_loser(seat)
            if losers:
                self._turn_after = now + SLAP_FLASH_S
                self._shown_turn = _UNSHOWN
        if now >= self._turn_after and turn != self._shown_turn:
            self._shown_turn = turn
            self._lights.show_turn(turn)


_UNSHOWN = object()
SLAP_FLASH_S = 1.0   # show_slap_loser's four flashes of 0.24 s


def light_signals(view: dict[str, Any] | None) -> tuple[int | None, tuple[int, ...]]:
    """(whose turn it is, who drew for the last slap) from a game's view."""
    if not view:
        return None, ()
    window = (view.get("table") or {}).get("slap_window") or {}
    last = window.get("last") or {}
    losers = tuple(p["seat"] for p in last.get("penalised", ()) if p.get("drew"))
    return view.get("turn"), losers
