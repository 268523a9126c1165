"""Flip 7 self-play speed: full rounds per second on one core.

    .venv/bin/python bench/selfplay_flip7.py [--rounds 20000] [--profile]

Each line plays `--rounds` rounds through `engine.flip7.selfplay.simulate` (every card a
`Flip` action checked and applied by the rules) and prints rounds/s and actions/s per
second of this process's CPU time (so other work on the machine does not count), and the
wall-clock figure beside it.
The goal is 5,000 rounds/s or more at four players.
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.flip7.selfplay import simulate  # noqa: E402

CASES = [(3, ("stay:25",)), (4, ("stay:25", "odds:0.3")), (4, ("odds:0.3",)), (6, ("stay:25",)),
         (10, ("odds:0.3",))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20000)
    parser.add_argument("--profile", action="store_true", help="profile the four-player case")
    args = parser.parse_args()
    if args.profile:
        cProfile.runctx("simulate(4, args.rounds, 1, ('stay:25', 'odds:0.3'))", globals(),
                        {"args": args, "simulate": simulate}, "/tmp/flip7.prof")
        pstats.Stats("/tmp/flip7.prof").sort_stats("tottime").print_stats(15)
        return 0
    print(f"Flip 7 self-play, {args.rounds} rounds per line, one core")
    for players, strategies in CASES:
        simulate(players, 200, 0, strategies)            # warm up
        wall, cpu = time.perf_counter(), time.process_time()
        stats = simulate(players, args.rounds, 1, strategies)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        per_round = stats["actions_per_round"]
        print(f"{players:2d} players {','.join(strategies):18s} {args.rounds / cpu:9,.0f} rounds/s"
              f"  {args.rounds * per_round / cpu:10,.0f} actions/s  ({per_round:.1f} actions/round;"
              f" wall clock {args.rounds / wall:,.0f} rounds/s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
