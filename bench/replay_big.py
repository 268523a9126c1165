"""How fast `deckhand replay` folds a big log, whole process (issue 15's goal: a valid
1,000,000-action log in under 60 s).

    .venv/bin/python bench/replay_big.py [--actions 1000000] [--game flip7] [--keep FILE]

Writes one Flip 7 self-played match of N actions as a JSON-lines log (a target so high
the match never ends; the writing is not timed), then runs `deckhand replay FILE` in a
subprocess and prints the log's size, the seconds and the MB/s. `--keep FILE` writes
the log there and reuses it on the next run.
"""
from __future__ import annotations

import argparse
import importlib
import itertools
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.core import MatchSpec, Seat  # noqa: E402

SETTINGS = {"flip7": {"target": 10**9}, "solo": {"target": 10**9}}
STRATEGIES = {"flip7": None, "solo": "random"}


def write_log(path: Path, game: str, actions: int, seed: int = 1) -> None:
    spec = MatchSpec(game, tuple(Seat(f"P{i + 1}") for i in range(4)), SETTINGS[game], seed)
    selfplay = importlib.import_module(f"engine.{game}.selfplay")
    stream = selfplay.play_match(spec, strategies=STRATEGIES[game], seed=seed)
    seen: dict = {}
    with path.open("w", encoding="utf-8") as out:
        out.write(json.dumps(spec.to_json()) + "\n")
        for action in itertools.islice(stream, actions):
            line = seen.get(action)
            if line is None:
                line = seen[action] = json.dumps(action.to_json(), separators=(",", ":")) + "\n"
            out.write(line)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=1_000_000)
    parser.add_argument("--game", choices=sorted(SETTINGS), default="flip7")
    parser.add_argument("--keep", type=Path, help="write the log here and reuse it next time")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = args.keep or Path(tmp) / "big.jsonl"
        if not path.exists():
            started = time.perf_counter()
            write_log(path, args.game, args.actions)
            print(f"wrote {path} in {time.perf_counter() - started:.1f} s (not timed below)")
        lines = sum(1 for _ in path.open("rb")) - 1
        size = path.stat().st_size / 1e6
        deckhand = [sys.executable, "-m", "device.cli", "replay", str(path)]
        started = time.perf_counter()
        done = subprocess.run(deckhand, cwd=ROOT, capture_output=True, text=True)
        seconds = time.perf_counter() - started
    if done.returncode:
        print(f"deckhand replay failed: {done.stderr.strip()[:500]}")
        return 1
    print(f"deckhand replay: {lines} actions, {size:.1f} MB in {seconds:.2f} s "
          f"= {size / seconds:.1f} MB/s, {lines / seconds:,.0f} actions/s (whole process)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
