"""The Flip 7 deck: 94 cards (RULINGS.md, "Deck").

Number cards 0–12 (one 0, one 1, two 2s … twelve 12s: 79), modifiers +2 +4 +6 +8 +10
and x2 (one each), Freeze ×3, Flip Three ×3, Second Chance ×3. `points` is a number's
face value or a +N modifier's bonus; x2 and action cards score 0 by themselves.
"""
from engine.cards import CardDef, Deck

ACTION_CARDS = ("FREEZE", "FLIP3", "CHANCE")
MODIFIERS = ("+2", "+4", "+6", "+8", "+10", "x2")


def _cards() -> tuple[CardDef, ...]:
    cards = [CardDef("0", 1, "", "number", 0, 0, "0")]
    cards += [CardDef(str(n), n, "", "number", n, n, str(n)) for n in range(1, 13)]
    cards += [CardDef(f"+{n}", 1, "", "modifier", n, n, f"+{n}") for n in (2, 4, 6, 8, 10)]
    cards.append(CardDef("x2", 1, "", "multiplier", 2, 0, "x2"))
    cards.append(CardDef("FREEZE", 3, "", "freeze", None, 0, "Freeze"))
    cards.append(CardDef("FLIP3", 3, "", "flip3", None, 0, "Flip Three"))
    cards.append(CardDef("CHANCE", 3, "", "chance", None, 0, "Second Chance"))
    return tuple(cards)


DECK = Deck("flip7", _cards())


def is_number(code: str) -> bool:
    return DECK[code].kind == "number"
