"""The Raj cards (RULINGS.md, "Cards"): fifteen point cards (−5…−1 and +1…+10) and, for
each seat, fifteen player cards 1–15 in the seat's colour, coded "<colour>:<value>".
"""
from engine.cards import CardDef, Deck

SEAT_COLOURS = ("red", "blue", "green", "yellow", "purple")
POINT_VALUES = tuple(range(-5, 0)) + tuple(range(1, 11))
BID_VALUES = tuple(range(1, 16))


def point_code(value: int) -> str:
    return f"P{value}"


def bid_code(colour: str, value: int) -> str:
    return f"{colour}:{value}"


def parse_bid(code: str) -> tuple[str, int] | None:
    """(colour, value) of a player card code, or None if it is not one."""
    colour, sep, value = code.partition(":")
    if not sep or colour not in SEAT_COLOURS or not value.isdigit():
        return None
    v = int(value)
    return (colour, v) if v in BID_VALUES else None


def _cards() -> tuple[CardDef, ...]:
    cards = [CardDef(point_code(v), 1, "", "point", v, v, f"{v:+d}") for v in POINT_VALUES]
    for colour in SEAT_COLOURS:
        cards += [CardDef(bid_code(colour, v), 1, colour, "bid", v, 0, f"{colour.title()} {v}")
                  for v in BID_VALUES]
    return tuple(cards)


DECK = Deck("raj", _cards())
POINT_CARDS = tuple(c.code for c in DECK if c.kind == "point")
