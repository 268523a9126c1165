"""The Hit the Deck deck: 110 cards (RULINGS.md, "Deck").

Per colour: numbers 1–5 four times each, CUT ×2, FLIP ×1. HIT WITH A NUMBER ×10 (two
each of 1–5), HIT WITH A COLOR ×4 (one per colour), HIT WITH A HAND ×4. Numbers score
face value; word and HIT cards score 10.
"""
from engine.cards import COLOUR_NAMES, CardDef, Deck

COLOURS = ("R", "G", "B", "Y")


def _cards() -> tuple[CardDef, ...]:
    cards: list[CardDef] = []
    for c in COLOURS:
        name = COLOUR_NAMES[c]
        for n in range(1, 6):
            cards.append(CardDef(f"{c}{n}", 4, name, "number", n, n, f"{name.title()} {n}"))
        cards.append(CardDef(f"{c}-CUT", 2, name, "cut", None, 10, f"{name.title()} Cut"))
        cards.append(CardDef(f"{c}-FLIP", 1, name, "flip", None, 10, f"{name.title()} Flip"))
    for n in range(1, 6):
        cards.append(CardDef(f"HIT-{n}", 2, "", "hit_number", n, 10, f"Hit the deck with a {n}"))
    for c in COLOURS:
        name = COLOUR_NAMES[c]
        cards.append(CardDef(f"HIT-{c}", 1, name, "hit_colour", None, 10,
                             f"Hit the deck with {name}"))
    cards.append(CardDef("HIT-HAND", 4, "", "hit_hand", None, 10, "Hit the deck with a hand"))
    return tuple(cards)


DECK = Deck("hitthedeck", _cards())
