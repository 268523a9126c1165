"""engine/log.py: the timeline (apply, undo, refusals), fold, and read_log's line
numbers, on the test game Race and on real Raj and Flip 7 logs."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from engine.core import EndMatch, IllegalAction, MatchSpec, Seat, Undo
from engine.log import LogError, Timeline, fold, read_log
from test_store_toygame import RACE, Add, Score, race_spec
from said import refused_in_words


def test_undo_takes_back_the_last_action_still_in_effect():
    tl = Timeline(RACE, race_spec())
    s0 = tl.state
    tl.apply(Add(1, 2))
    s1 = tl.state
    tl.apply(Add(2, 3))
    notices = tl.apply(Undo())
    assert notices[0].code == "undo" and notices[0].params == {"undone": {"type": "add", "seat": 2, "n": 3}}
    assert tl.state is s1 and tl.actions == (Add(1, 2),)
    tl.apply(Undo())
    assert tl.state is s0 and tl.actions == ()
    tl.apply(Add(1, 1))                          # play on after undoing
    assert tl.state.pot == 1


def test_there_is_nothing_to_undo_at_the_start():
    tl = Timeline(RACE, race_spec())
    with refused_in_words("raj", "nothing to undo"):
        tl.check(Undo())
    with refused_in_words("raj", "nothing to undo"):
        tl.apply(Undo())
    tl.apply(Add(1, 1))
    tl.check(Undo())                              # now there is
    assert tl.actions == (Add(1, 1),)


def test_a_refused_action_changes_nothing_and_check_never_changes_anything():
    tl = Timeline(RACE, race_spec())
    tl.apply(Add(1, 1))
    state = tl.state
    with refused_in_words("raj", "turn"):
        tl.check(Add(0, 1))
    with refused_in_words("raj", "turn"):
        tl.apply(Add(0, 1))
    tl.check(Add(2, 1))
    assert tl.state is state and tl.actions == (Add(1, 1),)


def test_undo_reopens_a_finished_match():
    tl = Timeline(RACE, race_spec(2, target=2))
    tl.apply(Add(1, 2))
    tl.apply(Score())
    assert RACE.view(tl.state)["finished"]
    with refused_in_words("raj", "over"):
        tl.apply(Add(0, 1))
    tl.apply(Undo())
    assert not RACE.view(tl.state)["finished"]


def _effective(actions):
    kept = []
    for a in actions:
        if isinstance(a, Undo):
            kept.pop()
        else:
            kept.append(a)
    return kept


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.tuples(st.integers(0, 2), st.integers(1, 3)).map(lambda t: Add(*t)),
                          st.just(Score()), st.just(Undo()), st.just(EndMatch())), max_size=30))
def test_folding_with_undos_equals_folding_what_is_left(candidates):
    tl = Timeline(RACE, race_spec(3, target=8))
    accepted = []
    for action in candidates:
        try:
            tl.apply(action)
            accepted.append(action)
        except IllegalAction:
            pass
    kept = _effective(accepted)
    assert list(tl.actions) == kept
    assert fold(RACE, race_spec(3, target=8), accepted) == tl.state == \
        fold(RACE, race_spec(3, target=8), kept)


RAJ_START = {"type": "start", "game": "raj", "seats": [{"name": "Ann", "colour": "red"},
                                                       {"name": "Bob", "colour": "blue"}]}


def lines(*objs) -> list[str]:
    return [o if isinstance(o, str) else json.dumps(o) for o in objs]


def test_read_log_skips_blank_and_comment_lines_but_counts_them():
    tl = read_log(lines("# a Raj game", "", RAJ_START, "  ", {"type": "reveal_point", "card": "P8"},
                        {"type": "undo"}, {"type": "reveal_point", "card": "P3"}))
    assert tl.spec.seats == (Seat("Ann", "red"), Seat("Bob", "blue"))
    assert [a.to_json() for a in tl.actions] == [{"type": "reveal_point", "card": "P3"}]
    with pytest.raises(LogError) as info:
        read_log(lines("# c", "", RAJ_START, "", "{not json"))
    assert info.value.line == 5 and str(info.value).startswith("line 5: not JSON: ")


@pytest.mark.parametrize("log, line, reason", [
    ([], 0, "the log is empty: it must start with a start line"),
    (["", "# nothing"], 0, "the log is empty"),
    (["", {"type": "undo"}], 2, "start_not_start"),
    ([{**RAJ_START, "game": "chess"}], 1, "unknown_game"),
    ([RAJ_START, {"type": "undo"}], 2, "nothing_to_undo"),
    ([RAJ_START, {"type": "fly"}], 2, "action_unknown"),
    ([RAJ_START, {"type": "reveal_point", "card": "P8"}, "", {"type": "reveal_point", "card": "P9"}],
     4, ""),
    ([RAJ_START, {"type": "reveal_point", "card": "P8"}, {"type": "bid", "card": "red:99"}],
     3, "raj.not_player_card"),
    ([RAJ_START, "[1, 2]"], 2, "action_not_object"),
])
def test_log_errors_name_the_line(log, line, reason):
    with pytest.raises(LogError) as info:
        read_log(lines(*log))
    assert info.value.line == line and reason in info.value.reason
    assert str(info.value) == f"line {line}: {info.value.reason}"


def test_a_real_flip7_log_folds_to_the_same_state_as_stepping():
    flip7 = pytest.importorskip("engine.flip7.selfplay")
    from engine.flip7 import GAME

    spec = MatchSpec("flip7", (Seat("Ann"), Seat("Bob"), Seat("Cat")), {}, seed=11)
    actions = list(flip7.play_match(spec))
    state = GAME.start(spec)
    for a in actions:
        state, _ = GAME.apply(state, a)
    tl = read_log([json.dumps(spec.to_json())] + [json.dumps(a.to_json()) for a in actions])
    assert tl.state == state and GAME.view(state)["finished"]
    assert max(GAME.view(state)["totals"]) >= 200
