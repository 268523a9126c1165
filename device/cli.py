"""The `deckhand` command: parses the command line and hands over to one module per
sub-command in `device.commands`.

Only the module of the command asked for is imported (all of them only for
`deckhand --help`), and each imports OpenCV and numpy only when it reads a picture:
`deckhand replay` and `simulate` start in a blink. OpenCV is told, before anything can
import it, to keep its own WARN lines to itself: every command says what went wrong
in words.
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys

from device.commands.spoken import SpokenParser
from device.commands.words import Words
from web.messages import N_

# Sub-commands, in the order `deckhand --help` lists them.
COMMANDS = ("run", "simulate", "replay", "recognize", "teach", "calibrate", "check", "install")


def build_parser(only: str | None = None, lang: str = "en") -> argparse.ArgumentParser:
    """The parser, speaking `lang`; `only` names the one sub-command to load (None: all)."""
    parser = SpokenParser(prog="deckhand", lang=lang,
                          description=N_("Deckhand: a referee and score pad for card games."))
    sub = parser.add_subparsers(dest="command", metavar=N_("COMMAND"))
    for name in (only,) if only in COMMANDS else COMMANDS:
        try:
            module = importlib.import_module(f"device.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"device.commands.{name}":
                continue  # not built yet
            raise
        module.add_parser(sub)
    return parser


# Numpy's BLAS would spread every matrix product over all the cores. The camera loop's
# products are small (a card's features against a deck's templates), and spread out they
# cost several times the CPU in waiting threads, taken from the loop itself, the web
# server and the pads: reading a built-in deck's card took 0.9 ms of CPU with one BLAS
# thread and 5.7 ms with two on this 2-core machine. Set before numpy is imported.
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("OPENCV_LOG_LEVEL", "ERROR")
    for name in BLAS_THREADS:
        os.environ.setdefault(name, "1")
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(argv[0] if argv else None, Words.of_shell().lang)
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:   # output piped into `head` and the like: not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
