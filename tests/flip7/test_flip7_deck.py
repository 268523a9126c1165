"""The deck carries over between rounds and, when it runs out, only the set-aside cards
are shuffled into a new one; cards on the table stay (RULINGS "Deck between rounds")."""
import pytest

from engine.core import IllegalAction, MatchSpec, Seat
from engine.flip7 import GAME, Flip
from engine.flip7.selfplay import play_match
from engine.flip7.state import CODES

from flip7_script import codes
from said import refused_in_words


def state_before_a_reshuffle(seed: int):
    spec = MatchSpec("flip7", tuple(Seat(n) for n in ("Ann", "Bob", "Cat", "Dan")))
    state = GAME.start(spec)
    for action in play_match(spec, ("odds:0.4",), seed):
        if isinstance(action, Flip) and not any(state.deck):
            return state, action
        state, _ = GAME.apply(state, action)
    raise AssertionError("no reshuffle in a whole match")


def test_between_rounds_the_deck_carries_over_and_the_rounds_cards_are_set_aside():
    spec = MatchSpec("flip7", tuple(Seat(n) for n in ("Ann", "Bob", "Cat")))
    state = GAME.start(spec)
    for action in play_match(spec, ("stay:20",), 5, rounds=1):
        state, _ = GAME.apply(state, action)
    seen = sum(len(line.cards()) for line in state.last_round)
    assert sum(state.set_aside) == seen > 0
    assert sum(state.deck) == 94 - seen
    assert all(not line.cards() for line in state.lines)


@pytest.mark.parametrize("seed", [1, 2])
def test_when_the_deck_runs_out_only_set_aside_cards_are_reshuffled(seed):
    state, flip = state_before_a_reshuffle(seed)
    on_table = {c for line in state.lines for c in line.cards()}
    only_on_table = [c for c in on_table if state.set_aside[CODES.index(c)] == 0]
    if only_on_table:
        with refused_in_words("flip7", "not among the set-aside"):
            GAME.apply(state, Flip(only_on_table[0]))
    after, notices = GAME.apply(state, flip)
    assert "reshuffle" in codes(notices)
    expected = list(state.set_aside)
    expected[CODES.index(flip.card)] -= 1
    assert list(after.deck) == expected
    assert not any(after.set_aside)
    for old, new in zip(state.lines, after.lines):      # the table stays where it is
        assert new.cards()[:len(old.numbers)] == old.cards()[:len(old.numbers)]
