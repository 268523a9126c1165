"""Solo self-play: simulated matches keep every card, the engine's counts follow the
hidden hands, replaying the actions gives the same state, and bots exercise every rule."""
from __future__ import annotations

import inspect
import json

import pytest
from hypothesis import given, settings, strategies as st

from engine.core import IllegalAction, Undo
from engine.log import fold, read_log
from engine.solo import GAME
from engine.solo.selfplay import STRATEGIES, Simulator, play_match, simulate

from solo_helpers import spec
from said import refused_in_words


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 10), seed=st.integers(0, 2**32),
       bots=st.lists(st.sampled_from(sorted(STRATEGIES)), min_size=1, max_size=3),
       jump_black=st.booleans())
def test_simulated_matches_keep_every_card_and_the_engine_counts_follow_the_hidden_hands(
        players, seed, bots, jump_black):
    match_spec = spec(players, jump_black=jump_black)
    sim = Simulator(match_spec, bots, seed)
    actions = []
    for action in sim.actions():
        actions.append(action)
        s = sim.state
        if s.phase == "play":
            assert sum(map(len, sim.hands)) + len(sim.pack) + len(sim.discard) == 112
            assert sim.discard[-1] == s.top
            if s.question is None:
                assert s.hands == sim.true_counts(), action
                assert (s.pack, s.discard) == (len(sim.pack), len(sim.discard)), action
    assert sim.state.match.finished
    assert sum(sim.state.match.totals) == sum(map(sum, sim.state.match.history))
    assert fold(GAME, match_spec, actions) == sim.state


def test_play_match_yields_the_actions_that_play_the_match_from_the_spec():
    match_spec = spec(5)
    actions = list(play_match(match_spec, ["greedy", "random"], seed=11))
    state = GAME.start(match_spec)
    for action in actions:
        state, _ = GAME.apply(state, action)
    assert state.match.finished and max(state.match.totals) >= 600
    assert actions == list(play_match(match_spec, ["greedy", "random"], seed=11))   # seeded


def test_play_match_stops_after_the_rounds_asked_for():
    state = fold(GAME, spec(3), play_match(spec(3), "random", seed=3, rounds=2))
    assert len(state.match.history) == 2


def test_simulate_has_the_shared_signature_and_reports_statistics():
    assert list(inspect.signature(simulate).parameters) == ["players", "rounds", "seed", "strategies"]
    stats = simulate(4, 12, 5, ["greedy", "random"])
    assert stats["rounds"] == 12 and sum(stats["round_wins"]) == 12
    assert stats["strategies"] == ["greedy", "random", "greedy", "random"]
    assert sum(stats["points"]) > 0
    assert simulate(3, 2, 5, ())["strategies"] == ["greedy", "random", "greedy"]   # defaults


def test_self_play_exercises_every_rule():
    events = simulate(8, 40, 1, "random,greedy")["events"]
    for rule in ("jumps", "stacked", "penalties_taken", "solo_called", "solo_forgotten",
                 "solo_caught", "swaps", "rotations", "questions", "reshuffles"):
        assert events.get(rule, 0) > 0, rule
    assert "stalled" not in events


def test_unknown_strategies_and_table_sizes_are_refused():
    with refused_in_words("solo", "unknown Solo strategy “clever”", names=("P0", "P1", "P2", "P3", "P4", "P5")):
        simulate(3, 1, 0, ["clever"])
    with refused_in_words("solo", "2 to 10 players", names=("P0", "P1", "P2", "P3", "P4", "P5")):
        simulate(1, 1, 0, "random")


@settings(max_examples=15, deadline=None)
@given(players=st.integers(2, 10), seed=st.integers(0, 2**32), data=st.data())
def test_a_log_written_as_json_lines_with_undos_replays_to_the_same_state(players, seed, data):
    match_spec = spec(players)
    actions = list(play_match(match_spec, "random", seed, rounds=1))
    undone_at = set(data.draw(st.lists(st.integers(0, len(actions) - 1), max_size=5)))
    lines = [json.dumps(match_spec.to_json())]
    for i, action in enumerate(actions):
        lines.append(json.dumps(action.to_json()))
        if i in undone_at:   # take it back and do it again
            lines += [json.dumps(Undo().to_json()), json.dumps(action.to_json())]
    assert read_log(lines).state == fold(GAME, match_spec, actions)
