"""`deckhand simulate`: self-play statistics for a game.

    deckhand simulate --game flip7 --players 4 --rounds 10000 --seed 1 [--strategy a,b] [--json]

It imports `engine.<game>.selfplay`, which offers `STRATEGIES` (a tuple of strategy
names) and `simulate(players, rounds, seed, strategies) -> dict` (`strategies`: a tuple
of names, one per seat; empty for the game's defaults), and prints that dict
(as JSON with --json, its keys as they are), plus the time taken and how many a
second, in the game's own word for what it counted: rounds (Flip 7), hands (Solo),
matches (Raj, Hit the Deck). Without --json every name and sentence is said in the
shell's language (device.commands.words); strategies keep the names --strategy takes.
"""
from __future__ import annotations

import importlib
import json
import sys
import time
from typing import Any

from web.messages import N_
from engine.core import IllegalAction
from engine.games import GAME_MODULES
from web import messages

# What each game's self-play counts: the key of its statistics, and the word for it.
COUNTED = {"flip7": ("rounds", "rounds"), "solo": ("rounds", "hands"),
           "raj": ("games", "matches"), "hitthedeck": ("games", "matches")}


def add_parser(sub) -> None:
    from device.commands.words import LANGUAGE_HELP
    p = sub.add_parser("simulate", help=N_("let bots play a game and print statistics"), epilog=LANGUAGE_HELP)
    p.add_argument("--game", required=True, metavar="{" + ",".join(GAME_MODULES) + "}",
                   help=N_("the game to play"))
    p.add_argument("--players", type=int, default=4, metavar=N_("NUMBER"), help=N_("seats at the table (default 4)"))
    p.add_argument("--rounds", "--hands", "--matches", dest="rounds", type=int, default=1000, metavar=N_("NUMBER"),
                   help=N_("how many to play: rounds of Flip 7, hands of Solo, whole matches of Raj "
                           "and Hit the Deck (default 1000)"))
    p.add_argument("--seed", type=int, default=0, metavar=N_("NUMBER"), help=N_("seed of the virtual deck (default 0)"))
    p.add_argument("--strategy", default=None, metavar=N_("STRATEGIES"),
                   help=N_("comma-separated strategies, one per seat (a shorter list repeats)"))
    p.add_argument("--json", action="store_true", help=N_("print the statistics as JSON"))
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
    from device.commands.words import Words
    words = Words.of_shell()
    try:
        selfplay = load_selfplay(args.game)
        strategies = tuple(s.strip() for s in (args.strategy or "").split(",") if s.strip())
        started = time.perf_counter()
        stats = selfplay.simulate(args.players, args.rounds, args.seed, strategies)
        seconds = time.perf_counter() - started
    except IllegalAction as exc:  # bad game, seats, rounds or strategy
        reason = words.say(exc.to_json()) if messages.lookup(args.game if args.game in GAME_MODULES else None,
                                                             exc.code) else str(exc)
        known = getattr(locals().get("selfplay"), "STRATEGIES", ())
        if known and "strateg" in exc.code and "names" not in exc.params:
            reason = words("simulate.strategies", why=reason, names=list(known))
        print(f"deckhand simulate: {reason}", file=sys.stderr)
        return 2
    except ValueError as exc:   # a game's own check that has no code yet: its English
        print(f"deckhand simulate: {exc}", file=sys.stderr)
        return 2
    key, word = COUNTED.get(args.game, ("rounds", "rounds"))
    if args.json:
        print(json.dumps(stats, indent=2))
    else:
        _print({(word if k == key else k): v for k, v in stats.items()}, words)
        count = stats.get(key, args.rounds)
        print(words("simulate.time", seconds=_seconds(seconds, words),
                    rate=_fmt(round(count / seconds), words), counted=words(f"simulate.counted_{word}")))
    return 0


def _name(key: str, words) -> str:
    """A statistic's name in words ("bust_rate" -> "bust rate"); a name with no sentence
    (a strategy's, as --strategy takes it) as it is."""
    code = f"simulate.stat.{key}"
    return words(code) if messages.lookup(None, code) else key


def _print(value: Any, words, indent: str = "") -> None:
    for key, item in value.items():
        if isinstance(item, dict):
            print(indent + words("simulate.heading", name=_name(key, words)))
            _print(item, words, indent + "  ")
        elif isinstance(item, list) and item and isinstance(item[0], dict):
            print(indent + words("simulate.heading", name=_name(key, words)))
            for row in item:
                print(f"{indent}  - " + _row(row, words))
        else:
            shown = _fmt(item, words)
            if key == "game" and isinstance(item, str):
                from web.names import game_title
                shown = game_title(item)
            print(indent + words("simulate.line", name=_name(key, words), value=shown))


def _row(row: dict, words) -> str:
    """One seat's figures: "seat 1: strategy stay:25, wins 7" (seats count from 1 for people)."""
    rest = ", ".join(f"{_name(k, words)} {_fmt(v, words)}" for k, v in row.items() if k != "seat")
    if isinstance(row.get("seat"), int):
        return words("simulate.line", name=words("simulate.seat", number=row["seat"] + 1), value=rest)
    return rest


def _seconds(seconds: float, words) -> str:
    """A duration with two decimals as the shell's language writes it (0.03 / 0,03): a fast
    run is "0.00 s", never a bare "0"."""
    from babel.numbers import format_decimal
    return format_decimal(seconds, "0.00", locale=words.lang)


def _fmt(value: Any, words) -> str:
    """A figure as the shell's language writes it (17.86 / 17,86; 4,237 / 4 237)."""
    from babel.numbers import format_decimal
    if isinstance(value, bool) or not isinstance(value, (int, float, list)):
        return str(value)
    if isinstance(value, list):
        return ", ".join(_fmt(v, words) for v in value)
    return format_decimal(float(f"{value:.4g}") if isinstance(value, float) else value, locale=words.lang)
