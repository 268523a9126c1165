"""Crash safety of the event log: a writer process is killed with SIGKILL at a random
(seeded) moment while it appends; every action it had acknowledged (printed after the
commit returned) must be in the reopened store, and the log must still fold."""
from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from device.store import EventStore, OpenMatch
from test_store_toygame import games

ROOT = Path(__file__).resolve().parent.parent

WRITER = textwrap.dedent("""
    import sys
    sys.path[:0] = [sys.argv[2], sys.argv[3]]
    from device.store import EventStore, OpenMatch, resume_unfinished
    from engine.core import Undo
    from test_store_toygame import Add, Score, games, race_spec

    store = EventStore(sys.argv[1])
    resumed = resume_unfinished(store, games)
    match = resumed[-1] if resumed else OpenMatch.start(store, race_spec(3, 10**9), "host", games)[0]
    i = 0
    while True:
        i += 1
        if i % 7 == 0:
            actions = [Undo()]
        elif i % 5 == 0 and match.state.pot:
            actions = [Score()]
        else:
            actions = [Add(match.state.turn, 1 + i % 3), Add((match.state.turn + 1) % 3, 1)]
        rows, _ = match.submit(actions, "pad")
        sys.stdout.write("".join(f"{match.id} {r.seq} {r.match_seq}\\n" for r in rows))
        sys.stdout.flush()
""")


def run_and_kill(db: Path, rng: random.Random) -> list[tuple[int, int, int]]:
    """Start the writer, kill it after a random number of acknowledgements plus a random
    delay, and return every acknowledgement it printed."""
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(db), str(ROOT), str(ROOT / "tests")],
                            stdout=subprocess.PIPE, text=True)
    acks = []
    target = rng.randint(5, 120)
    try:
        while len(acks) < target:
            line = proc.stdout.readline()
            if not line.endswith("\n"):
                break
            acks.append(_ack(line))
        # Half the time at once (the writer is between two commits, or in one), half
        # after a short random delay.
        time.sleep(rng.choice([0.0, rng.uniform(0, 0.005)]))
        os.kill(proc.pid, signal.SIGKILL)
        # A line cut short by the kill is not an acknowledgement.
        acks += [_ack(line) for line in proc.stdout if line.endswith("\n")]
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()
    assert proc.returncode == -signal.SIGKILL
    return acks


def _ack(line: str) -> tuple[int, int, int]:
    match_id, seq, match_seq = (int(x) for x in line.split())
    return match_id, seq, match_seq


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_acknowledged_actions_survive_kill_9(tmp_path, seed):
    rng = random.Random(seed)
    db = tmp_path / "crash.sqlite3"
    acked = []
    for _ in range(2):  # the second writer resumes the match the first left behind
        acked += run_and_kill(db, rng)
    assert acked, "the writer acknowledged nothing"
    with EventStore(db) as store:
        [record] = store.matches()
        rows = {(r.seq, r.match_seq) for r in store.rows(record.id)}
        missing = [a for a in acked if (a[1], a[2]) not in rows]
        assert missing == []
        stored = store.rows(record.id)
        assert [r.match_seq for r in stored] == list(range(1, len(stored) + 1))
        match = OpenMatch.resume(store, record.id, games)  # every row still folds
        assert match.rows_logged == len(stored) >= len(acked)
        assert sum(match.summary.totals) + match.state.pot == sum(
            r.action["n"] for r in stored if r.action["type"] == "add") - _undone_points(stored)


def _undone_points(rows) -> int:
    """Points taken back by undos (each undo cancels the last add/score still in effect)."""
    effective: list[dict] = []
    for row in rows:
        if row.action["type"] == "undo":
            effective.pop()
        else:
            effective.append(row.action)
    kept = sum(a["n"] for a in effective if a["type"] == "add")
    return sum(r.action["n"] for r in rows if r.action["type"] == "add") - kept
