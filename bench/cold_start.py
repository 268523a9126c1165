"""Cold start: `deckhand run` (the simulated table) from the command to the first page
served, to the first state with a match, and to the first card the camera read.

    .venv/bin/python bench/cold_start.py [--runs 3] [--game flip7]

Each run uses a fresh store; the deck profiles are cached under ~/.cache/deckhand after
the first run (the first run ever on a machine builds them; see its figure).
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def one(game: str) -> tuple[float, float, float, float]:
    tmp = Path(tempfile.mkdtemp(prefix="deckhand-cold-"))
    db, port = tmp / "cold.db", free_port()
    t0 = time.monotonic()
    proc = subprocess.Popen([str(ROOT / ".venv/bin/deckhand"), "run", "--camera", "sim", "--db", str(db),
                             "--port", str(port), "--game", game, "--bind", "127.0.0.1"],
                            cwd=ROOT, start_new_session=True, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    page = match = card = None
    try:
        while time.monotonic() - t0 < 60:
            now = time.monotonic() - t0
            try:
                if page is None:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as r:
                        r.read()
                    page = now
                if match is None:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=2) as r:
                        if json.load(r)["match"]:
                            match = now
                if card is None and match is not None:
                    # the running store is locked to its process: ask the server for the rows
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/history", timeout=2) as r:
                        ids = [m["id"] for m in json.load(r)]
                    for match_id in ids[:1]:
                        with urllib.request.urlopen(
                                f"http://127.0.0.1:{port}/api/matches/{match_id}/rows", timeout=2) as r:
                            if any(row["source"] == "camera" for row in json.load(r)):
                                card = now
                if page is not None and match is not None and card is not None:
                    break
            except (OSError, sqlite3.Error):
                pass
            time.sleep(0.02)
    finally:
        t1 = time.monotonic()
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)
        stop = time.monotonic() - t1
    return page, match, card, stop


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--game", default="flip7")
    args = p.parse_args(argv)
    results = [one(args.game) for _ in range(args.runs)]
    for i, (page, match, card, stop) in enumerate(results, 1):
        print(f"run {i}: first page {page:.2f} s, match on screen {match:.2f} s, "
              f"first card read by the camera {card:.2f} s, SIGTERM to exit {stop:.2f} s")
    for name, k in (("first page", 0), ("match", 1), ("first camera card", 2), ("stop", 3)):
        print(f"median {name}: {statistics.median(r[k] for r in results):.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
