"""Flip 7 self-play: the bots, the action stream, the statistics and `deckhand simulate`."""
import json

import pytest

from engine.core import IllegalAction, MatchSpec, Seat
from engine.flip7 import GAME, Hit, Stay, round_score
from engine.flip7.rules import thaw
from engine.flip7.selfplay import STRATEGIES, make_strategy, play_match, simulate
from engine.log import fold
from said import refused_in_words

SPEC = MatchSpec("flip7", tuple(Seat(n) for n in ("Ann", "Bob", "Cat", "Dan")))


def test_play_match_yields_a_whole_match_and_is_reproducible():
    actions = list(play_match(SPEC, STRATEGIES, seed=3))
    state = fold(GAME, SPEC, actions)
    assert state.progress.finished
    assert max(state.progress.totals) >= 200 and len(state.progress.winners) == 1
    assert list(play_match(SPEC, STRATEGIES, seed=3)) == actions
    assert list(play_match(SPEC, STRATEGIES, seed=4)) != actions


def test_play_match_can_stop_after_some_rounds():
    state = fold(GAME, SPEC, play_match(SPEC, None, seed=1, rounds=2))
    assert len(state.progress.history) == 2 and not state.progress.finished


def test_stay_at_n_stays_exactly_when_its_line_reaches_n():
    state = GAME.start(SPEC)
    decisions = 0
    for action in play_match(SPEC, ("stay:18",), seed=11, rounds=20):
        if isinstance(action, (Hit, Stay)):
            score = round_score(state.lines[action.seat])
            has_card = bool(state.lines[action.seat].cards())
            assert isinstance(action, Stay) == (score >= 18 and has_card)
            decisions += 1
        state, _ = GAME.apply(state, action)
    assert decisions > 20


def test_odds_stays_exactly_when_the_bust_chance_is_above_its_threshold():
    state = GAME.start(SPEC)
    stays = 0
    for action in play_match(SPEC, ("odds:0.2",), seed=12, rounds=20):
        if isinstance(action, (Hit, Stay)):
            chance = thaw(state).bust_chance(action.seat)
            has_card = bool(state.lines[action.seat].cards())
            assert isinstance(action, Stay) == (chance > 0.2 and has_card)
            stays += isinstance(action, Stay)
        state, _ = GAME.apply(state, action)
    assert stays > 5


def test_unknown_strategies_are_refused_in_words():
    with refused_in_words("flip7", "unknown Flip 7 strategy “bold”"):
        make_strategy("bold")
    with refused_in_words("flip7", "odds:P"):
        make_strategy("odds:2")


def test_simulate_reports_statistics_that_add_up():
    stats = simulate(4, 400, 7, ("stay:25", "odds:0.3"))
    assert stats["rounds"] == 400 and stats["players"] == 4
    assert stats["strategies"] == ["stay:25", "odds:0.3", "stay:25", "odds:0.3"]
    rates = stats["bust_rate"] + stats["freeze_rate"] + stats["stay_rate"]
    assert 0.85 < rates <= 1      # the rest: active when someone flipped 7
    assert 0 < stats["flip7_rate"] < 0.2
    assert 10 < stats["average_round_score"] < 40
    assert stats["matches_finished"] >= 30 and 5 < stats["rounds_per_match"] < 15
    per_seat = stats["per_seat"]
    assert sum(s["wins"] for s in per_seat) >= stats["matches_finished"]
    assert sum(s["average_round_score"] for s in per_seat) == pytest.approx(4 * stats["average_round_score"])
    assert simulate(4, 400, 7, ("stay:25", "odds:0.3")) == stats


def test_deckhand_simulate_prints_the_statistics(capsys):
    from device.cli import main
    assert main(["simulate", "--game", "flip7", "--players", "3", "--rounds", "50",
                 "--seed", "2", "--strategy", "odds:0.25", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["rounds"] == 50 and stats["strategies"] == ["odds:0.25"] * 3
    assert main(["simulate", "--game", "flip7", "--rounds", "20"]) == 0
    assert "rounds/s" in capsys.readouterr().out


def test_deckhand_simulate_explains_bad_input(capsys, monkeypatch):
    from device.cli import main
    assert main(["simulate", "--game", "flip7", "--strategy", "bold"]) == 2
    assert "Unknown Flip 7 strategy “bold”" in capsys.readouterr().err
    assert main(["simulate", "--game", "chess"]) == 2
    assert "does not play “chess”" in capsys.readouterr().err
    monkeypatch.setitem(__import__("engine.games").games.GAME_MODULES, "ghost", "engine.ghost")
    assert main(["simulate", "--game", "ghost"]) == 2
    assert "ghost has no self-play yet" in capsys.readouterr().err


def test_bots_passing_second_chances_round_for_ever_still_end_the_round():
    # 17 players: nearly every card ends up on the table and two Second Chance holders
    # would hit the same three cards for ever; the driver's round limit makes them stay.
    spec = MatchSpec("flip7", tuple(Seat(f"P{i}") for i in range(17)), {"target": 120})
    count = 0
    for count, _ in enumerate(play_match(spec, ("odds:0.5",), seed=3822978380), start=1):
        assert count < 20000
    assert count > 1000
