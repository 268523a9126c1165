"""`deckhand recognize --profile PROFILE IMAGE...`: read the cards in pictures.

Prints one JSON line per picture: {"image": path, "cards": [{"label", "colour",
"confidence", "corners"}, ...]} with every card face found (a card that cannot be read
with confidence has the label "unknown"); a picture that cannot be read gets
{"image": path, "error": reason} and the exit code is 1. PROFILE is a built-in deck
(`flip7`, `solo`, `raj`, `hitthedeck`, or e.g. `flip7/alt`) or a taught profile file.
`--empty` names a picture of the same table without cards (it helps on patterned cloth).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("recognize", help="read the cards in pictures (one JSON line each)",
                            description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", required=True,
                        help="a built-in deck (flip7, solo, raj, hitthedeck) or a taught profile file")
    parser.add_argument("--empty", help="a picture of the same table without cards")
    parser.add_argument("images", nargs="+", metavar="IMAGE")
    parser.set_defaults(func=run)


def builtin_profiles() -> list[str]:
    """The names `--profile` knows without a file: each game, and each game/style."""
    from vision.profile import GAMES
    from vision.render.cards import STYLES

    return [game if style == "deckhand" else f"{game}/{style}" for game in GAMES for style in STYLES]


def run(args: argparse.Namespace) -> int:
    import cv2

    from vision.pipeline import Recognizer
    from vision.profile import ProfileError, load_profile

    try:
        if args.profile not in builtin_profiles() and not Path(args.profile).exists():
            raise ProfileError(f"there is no built-in profile or profile file {args.profile!r}; "
                               f"built-in profiles: {', '.join(builtin_profiles())}")
        profile = load_profile(args.profile)
    except ProfileError as exc:
        print(f"deckhand recognize: {exc}", file=sys.stderr)
        return 2
    empty = None
    if args.empty:
        empty = cv2.imread(args.empty, cv2.IMREAD_COLOR)
        if empty is None:
            print(f"deckhand recognize: cannot read the empty-table picture {args.empty}", file=sys.stderr)
            return 2
    recognizer = Recognizer.create(profile)
    failed = False
    for path in args.images:
        image = cv2.imread(path, cv2.IMREAD_COLOR)
        if image is None:
            print(json.dumps({"image": path, "error": "missing or not a picture OpenCV can read"}))
            failed = True
            continue
        reader = recognizer
        if empty is not None:
            if empty.shape != image.shape:
                print(json.dumps({"image": path, "error": "not the size of the empty-table picture"}))
                failed = True
                continue
            reader = recognizer.with_empty_table(empty)
        reading = reader.read(image)
        print(json.dumps({"image": path, "cards": [c.to_json() for c in reading.cards]}), flush=True)
    return 1 if failed else 0
