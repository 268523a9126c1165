"""The state of a Hit the Deck match, as frozen values: the settings, the slap window,
the record of the last hand slap, and the whole table as the engine knows it.

The engine never knows the hands or the draw pile (DESIGN.md, "The physical deck is
hidden"): it knows the cards seen on the discard pile, how many cards each hand holds,
how many cards lie on the discard pile (so the draw pile is the rest of the 110), and
what the pads signalled. Stepping lives in `rules.py`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.core import Notice, Seat
from engine.hitthedeck.deck import DECK
from engine.match import MatchProgress, MatchRule

DECK_SIZE = DECK.size

# What the match is waiting for.
DEAL = "deal"          # a new hand: deal seven each (StartHand)
START = "start"        # the first card to be turned up (TurnUp)
PLAY = "play"          # the hand is being played
COUNTING = "counting"  # the hand is over: each hand is laid out and counted (HandCards)
OVER = "over"          # the match is over

# What the seat whose turn it is must do, in PLAY.
MUST_PLAY = "play"          # play a card (or draw one if none can be played)
MUST_AFTER_DRAW = "after_draw"  # play the card just drawn if it can be played, or pass
MUST_CUT = "cut"            # cut the draw pile: the exposed card goes on the discard pile
MUST_FLIP = "flip"          # exchange the piles: the exposed card is the new top
MUST_UNBURY = "unbury"      # a FLIP exposed by a FLIP was buried: show the card under it


@dataclass(frozen=True)
class Settings:
    """A match's settings (RULINGS.md). Times are nanoseconds unless named _ms."""

    edition: Literal["en", "fr"] = "en"
    target: int = 100
    hand_size: int = 7
    slap_timeout_ms: int = 3000
    tie_tolerance_ns: int = 500_000
    # A press from the same pad this soon after its own last slap is the pad bouncing.
    repeat_guard_ns: int = 30_000_000
    # Pads hand a press on when it lifts or becomes a hold (with the time it closed), so
    # the clock waits this long past a window's deadline for presses still on their way.
    late_report_ms: int = 700

    def rule(self) -> MatchRule:
        return MatchRule(self.target, "low", "share")


@dataclass(frozen=True)
class SlapWindow:
    """An open HIT WITH A HAND slap: who may slap, when it opened, who has slapped.

    slaps: (seat, t_ns) for each seat that slapped, earliest first (a seat's earliest
    press counts). previous: the slaps of the round before a tie re-slap, so a pad still
    bouncing from it is not taken for a new slap."""

    caller: int
    eligible: tuple[int, ...]
    opened_ns: int | None
    slaps: tuple[tuple[int, int], ...] = ()
    reslap: int = 0
    previous: tuple[tuple[int, int], ...] = ()

    def slapped(self) -> tuple[int, ...]:
        return tuple(seat for seat, _ in self.slaps)

    def slap_time(self, seat: int) -> int | None:
        return next((t for s, t in self.slaps if s == seat), None)

    def deadline_ns(self, timeout_ms: int) -> int | None:
        return None if self.opened_ns is None else self.opened_ns + timeout_ms * 1_000_000


@dataclass(frozen=True)
class SlapOutcome:
    """How the last hand slap was settled: kept so that a forgotten call can still be
    marked (before the next card) and so a bouncing pad is not a fake-out."""

    caller: int
    opened_ns: int | None
    closed_ns: int | None
    order: tuple[tuple[int, int], ...]        # every slap that counted, earliest first
    penalised: tuple[tuple[int, int], ...]    # (seat, cards actually drawn)
    forgot: bool = False                       # the host marked the call as forgotten
    markable: bool = True                      # no card has been played since


@dataclass(frozen=True)
class State:
    settings: Settings
    seats: tuple[Seat, ...]
    progress: MatchProgress
    phase: str = DEAL
    turn: int | None = None
    must: str = MUST_PLAY
    direction: int = 1
    top: str | None = None
    demand: str | None = None           # the HIT card whose demand is in force
    free: bool = False                  # after a hand slap: any card may be played
    hand_counts: tuple[int, ...] = ()
    discard_size: int = 0
    window: SlapWindow | None = None
    last_slap: SlapOutcome | None = None
    went_out: int | None = None
    # (seat, t_ns, cards drawn) of each fake-out since the last card reached the pile: a
    # press stamped after a HAND was seen but judged before the camera reported it is a
    # slap in that HAND's window, and its two cards are taken back.
    fake_outs: tuple[tuple[int, int, int], ...] = ()
    laid_out: tuple[tuple[str, ...] | None, ...] = ()
    cards_played: int = 0
    last_ruling: tuple[Notice, ...] = ()

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def draw_size(self) -> int:
        """The draw pile: every card not in a hand nor on the discard pile."""
        return max(0, DECK_SIZE - sum(self.hand_counts) - self.discard_size)

    def name(self, seat: int) -> str:
        return self.seats[seat].name

    def next(self, seat: int, steps: int = 1, direction: int | None = None) -> int:
        d = self.direction if direction is None else direction
        return (seat + d * steps) % self.players


def new_state(settings: Settings, seats: tuple[Seat, ...], dealer: int = 0) -> State:
    n = len(seats)
    return State(settings=settings, seats=seats, progress=MatchProgress.new(n, dealer),
                 hand_counts=(0,) * n, laid_out=(None,) * n)

