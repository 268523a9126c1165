"""`deckhand run`: start the appliance (camera, pads, referee, store, screens) and serve
the screens with the asyncio front (web/server.py); with no camera, the simulated table plays itself."""
from __future__ import annotations

import atexit
import logging
import sys
from pathlib import Path

from web.messages import N_


def add_parser(sub) -> None:
    from device.commands.words import LANGUAGE_HELP
    p = sub.add_parser("run", help=N_("start Deckhand (the simulated table when there is no camera)"),
                       epilog=LANGUAGE_HELP)
    p.add_argument("--game", default=None, metavar=N_("GAME"),
                   help=N_("the simulated table's game: flip7, raj, solo, hitthedeck (default: go on "
                           "with the unfinished simulated match, else flip7)"))
    p.add_argument("--players", type=int, default=None, metavar=N_("NUMBER"), help=N_("players at the simulated table"))
    p.add_argument("--seed", type=int, default=1, metavar=N_("NUMBER"), help=N_("the simulated table's seed"))
    p.add_argument("--speed", type=float, default=1.0, metavar=N_("FACTOR"), help=N_("the simulated table's speed factor"))
    p.add_argument("--camera", default=None, metavar=N_("SOURCE"),
                   help=N_("auto (default), picam, picam:N, usb:N, replay:PATH or sim"))
    p.add_argument("--port", type=int, default=None, metavar=N_("PORT"), help=N_("web port (default 8000)"))
    p.add_argument("--bind", default=None, metavar=N_("ADDRESS"),
                   help=N_("address to listen on (default: all interfaces on a Pi, localhost elsewhere)"))
    p.add_argument("--host-pin", default=None, metavar=N_("PIN"), help=N_("the PIN that unlocks host controls"))
    p.add_argument("--config", default=None, metavar=N_("FILE"), help=N_("configuration file (TOML)"))
    p.add_argument("--db", type=Path, default=None, metavar=N_("FILE"), help=N_("the event store (SQLite file)"))
    p.add_argument("--no-bots", action="store_true", help=N_("the simulated table waits for people"))
    p.add_argument("--speak", nargs="?", const="en", default=None, choices=("en", "fr"),
                   help=N_("say what happens aloud with espeak-ng, in English (default) or French"))
    p.add_argument("--profile", default=None, metavar=N_("PROFILE"),
                   help=N_("a taught deck to read: a profile file from `deckhand teach` (or a built-in "
                           "printing such as flip7/alt), for the games whose cards it has (default: "
                           "[camera] profile, else the deck taught live for the game, else the printed deck)"))
    p.add_argument("--sim-deck", choices=("deckhand", "alt"), default="deckhand",
                   help=N_("the simulated table's printing: Deckhand's (default) or the alternative one, "
                           "a deck the printed profile cannot read (to try teaching at the table)"))
    p.add_argument("--threads", type=int, default=None, metavar=N_("NUMBER"),
                   help=N_("web threads for ordinary requests (live streams have their own, capped)"))
    p.set_defaults(func=run)


def run(args) -> int:
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    from device.app import DEFAULT_GAME, SIM_MAX_SEATS, Appliance, RunOptions
    from device.camera.auto import is_raspberry_pi
    from device.commands.words import Words
    from device.config import ConfigError, load_config
    from device.ports import port_problem
    from engine.games import GAME_MODULES
    words = Words.of_shell()

    def refuse(text: str) -> int:
        print(f"deckhand run: {text}", file=sys.stderr)
        return 2

    try:
        config = load_config(args.config)
    except ConfigError as exc:
        return refuse(words.say(exc.said) if exc.said else str(exc))
    game = args.game
    if game is not None and game not in GAME_MODULES:
        return refuse(words("run.unknown_game", name=game, names=list(GAME_MODULES)))
    if args.players is not None:
        from engine.games import get_game
        rules = get_game(game or DEFAULT_GAME)
        if not rules.min_seats <= args.players <= min(rules.max_seats, SIM_MAX_SEATS):
            return refuse(words("run.players", game=game or DEFAULT_GAME, low=rules.min_seats,
                                high=min(rules.max_seats, SIM_MAX_SEATS), count=args.players))
    if args.speed <= 0:
        return refuse(words("run.speed"))
    from device.commands.recognize import builtin_profiles
    if args.profile is not None and args.profile not in builtin_profiles() and not Path(args.profile).is_file():
        return refuse(words("run.no_profile", path=args.profile, names=list(builtin_profiles())))
    options = RunOptions(game=game, players=args.players, seed=args.seed, speed=args.speed,
                         camera=args.camera, db=args.db, host_pin=args.host_pin,
                         bots=False if args.no_bots else None, speak=args.speak,
                         profile=args.profile, sim_deck=args.sim_deck)
    port = args.port or config.server.port
    bind = args.bind or config.server.bind or ("0.0.0.0" if is_raspberry_pi() else "127.0.0.1")
    problem = port_problem(bind, port)
    if problem:
        return refuse(words.say(problem))
    shown = "localhost" if bind in ("127.0.0.1", "0.0.0.0", "::") else bind
    print(words("run.screen", url=f"http://{shown}:{port}/", path="/host"), flush=True)

    def build_app():
        appliance = Appliance(options, config).start()   # it logs each part's status line
        atexit.register(appliance.stop)
        app = appliance.web_app(listen=bind)
        for line in welcome_lines(app, bind, port, words):
            print(line, flush=True)
        return app

    from dataclasses import replace

    from web.front import Limits
    from web.server import serve
    from device.store import StoreError
    limits = Limits() if not args.threads else replace(Limits(), request_threads=args.threads)
    try:
        serve(build_app, bind, port, limits)
    except StoreError as exc:
        return refuse(words("run.store", why=exc.said or str(exc)))
    return 0


def welcome_lines(app, bind: str, port: int, words=None) -> list[str]:
    """What `run` prints once the app is built, in `words`' language (the shell's): where
    phones join (an address the server really listens on, or how to let phones in when
    it listens on this computer only), and the host PIN when it was made up for this run
    (it is written nowhere else)."""
    from device.commands.words import Words
    from web.qr import LAN_BIND, join_address
    words = words or Words.of_shell()
    d = app.extensions["deckhand"]
    join = join_address(bind, None, port, configured=d.public_url)
    if join.reachable:
        lines = [words("run.phones_join", url=join.url)]
    else:
        lines = [words("run.phones_cannot_join", address=bind, command=f"deckhand run --bind {LAN_BIND}")]
    if d.pin_generated:
        lines.append(words("run.pin", pin=d.host_pin))
    return lines
