"""Coach mode (engine/flip7/coach.py): the bust chance is the exact count of the cards
that can still come, and the value of one more Hit is the rule book's scoring averaged
over those cards."""
from fractions import Fraction

from hypothesis import given, settings, strategies as st

from engine.core import MatchSpec, Seat
from engine.flip7 import GAME, Line, bust_probability, draw_pile
from engine.flip7.coach import outlook, score_after
from engine.flip7.deck import DECK
from engine.flip7.state import ACTIVE, BUSTED, STAYED


def test_one_more_hit_is_the_average_of_the_scores_each_card_would_leave():
    line = Line(numbers=(3, 7), modifiers=("+4",))
    remaining = {"3": 2, "7": 1, "5": 3, "x2": 1, "FREEZE": 1, "12": 2}
    got = outlook(line, remaining)
    # stay: 3 + 7 + 4. A 3 or a 7 busts (0); a 5 makes 19; x2 doubles the numbers (24);
    # Freeze leaves 14; a 12 makes 26. Ten cards can come.
    assert got.stay == 14
    assert got.bust == Fraction(3, 10)
    assert got.hit == Fraction(0 + 0 + 3 * 19 + 24 + 14 + 2 * 26, 10)
    assert got.gain == got.hit - 14


def test_a_second_chance_keeps_the_score_on_a_duplicate_and_nothing_busts():
    line = Line(numbers=(8,), chance=True)
    got = outlook(line, {"8": 3, "1": 1})
    assert got.bust == 0
    assert got.hit == Fraction(3 * 8 + 9, 4)


def test_the_seventh_number_brings_the_flip7_bonus():
    line = Line(numbers=(1, 2, 3, 4, 5, 6))
    assert score_after(line, "9") == 21 + 9 + 15
    assert outlook(line, {"9": 1}).hit == 45


def test_a_line_out_of_the_round_has_no_outlook():
    for status in (BUSTED, STAYED):
        assert outlook(Line(numbers=(5,), status=status), {"1": 1}) is None
    assert outlook(Line(numbers=(5,)), {}) is None


@settings(max_examples=60, deadline=None)
@given(numbers=st.sets(st.integers(0, 12), max_size=6), chance=st.booleans(),
       mods=st.lists(st.sampled_from(["+2", "+4", "+6", "+8", "+10", "x2"]), max_size=3, unique=True),
       pile=st.dictionaries(st.sampled_from(DECK.codes), st.integers(1, 12), min_size=1))
def test_coach_agrees_with_the_card_by_card_count(numbers, chance, mods, pile):
    line = Line(numbers=tuple(sorted(numbers)), modifiers=tuple(mods), chance=chance, status=ACTIVE)
    got = outlook(line, pile)
    # Every copy that can come, one by one.
    copies = [code for code, n in pile.items() for _ in range(n)]
    busting = [c for c in copies if DECK[c].kind == "number" and int(c) in line.numbers]
    assert got.bust == bust_probability(line, pile)
    assert got.bust == (0 if chance else Fraction(len(busting), len(copies)))
    assert got.hit == Fraction(sum(score_after(line, c) for c in copies), len(copies))
    assert 0 <= got.hit <= max(score_after(line, c) for c in copies)


def test_the_view_shows_the_coach_only_when_the_setting_asks():
    seats = (Seat("Ann"), Seat("Bob"), Seat("Cat"))
    off = GAME.start(MatchSpec(game="flip7", seats=seats, settings={}))
    assert all(line["coach"] is None for line in GAME.view(off)["table"]["lines"])
    state = GAME.start(MatchSpec(game="flip7", seats=seats, settings={"coach": "phones"}))
    for code in ("5", "9", "5"):      # the deal: Ann 5, Bob 9, Cat 5
        state, _ = GAME.apply(state, GAME.parse_action({"type": "flip", "card": code}))
    view = GAME.view(state)
    assert view["table"]["coach"] == "phones"
    pile = draw_pile(state)
    for seat, line in enumerate(state.lines):
        figures = outlook(line, pile)
        shown = view["table"]["lines"][seat]["coach"]
        assert shown["bust"] == float(figures.bust) == float(bust_probability(line, pile))
        assert shown["hit"] == float(figures.hit) and shown["stay"] == figures.stay
    # Two 5s are out, so Ann's bust chance is the 3 fives left in the 91 unseen cards.
    assert view["table"]["lines"][0]["coach"]["bust"] == 3 / 91
