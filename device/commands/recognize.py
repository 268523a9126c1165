"""`deckhand recognize --profile PROFILE IMAGE...`: read the cards in pictures.

Prints one JSON line per picture: {"image": path, "cards": [{"label", "colour",
"confidence", "corners"}, ...]} with every card face found (a card that cannot be read
with confidence has the label "unknown"); a picture that cannot be read gets
{"image": path, "error": code, "message": words} and the exit code is 1. The JSON is for
programs: its keys, the labels and the error codes (`unreadable`: missing or not a
picture; `not_empty_size`: not the size of the `--empty` picture) are the same in every
language; only "message" and the errors on stderr are said in the shell's language.
PROFILE is a built-in deck (`flip7`, `solo`, `raj`, `hitthedeck`, or e.g. `flip7/alt`)
or a taught profile file. `--empty` names a picture of the same table without cards (it
helps on patterned cloth).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from web.messages import N_

# The JSON "error" codes (for programs) and the sentence of each (web.messages).
ERRORS = {"unreadable": "picture.unreadable", "not_empty_size": "recognize.not_empty_size"}


def add_parser(sub: argparse._SubParsersAction) -> None:
    from device.commands.words import LANGUAGE_HELP
    parser = sub.add_parser("recognize", help=N_("read the cards in pictures (one JSON line each)"),
                            description=N_("Read the cards in pictures: one JSON line a picture."), epilog=LANGUAGE_HELP)
    parser.add_argument("--profile", required=True, metavar=N_("PROFILE"),
                        help=N_("a built-in deck (flip7, solo, raj, hitthedeck) or a taught profile file"))
    parser.add_argument("--empty", metavar=N_("PHOTO"), help=N_("a picture of the same table without cards"))
    parser.add_argument("images", nargs="+", metavar=N_("PHOTO"))
    parser.set_defaults(func=run)


def builtin_profiles() -> list[str]:
    """The names `--profile` knows without a file: each game, and each game/style."""
    from vision.profile import GAMES
    from vision.render.cards import STYLES

    return [game if style == "deckhand" else f"{game}/{style}" for game in GAMES for style in STYLES]


def run(args: argparse.Namespace) -> int:
    import cv2

    from device.commands.words import Words
    from vision.pipeline import Recognizer
    from vision.profile import ProfileError, load_profile

    words = Words.of_shell()
    if args.profile not in builtin_profiles() and not Path(args.profile).exists():
        print("deckhand recognize: " + words("recognize.no_profile", name=args.profile, names=builtin_profiles()),
              file=sys.stderr)
        return 2
    try:
        profile = load_profile(args.profile)
    except ProfileError as exc:
        print(f"deckhand recognize: {words.say(exc.why.message())}", file=sys.stderr)
        return 2
    empty = None
    if args.empty:
        empty = cv2.imread(args.empty, cv2.IMREAD_COLOR)
        if empty is None:
            print("deckhand recognize: " + words("recognize.empty_unreadable", path=args.empty), file=sys.stderr)
            return 2
    recognizer = Recognizer.create(profile)
    failed = False

    def error(path: str, code: str) -> None:
        print(json.dumps({"image": path, "error": code, "message": words(ERRORS[code])}),
              flush=True)

    for path in args.images:
        image = cv2.imread(path, cv2.IMREAD_COLOR)
        if image is None:
            error(path, "unreadable")
            failed = True
            continue
        reader = recognizer
        if empty is not None:
            if empty.shape != image.shape:
                error(path, "not_empty_size")
                failed = True
                continue
            reader = recognizer.with_empty_table(empty)
        reading = reader.read(image)
        print(json.dumps({"image": path, "cards": [c.to_json() for c in reading.cards]}), flush=True)
    return 1 if failed else 0
