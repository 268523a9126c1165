"""The protocol's examples (docs/protocol.md), replayed through `deckhand replay`: the
start line's dealer, the host's totals and round corrections, forced choices, a held
Solo card, and `--notices` (one JSON line per notice with its action's line number)."""
from __future__ import annotations

import json
from pathlib import Path

from device.cli import main

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def replay(capsys, name: str, *flags: str):
    code = main(["replay", *flags, str(EXAMPLES / name)])
    out, err = capsys.readouterr()
    assert (code, err) == (0, ""), err
    if flags:
        return [json.loads(line) for line in out.splitlines()]
    return json.loads(out)


def test_the_dealer_example_deals_from_the_seat_named(capsys):
    view = replay(capsys, "protocol-dealer.jsonl")
    assert view["dealer"] == 2 and view["turn"] == 1      # Ann (left of Cat) played first
    assert view["table"]["hand_counts"] == [2, 3, 3]


def test_the_totals_example_carries_a_paper_game_on_and_corrects_a_round(capsys):
    view = replay(capsys, "protocol-totals.jsonl")
    assert view["history"] == [[22, 5, 9]] and view["totals"] == [172, 125, 164]
    assert view["finished"] and view["winners"] == [0]      # the correction changed the winner
    said = replay(capsys, "protocol-totals.jsonl", "--notices")
    assert {"line": 5, "code": "totals_set"}.items() <= said[0].items()
    assert [n["code"] for n in said if n["line"] == 14][-1] == "match_won"
    assert said[-1]["line"] == 17 and said[-1]["code"] == "round_corrected"


def test_the_forced_choice_example_accepts_the_only_possible_takers(capsys):
    view = replay(capsys, "protocol-forced.jsonl")
    assert view["history"] == [[0, 0, 7]]
    said = replay(capsys, "protocol-forced.jsonl", "--notices")
    assert any({"line": 11, "code": "chance_given", "seats": [1, 2]}.items() <= n.items() for n in said)
    assert not [n for n in said if n["line"] in (12, 20)]    # the accepted targets say nothing


def test_the_held_card_example_gives_the_card_back(capsys):
    view = replay(capsys, "protocol-held.jsonl")
    assert view["table"]["hand_counts"] == [8, 7, 7, 8] and view["turn"] == 3
    said = replay(capsys, "protocol-held.jsonl", "--notices")
    assert [(n["line"], n["code"]) for n in said if n["code"] != "play"][-2:] == \
        [(9, "held"), (11, "jump_refused")]


def test_notices_come_with_their_actions_line_numbers_and_nothing_on_a_bad_log(tmp_path, capsys):
    said = replay(capsys, "hitthedeck.jsonl", "--notices")
    lines = (EXAMPLES / "hitthedeck.jsonl").read_text().splitlines()
    assert said and all({"line", "code", "seats"} <= set(n) for n in said)
    for notice in said:
        action = json.loads(lines[notice["line"] - 1])
        assert action["type"] != "start"
    assert any(n["code"] == "fake_out" for n in said)
    bad = tmp_path / "bad.jsonl"
    bad.write_text((EXAMPLES / "protocol-totals.jsonl").read_text() + '{"type": "hit", "seat": 9}\n')
    assert main(["replay", "--notices", str(bad)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("line 18:")
