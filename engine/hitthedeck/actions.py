"""Hit the Deck's actions: what can happen at the table, as small frozen values that
read and write their own JSON (`Action.to_json`, `GAME.parse_action`).

Times (`t_ns`) are the device's monotonic nanoseconds; the engine only compares them.
A card's `t_ns` is when the camera saw it (a HIT WITH A HAND opens its slap window then);
it may be left out when the host enters a card by hand.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.core import Action, vocabulary


@dataclass(frozen=True)
class StartHand(Action):
    """The dealer has dealt seven cards to each player."""

    kind: ClassVar[str] = "start_hand"


@dataclass(frozen=True)
class TurnUp(Action):
    """The card turned up from the draw pile to start the discard pile."""

    kind: ClassVar[str] = "turn_up"
    card: str
    t_ns: int | None = None


@dataclass(frozen=True)
class Play(Action):
    """`seat` plays `card` from hand onto the discard pile."""

    kind: ClassVar[str] = "play"
    seat: int
    card: str
    t_ns: int | None = None


@dataclass(frozen=True)
class Draw(Action):
    """`seat` cannot play and draws one card from the draw pile."""

    kind: ClassVar[str] = "draw"
    seat: int


@dataclass(frozen=True)
class Pass(Action):
    """The card `seat` drew cannot be played: the turn ends."""

    kind: ClassVar[str] = "pass"
    seat: int


@dataclass(frozen=True)
class Cut(Action):
    """`seat` cut the draw pile and put the exposed card on the discard pile."""

    kind: ClassVar[str] = "cut"
    seat: int
    exposed_card: str
    t_ns: int | None = None


@dataclass(frozen=True)
class Flip(Action):
    """`seat` exchanged the piles and `exposed_card` is the new top of the discard pile
    (or, after a FLIP exposed by a FLIP was buried, the card under it)."""

    kind: ClassVar[str] = "flip"
    seat: int
    exposed_card: str
    t_ns: int | None = None


@dataclass(frozen=True)
class Slap(Action):
    """`seat`'s pad was pressed at `t_ns` while a slap window is open."""

    kind: ClassVar[str] = "slap"
    seat: int
    t_ns: int


@dataclass(frozen=True)
class CloseWindow(Action):
    """The slap window's time is up (`t_ns` at or after its deadline)."""

    kind: ClassVar[str] = "close_window"
    t_ns: int | None = None


@dataclass(frozen=True)
class ForgotCall(Action):
    """The host marks that `seat`, who had to call "HIT THE DECK WITH A HAND", forgot."""

    kind: ClassVar[str] = "forgot_call"
    seat: int


@dataclass(frozen=True)
class FakeOut(Action):
    """`seat` slapped the deck at `t_ns` when no HAND was in play: draws two."""

    kind: ClassVar[str] = "fake_out"
    seat: int
    t_ns: int | None = None


@dataclass(frozen=True)
class SetHandSize(Action):
    """The host corrects how many cards `seat` holds (0: that player has gone out)."""

    kind: ClassVar[str] = "set_hand_size"
    seat: int
    count: int


@dataclass(frozen=True)
class HandCards(Action):
    """At the end of a hand, the cards `seat` still holds, laid out to be counted."""

    kind: ClassVar[str] = "hand_cards"
    seat: int
    cards: tuple[str, ...]


ACTION_TYPES = (StartHand, TurnUp, Play, Draw, Pass, Cut, Flip, Slap, CloseWindow,
                ForgotCall, FakeOut, SetHandSize, HandCards)
ACTIONS = vocabulary(*ACTION_TYPES)
