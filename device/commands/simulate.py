"""`deckhand simulate`: self-play statistics for a game.

    deckhand simulate --game flip7 --players 4 --rounds 10000 --seed 1 [--strategy a,b] [--json]

It imports `engine.<game>.selfplay`, which offers `STRATEGIES` (a tuple of strategy
names) and `simulate(players, rounds, seed, strategies) -> dict` (`strategies`: a tuple
of names, one per seat; empty for the game's defaults), and prints that dict
(as JSON with --json), plus the time taken and how many a second, in the game's own
word for what it counted: rounds (Flip 7), hands (Solo), matches (Raj, Hit the Deck).
"""
from __future__ import annotations

import importlib
import json
import sys
import time
from typing import Any

from engine.core import IllegalAction
from web.words import english
from engine.games import GAME_MODULES


# What each game's self-play counts: the key of its statistics, and the word for it.
COUNTED = {"flip7": ("rounds", "rounds"), "solo": ("rounds", "hands"),
           "raj": ("games", "matches"), "hitthedeck": ("games", "matches")}


def add_parser(sub) -> None:
    p = sub.add_parser("simulate", help="let bots play a game and print statistics")
    p.add_argument("--game", required=True, help=f"one of: {', '.join(GAME_MODULES)}")
    p.add_argument("--players", type=int, default=4, help="seats at the table (default 4)")
    p.add_argument("--rounds", "--hands", "--matches", dest="rounds", type=int, default=1000,
                   help="how many to play: rounds of Flip 7, hands of Solo, whole matches of Raj "
                        "and Hit the Deck (default 1000)")
    p.add_argument("--seed", type=int, default=0, help="seed of the virtual deck (default 0)")
    p.add_argument("--strategy", default=None,
                   help="comma-separated strategies, one per seat (a shorter list repeats)")
    p.add_argument("--json", action="store_true", help="print the statistics as JSON")
    p.set_defaults(func=run)


def load_selfplay(game: str) -> Any:
    """The game's self-play module, or IllegalAction saying why there is none."""
    module = GAME_MODULES.get(game)
    if module is None:
        raise IllegalAction("unknown_game", name=game, games=list(GAME_MODULES))
    try:
        return importlib.import_module(f"{module}.selfplay")
    except ModuleNotFoundError as exc:
        if exc.name in (module, f"{module}.selfplay"):
            raise IllegalAction("no_selfplay", game=game) from None
        raise


def run(args) -> int:
    try:
        selfplay = load_selfplay(args.game)
        strategies = tuple(s.strip() for s in (args.strategy or "").split(",") if s.strip())
        started = time.perf_counter()
        stats = selfplay.simulate(args.players, args.rounds, args.seed, strategies)
        seconds = time.perf_counter() - started
    except (IllegalAction, ValueError) as exc:  # bad game, seats, rounds or strategy
        reason = english(exc.to_json(), args.game) if isinstance(exc, IllegalAction) else str(exc)
        known = getattr(locals().get("selfplay"), "STRATEGIES", ())
        if known and "strateg" in reason:
            reason += f" (this game's strategies: {', '.join(known)})"
        print(f"deckhand simulate: {reason}", file=sys.stderr)
        return 2
    key, word = COUNTED.get(args.game, ("rounds", "rounds"))
    if args.json:
        print(json.dumps(stats, indent=2))
    else:
        _print({(word if k == key else k): v for k, v in stats.items()})
        count = stats.get(key, args.rounds)
        print(f"time: {seconds:.2f} s ({count / seconds:,.0f} {word}/s)")
    return 0


def _print(value: Any, indent: str = "") -> None:
    for key, item in value.items():
        if isinstance(item, dict):
            print(f"{indent}{key}:")
            _print(item, indent + "  ")
        elif isinstance(item, list) and item and isinstance(item[0], dict):
            print(f"{indent}{key}:")
            for row in item:
                print(f"{indent}  - " + ", ".join(f"{k}={_fmt(v)}" for k, v in row.items()))
        else:
            print(f"{indent}{key}: {_fmt(item)}")


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, list):
        return ", ".join(_fmt(v) for v in value)
    return str(value)
