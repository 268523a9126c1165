"""Attacks on the event store while the table runs (issue 15, acknowledged actions
lost): its folder removed, its file replaced, a store missing at start. Real server,
real SQLite file; what was acknowledged (200 with a seq) is read back from the file at
the configured path after a kill -9."""
from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing

from attack_kit import ROOT, Browser, FLIP7, free_port, request, serve  # noqa: F401 (fixture)

FLIP7_HIT = {"type": "flip", "card": "5"}


def file_seqs(db) -> set[int]:
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        return {s for (s,) in conn.execute("SELECT seq FROM actions")}


def wait_for(check, limit: float = 10.0):
    deadline = time.monotonic() + limit
    while True:
        value = check()
        if value:
            return value
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def act(host: Browser, n: int) -> list[tuple[int, dict]]:
    """n host actions: a card dealt, then taken back, and so on."""
    out = []
    for i in range(n):
        status, _, body = host.call("POST", "/api/action", {"type": "undo"} if i % 2 else FLIP7_HIT)
        out.append((status, json.loads(body)))
    return out


def test_the_store_folder_removed_while_running_loses_no_acknowledged_action(serve, tmp_path):
    db = tmp_path / "state" / "deckhand.sqlite3"
    server = serve(db=db)
    host = Browser(server.port)
    assert host.login() == 200
    assert host.call("POST", "/api/match", FLIP7)[0] == 200
    acked = {body["seq"] for status, body in act(host, 4) if status == 200}
    shutil.rmtree(db.parent)
    refused = act(host, 3)
    assert all(status == 503 for status, _ in refused), refused
    words = refused[0][1]["error"]
    assert "cannot write to its store" in words and "folder is gone" in words
    # every screen still answers, and says it
    for path in ("/", "/phone", "/pad/0", "/history"):
        status, _, page = request(server.port, "GET", path)
        assert status == 200, path
        if path != "/history":
            assert b"Nothing can be recorded now" in page, path
    state = json.loads(request(server.port, "GET", "/api/state")[2])
    assert "folder is gone" in state["status"]["store"]
    # the folder comes back: the table writes the store back and goes on by itself
    db.parent.mkdir()
    wait_for(lambda: json.loads(request(server.port, "GET", "/api/state")[2])["status"]["store"] == "ok")
    after = act(host, 2)
    assert all(status == 200 for status, _ in after)
    acked |= {body["seq"] for _, body in after}
    server.kill()
    assert acked <= file_seqs(db)


def test_the_store_file_replaced_while_running_is_refused_not_written_elsewhere(serve, tmp_path):
    db = tmp_path / "deckhand.sqlite3"
    server = serve(db=db)
    host = Browser(server.port)
    assert host.login() == 200
    assert host.call("POST", "/api/match", FLIP7)[0] == 200
    os.rename(db, tmp_path / "moved.sqlite3")
    shutil.copy(tmp_path / "moved.sqlite3", db)   # same bytes, another file
    status, _, body = host.call("POST", "/api/action", FLIP7_HIT)
    assert status == 503 and "replaced by another file" in json.loads(body)["error"]
    assert request(server.port, "GET", "/api/state")[0] == 200


def run_deckhand(db, port, note, log):
    env = {**os.environ, "DECKHAND_KNOWN_STORES": str(note)}
    return subprocess.Popen([sys.executable, "-m", "device.cli", "run", "--camera", "sim", "--no-bots",
                             "--db", str(db), "--port", str(port), "--bind", "127.0.0.1"],
                            cwd=ROOT, env=env, stdout=log.open("ab"), stderr=subprocess.STDOUT,
                            start_new_session=True)


def test_a_store_that_existed_and_is_missing_at_start_is_said_loudly(tmp_path):
    db, note, log = tmp_path / "state" / "deckhand.sqlite3", tmp_path / "known" / "stores", tmp_path / "run.log"
    port = free_port()
    for attempt in range(2):
        proc = run_deckhand(db, port, note, log)
        try:
            state = wait_for(lambda: _state(port), 30)
            if attempt == 0:
                assert "store_warning" not in state["status"]
            else:
                warning = state["status"]["store_warning"]
                assert warning["code"] == "store_missing" and warning["params"]["store"] == str(db)
                page = request(port, "GET", "/phone")[2].decode()
                assert "was missing at start" in page
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=20)
        if attempt == 0:
            shutil.rmtree(db.parent)
    assert "WARNING: The store" in log.read_text()


def _state(port):
    try:
        return json.loads(request(port, "GET", "/api/state", timeout=2)[2])
    except (OSError, http.client.HTTPException):   # down, or connected to itself
        return None
