"""The shared engine vocabulary: engine/core.py (refusals, notices, actions, the start
line, settings, the Game protocol), engine/serial.py (dataclass <-> JSON) and
engine/match.py (rounds, totals, who wins)."""
from __future__ import annotations

import enum
import json
from dataclasses import dataclass, field
from typing import ClassVar

import pytest
from hypothesis import given, settings, strategies as st

from engine.core import (SHARED_ACTIONS, Action, EndMatch, Game, IllegalAction, MatchSpec,
                         Notice, Seat, Undo, next_seat, parse_action, parse_settings,
                         seat_list, state_from_json, state_to_json, vocabulary)
from engine.match import MatchProgress, MatchRule, close_round, finish
from engine.serial import from_jsonable, to_jsonable
from test_store_toygame import RACE, Add, Score, race_spec

# -- core: refusals, notices, actions ---------------------------------------------


def test_an_illegal_action_is_a_value_error_with_a_code_and_params():
    exc = IllegalAction("not_your_turn", seat=1, other_seat=2)
    assert isinstance(exc, ValueError) and exc.code == "not_your_turn"
    assert exc.to_json() == {"code": "not_your_turn", "params": {"seat": 1, "other_seat": 2}}
    assert str(exc) == exc.reason == 'not_your_turn {"other_seat": 2, "seat": 1}'  # for logs
    assert IllegalAction.saying(exc.to_json()).to_json() == exc.to_json()


def test_a_notice_reads_as_json():
    assert Notice("bust", {"seat": 1, "number": 7}, (1,)).to_json() == {
        "code": "bust", "params": {"seat": 1, "number": 7}, "seats": [1]}
    assert Notice("x").to_json() == {"code": "x", "params": {}, "seats": []}


@pytest.mark.parametrize("action", [Undo(), EndMatch(), Add(1, 3), Score()])
def test_every_action_type_round_trips_through_json(action):
    data = json.loads(json.dumps(action.to_json()))
    assert data["type"] == action.kind
    assert parse_action(data, RACE.actions) == action


def test_an_action_prints_readably():
    assert str(Add(2, 3)) == "add(seat=2, n=3)"
    assert str(Undo()) == "undo()"


@pytest.mark.parametrize("data, refusal", [
    ([1], {"code": "action_not_object", "params": {}}),
    ({"seat": 1}, {"code": "action_no_type", "params": {}}),
    ({"type": "jump"}, {"code": "action_unknown", "params": {"name": "jump"}}),
    ({"type": "add", "seat": 1}, {"code": "action_missing_field", "params": {"action": "add", "field": "n"}}),
    ({"type": "add", "seat": 1, "n": "2"}, {"code": "action_bad_field", "params": {"action": "add", "field": "n"}}),
    ({"type": "add", "seat": 1, "n": 2, "x": 0}, {"code": "action_bad_field", "params": {"action": "add", "field": "x"}}),
    ({"type": "add", "seat": True, "n": 2}, {"code": "action_bad_field", "params": {"action": "add", "field": "seat"}}),
])
def test_bad_action_json_is_refused_as_a_code(data, refusal):
    with pytest.raises(IllegalAction) as info:
        parse_action(data, RACE.actions)
    assert info.value.to_json() == refusal


def test_a_vocabulary_has_the_shared_actions_and_refuses_repeats():
    vocab = vocabulary(Add, Score)
    assert set(vocab) == {"add", "score", "undo", "end_match", "set_totals", "correct_round"}
    assert all(vocab[a.kind] is a for a in SHARED_ACTIONS)
    with pytest.raises(ValueError, match="repeated"):
        vocabulary(Add, Add)

    class NoKind(Action):
        pass

    with pytest.raises(ValueError, match="missing"):
        vocabulary(NoKind)

    class NotData(Action):
        kind: ClassVar[str] = "nd"

    with pytest.raises(ValueError, match="must be a dataclass"):
        vocabulary(NotData)


# -- core: the start line -----------------------------------------------------------


