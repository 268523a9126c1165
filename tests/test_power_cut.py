"""Power cuts: `deckhand run` on the simulated table is killed with SIGKILL (its whole
process group, as a cut would) at seeded random moments while a phone follows the live
stream, and restarted each time.

After every restart:
* every action the phone was told about before the cut is in the store (read with
  sqlite3 straight from the file, once the process is gone: the running store is
  locked to its process);
* the state the table shows equals the fold of the logged actions (engine.log.fold),
  checked against the file at the next cut;
* the match goes on: the bots resume the unfinished match (same match id) and the
  sequence numbers keep growing.
"""
from __future__ import annotations

import http.client
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
from contextlib import closing
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from engine.core import MatchSpec
from engine.games import get_game
from engine.log import fold

ROOT = Path(__file__).resolve().parents[1]
KILLS = 3


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(db: Path, port: int, game: str, log: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "device.cli", "run", "--camera", "sim", "--speed", "20",
         "--db", str(db), "--port", str(port), "--game", game, "--bind", "127.0.0.1"],
        cwd=ROOT, start_new_session=True, stdout=log.open("ab"), stderr=subprocess.STDOUT)


def get_json(port: int, path: str, timeout: float = 2.0):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=timeout) as r:
        return json.load(r)


def wait_up(port: int, proc: subprocess.Popen, timeout: float = 30.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"deckhand run exited with {proc.returncode}")
        try:
            return get_json(port, "/api/state")
        except (OSError, http.client.HTTPException):
            # not up yet; or a connection made to itself (nothing listens on the port
            # yet and the client drew the same port: it reads its own request)
            time.sleep(0.1)
    raise AssertionError("deckhand run did not answer in time")


class Phone(threading.Thread):
    """A phone on the live stream: records the seq of every event it was told about."""

    def __init__(self, port: int):
        super().__init__(daemon=True)
        self.port = port
        self.events: list[dict] = []
        self.lock = threading.Lock()

    def run(self) -> None:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api/events", timeout=30) as r:
                for raw in r:
                    line = raw.decode().strip()
                    if line.startswith("data:"):
                        data = json.loads(line[5:])
                        with self.lock:
                            self.events.append({"seq": data["seq"], "kind": data["kind"],
                                                "match": (data["snapshot"].get("match") or {}).get("id")})
        except Exception:   # the server was killed under us: that is the point
            return

    def told(self) -> list[dict]:
        with self.lock:
            return list(self.events)


def store_rows(db: Path, upto: int | None = None) -> tuple[set[int], dict[int, list]]:
    """Every action row's seq, and each match's (spec, actions in order) up to `upto`."""
    # closed at once: the store is opened with an exclusive lock, a reader left open
    # would keep the restarted Deckhand out
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        seqs = {s for (s,) in conn.execute("SELECT seq FROM actions")}
        specs = {m: json.loads(spec) for m, spec in conn.execute("SELECT id, spec FROM matches")}
        rows = conn.execute("SELECT match_id, seq, action FROM actions ORDER BY match_id, match_seq").fetchall()
    per_match: dict[int, list] = {m: [] for m in specs}
    for match_id, seq, action in rows:
        if upto is None or seq <= upto:
            per_match[match_id].append(json.loads(action))
    return seqs, {m: [specs[m], per_match[m]] for m in specs}


def folded_view(spec_json: dict, actions_json: list) -> dict:
    spec = MatchSpec.from_json(spec_json)
    game = get_game(spec.game)
    from engine.core import parse_action
    state = fold(game, spec, [parse_action(a, game.actions) for a in actions_json])
    return json.loads(json.dumps(game.view(state)))


def assert_shown_is_the_fold(db: Path, state: dict) -> None:
    """The state a restarted table showed is the fold of the file's log up to the seq it
    showed (read once that process is gone: the store is locked to the running one)."""
    _, matches = store_rows(db, upto=state["seq"])
    spec_json, actions_json = matches[state["match"]["id"]]
    assert folded_view(spec_json, actions_json) == state["view"]


@pytest.mark.parametrize("game,seed", [("hitthedeck", 7), ("flip7", 3)])
def test_power_cuts_lose_no_acknowledged_action(tmp_path, game, seed):
    rng = random.Random(seed)
    db, log = tmp_path / "deckhand.db", tmp_path / "run.log"
    port = free_port()
    proc = start(db, port, game, log)
    seen_max = 0
    match_id = None
    restarted = None
    try:
        state = wait_up(port, proc)
        for kill in range(KILLS + 1):
            phone = Phone(port)
            phone.start()
            # let the table play (a busy machine is slow to start), then cut at a seeded
            # random moment
            deadline = time.monotonic() + 30
            while not any(e["kind"] == "action" for e in phone.told()):
                assert time.monotonic() < deadline, "the table played nothing"
                time.sleep(0.1)
            time.sleep(rng.uniform(1.0, 3.0))
            if kill == KILLS:
                break
            told = phone.told()
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
            acked = {e["seq"] for e in told if e["kind"] in ("action", "undo")}
            assert acked, "the phone was told about no action before the cut"
            seqs, _ = store_rows(db)
            assert acked <= seqs, f"lost after a cut: {sorted(acked - seqs)}"
            seen_max = max([seen_max] + [e["seq"] for e in told])
            match_id = next((e["match"] for e in reversed(told) if e["match"] is not None), match_id)

            if restarted is not None:
                assert_shown_is_the_fold(db, restarted)

            proc = start(db, port, game, log)
            state = wait_up(port, proc)
            # the same match goes on (it was not finished), numbering never goes back
            if not state["view"]["finished"]:
                assert state["match"]["id"] == match_id
            assert state["seq"] >= seen_max
            restarted = state   # checked against the file once the store is free again
        # the match went on after the last restart: new actions with higher seqs
        later = [e["seq"] for e in phone.told() if e["kind"] == "action"]
        assert later and max(later) > seen_max
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
    assert_shown_is_the_fold(db, restarted)
    text = log.read_text(errors="replace")
    assert "the bots resume match" in text
