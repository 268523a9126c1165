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
from typing import TYPE_CHECKING, Sequence

from web.messages import N_

if TYPE_CHECKING:   # imported when a command runs (`deckhand --help` stays quick)
    from device.commands.words import Words
    from vision.why import Why


def add_parser(sub: argparse._SubParsersAction) -> None:
    from device.commands.words import LANGUAGE_HELP
    parser = sub.add_parser("teach", help=N_("teach a deck from labelled photos"),
                            description=N_("Teach a deck from labelled photos: a folder of photos and a CSV file naming each "
                                           "photo's card."), epilog=LANGUAGE_HELP)
    parser.add_argument("--images", required=True, metavar=N_("FOLDER"), help=N_("the folder of photos"))
    parser.add_argument("--labels", required=True, metavar=N_("FILE"), help=N_("CSV: file,label[,colour]"))
    parser.add_argument("--out", required=True, metavar=N_("FILE"), help=N_("where to write the profile (.npz)"))
    parser.add_argument("--name", metavar=N_("NAME"), help=N_("the deck's name (default: the folder's name)"))
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from device.commands.words import Words
    from vision.profile import ProfileError, save_profile
    from vision.teach import TeachError, teach_folder

    words = Words.of_shell()
    skipped: list[tuple[str, Why]] = []

    def said(file: str, why: Why | None) -> None:
        if why is not None:
            skipped.append((file, why))
            print("  " + words("teach.skipped", file=file, why=why.message()), flush=True)

    def training(share: float) -> None:
        print("\r  " + words("teach.training", percent=round(100 * share)), end="" if share < 1 else "\n", flush=True)

    try:
        taught = teach_folder(args.images, args.labels, args.name, on_photo=said, progress=training)
    except (TeachError, ProfileError) as exc:
        bad_photos(skipped, words)
        print(f"deckhand teach: {words.say(exc.why.message())}", file=sys.stderr)
        return 2
    try:
        path = save_profile(taught.profile, args.out)
    except OSError:
        print("deckhand teach: " + words("profile.not_saved", path=args.out), file=sys.stderr)
        return 2
    labels = taught.profile.labels
    print(words("teach.taught", count=len(labels), name=taught.profile.name, path=str(path)))
    for line in check_lines(taught.check, words):
        print(line)
    print(table_use(taught.profile, path, words))
    bad_photos(taught.skipped, words)
    return 0


def bad_photos(skipped: Sequence[tuple[str, Why]], words: Words) -> None:
    """The photos that taught nothing, each with why, all together at the end."""
    if skipped:
        print(words("teach.bad_photos", count=len(skipped)))
        for file, why in skipped:
            print("  " + words("teach.photo_why", file=file, why=why.message()))


def check_lines(check, words: Words) -> list[str]:
    """The self-check (vision.teach.SelfCheck) in words, the details indented."""
    said = [words.say(w.message()) for w in check.said()]
    return said[:1] + ["  " + line for line in said[1:]]


def table_use(profile, path, words: Words | None = None) -> str:
    """Whether, and for which game, the appliance can read the deck: its labels must be a
    game's cards (device.decks)."""
    from device.commands.words import Words
    from device.decks import best_games
    words = words or Words("en")
    games = best_games(profile)
    if not games:
        return words("teach.no_game")
    return words("teach.table_reads", games=list(games), path=str(path))
