"""How fast the event log appends, folds and resumes a long match.

    .venv/bin/python bench/replay_speed.py [--actions 10000] [--game flip7|solo] [--seed 1]

Builds one match of N self-played actions (Flip 7 by default, with a target so high the
match never ends) in a temporary SQLite store, one durable transaction per action as at
the table; closes the store, reopens it and resumes the match (open + read rows + fold),
and folds the same actions in memory. Prints the figures. The goal: resuming a
10,000-action match in under 200 ms.
"""
from __future__ import annotations

import argparse
import importlib
import itertools
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from device.store import EventStore, OpenMatch  # noqa: E402
from engine.core import IllegalAction, MatchSpec, Seat  # noqa: E402
from engine.games import get_game  # noqa: E402
from engine.log import Timeline, read_log  # noqa: E402

# Per game: settings that keep one match going, and bot strategies for its self-play.
SELF_PLAY = {
    "flip7": ({"target": 10**9}, None),
    "solo": ({"target": 10**9}, "random"),
}


def self_played(game: str, actions: int, seed: int):
    settings, strategies = SELF_PLAY[game]
    spec = MatchSpec(game, tuple(Seat(f"P{i + 1}") for i in range(4)), settings, seed)
    module = importlib.import_module(f"engine.{game}.selfplay")
    stream = module.play_match(spec, strategies=strategies, seed=seed)
    return spec, list(itertools.islice(stream, actions))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=10_000)
    parser.add_argument("--game", choices=sorted(SELF_PLAY), default="flip7")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    try:
        spec, actions = self_played(args.game, args.actions, args.seed)
    except (ImportError, AttributeError) as exc:
        print(f"{args.game} self-play is not available ({exc}); try --game solo")
        return 1
    game = get_game(args.game)
    print(f"game: {args.game} self-play, {len(spec.seats)} seats, seed {args.seed}, "
          f"{len(actions)} actions")

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite3"
        store = EventStore(db)
        match, _ = OpenMatch.start(store, spec, "bot")
        t0 = time.perf_counter()
        for i, action in enumerate(actions):
            try:
                match.submit([action], "bot")
            except IllegalAction as exc:
                print(f"the engine refused self-play action {i} ({action}): {exc.reason}")
                return 1
        append_s = time.perf_counter() - t0
        state = match.state
        store.close()
        size_kb = (db.stat().st_size + Path(f"{db}-wal").stat().st_size
                   if Path(f"{db}-wal").exists() else db.stat().st_size) / 1024

        def resume(drop_latest_checkpoint: bool = False, **options):
            if drop_latest_checkpoint:   # checkpoints are a cache: the worst case has
                with EventStore(db) as store:   # the last one a whole interval back
                    store._conn.execute("DELETE FROM checkpoints WHERE match_seq > ?",
                                        (len(actions) - OpenMatch.checkpoint_every,))
            t0 = time.perf_counter()
            store = EventStore(db)
            t_open = time.perf_counter()
            resumed = OpenMatch.resume(store, match.id, **options)
            t_end = time.perf_counter()
            store.close()
            assert resumed.state == state
            return t_end - t0, t_open - t0, t_end - t_open

        fast = sorted(resume() for _ in range(5))
        worst = sorted(resume(drop_latest_checkpoint=True) for _ in range(5))
        full = sorted(resume(use_checkpoints=False) for _ in range(3))

    folds = []
    for _ in range(5):
        t0 = time.perf_counter()
        timeline = Timeline(game, spec)
        for action in actions:
            timeline.apply(action)
        folds.append(time.perf_counter() - t0)
    assert timeline.state == state
    text = [json.dumps(spec.to_json())] + [json.dumps(a.to_json()) for a in actions]
    t0 = time.perf_counter()
    read_log(text)
    read_s = time.perf_counter() - t0

    n = len(actions)
    print(f"append (one fsynced transaction each): {n / append_s:8.0f} actions/s "
          f"({append_s * 1000 / n:.2f} ms per acknowledged action)")
    print(f"store on disk: {size_kb:.0f} KiB")
    print(f"fold in memory (engine Timeline.apply): {n / min(folds):8.0f} actions/s")
    print(f"read_log from JSON lines (parse+fold):  {n / read_s:8.0f} actions/s")
    print(f"resume a {n}-action match from its checkpoint (every {OpenMatch.checkpoint_every} rows): "
          f"{fast[0][0] * 1000:.1f} ms best of 5, median {fast[2][0] * 1000:.1f} ms "
          f"(open + integrity check {fast[0][1] * 1000:.1f}, read + fold {fast[0][2] * 1000:.1f}); "
          f"goal < 200 ms")
    print(f"resume with the last checkpoint {OpenMatch.checkpoint_every} rows back (worst case): "
          f"{worst[0][0] * 1000:.1f} ms best of 5, median {worst[2][0] * 1000:.1f} ms "
          f"(open + integrity check {worst[0][1] * 1000:.1f}, read + fold {worst[0][2] * 1000:.1f})")
    print(f"resume folding all {n} rows (no checkpoint): {full[0][0] * 1000:.1f} ms best of 3 "
          f"(open {full[0][1] * 1000:.1f}, read + parse + fold {full[0][2] * 1000:.1f}) = "
          f"{n / full[0][2]:.0f} rows folded per second")
    return 0


if __name__ == "__main__":
    sys.exit(main())
