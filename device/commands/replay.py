"""`deckhand replay`: fold a match log and print the resulting state as JSON.

    deckhand replay FILE            a JSON-lines log (docs/protocol.md); "-" reads stdin
    deckhand replay --store DB --match N           fold match N of a Deckhand store
    deckhand replay --store DB --match N --jsonl   print match N as a JSON-lines log

The printed state is the game's view (`engine.core.Game.view`): scores, whose turn,
each seat's cards and status. A line that cannot be read or is refused by the rules
stops the replay: `line N: reason` on stderr, exit code 1.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Iterable, Iterator, TextIO

from engine.log import LogError, read_log


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "replay", help="fold a match log and print the resulting state",
        description="Fold a match log (JSON lines: a start line, then one action a line) "
                    "and print the resulting state as JSON.")
    parser.add_argument("file", nargs="?", help='the JSON-lines log; "-" reads standard input')
    parser.add_argument("--store", help="read the match from this Deckhand store (SQLite file)")
    parser.add_argument("--match", type=int, help="with --store: the match id (see the history)")
    parser.add_argument("--jsonl", action="store_true",
                        help="with --store: print the match's log as JSON lines instead")
    parser.set_defaults(func=run)


class _Numbered:
    """The lines of a file, remembering the number of the last one handed out."""

    def __init__(self, lines: Iterable[str]):
        self._lines = lines
        self.number = 0

    def __iter__(self) -> Iterator[str]:
        for self.number, line in enumerate(self._lines, start=1):
            yield line


def replay_lines(lines: Iterable[str]) -> dict:
    """The view after folding `lines`; raises LogError with the line number."""
    numbered = _Numbered(lines)
    try:
        timeline = read_log(numbered)
    except (ImportError, AttributeError) as exc:  # a game package not built yet
        raise LogError(numbered.number, f"this game is not available in this build ({exc})") from None
    return timeline.game.view(timeline.state)


def run(args: argparse.Namespace) -> int:
    if args.store:
        if args.file or args.match is None:
            print("with --store, give --match N and no FILE", file=sys.stderr)
            return 2
        return _from_store(args.store, args.match, args.jsonl, sys.stdout)
    if not args.file:
        print("give a log FILE (or - for standard input), or --store DB --match N", file=sys.stderr)
        return 2
    try:
        if args.file == "-":
            view = replay_lines(sys.stdin)
        else:
            with open(args.file, encoding="utf-8") as handle:
                view = replay_lines(handle)
    except LogError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    except (OSError, UnicodeDecodeError) as exc:
        print(f"cannot read {args.file}: {exc}", file=sys.stderr)
        return 1
    json.dump(view, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


def _from_store(path: str, match_id: int, as_jsonl: bool, out: TextIO) -> int:
    from device.store import EventStore, StoreError  # only this mode needs SQLite

    try:
        with EventStore(path) as store:
            record = store.match(match_id)
            rows = store.rows(match_id)
    except KeyError:
        print(f"{path} has no match {match_id}", file=sys.stderr)
        return 1
    except StoreError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    lines = [json.dumps(record.spec.to_json())] + [json.dumps(r.action) for r in rows]
    if as_jsonl:
        out.write("\n".join(lines) + "\n")
        return 0
    try:
        view = replay_lines(lines)
    except LogError as exc:
        print(f"match {match_id}, {exc}", file=sys.stderr)
        return 1
    json.dump(view, out, indent=2, ensure_ascii=False)
    out.write("\n")
    return 0
