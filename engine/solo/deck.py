"""The Solo deck: 112 cards (RULINGS.md, "Deck" and "Card values").

Per colour: 1–9 twice, Miss a turn ×2, Change direction ×2, Take 2 ×2, Swap ×1.
Black: Choose a colour ×4, Take 4 + choose ×4, Change cards all round ×4.
Values: numbers at face value; Change direction 10; Miss a turn 20; Take 2 30; Swap 30;
Change cards all round 40; Choose a colour 50 (setting: 40); Take 4 + choose 50.
"""
from engine.cards import COLOUR_NAMES, CardDef, Deck

COLOURS = ("R", "G", "B", "Y")
ACTIONS = (  # suffix, count per colour, kind, points, label
    ("MISS", 2, "miss", 20, "Miss a turn"),
    ("REV", 2, "reverse", 10, "Change direction"),
    ("TAKE2", 2, "take2", 30, "Take 2"),
    ("SWAP", 1, "swap", 30, "Swap cards"),
)
CHOOSE_POINTS_ONLINE = 40  # the licensed online edition's value for Choose a colour


def _cards() -> tuple[CardDef, ...]:
    cards: list[CardDef] = []
    for c in COLOURS:
        name = COLOUR_NAMES[c]
        for n in range(1, 10):
            cards.append(CardDef(f"{c}{n}", 2, name, "number", n, n, f"{name.title()} {n}"))
        for suffix, count, kind, points, label in ACTIONS:
            cards.append(CardDef(f"{c}-{suffix}", count, name, kind, None, points,
                                 f"{name.title()} {label}"))
    cards.append(CardDef("CHOOSE", 4, "black", "choose", None, 50, "Choose a colour"))
    cards.append(CardDef("TAKE4", 4, "black", "take4", None, 50, "Take 4 + choose a colour"))
    cards.append(CardDef("ROTATE", 4, "black", "rotate", None, 40, "Change cards all round"))
    return tuple(cards)


DECK = Deck("solo", _cards())
