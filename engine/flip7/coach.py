"""Flip 7's coach: what one more Hit is worth to a player, from the cards really seen.

`outlook(line, remaining)` gives, for an active line, the exact chance that the next card
busts it (the same count as `state.bust_probability`) and the expected round score after
exactly one more card, to set against the score kept by staying now. It looks one card
ahead only and assumes nothing about later turns:

- a new number adds its value (the seventh also brings the Flip 7 bonus);
- a number already in the line busts it (score 0), unless the line holds a Second Chance,
  which is spent and the score kept;
- a modifier is added to the line and scored by the rule book (x2 doubles the numbers);
- Freeze, Flip Three and Second Chance leave the line's points as they are (who gets an
  action card is a choice, and a Second Chance is worth no points by itself).

Every figure is a `Fraction`, so a test can compare it with arithmetic exactly.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping

from engine.flip7.deck import DECK
from engine.flip7.state import ACTIVE, Line, bust_probability, round_score, score_cards


@dataclass(frozen=True)
class Outlook:
    """bust: the chance the next card busts the line. hit: the expected round score after
    one more card. stay: the round score kept by staying now. gain = hit - stay."""

    bust: Fraction
    hit: Fraction
    stay: int

    @property
    def gain(self) -> Fraction:
        return self.hit - self.stay


def score_after(line: Line, code: str) -> int:
    """The line's round score once `code` has come to it (one card, no later choices)."""
    stay = round_score(line)
    card = DECK[code]
    if card.kind == "number":
        n = int(code)
        if n in line.numbers:
            return stay if line.chance else 0
        return score_cards(line.numbers + (n,), line.modifiers)
    if card.kind in ("modifier", "multiplier"):
        return score_cards(line.numbers, line.modifiers + (code,))
    return stay


def outlook(line: Line, remaining: Mapping[str, int]) -> Outlook | None:
    """The coach's figures for `line` drawing from `remaining` (card code -> copies that
    can still come), or None when the line cannot hit (it is out of the round) or no card
    can come."""
    size = sum(remaining.values())
    if line.status != ACTIVE or size == 0:
        return None
    expected = Fraction(sum(n * score_after(line, code) for code, n in remaining.items() if n), size)
    return Outlook(bust=bust_probability(line, remaining), hit=expected, stay=round_score(line))