def test_the_start_line_round_trips():
    spec = MatchSpec("race", (Seat("Ann", "red"), Seat("Bob")), {"target": 5}, seed=7)
    data = json.loads(json.dumps(spec.to_json()))
    assert data == {"type": "start", "game": "race", "settings": {"target": 5}, "seed": 7,
                    "seats": [{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": ""}]}
    assert MatchSpec.from_json(data) == spec
    assert "seed" not in MatchSpec("race", (Seat("A"),)).to_json()


def test_seats_may_be_plain_names():
    spec = MatchSpec.from_json({"type": "start", "game": "raj", "seats": ["Ann", "Bob"]})
    assert spec.seats == (Seat("Ann"), Seat("Bob")) and spec.settings == {} and spec.seed is None


@pytest.mark.parametrize("data, refusal", [
    ({"game": "raj", "seats": ["A"]}, {"code": "start_not_start", "params": {}}),
    ({"type": "start", "seats": ["A"]}, {"code": "start_no_game", "params": {}}),
    ({"type": "start", "game": "raj", "seats": []}, {"code": "start_no_seats", "params": {}}),
    ({"type": "start", "game": "raj", "seats": [{"colour": "red"}]}, {"code": "start_bad_seat", "params": {"number": 1}}),
    ({"type": "start", "game": "raj", "seats": ["A"], "settings": [1]}, {"code": "start_bad_settings", "params": {}}),
    ({"type": "start", "game": "raj", "seats": ["A"], "seed": True}, {"code": "start_bad_seed", "params": {}}),
    ({"type": "start", "game": "raj", "seats": ["A"], "rounds": 3}, {"code": "start_unknown_keys", "params": {"names": ["rounds"]}}),
])
def test_a_bad_start_line_is_refused_as_a_code(data, refusal):
    with pytest.raises(IllegalAction) as info:
        MatchSpec.from_json(data)
    assert info.value.to_json() == refusal


def test_settings_take_defaults_and_refuse_unknown_keys():
    @dataclass(frozen=True)
    class S:
        target: int = 200
        edition: str = "en"

    assert parse_settings(S, {}) == S()
    assert parse_settings(S, {"edition": "fr"}) == S(edition="fr")
    with pytest.raises(IllegalAction, match=r'unknown_setting {"name": "tagret"}'):
        parse_settings(S, {"tagret": 100})
    with pytest.raises(IllegalAction, match='bad_setting {"setting": "target"}'):
        parse_settings(S, {"target": "lots"})


def test_a_game_satisfies_the_protocol_and_its_state_round_trips():
    assert isinstance(RACE, Game)
    state = RACE.apply(RACE.start(race_spec()), Add(1, 2))[0]
    assert state_from_json(RACE, json.loads(json.dumps(state_to_json(state)))) == state


def test_seats_go_round_both_ways():
    assert [next_seat(s, 4) for s in range(4)] == [1, 2, 3, 0]
    assert [next_seat(s, 4, -1) for s in range(4)] == [3, 0, 1, 2]
    assert next_seat(3, 5, 1, steps=4) == 2
    assert seat_list(["a", "b", "c"]) == (0, 1, 2)


# -- serial ----------------------------------------------------------------------------


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True)
class Inner:
    cards: tuple[str, ...]
    held: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Outer:
    n: int
    ratio: float
    flag: bool
    pair: tuple[int, str]
    inner: Inner
    scores: dict[str, int] = field(default_factory=dict)
    maybe: int | None = None
    colour: Colour = Colour.RED
    lines: tuple[Inner, ...] = ()


def test_nested_values_round_trip():
    value = Outer(3, 0.5, True, (1, "a"), Inner(("R1", "B2"), frozenset({3, 1})),
                  {"ann": 4}, None, Colour.BLUE, (Inner(()),))
    data = json.loads(json.dumps(to_jsonable(value), default=lambda e: e.value))
    assert data["inner"]["held"] == [1, 3]          # frozensets are written sorted
    assert from_jsonable(Outer, data) == value


def test_a_float_field_takes_a_whole_number_but_an_int_field_refuses_a_bool():
    base = {"n": 1, "ratio": 2, "flag": False, "pair": [1, "x"], "inner": {"cards": []}}
    assert from_jsonable(Outer, base).ratio == 2.0
    with pytest.raises(ValueError, match=r"\$\.n: expected a whole number, got True"):
        from_jsonable(Outer, {**base, "n": True})
    with pytest.raises(ValueError, match=r"\$\.flag: expected true/false"):
        from_jsonable(Outer, {**base, "flag": 1})


@pytest.mark.parametrize("change, message", [
    ({"pair": [1]}, r"\$\.pair: expected 2 items, got 1"),
    ({"pair": "x"}, r"\$\.pair: expected a list"),
    ({"inner": {"cards": ["R1", 2]}}, r"\$\.inner\.cards\[1\]: expected text"),
    ({"inner": []}, r"\$\.inner: expected an object for Inner"),
    ({"scores": {"a": "b"}}, r"\$\.scores\.a: expected a whole number"),
    ({"maybe": "x"}, r"\$\.maybe: 'x' fits none of"),
    ({"colour": "green"}, r"\$\.colour: 'green' is not a valid Colour"),
    ({"ratio": None}, r"\$\.ratio: expected a number"),
])
def test_a_value_that_does_not_fit_names_its_path(change, message):
    base = {"n": 1, "ratio": 2, "flag": False, "pair": [1, "x"], "inner": {"cards": []}}
    with pytest.raises(ValueError, match=message):
        from_jsonable(Outer, {**base, **change})


def test_an_unsupported_type_is_a_type_error():
    with pytest.raises(TypeError, match="cannot rebuild"):
        from_jsonable(bytes, b"x")


inner_values = st.builds(Inner, st.lists(st.text(max_size=3), max_size=4).map(tuple),
                         st.frozensets(st.integers(-5, 5), max_size=4))
outer_values = st.builds(
    Outer, st.integers(), st.floats(allow_nan=False, allow_infinity=False), st.booleans(),
    st.tuples(st.integers(), st.text(max_size=3)), inner_values,
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=3),
    st.none() | st.integers(), st.sampled_from(Colour), st.lists(inner_values, max_size=3).map(tuple))


@settings(max_examples=60, deadline=None)
@given(outer_values)
def test_any_value_survives_json(value):
    text = json.dumps(to_jsonable(value), default=lambda e: e.value)
    assert from_jsonable(Outer, json.loads(text)) == value


# -- match -----------------------------------------------------------------------------


def test_a_new_match_starts_at_zero_with_the_dealer_in_range():
    p = MatchProgress.new(3, dealer=4)
    assert p.totals == (0, 0, 0) and p.dealer == 1 and p.round_no == 1 and not p.finished


def test_a_round_adds_up_and_passes_the_deal_on():
    rule = MatchRule(100)
    p = close_round(MatchProgress.new(3, dealer=2), (10, 0, 5), rule)
    assert p.totals == (10, 0, 5) and p.history == ((10, 0, 5),)
    assert p.round_no == 2 and p.dealer == 0 and not p.finished


def test_high_goal_the_single_best_at_the_target_wins():
    p = close_round(MatchProgress.new(3), (190, 150, 0), MatchRule(200))
    p = close_round(p, (15, 60, 0), MatchRule(200))
    assert p.finished and p.winners == (1,) and p.totals == (205, 210, 0)


def test_low_goal_the_lowest_total_wins_when_someone_reaches_the_target():
    rule = MatchRule(100, goal="low")
    p = close_round(MatchProgress.new(3), (40, 99, 20), rule)
    assert not p.finished
    p = close_round(p, (30, 5, 10), rule)
    assert p.finished and p.totals == (70, 104, 30) and p.winners == (2,)


def test_share_tie_the_equal_best_share_the_win():
    p = close_round(MatchProgress.new(3), (100, 100, 50), MatchRule(100, tie="share"))
    assert p.finished and p.winners == (0, 1)


def test_play_on_tie_another_round_until_one_leads():
    rule = MatchRule(200, tie="play_on")
    p = close_round(MatchProgress.new(3), (210, 210, 10), rule)
    assert not p.finished and p.round_no == 2 and p.dealer == 1
    p = close_round(p, (0, 3, 0), rule)
    assert p.finished and p.winners == (1,)


def test_no_target_the_game_ends_the_match_itself():
    rule = MatchRule(None)
    p = close_round(MatchProgress.new(2), (1000, 0), rule)
    assert not p.finished
    done = finish(p, "high")
    assert done.finished and done.winners == (0,)
    assert finish(done, "low") is done                 # finishing twice changes nothing
    assert finish(MatchProgress.new(2), "low").winners == (0, 1)


def test_a_finished_match_or_wrong_scores_are_refused():
    done = finish(MatchProgress.new(2), "high")
    with pytest.raises(ValueError, match="already over"):
        close_round(done, (1, 2), MatchRule(10))
    with pytest.raises(ValueError, match="3 scores for 2 seats"):
        close_round(MatchProgress.new(2), (1, 2, 3), MatchRule(10))


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 6).flatmap(lambda n: st.lists(
    st.lists(st.integers(-20, 60), min_size=n, max_size=n).map(tuple), max_size=12)),
    st.sampled_from(["high", "low"]), st.sampled_from(["share", "play_on"]))
def test_totals_are_the_sum_of_the_history_and_winners_hold_the_best(rounds, goal, tie):
    if not rounds:
        return
    rule = MatchRule(100, goal, tie)
    p = MatchProgress.new(len(rounds[0]))
    for scores in rounds:
        if p.finished:
            break
        p = close_round(p, scores, rule)
    assert p.totals == tuple(map(sum, zip(*p.history)))
    assert p.round_no == len(p.history) + (0 if p.finished else 1)
    if p.finished:
        pick = max if goal == "high" else min
        assert max(p.totals) >= 100
        assert {p.totals[w] for w in p.winners} == {pick(p.totals)}
        assert tie == "share" or len(p.winners) == 1
