"""Solo's actions: what can happen at the table, each a small frozen value with a JSON form.

Card codes are those of `engine.solo.deck`; colours are the letters "R" "G" "B" "Y".
What each action means and when it is legal lives in `engine.solo.rules`; how camera and
pads turn into these actions lives in `engine.solo.referee`. The wire format is
documented in docs/protocol.md (Solo).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.core import Action, vocabulary


@dataclass(frozen=True)
class StartRound(Action):
    """The dealer has dealt (settings.hand_size each) and turned `starter` over; it acts
    as if the dealer had played it. `colour`: the colour the dealer names for a Choose /
    Take 4 starter (or name it later with ChooseColour)."""

    kind: ClassVar[str] = "start_round"
    starter: str
    colour: str | None = None


@dataclass(frozen=True)
class Play(Action):
    """`seat` puts `card` on the discard pile: the current player's play, or anyone's
    out-of-turn discard of a card identical to the top card. `colour` names the colour
    for Choose / Take 4 (or name it afterwards with ChooseColour)."""

    kind: ClassVar[str] = "play"
    seat: int
    card: str
    colour: str | None = None


@dataclass(frozen=True)
class ChooseColour(Action):
    """The player who played Choose / Take 4 (the dealer for a starter) names the colour."""

    kind: ClassVar[str] = "choose_colour"
    seat: int
    colour: str


@dataclass(frozen=True)
class Swap(Action):
    """The player who played a Swap card swaps whole hands with `with_seat`."""

    kind: ClassVar[str] = "swap"
    seat: int
    with_seat: int


@dataclass(frozen=True)
class Draw(Action):
    """The current player takes one card from the pack (they could not play)."""

    kind: ClassVar[str] = "draw"
    seat: int


@dataclass(frozen=True)
class Pass(Action):
    """The current player drew, could not play the card, and ends the turn."""

    kind: ClassVar[str] = "pass"
    seat: int


@dataclass(frozen=True)
class TakePenalty(Action):
    """The current player does not pass on the Take 2 / Take 4 stack: draws the whole sum
    and misses the turn."""

    kind: ClassVar[str] = "take_penalty"
    seat: int


@dataclass(frozen=True)
class Claim(Action):
    """A pad press at `t_ns`: `seat` claims the next card identical to the top card as its
    out-of-turn discard. Claims lapse when the next card is played."""

    kind: ClassVar[str] = "claim"
    seat: int
    t_ns: int


@dataclass(frozen=True)
class SettlePlay(Action):
    """The host answers the open question about an unclaimed identical card: it was
    played by `seat` (the current player: confirmed; anyone else: their out-of-turn
    discard, and the play is redone as theirs)."""

    kind: ClassVar[str] = "settle_play"
    seat: int


@dataclass(frozen=True)
class HoldCard(Action):
    """A card identical to the top card was seen while another player's pad claim was
    open, and it may not be discarded out of turn (a black card): it is nobody's play
    until the host says whose it is with SettlePlay (the current player's play, or the
    claimer's illegal jump, whose card goes back)."""

    kind: ClassVar[str] = "hold_card"
    card: str


@dataclass(frozen=True)
class CallSolo(Action):
    """`seat` calls "SOLO!" (a pad press or the phone) while it is due."""

    kind: ClassVar[str] = "call_solo"
    seat: int


@dataclass(frozen=True)
class CatchSolo(Action):
    """`catcher` catches `target`, who owes "SOLO!" and has not called it: target draws two."""

    kind: ClassVar[str] = "catch_solo"
    catcher: int
    target: int


@dataclass(frozen=True)
class SetHandSize(Action):
    """The host corrects how many cards `seat` holds (the engine only counts)."""

    kind: ClassVar[str] = "set_hand_size"
    seat: int
    n: int


@dataclass(frozen=True)
class RoundCards(Action):
    """At the end of a round, the cards `seat` still holds, laid out for scoring."""

    kind: ClassVar[str] = "round_cards"
    seat: int
    cards: tuple[str, ...]


SOLO_ACTIONS = (StartRound, Play, ChooseColour, Swap, Draw, Pass, TakePenalty, Claim,
                SettlePlay, HoldCard, CallSolo, CatchSolo, SetHandSize, RoundCards)
ACTIONS = vocabulary(*SOLO_ACTIONS)
