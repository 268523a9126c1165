"""Solo's settings and match state (frozen values), and small facts read off a state.

The engine never knows the hands or the pack at a real table: a state holds what was
seen (the top card), what follows from it (turn, direction, demanded colour, penalty
stack) and counts (cards in each hand, on the discard pile; the pack is the rest).
Rules live in `engine.solo.rules`.
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.match import MatchProgress, MatchRule
from engine.solo.deck import DECK

COLOUR_LETTERS = ("R", "G", "B", "Y")
BLACK_KINDS = ("choose", "take4", "rotate")
PENALTY_KINDS = ("take2", "take4")
NAMES_COLOUR = ("choose", "take4")


@dataclass(frozen=True)
class SoloSettings:
    """target: the score that ends the match. choose_points: what Choose a colour scores
    (50 as the rule book says; 40 in the licensed online edition). jump_black: whether
    black cards may be discarded out of turn (RULINGS: not by default). hand_size: cards
    dealt to each player."""

    target: int = 600
    choose_points: int = 50
    jump_black: bool = False
    hand_size: int = 8

    def rule(self) -> MatchRule:
        return MatchRule(self.target, "high", "share")


@dataclass(frozen=True)
class PadClaim:
    """A pad press claiming the next identical card (nanoseconds on the table's clock)."""

    seat: int
    t_ns: int


@dataclass(frozen=True)
class Question:
    """An identical card nobody claimed, taken as `seat`'s (the current player's) play.
    `before` is the state just before it, so the host can settle it as someone else's."""

    card: str
    seat: int
    before: SoloState


@dataclass(frozen=True)
class SoloState:
    """The whole match. Phases: "deal" (waiting for StartRound), "play", "count" (someone
    went out; hands are laid out for scoring), "over".

    hands: cards each seat holds (counts). discard: cards on the discard pile.
    top: the top card. colour: the colour demanded by Choose / Take 4 until met.
    turn: whose turn it is. direction: +1 clockwise (to the left), -1 the other way.
    penalty: the Take 2 / Take 4 sum the current player owes (the top card's kind).
    drawn: the current player has drawn this turn (may now play or pass).
    awaiting: "colour" or "swap" — `chooser` must name a colour / pick a player first.
    solo_owed: the seat whose "SOLO!" is due and not yet called (the window is open).
    claims: pad claims since the last card was played. question: see Question.
    held: a card on the pile that is nobody's play until the host settles it (HoldCard).
    taken_by: the pad claim that took the last card played out of turn (None: the last
        card was not a claimed out-of-turn discard).
    out: who went out this round. laid: cards laid out per seat at the round's end.
    """

    settings: SoloSettings
    seats: tuple[str, ...]
    match: MatchProgress
    phase: str = "deal"
    hands: tuple[int, ...] = ()
    discard: int = 0
    top: str | None = None
    colour: str | None = None
    turn: int | None = None
    direction: int = 1
    penalty: int = 0
    drawn: bool = False
    awaiting: str | None = None
    chooser: int | None = None
    solo_owed: int | None = None
    claims: tuple[PadClaim, ...] = ()
    question: Question | None = None
    held: str | None = None
    taken_by: PadClaim | None = None
    out: int | None = None
    laid: tuple[tuple[str, ...] | None, ...] = ()

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def pack(self) -> int:
        """Cards in the pack: whatever is in no hand and not on the discard pile."""
        return DECK.size - sum(self.hands) - self.discard


def kind_of(card: str) -> str:
    return DECK[card].kind


def colour_of(card: str) -> str | None:
    """The colour letter of a coloured card; None for a black card."""
    return None if DECK[card].colour == "black" else card[0]


def label(card: str) -> str:
    return DECK[card].label


def colour_name(letter: str | None) -> str:
    return {"R": "red", "G": "green", "B": "blue", "Y": "yellow"}.get(letter or "", "none")


def card_points(card: str, settings: SoloSettings) -> int:
    return settings.choose_points if kind_of(card) == "choose" else DECK.points(card)
