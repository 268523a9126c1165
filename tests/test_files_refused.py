"""Bad files and commands (issue 15, "Files and commands"): every bad file gets one line
saying what and where (line number, key), bounded in length, no traceback, exit
non-zero, nothing written. Each probe here broke before."""
from __future__ import annotations

import hashlib
import json
import sqlite3
from contextlib import closing

import pytest

import engine.log
from device.cli import main
from device.config import ConfigError, load_config
from device.store import EventStore, OpenMatch, StoreCorrupt
from engine.core import MatchSpec, Seat, Undo
from engine.flip7 import GAME as FLIP7
from engine.flip7.selfplay import play_match as flip7_match
from engine.log import KEEP_EVERY, Timeline, read_log

SPEC = MatchSpec("flip7", (Seat("Ann", "red"), Seat("Bob", "blue"), Seat("Cat", "green")), {}, 4)
START = json.dumps(SPEC.to_json())
ACTION = '{"type": "flip", "card": "6", "seat": null}'


def replay(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["replay", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys, tmp_path, content: bytes | str, where: str, *words: str) -> str:
    log = tmp_path / "bad.jsonl"
    log.write_bytes(content if isinstance(content, bytes) else content.encode())
    code, out, err = replay(capsys, str(log))
    assert code == 1 and out == "", (code, out[:200])
    assert err.count("\n") == 1 and len(err) < 400, err[:500]
    assert err.startswith(where), err
    for word in words:
        assert word in err, err
    return err


def test_a_number_of_5000_digits_names_its_line(capsys, tmp_path):
    body = START + "\n" + '{"type": "hit", "seat": ' + "9" * 5000 + "}\n"
    refused(capsys, tmp_path, body, "line 2: ", "digits")


def test_nesting_100000_deep_names_its_line(capsys, tmp_path):
    body = START + "\n" + ACTION + "\n" + "[" * 100_000 + "]" * 100_000 + "\n"
    refused(capsys, tmp_path, body, "line 3: ", "nested")


def test_a_seat_name_with_a_lone_surrogate_is_refused_before_any_output(capsys, tmp_path):
    start = json.dumps({**SPEC.to_json(), "seats": [{"name": "\ud800x"}, "Bob", "Cat"]})
    assert "\\ud800" in start
    refused(capsys, tmp_path, start + "\n" + ACTION + "\n", "line 1: ", "seats[0].name", "Unicode")


def test_invalid_utf8_names_its_line(capsys, tmp_path):
    body = (START + "\n" + ACTION + "\n").encode() + b'{"type": "flip", "card": "\xff6"}\n'
    refused(capsys, tmp_path, body, "line 3: ", "not UTF-8", "byte 27")


def test_a_huge_bad_value_gets_a_short_message(capsys, tmp_path):
    body = START + "\n" + '{"type": "flip", "card": "' + "x" * 3_000_000 + '"}\n'
    err = refused(capsys, tmp_path, body, "line 2: ", "not part of this game")
    assert len(err) < 300


def test_a_mistyped_store_path_creates_nothing(capsys, tmp_path):
    missing = tmp_path / "no-such-dir" / "deckhand.sqlite3"
    code, out, err = replay(capsys, "--store", str(missing), "--match", "1")
    assert code == 1 and out == "" and err == f"there is no store at {missing}\n"
    assert list(tmp_path.iterdir()) == []


def test_a_store_an_older_version_wrote_with_a_lone_surrogate_replays(capsys, tmp_path):
    db = tmp_path / "old.sqlite3"
    with EventStore(db) as store:
        match, _ = OpenMatch.start(store, SPEC, "host")
    with closing(sqlite3.connect(db)) as conn, conn:  # what a version before the edge checks could store
        conn.execute("UPDATE matches SET spec = ?",
                     (json.dumps({**SPEC.to_json(), "seats": ["\ud800x", "Bob", "Cat"]}),))
    code, out, err = replay(capsys, "--store", str(db), "--match", str(match.id))
    assert (code, err) == (0, "") and "\ufffdx" in out


def test_a_foreign_sqlite_file_is_refused_without_changing_a_byte(tmp_path):
    foreign = tmp_path / "photos.db"
    with closing(sqlite3.connect(foreign)) as conn, conn:
        conn.execute("CREATE TABLE photo(path TEXT)")
        conn.execute("INSERT INTO photo VALUES ('a.jpg')")
    before = hashlib.sha256(foreign.read_bytes()).hexdigest()
    with pytest.raises(StoreCorrupt, match="not a Deckhand store"):
        EventStore(foreign)
    assert hashlib.sha256(foreign.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["photos.db"]


def test_a_foreign_sqlite_file_with_a_user_version_is_refused_too(tmp_path):
    foreign = tmp_path / "other.db"
    with closing(sqlite3.connect(foreign)) as conn, conn:
        conn.execute("CREATE TABLE players(name TEXT)")
        conn.execute("PRAGMA user_version=1")
    with pytest.raises(StoreCorrupt, match="not a Deckhand store"):
        EventStore(foreign)


def test_a_config_file_that_is_not_utf8_is_one_line_naming_the_line(tmp_path):
    path = tmp_path / "deckhand.toml"
    path.write_bytes(b"# pads\n[host]\nname = \"caf\xe9\"\n")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert str(info.value) == f"{path}: is not UTF-8 text (line 3); save it as UTF-8"


def test_a_config_array_100000_deep_is_one_line(tmp_path):
    path = tmp_path / "deckhand.toml"
    path.write_text("x = " + "[" * 100_000 + "]" * 100_000 + "\n")
    with pytest.raises(ConfigError, match="too deeply"):
        load_config(path)


def test_check_says_so_in_words_for_a_bad_config(tmp_path, capsys):
    path = tmp_path / "deckhand.toml"
    path.write_bytes(b"\xff\xfe[host]\n")
    main(["check", "--config", str(path)])
    out, err = capsys.readouterr()
    assert "not UTF-8 text (line 1)" in out + err and "Traceback" not in out + err


@pytest.mark.parametrize("recent", [32, 1])
def test_read_log_folds_like_the_timeline_with_undos_across_kept_states(monkeypatch, recent):
    """The fast path (Flip 7's table stepped in place, a state kept every KEEP_EVERY
    actions, only the recent ones) gives the very state the plain timeline gives."""
    monkeypatch.setattr(engine.log, "KEEP_RECENT", recent)
    actions = list(flip7_match(SPEC, seed=4))[:3 * KEEP_EVERY]
    log = []
    for i, action in enumerate(actions):
        log.append(action)
        if i % 97 == 96:                                 # undo, then play it again
            log += [Undo(), action]
        if i == KEEP_EVERY:                              # undo back across a kept state
            log += [Undo()] * 3 + actions[i - 2:i + 1]
    timeline = Timeline(FLIP7, SPEC)
    for action in log:
        timeline.apply(action)
    read = read_log([START] + [json.dumps(a.to_json()) for a in log])
    assert read.state == timeline.state and read.actions == timeline.actions
    read.undo()
    timeline.undo()
    assert read.state == timeline.state
