"""How fast `deckhand replay` answers, whole process (issue 16's goal: a 10-line log in
under 150 ms wall), and which heavy libraries it loads (it should load none).

    .venv/bin/python bench/cli_startup.py [--runs 5]

Writes a 10-line and a 10,000-action Flip 7 log (self-played), runs the installed
`deckhand replay FILE` on each once untimed (Python writes its bytecode cache, as on any
install), then `--runs` times, and prints the median, fastest and slowest wall times; then lists which of OpenCV, numpy, Flask and SQLite a replay
imported.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from replay_big import write_log  # noqa: E402

HEAVY = ("cv2", "numpy", "flask", "sqlite3", "jinja2", "werkzeug")


def deckhand() -> list[str]:
    script = Path(sys.executable).parent / "deckhand"
    return [str(script)] if script.exists() else [sys.executable, "-m", "device.cli"]


# As on a real install: Python keeps its compiled bytecode (this bench's own environment
# may say not to), and one untimed run writes it.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(command: list[str], runs: int) -> list[float]:
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, cwd=ROOT, env=ENV)
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, cwd=ROOT, env=ENV)
        times.append(time.perf_counter() - started)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for actions in (9, 10_000):
            path = Path(tmp) / f"{actions}.jsonl"
            write_log(path, "flip7", actions)
            times = timed(deckhand() + ["replay", str(path)], args.runs)
            print(f"deckhand replay, {actions + 1}-line log: median {statistics.median(times) * 1000:.0f} ms "
                  f"(fastest {min(times) * 1000:.0f}, slowest {max(times) * 1000:.0f}; {args.runs} runs)")
        probe = ("import sys; from device.cli import main; main(['replay', sys.argv[1]]); "
                 f"print([m for m in {HEAVY!r} if m in sys.modules], file=sys.stderr)")
        done = subprocess.run([sys.executable, "-c", probe, str(Path(tmp) / "9.jsonl")],
                              capture_output=True, text=True, cwd=ROOT)
        print(f"heavy libraries a replay imported: {done.stderr.strip() or '?'}")
    python = timed([sys.executable, "-c", "pass"], args.runs)
    print(f"for scale, a bare `python -c pass`: median {statistics.median(python) * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
