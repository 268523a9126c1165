"""What the table reports to the referee, and the referee interface.

Observations come from the camera (`CardSeen`, `ZoneEmpty`), the pads (`PadPressed`,
`PadReleased`) and the clock (`Tick`). Times are nanoseconds on one monotonic clock,
chosen by the device layer; the engine never reads a clock itself.

Each game has a table referee: a pure function `interpret(state, observation)` that
returns the actions the observation means now (possibly none). It keeps no memory of
its own: whatever must be remembered (an open slap window, a pad claim) is an action in
the log, so a replay reproduces it. An observation that makes no sense now (a card that
may not be played) is refused with `IllegalAction`, which the screens show.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from engine.core import Action

# Zone names used by calibration, the tracker and the referees.
DISCARD = "discard"      # the discard / play pile (Hit the Deck, Solo); the flip spot (Flip 7)
REVEAL = "reveal"        # where Raj's point card and bids are revealed
SCORING = "scoring"      # where hands are laid out for end-of-round counting


def seat_zone(seat: int) -> str:
    """The zone in front of a seat (Flip 7 lines, Raj bids when zones are calibrated)."""
    return f"seat:{seat}"


@dataclass(frozen=True)
class CardSeen:
    zone: str
    card: str
    t_ns: int


@dataclass(frozen=True)
class CardsLaidOut:
    """A whole spread read in the scoring zone (end-of-round counting)."""

    zone: str
    cards: tuple[str, ...]
    t_ns: int


@dataclass(frozen=True)
class ZoneEmpty:
    zone: str
    t_ns: int


@dataclass(frozen=True)
class PadPressed:
    seat: int
    t_ns: int
    held: bool = False


@dataclass(frozen=True)
class PadReleased:
    seat: int
    t_ns: int


@dataclass(frozen=True)
class Tick:
    t_ns: int


Observation = CardSeen | CardsLaidOut | ZoneEmpty | PadPressed | PadReleased | Tick


class Referee(Protocol):
    def interpret(self, state: Any, observation: Observation) -> tuple[Action, ...]:
        ...
