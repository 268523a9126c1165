"""`deckhand replay`: a log file or stdin folds to the game's view printed as JSON; a bad
line stops it with `line N: reason` and exit code 1; a stored match replays too."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from device.cli import main
from device.store import EventStore, OpenMatch
from engine.core import MatchSpec, Seat
from engine.log import read_log
from engine.raj import GAME as RAJ
from engine.raj.selfplay import play_match as raj_match

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.jsonl"))
RAJ_SPEC = MatchSpec("raj", (Seat("Ann", "red"), Seat("Bob", "blue"), Seat("Cat", "green")))


def raj_log(seed: int = 3, rounds: int | None = None) -> list[str]:
    actions = raj_match(RAJ_SPEC, ["match", "shade", "random"], seed, rounds)
    return [json.dumps(RAJ_SPEC.to_json())] + [json.dumps(a.to_json()) for a in actions]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["replay", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_log_file_prints_the_final_view(tmp_path, capsys):
    log = tmp_path / "raj.jsonl"
    log.write_text("\n".join(raj_log()) + "\n")
    code, out, err = run(capsys, str(log))
    assert (code, err) == (0, "")
    view = json.loads(out)
    timeline = read_log(raj_log())
    assert view == json.loads(json.dumps(RAJ.view(timeline.state)))
    assert view["finished"] and view["winners"] and len(view["totals"]) == 3


def test_a_match_in_progress_shows_whose_turn_it_is(tmp_path, capsys):
    log = tmp_path / "raj.jsonl"
    log.write_text("\n".join(raj_log(rounds=4)[:-2]) + "\n")
    code, out, _ = run(capsys, str(log))
    view = json.loads(out)
    assert code == 0 and not view["finished"] and view["prompt"]


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_every_shipped_example_replays(example, capsys):
    code, out, err = run(capsys, str(example))
    assert (code, err) == (0, "")
    start = next(line for line in example.read_text().splitlines()
                 if line.strip() and not line.startswith("#"))
    assert json.loads(out)["game"] == json.loads(start)["game"]


@pytest.mark.parametrize("bad, reason", [
    ('{"type": "bid", "card": "red:99"}', "That is not a player card."),
    ('{"type": "bid", ', "not JSON (column 16)"),
    ('{"type": "undo"}{', "not JSON (column 17)"),
])
def test_an_illegal_line_stops_with_its_number(tmp_path, capsys, bad, reason):
    lines = raj_log(rounds=2)
    lines.insert(3, bad)
    log = tmp_path / "bad.jsonl"
    log.write_text("\n".join(lines) + "\n")
    code, out, err = run(capsys, str(log))
    assert code == 1 and out == ""
    assert err.startswith(f"line 4: {reason}")


@pytest.mark.parametrize("bad, french", [
    ('{"type": "bid", "card": "red:99"}', "ligne 4 : "),
    ('{"type": "bid", ', "ligne 4 : ce n'est pas du JSON (colonne 16)"),
    ('{"type": "bid", "card": "\\ud800"}', "ligne 4 : le texte à « card » n'est pas de l'Unicode valide"),
])
def test_a_bad_line_is_said_in_the_shells_language(tmp_path, capsys, monkeypatch, bad, french):
    from web.words import t
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    lines = raj_log(rounds=2)
    lines.insert(3, bad)
    log = tmp_path / "bad.jsonl"
    log.write_text("\n".join(lines) + "\n")
    code, out, err = run(capsys, str(log))
    assert code == 1 and out == "" and err.startswith(french)
    if "red:99" in bad:
        assert err == f"ligne 4 : {t('That is not a player card.', 'fr')}\n"
    code, _, err = run(capsys, str(tmp_path / "nope.jsonl"))
    assert code == 1 and err.startswith(f"impossible de lire {tmp_path / 'nope.jsonl'} : ")


def test_a_missing_file_or_an_empty_log_is_an_error_in_words(tmp_path, capsys):
    code, _, err = run(capsys, str(tmp_path / "nope.jsonl"))
    assert code == 1 and err.startswith("cannot read") and "No such file" in err
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n# nothing yet\n")
    code, _, err = run(capsys, str(empty))
    assert code == 1 and "the log is empty" in err


def test_stdin_through_the_real_command_line():
    text = "\n".join(raj_log(seed=5)) + "\n"
    done = subprocess.run([sys.executable, "-m", "device.cli", "replay", "-"], input=text,
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["totals"] == list(RAJ.view(read_log(raj_log(seed=5)).state)["totals"])
    bad = subprocess.run([sys.executable, "-m", "device.cli", "replay", "-"],
                         input=text.replace('"type": "bid_down"', '"type": "bid_up"', 1),
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert bad.returncode == 1 and bad.stderr.startswith("line 3: This game has no action “bid_up”.")


def test_a_stored_match_replays_and_exports_as_a_log(tmp_path, capsys):
    db = tmp_path / "store.sqlite3"
    with EventStore(db) as store:
        match, _ = OpenMatch.start(store, RAJ_SPEC, "host")
        for line in raj_log(seed=9)[1:]:
            match.submit([match.parse(json.loads(line))], "camera")
        match.submit([match.parse({"type": "undo"})], "host")
        expected = json.loads(json.dumps(match.view))
    code, out, err = run(capsys, "--store", str(db), "--match", str(match.id))
    assert (code, err) == (0, "") and json.loads(out) == expected
    code, out, _ = run(capsys, "--store", str(db), "--match", str(match.id), "--jsonl")
    assert code == 0 and out.splitlines()[-1] == '{"type": "undo"}'
    exported = tmp_path / "exported.jsonl"
    exported.write_text(out)
    code, out, _ = run(capsys, str(exported))
    assert code == 0 and json.loads(out) == expected
    code, _, err = run(capsys, "--store", str(db), "--match", "77")
    assert code == 1 and "has no match 77" in err


def test_usage_mistakes_exit_2(capsys):
    assert run(capsys, "--store", "x.db")[0] == 2
    assert run(capsys)[0] == 2
