"""Flip 7 actions and states as JSON, and the example match log."""
import json
from pathlib import Path

import pytest

from engine.core import EndMatch, IllegalAction, Undo, state_from_json, state_to_json
from engine.flip7 import GAME, Flip, Hit, Stay, Target
from engine.log import read_log

from flip7_script import play
from said import refused_in_words, said

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "flip7.jsonl"


@pytest.mark.parametrize("action", [Flip("7"), Flip("FREEZE", seat=2), Hit(1), Stay(0),
                                    Target(1, 2), Undo(), EndMatch()])
def test_every_action_round_trips_through_json(action):
    data = json.loads(json.dumps(action.to_json()))
    assert data["type"] == action.kind
    assert GAME.parse_action(data) == action


def test_actions_with_missing_or_wrong_fields_are_refused_in_words():
    with refused_in_words("flip7", "“Card” is missing"):
        GAME.parse_action({"type": "flip"})
    with refused_in_words("flip7", "does not fit"):
        GAME.parse_action({"type": "hit", "seat": "one"})
    with refused_in_words("flip7", "has no action “slap”"):
        GAME.parse_action({"type": "slap"})


def test_states_round_trip_through_json_mid_flip_three_and_mid_choice():
    state, _ = play("5 6 7 H1 FLIP3 T1>2 FREEZE 1 2")
    assert state.choice is not None and state.flips
    data = json.loads(json.dumps(state_to_json(state)))
    assert state_from_json(GAME, data) == state


def test_the_example_log_folds_to_a_finished_match():
    timeline = read_log(EXAMPLE.read_text().splitlines())
    state = timeline.state
    assert state.progress.finished
    view = GAME.view(state)
    assert view["winners"] and said(view["prompt"], "flip7", names=[s["name"] for s in view["seats"]]).startswith("Match over")


def test_the_protocol_documents_example_is_a_valid_log():
    doc = (EXAMPLE.parents[1] / "docs" / "protocol.md").read_text()
    flip7 = doc.split("## Flip 7:", 1)[1].split("\n## ", 1)[0]
    block = flip7.split("### Example", 1)[1].split("```", 2)[1]
    state = read_log(block.splitlines()).state
    assert state.progress.history == ((7, 5, 9),)
