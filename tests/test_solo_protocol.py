"""Solo's wire format: every action type's JSON round trip, the state's JSON round trip,
the view's keys, the Game protocol, and the example log in examples/solo.jsonl."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.core import CorrectRound, EndMatch, Game, IllegalAction, SetTotals, Undo, parse_action, state_from_json, state_to_json
from engine.games import get_game
from engine.log import read_log
from engine.solo import GAME
from engine.solo.actions import (ACTIONS, CallSolo, CatchSolo, ChooseColour, Claim, Draw,
                                 HoldCard, Pass, Play, RoundCards, SetHandSize, SettlePlay, StartRound, Swap,
                                 TakePenalty)
from engine.observations import DISCARD, CardSeen
from engine.solo.referee import interpret

from solo_helpers import run, spec, started
from said import refused_in_words, said

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "solo.jsonl"

ONE_OF_EACH = [
    StartRound("R5"), StartRound("CHOOSE", "G"), Play(1, "R7"), Play(2, "TAKE4", "B"),
    ChooseColour(0, "Y"), Swap(1, 3), Draw(2), Pass(2), TakePenalty(3), Claim(4, 123456789),
    SettlePlay(2), HoldCard("CHOOSE"), CallSolo(1), CatchSolo(0, 1), SetHandSize(2, 5),
    RoundCards(1, ("R1", "ROTATE")), RoundCards(2, ()), Undo(), EndMatch(),
    SetTotals((10, 0, 250, 3, 4)), CorrectRound(2, (0, 35, 0, 0, 0)),
]


def test_one_of_each_covers_the_whole_vocabulary():
    assert {a.kind for a in ONE_OF_EACH} == set(ACTIONS)


@pytest.mark.parametrize("action", ONE_OF_EACH, ids=lambda a: a.kind)
def test_every_action_round_trips_through_json(action):
    text = json.dumps(action.to_json())
    assert parse_action(json.loads(text), GAME.actions) == action


def test_bad_action_json_is_refused_in_words():
    with refused_in_words("solo", "Play a card: the value", names=("P0", "P1", "P2", "P3", "P4", "P5")):
        parse_action({"type": "play", "seat": "one", "card": "R5"}, GAME.actions)
    with refused_in_words("solo", "has no action", names=("P0", "P1", "P2", "P3", "P4", "P5")):
        parse_action({"type": "slap"}, GAME.actions)


def test_the_state_round_trips_through_json_even_with_an_open_question():
    s = run(started(5, starter="R5"), Play(1, "R7"))
    s = run(s, *interpret(s, CardSeen(DISCARD, "R7", 1)))
    assert s.question is not None
    data = json.loads(json.dumps(state_to_json(s)))
    assert state_from_json(GAME, data) == s


def test_solo_implements_the_game_protocol_and_is_found_by_name():
    assert isinstance(GAME, Game)
    assert get_game("solo") is GAME
    assert (GAME.min_seats, GAME.max_seats) == (2, 10)


def test_settings_default_to_the_rulings_and_refuse_nonsense():
    s = GAME.start(spec(3))
    assert (s.settings.target, s.settings.choose_points, s.settings.jump_black,
            s.settings.hand_size) == (600, 50, False, 8)
    with refused_in_words("solo", "setting", names=("P0", "P1", "P2", "P3", "P4", "P5")):
        GAME.start(spec(3, wild=True))
    with refused_in_words("solo", "2 to 10 players", names=("P0", "P1", "P2", "P3", "P4", "P5")):
        GAME.start(spec(11))
    with refused_in_words("solo", "cannot deal 12 cards to 10 players", names=("P0", "P1", "P2", "P3", "P4", "P5")):
        GAME.start(spec(10, hand_size=12))


def test_the_view_has_the_common_keys_and_the_table():
    s = run(started(starter="R5"), Play(1, "R-TAKE2"))
    v = GAME.view(s)
    for key in ("game", "seats", "round", "dealer", "turn", "totals", "history", "finished",
                "winners", "prompt", "table"):
        assert key in v
    t = v["table"]
    assert t["top"] == "R-TAKE2" and t["penalty"] == {"cards": 2, "kind": "take2", "owed_by": 2}
    assert t["hand_counts"] == [8, 7, 8, 8] and t["direction"] == "clockwise"
    assert t["solo_owed"] is None and t["question"] is None
    assert "take 2 cards" in said(v["prompt"], "solo", names=["P0", "P1", "P2", "P3"])
    json.dumps(v)


def test_the_example_log_replays():
    timeline = read_log(EXAMPLE.read_text().splitlines())
    state = timeline.state
    assert state.match.round_no == 2 and state.match.totals == (0, 0, 135)
    assert state.turn == 0 and state.hands == (2, 2, 3) and state.direction == -1
    assert len(timeline.actions) > 20
