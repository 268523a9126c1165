"""`deckhand teach --images DIR --labels labels.csv --out PROFILE`: teach a deck.

The CSV has a header line with the columns `file,label` and optionally `colour`; labels
are free text, so any deck can be taught. One photo per card is enough, more help
(several rows may name the same label). Each photo should show the card whole, flat on
a plain table, or be cropped to the card; a photo where no card is found is skipped
and named at the end (with the reason), the others still teach. After building, a self-check reads simulated
camera views of every card and names the pairs likely to be confused: photograph those
cards again (other light, other positions) and teach once more. Use the profile with
`deckhand recognize --profile PROFILE`.
"""
from __future__ import annotations

import argparse
import sys


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("teach", help="teach a deck from labelled photos",
                            description=__doc__.split("\n\n")[0])
    parser.add_argument("--images", required=True, help="the folder of photos")
    parser.add_argument("--labels", required=True, help="CSV: file,label[,colour]")
    parser.add_argument("--out", required=True, help="where to write the profile (.npz)")
    parser.add_argument("--name", help="the deck's name (default: the folder's name)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from vision.profile import save_profile
    from vision.teach import TeachError, teach_folder

    def said(file: str, why: str | None) -> None:
        if why is not None:
            print(f"  skipped {file}: {why}", flush=True)

    def training(share: float) -> None:
        print(f"\r  training the reader: {round(100 * share)} %", end="" if share < 1 else "\n", flush=True)

    try:
        taught = teach_folder(args.images, args.labels, args.name, on_photo=said, progress=training)
    except TeachError as exc:
        print(f"deckhand teach: {exc}", file=sys.stderr)
        return 2
    path = save_profile(taught.profile, args.out)
    labels = taught.profile.labels
    print(f"taught {len(labels)} cards of {taught.profile.name!r}; profile written to {path}")
    for line in taught.check.lines():
        print(line)
    print(table_use(taught.profile, path))
    if taught.skipped:
        print(f"{len(taught.skipped)} photo(s) taught nothing (take them again, the card whole and flat):")
        for file, why in taught.skipped:
            print(f"  {file}: {why}")
    return 0


def table_use(profile, path) -> str:
    """Whether, and for which game, the appliance can read the deck: its labels must be a
    game's cards (device.decks)."""
    from device.decks import best_games
    from web.names import game_title
    games = best_games(profile)
    if not games:
        return ("its labels are not the cards of one game, so `deckhand recognize` reads it but the "
                "table does not: label each card as the screens name it (\"Red 7\", \"Freeze\") or by "
                "its card code to play with it")
    return f"the table reads it for {' and '.join(game_title(g) for g in games)}: deckhand run --profile {path}"
