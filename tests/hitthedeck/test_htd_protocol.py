"""Hit the Deck's actions as JSON (every type round-trips), the view's keys, the state
as JSON, and the example log."""
import json
from pathlib import Path

import pytest

from engine.core import SHARED_ACTIONS, CorrectRound, EndMatch, IllegalAction, SetTotals, Undo, state_from_json, state_to_json
from engine.games import get_game
from engine.hitthedeck import GAME
from engine.hitthedeck.actions import (ACTION_TYPES, CloseWindow, Cut, Draw, FakeOut, Flip,
                                       ForgotCall, HandCards, Pass, Play, SetHandSize, Slap,
                                       StartHand, TurnUp)
from engine.log import read_log

from htd_helpers import begin, run
from said import refused_in_words, said, said_all

EXAMPLES = [StartHand(), TurnUp("HIT-HAND", 12), TurnUp("R3"), Play(1, "R-CUT", 5), Draw(2),
            Pass(2), Cut(1, "Y-FLIP", 99), Flip(2, "G4"), Slap(0, 1_000_000_001),
            CloseWindow(3_000_000_000), CloseWindow(), ForgotCall(1), FakeOut(3, 17),
            FakeOut(3), SetHandSize(2, 9), HandCards(0, ("R1", "HIT-HAND")), HandCards(1, ()),
            Undo(), EndMatch(), SetTotals((5, 0, 12)), CorrectRound(1, (0, 3, 9))]


def test_every_action_type_has_an_example():
    assert {type(a) for a in EXAMPLES} == set(ACTION_TYPES) | set(SHARED_ACTIONS)
    assert set(GAME.actions) == {cls.kind for cls in ACTION_TYPES + SHARED_ACTIONS}


@pytest.mark.parametrize("action", EXAMPLES, ids=lambda a: a.kind)
def test_every_action_round_trips_through_json(action):
    text = json.dumps(action.to_json())
    assert GAME.parse_action(json.loads(text)) == action


def test_a_bad_action_is_refused_in_words():
    with refused_in_words("hitthedeck", "has no action"):
        GAME.parse_action({"type": "shuffle"})
    with refused_in_words("hitthedeck", "“Card” is missing"):
        GAME.parse_action({"type": "play", "seat": 1})
    with refused_in_words("hitthedeck", "does not fit"):
        GAME.parse_action({"type": "slap", "seat": 1, "t_ns": "soon"})


def test_the_game_is_found_by_name_and_fits_the_protocol():
    from engine.core import Game
    assert get_game("hitthedeck") is GAME and isinstance(GAME, Game)


def test_the_state_round_trips_through_json():
    s = run(begin(4), Play(1, "HIT-HAND", 10), Slap(1, 20), Slap(2, 30))
    assert state_from_json(GAME, json.loads(json.dumps(state_to_json(s)))) == s


def test_the_view_has_the_shared_keys_and_the_table():
    s = run(begin(4), Play(1, "HIT-4"))
    v = GAME.view(s)
    json.dumps(v)
    for key in ("game", "seats", "round", "dealer", "turn", "totals", "history", "finished",
                "winners", "prompt", "table"):
        assert key in v
    t = v["table"]
    assert t["top"] == "HIT-4" and said(t["demand"]["says"], "hitthedeck", s) == "a 4" and t["direction"] == "clockwise"
    assert t["hand_counts"] == [7, 6, 7, 7] and t["slap_window"] == {"open": False}
    assert "Cat" in said(v["prompt"], "hitthedeck", s) and "a 4" in said(v["prompt"], "hitthedeck", s)
    assert v["turn"] == 2
    assert "must play a 4" in said_all(t["last_ruling"], "hitthedeck", s)


def test_the_view_shows_the_open_slap_window_and_its_order():
    ms = 1_000_000
    s = run(begin(3), Play(1, "HIT-HAND", 10 * ms), Slap(2, 30 * ms), Slap(1, 20 * ms))
    w = GAME.view(s)["table"]["slap_window"]
    assert w["open"] and w["slapped"] == [1, 2] and w["caller"] == 1
    assert w["order"] == [{"seat": 1, "t_ns": 20 * ms}, {"seat": 2, "t_ns": 30 * ms}]
    assert "Ann" in said(GAME.view(s)["prompt"], "hitthedeck", s)
    done = GAME.view(run(s, Slap(0, 40 * ms)))
    assert done["table"]["slap_window"]["last"]["penalised"] == [{"seat": 0, "drew": 4}]
    assert "Ann slapped last and draws four" in said_all(done["table"]["last_ruling"], "hitthedeck", s)


def test_the_example_log_replays():
    path = Path(__file__).resolve().parents[2] / "examples" / "hitthedeck.jsonl"
    timeline = read_log(path.read_text().splitlines())
    assert timeline.spec.game == "hitthedeck" and len(timeline.actions) > 20
