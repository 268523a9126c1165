"""`deckhand replay`: fold a match log and print the resulting state as JSON.

    deckhand replay FILE            a JSON-lines log (docs/protocol.md); "-" reads stdin
    deckhand replay --notices FILE  instead of the state, one JSON line per notice:
                                    {"line": N, "code": ..., "text": ..., "seats": [...]}
    deckhand replay --store DB --match N           fold match N of a Deckhand store
    deckhand replay --store DB --match N --jsonl   print match N as a JSON-lines log

The printed state is the game's view (`engine.core.Game.view`): scores, whose turn,
each seat's cards and status. A line that cannot be read or is refused by the rules
stops the replay: `line N: reason` on stderr (one line, bounded in length, in the shell's
language: device.commands.words), exit code 1, nothing printed on stdout.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Callable, Iterable, Iterator, TextIO

from web.messages import N_
from engine.core import Notice
from engine.log import LogError, read_log


def add_parser(sub: argparse._SubParsersAction) -> None:
    from device.commands.words import LANGUAGE_HELP
    parser = sub.add_parser(
        "replay", help=N_("fold a match log and print the resulting state"),
        description=N_("Fold a match log (JSON lines: a start line, then one action a line) "
                       "and print the resulting state as JSON."), epilog=LANGUAGE_HELP)
    parser.add_argument("file", nargs="?", metavar=N_("FILE"), help=N_('the JSON-lines log; "-" reads standard input'))
    parser.add_argument("--store", metavar=N_("FILE"), help=N_("read the match from this Deckhand store (SQLite file)"))
    parser.add_argument("--match", type=int, metavar=N_("NUMBER"), help=N_("with --store: the match id (see the history)"))
    parser.add_argument("--jsonl", action="store_true",
                        help=N_("with --store: print the match's log as JSON lines instead"))
    parser.add_argument("--notices", action="store_true",
                        help=N_("print what the table was told instead of the state: one JSON "
                                "line per notice, with the line number of the action that gave it"))
    parser.set_defaults(func=run)


def decoded(lines: Iterable[bytes]) -> Iterator[str]:
    """Each line as text; a line that is not UTF-8 stops with LogError naming it."""
    for number, line in enumerate(lines, start=1):
        try:
            yield line.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise LogError(number, f"not UTF-8 text (byte {exc.start + 1} of the line)",
                           {"code": "log.not_utf8", "params": {"byte": exc.start + 1}}) from None


def replay_lines(lines: Iterable[str],
                 on_notice: Callable[[int, Notice], None] | None = None) -> dict:
    """The view after folding `lines`; raises LogError with the line number.
    `on_notice(line, notice)` hears every notice (engine.log.read_log)."""
    try:
        timeline = read_log(lines, on_notice)
    except (ImportError, AttributeError) as exc:  # a game package not built yet
        raise LogError(0, f"this game is not available in this build ({exc})",
                       {"code": "log.game_not_built", "params": {}}) from None
    return timeline.game.view(timeline.state)


def _print(view: dict, out: TextIO) -> None:
    out.write(json.dumps(view, indent=2, ensure_ascii=False) + "\n")
def _said(exc: LogError, words) -> str:
    """A log error in words: the line and why (the engine's refusal, or why the line
    could not be read), bounded in length."""
    from engine.untrusted import shorten
    why = shorten(words.say(exc.refusal), 300) if exc.refusal else str(exc)
    return words("replay.line", line=exc.line, why=why) if exc.line else why


def run(args: argparse.Namespace) -> int:
    from device.commands.words import Words
    words = Words.of_shell()
    if args.store:
        if args.file or args.match is None:
            print(words("replay.store_usage"), file=sys.stderr)
            return 2
        return _from_store(args.store, args.match, args.jsonl, sys.stdout, args.notices, words)
    if not args.file:
        print(words("replay.usage"), file=sys.stderr)
        return 2
    said: list[str] = []
    hear = _hear(said) if args.notices else None
    try:
        if args.file == "-":
            view = replay_lines(decoded(sys.stdin.buffer), hear)
        else:
            with open(args.file, "rb") as handle:
                view = replay_lines(decoded(handle), hear)
    except LogError as exc:
        print(_said(exc, words), file=sys.stderr)
        return 1
    except OSError as exc:
        print(words("replay.cannot_read", path=args.file, why=exc.strerror or str(exc)), file=sys.stderr)
        return 1
    if args.notices:
        sys.stdout.writelines(said)
    else:
        _print(view, sys.stdout)
    return 0


def _hear(said: list[str]) -> Callable[[int, Notice], None]:
    """Notices as JSON lines, kept until the whole log has been read (a bad line prints
    nothing on stdout)."""
    def hear(line: int, notice: Notice) -> None:
        said.append(json.dumps({"line": line, **notice.to_json()}, ensure_ascii=False) + "\n")
    return hear


def _from_store(path: str, match_id: int, as_jsonl: bool, out: TextIO,
                notices: bool = False, words=None) -> int:
    from device.commands.words import Words
    from device.store import EventStore, StoreError  # only this mode needs SQLite

    words = words or Words.of_shell()
    try:
        with EventStore(path, create=False) as store:
            record = store.match(match_id)
            rows = store.rows(match_id)
    except KeyError:
        print(words("replay.no_match", path=path, match=match_id), file=sys.stderr)
        return 1
    except StoreError as exc:
        print(words.say(exc.said) if getattr(exc, "said", None) else str(exc), file=sys.stderr)
        return 1
    lines = [json.dumps(record.spec.to_json())] + [json.dumps(r.action) for r in rows]
    if as_jsonl:
        out.write("\n".join(lines) + "\n")
        return 0
    said: list[str] = []
    try:
        view = replay_lines(lines, _hear(said) if notices else None)
    except LogError as exc:
        print(words("replay.match_line", match=match_id, why=_said(exc, words)), file=sys.stderr)
        return 1
    if notices:
        out.writelines(said)
    else:
        _print(view, out)
    return 0
