"""Closed loop over whole matches: how many seeded bot matches the simulated table
rebuilds exactly from its own camera frames (real vision, tracker and referee), at the
default sensor noise, and where it starts to fail as noise and blur grow.

    .venv/bin/python bench/closed_loop.py [--matches 2] [--games flip7,solo,raj,hitthedeck]
                                          [--noise 2,8,16,24,32] [--blur 0,1,2,3] [--sweep-actions 60]

Prints, per game: matches exact / played, cards read / laid, frames, seconds; then for
the sweeps the share of cards read at each level and the first level that is not exact.
"""
from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from device.closedloop import reconstruct  # noqa: E402

GAMES = ("flip7", "solo", "raj", "hitthedeck")


def _one(job: tuple) -> tuple:
    game, seed, noise, blur, max_actions = job
    t0 = time.perf_counter()
    report = reconstruct(game, seed, noise=noise, blur=blur, max_actions=max_actions)
    return (job, report.exact, report.cards, report.cards_read, report.frames, report.actions,
            time.perf_counter() - t0, report.mismatches[:2])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--matches", type=int, default=2)
    p.add_argument("--games", default=",".join(GAMES))
    p.add_argument("--noise", default="2,8,16,24,32")
    p.add_argument("--blur", default="0,1,2,3")
    p.add_argument("--sweep-actions", type=int, default=60)
    p.add_argument("--workers", type=int, default=2)
    args = p.parse_args(argv)
    games = args.games.split(",")
    noises = [float(x) for x in args.noise.split(",")]
    blurs = [float(x) for x in args.blur.split(",")]

    with ProcessPoolExecutor(args.workers) as pool:
        print(f"whole matches at the default noise (2.0), seeds 1..{args.matches}")
        jobs = [(g, seed, 2.0, 0.0, None) for g in games for seed in range(1, args.matches + 1)]
        results = list(pool.map(_one, jobs))
        for g in games:
            mine = [r for r in results if r[0][0] == g]
            exact = sum(r[1] for r in mine)
            cards, read = sum(r[2] for r in mine), sum(r[3] for r in mine)
            print(f"  {g:11s} exact {exact}/{len(mine)} matches ({100 * exact / len(mine):.0f} %), "
                  f"cards read {read}/{cards} ({100 * read / max(cards, 1):.1f} %), "
                  f"{sum(r[5] for r in mine)} actions, {sum(r[4] for r in mine)} frames, "
                  f"{sum(r[6] for r in mine):.0f} s")
            for r in mine:
                for m in r[7]:
                    print(f"      seed {r[0][1]}: {m[:160]}")
        total = len(results)
        print(f"  all games: {sum(r[1] for r in results)}/{total} matches exact")

        for name, levels, make in (("noise", noises, lambda g, v: (g, 1, v, 0.0, args.sweep_actions)),
                                   ("blur", blurs, lambda g, v: (g, 1, 2.0, v, args.sweep_actions))):
            print(f"\n{name} sweep (seed 1, first {args.sweep_actions} actions): cards read %, first level not exact")
            jobs = [make(g, v) for g in games for v in levels]
            results = list(pool.map(_one, jobs))
            for g in games:
                mine = [r for r in results if r[0][0] == g]
                cells = "  ".join(f"{v:g}:{100 * r[3] / max(r[2], 1):.0f}%" for v, r in zip(levels, mine))
                failing = next((v for v, r in zip(levels, mine) if not r[1]), None)
                print(f"  {g:11s} {cells}   fails from {name} {failing if failing is not None else '> ' + str(levels[-1])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
