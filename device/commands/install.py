"""`deckhand install [--dry-run]`: the Raspberry Pi appliance install (device.install)."""
from __future__ import annotations

import os
import pwd
from pathlib import Path

from web.messages import N_


def add_parser(sub) -> None:
    from device.commands.words import LANGUAGE_HELP
    p = sub.add_parser("install", help=N_("install Deckhand as an appliance on a Raspberry Pi"), epilog=LANGUAGE_HELP)
    p.add_argument("--dry-run", action="store_true", help=N_("print every step and change nothing"))
    p.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[2], metavar=N_("FOLDER"),
                   help=N_("the Deckhand checkout to install from (default: this one)"))
    p.set_defaults(func=run)


def _user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


def run(args) -> int:
    from device.commands.words import Words
    from device.install import SERVICE_USER, plan, run_plan
    words = Words.of_shell()
    steps = plan(args.root, user_exists=_user_exists(SERVICE_USER))
    if not args.dry_run:
        if os.geteuid() != 0:
            print(words("install.needs_root"))
            return 2
        model = Path("/proc/device-tree/model")
        if not (model.exists() and "Raspberry Pi" in model.read_text(errors="replace")):
            print(words("install.not_a_pi"))
            return 2
    return run_plan(steps, dry_run=args.dry_run, words=words)
