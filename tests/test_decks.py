"""Every deck count in the rule books and RULINGS.md."""
from collections import Counter

from engine.flip7.deck import DECK as FLIP7
from engine.hitthedeck.deck import DECK as HTD
from engine.raj.deck import DECK as RAJ, POINT_CARDS, SEAT_COLOURS
from engine.solo.deck import DECK as SOLO


def test_hit_the_deck_has_110_cards():
    assert HTD.size == 110
    by_kind = Counter()
    for c in HTD:
        by_kind[c.kind] += c.count
    assert by_kind == {"number": 80, "cut": 8, "flip": 4, "hit_number": 10, "hit_colour": 4, "hit_hand": 4}
    assert all(HTD[f"{c}{n}"].count == 4 for c in "RGBY" for n in range(1, 6))
    assert HTD.points("R3") == 3 and HTD.points("HIT-HAND") == 10 and HTD.points("G-CUT") == 10


def test_solo_has_112_cards_with_the_stated_values():
    assert SOLO.size == 112
    assert sum(c.count for c in SOLO if c.colour == "black") == 12
    assert sum(c.count for c in SOLO if c.kind == "number") == 72
    assert [SOLO.points(c) for c in ("Y7", "R-REV", "G-MISS", "B-TAKE2", "Y-SWAP", "ROTATE", "CHOOSE", "TAKE4")] == \
        [7, 10, 20, 30, 30, 40, 50, 50]


def test_flip7_has_94_cards():
    assert FLIP7.size == 94
    assert FLIP7["0"].count == 1 and FLIP7["1"].count == 1
    assert all(FLIP7[str(n)].count == n for n in range(1, 13))
    assert sum(c.count for c in FLIP7 if c.kind == "number") == 79
    assert all(FLIP7[c].count == 3 for c in ("FREEZE", "FLIP3", "CHANCE"))
    assert all(FLIP7[m].count == 1 for m in ("+2", "+4", "+6", "+8", "+10", "x2"))


def test_raj_has_15_point_cards_and_15_player_cards_per_seat():
    assert len(POINT_CARDS) == 15
    assert sorted(RAJ[p].value for p in POINT_CARDS) == list(range(-5, 0)) + list(range(1, 11))
    for colour in SEAT_COLOURS:
        assert sorted(c.value for c in RAJ if c.colour == colour) == list(range(1, 16))
