"""What a Hit the Deck card is, for the rules: its kind, colour and number, whether it
may go on the top card, and whether it meets a HIT demand (RULINGS.md, "Word cards",
"HIT WITH A NUMBER / COLOR"). Card codes and counts live in `deck.py`.
"""
from __future__ import annotations

from engine.core import say
from engine.hitthedeck.deck import COLOURS, DECK

NUMBER, CUT, FLIP = "number", "cut", "flip"
HIT_NUMBER, HIT_COLOUR, HIT_HAND = "hit_number", "hit_colour", "hit_hand"
HIT_KINDS = (HIT_NUMBER, HIT_COLOUR, HIT_HAND)
COLOUR_WORDS = {"R": "red", "G": "green", "B": "blue", "Y": "yellow"}


def kind(card: str) -> str:
    return DECK[card].kind


def is_hit(card: str) -> bool:
    return kind(card) in HIT_KINDS


def colour(card: str) -> str | None:
    """The colour letter a card is matched by (None for HIT cards: they have none)."""
    if is_hit(card):
        return None
    return card[0] if card[0] in COLOURS else None


def number(card: str) -> int | None:
    """The number a card is matched by: number cards only."""
    return DECK[card].value if kind(card) == NUMBER else None


def demand_of(hit_card: str) -> tuple[str, str | int]:
    """("number", 4) for HIT-4, ("colour", "G") for HIT-G."""
    if kind(hit_card) == HIT_NUMBER:
        return "number", DECK[hit_card].value
    if kind(hit_card) == HIT_COLOUR:
        return "colour", hit_card[-1]
    raise ValueError(f"{hit_card} makes no demand")


def meets(hit_card: str, card: str) -> bool:
    """Whether `card` meets the demand of `hit_card`; HIT cards never do."""
    if is_hit(card):
        return False
    what, value = demand_of(hit_card)
    if what == "number":
        return number(card) == value
    return colour(card) == value


def goes_on(top: str, card: str) -> bool:
    """Normal matching, with no demand in force: HIT cards go on anything; CUT and FLIP
    only on their own colour; a number on its colour or its number."""
    if is_hit(card):
        return True
    top_colour = colour(top)
    if top_colour is None:  # a colourless top with no demand (never in play; be lenient)
        return True
    if kind(card) in (CUT, FLIP):
        return colour(card) == top_colour
    return colour(card) == top_colour or (number(top) is not None and number(top) == number(card))


def describe_demand(hit_card: str) -> dict:
    """What a HIT card demands, as a message ("a 4", "a red card" on a screen)."""
    what, value = demand_of(hit_card)
    if what == "number":
        return say("demand_number", number=value)
    return say("demand_colour", colour=COLOUR_WORDS[value])


def label(card: str) -> str:
    return DECK[card].label
