"""Flip 7's settings, its frozen match state, and the pure scoring helpers.

The state is a value (`Flip7State`): the match progress, each player's line, the deck
as counts of the unseen cards and of the set-aside cards, and what the round is waiting
for (the deal, a turn, a Flip Three, a choice of target). The rules that step it live in
`engine.flip7.rules`; `round_score` and `bust_probability` are the scoring arithmetic of
the rule book, shared by the rules, the screens, the bots and the tests.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Literal, Mapping, Sequence

from engine.core import Seat
from engine.flip7.deck import DECK
from engine.match import MatchProgress

# A line's status in the round (RULINGS: "active" = has neither busted nor stayed).
ACTIVE = "active"
STAYED = "stayed"
BUSTED = "busted"
FROZEN = "frozen"

FLIP7_BONUS = 15
FLIP7_COUNT = 7
CODES: tuple[str, ...] = DECK.codes           # the order of the deck count tuples
POINTS: dict[str, int] = {c.code: c.points for c in DECK}


@dataclass(frozen=True)
class Flip7Settings:
    """target: a match ends at the end of a round in which someone reaches it.
    deal_to_holders: during the deal, also deal to players who already hold a card
    (RULINGS "setting"; never to players who are out).
    coach: show each active player's chance to bust and what one more Hit is worth
    (`engine.flip7.coach`) on the phones, or on the phones and the table screen. It
    changes no rule."""

    target: int = 200
    deal_to_holders: bool = False
    coach: Literal["off", "phones", "table"] = "off"


@dataclass(frozen=True)
class Line:
    """The cards in front of one player this round.

    numbers: number cards in the order received (always distinct: a duplicate either
        busts the line, see `duplicate`, or is discarded with a Second Chance).
    modifiers: +N and x2 cards. chance: holds a Second Chance. actions: Freeze and
    Flip Three cards played on this player (they lie here until the round ends).
    duplicate: the number that busted the line, if it busted.
    """

    numbers: tuple[int, ...] = ()
    modifiers: tuple[str, ...] = ()
    chance: bool = False
    actions: tuple[str, ...] = ()
    duplicate: int | None = None
    status: str = ACTIVE

    def cards(self) -> tuple[str, ...]:
        """Every card lying in this line, as codes."""
        out = tuple(str(n) for n in self.numbers) + self.modifiers + self.actions
        if self.chance:
            out += ("CHANCE",)
        if self.duplicate is not None:
            out += (str(self.duplicate),)
        return out


@dataclass(frozen=True)
class FlipThree:
    """A Flip Three being taken: `left` cards still to come to `target`; Freeze and Flip
    Three cards revealed inside it wait in `set_aside`, in the order drawn."""

    target: int
    left: int = 3
    set_aside: tuple[str, ...] = ()


@dataclass(frozen=True)
class Choice:
    """`chooser` must say who gets `card` (FREEZE, FLIP3, or a spare CHANCE)."""

    chooser: int
    card: str


@dataclass(frozen=True)
class Forced:
    """A choice the engine made by itself in the last action, because only one was
    possible: `chooser` had to give `card` to `target` (None: a spare Second Chance
    nobody could take, discarded). A `target` action naming that very player is accepted."""

    chooser: int
    card: str
    target: int | None


@dataclass(frozen=True)
class Flip7State:
    """A whole Flip 7 match.

    deck / set_aside: copies of each card code (in `CODES` order) not yet seen since the
    last shuffle / set aside (discarded) and waiting for the next reshuffle.
    dealing: seats the deal has still to visit this round (empty once the deal is over).
    turn: whose turn it is to Hit or Stay (None during the deal).
    hitting: the player whose turn it is asked for a card that has not come yet.
    turn_done: their card (or Stay) is in; the turn passes once what it set off is settled.
    flips: Flip Threes being taken, innermost last. choice: a target to choose.
    last_round: the lines as they stood when the previous round ended.
    forced: the choices the engine made by itself in the last action (see Forced).
    """

    seats: tuple[Seat, ...]
    settings: Flip7Settings
    progress: MatchProgress
    lines: tuple[Line, ...]
    deck: tuple[int, ...]
    set_aside: tuple[int, ...]
    dealing: tuple[int, ...] = ()
    turn: int | None = None
    hitting: bool = False
    turn_done: bool = False
    flips: tuple[FlipThree, ...] = ()
    choice: Choice | None = None
    last_round: tuple[Line, ...] = ()
    forced: tuple[Forced, ...] = ()


def score_cards(numbers: Sequence[int], modifiers: Iterable[str], busted: bool = False) -> int:
    """The rule book's scoring: number cards, then x2 (numbers only), then +N, then the
    Flip 7 bonus. A busted line scores nothing; x2 with no numbers doubles nothing."""
    if busted:
        return 0
    total = sum(numbers)
    bonus = 0
    for m in modifiers:
        if m == "x2":
            total *= 2
        else:
            bonus += POINTS[m]
    if len(numbers) == FLIP7_COUNT:
        bonus += FLIP7_BONUS
    return total + bonus


def round_score(line: Line) -> int:
    """What `line` scores if the round ended now."""
    return score_cards(line.numbers, line.modifiers, line.status == BUSTED)


def bust_probability(line: Line, remaining: Mapping[str, int]) -> Fraction:
    """The exact chance that the next card busts `line`, drawn from `remaining` (card
    code -> copies that can still come). Zero with a Second Chance (it saves the line)
    or if the line is out of the round."""
    if line.status != ACTIVE or line.chance:
        return Fraction(0)
    size = sum(remaining.values())
    if size == 0:
        return Fraction(0)
    return Fraction(sum(remaining.get(str(n), 0) for n in line.numbers), size)


def draw_pile(state: Flip7State) -> dict[str, int]:
    """What the next card can be: the unseen deck, or the set-aside cards if the deck is
    empty (they are shuffled into a new deck when it runs out)."""
    counts = state.deck if any(state.deck) else state.set_aside
    return {code: n for code, n in zip(CODES, counts) if n}
