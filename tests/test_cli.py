"""The command line (issue 16): commands that read no picture load neither OpenCV nor
numpy; a busy port is one line and exit 2; an unknown recognize profile lists the
built-in ones; OpenCV's own WARN lines never reach the terminal; `simulate` says what
it counted, and its default Raj line-up has no two copies of one bot."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from device.cli import main

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("cv2", "numpy", "flask", "werkzeug", "jinja2")


def loaded_by(*argv: str) -> list[str]:
    """The heavy libraries a fresh interpreter had imported after `deckhand ARGV`."""
    probe = ("import sys; from device.cli import main; code = main(sys.argv[1:]); "
             f"print('LOADED', [m for m in {HEAVY!r} if m in sys.modules], code)")
    done = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    last = done.stdout.strip().splitlines()[-1]
    assert last.startswith("LOADED") and last.endswith(" 0"), (done.stdout[-500:], done.stderr[-500:])
    return json.loads(last.split(" ", 1)[1].rsplit(" ", 1)[0].replace("'", '"'))


@pytest.mark.parametrize("argv", [
    ("replay", "examples/flip7.jsonl"),
    ("simulate", "--game", "flip7", "--rounds", "5"),
    ("simulate", "--game", "raj", "--matches", "1"),
])
def test_commands_that_read_no_picture_load_neither_opencv_nor_numpy(argv):
    assert loaded_by(*argv) == []


def test_replay_from_a_store_loads_no_picture_library_either(tmp_path):
    from device.store import EventStore, OpenMatch
    from engine.core import MatchSpec

    db = tmp_path / "s.sqlite3"
    with EventStore(db) as store:
        match, _ = OpenMatch.start(store, MatchSpec.from_json(
            json.loads((ROOT / "examples/raj.jsonl").read_text().splitlines()[0])), "host")
    assert loaded_by("replay", "--store", str(db), "--match", str(match.id)) == []


def test_a_busy_port_is_one_line_and_exit_2(tmp_path, capsys):
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        code = main(["run", "--port", str(port), "--bind", "127.0.0.1", "--db", str(tmp_path / "d.sqlite3")])
    out, err = capsys.readouterr()
    assert code == 2
    assert err == (f"deckhand run: port {port} on 127.0.0.1 is already in use (is Deckhand already "
                   f"running?); stop that program or choose another port with --port\n")
    assert not (tmp_path / "d.sqlite3").exists()


def test_an_unknown_recognize_profile_lists_the_built_in_ones(capsys):
    assert main(["recognize", "--profile", "flip8", "table.png"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "“flip8”" in err and "'" not in err
    assert "the built-in decks are " in err and all(p in err for p in ("flip7", "solo", "raj/alt", "hitthedeck"))


def test_opencv_warnings_never_reach_the_terminal(tmp_path):
    picture = tmp_path / "not-a-picture.png"
    picture.write_bytes(b"this is text")
    env = {k: v for k, v in os.environ.items() if k != "OPENCV_LOG_LEVEL"}
    done = subprocess.run([sys.executable, "-m", "device.cli", "recognize", "--profile", "flip7",
                           str(picture), str(tmp_path / "missing.png")],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
    assert done.returncode == 1
    assert "WARN" not in done.stderr and "WARN" not in done.stdout, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [line["error"] for line in lines] == ["unreadable"] * 2
    assert lines[0]["message"] == "missing, or not a picture Deckhand can read"


def test_simulate_says_what_it_counted(capsys):
    assert main(["simulate", "--game", "raj", "--players", "3", "--matches", "4"]) == 0
    out = capsys.readouterr().out
    assert "matches: 4\n" in out and " matches/s)" in out and "rounds/s" not in out
    assert main(["simulate", "--game", "flip7", "--rounds", "30"]) == 0
    out = capsys.readouterr().out
    assert "rounds: 30\n" in out and " rounds/s)" in out


def test_the_default_raj_line_up_puts_no_two_copies_of_a_bot_against_each_other():
    from engine.raj.selfplay import simulate

    for players in (2, 3, 4, 5):
        seats = simulate(players, 1, 0, ())["strategies"]
        bots = [s for s in seats if s != "random"]
        assert len(bots) == len(set(bots)) and len(seats) == players, seats
    report = simulate(4, 40, 1, ())
    assert report["average_score"]["shade"] > 5 and report["average_score"]["match"] > 5


def test_numpy_is_told_to_use_one_blas_thread_unless_the_user_says_otherwise():
    """The camera loop's matrix products are small: spread over every core they cost
    several times the CPU. `deckhand` sets this before numpy loads; a value the user set
    is kept."""
    probe = ("import os, sys; from device.cli import main\n"
             "try:\n    main(['recognize', '--help'])\nexcept SystemExit:\n    pass\n"
             "print('BLAS', os.environ.get('OPENBLAS_NUM_THREADS'), os.environ.get('OMP_NUM_THREADS'))")
    for given, expected in ((None, "1 1"), ("3", "3 1")):
        env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")}
        if given:
            env["OPENBLAS_NUM_THREADS"] = given
        done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT,
                              env=env, timeout=120)
        assert done.stdout.strip().splitlines()[-1] == f"BLAS {expected}", done.stderr[-500:]
