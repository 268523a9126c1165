"""`deckhand run`: start the appliance (camera, pads, referee, store, screens) and serve
the screens with the asyncio front (web/server.py); with no camera, the simulated table plays itself."""
from __future__ import annotations

import atexit
import logging
import sys
from pathlib import Path


def add_parser(sub) -> None:
    p = sub.add_parser("run", help="start Deckhand (the simulated table when there is no camera)")
    p.add_argument("--game", default=None,
                   help="the simulated table's game: flip7, raj, solo, hitthedeck (default: go on "
                        "with the unfinished simulated match, else flip7)")
    p.add_argument("--players", type=int, default=None, help="players at the simulated table")
    p.add_argument("--seed", type=int, default=1, help="the simulated table's seed")
    p.add_argument("--speed", type=float, default=1.0, help="the simulated table's speed factor")
    p.add_argument("--camera", default=None,
                   help="auto (default), picam, picam:N, usb:N, replay:PATH or sim")
    p.add_argument("--port", type=int, default=None, help="web port (default 8000)")
    p.add_argument("--bind", default=None,
                   help="address to listen on (default: all interfaces on a Pi, localhost elsewhere)")
    p.add_argument("--host-pin", default=None, help="the PIN that unlocks host controls")
    p.add_argument("--config", default=None, help="configuration file (TOML)")
    p.add_argument("--db", type=Path, default=None, help="the event store (SQLite file)")
    p.add_argument("--no-bots", action="store_true", help="the simulated table waits for people")
    p.add_argument("--speak", nargs="?", const="en", default=None, choices=("en", "fr"),
                   help="say what happens aloud with espeak-ng, in English (default) or French")
    p.add_argument("--profile", default=None,
                   help="a taught deck to read: a profile file from `deckhand teach` (or a built-in "
                        "printing such as flip7/alt), for the games whose cards it has (default: "
                        "[camera] profile, else the deck taught live for the game, else the printed deck)")
    p.add_argument("--sim-deck", choices=("deckhand", "alt"), default="deckhand",
                   help="the simulated table's printing: Deckhand's (default) or the alternative one, "
                        "a deck the printed profile cannot read (to try teaching at the table)")
    p.add_argument("--threads", type=int, default=None,
                   help="web threads for ordinary requests (live streams have their own, capped)")
    p.set_defaults(func=run)


def run(args) -> int:
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    from device.app import DEFAULT_GAME, SIM_MAX_SEATS, Appliance, RunOptions
    from device.camera.auto import is_raspberry_pi
    from device.config import ConfigError, load_config
    from device.ports import port_problem
    from engine.games import GAME_MODULES
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        print(f"deckhand run: {exc}", file=sys.stderr)
        return 2
    game = args.game
    if game is not None and game not in GAME_MODULES:
        print(f"deckhand run: unknown game {game!r}; choose {', '.join(GAME_MODULES)}", file=sys.stderr)
        return 2
    if args.players is not None:
        from engine.games import get_game
        rules = get_game(game or DEFAULT_GAME)
        if not rules.min_seats <= args.players <= min(rules.max_seats, SIM_MAX_SEATS):
            print(f"deckhand run: {rules.title} is for {rules.min_seats} to "
                  f"{min(rules.max_seats, SIM_MAX_SEATS)} players at the simulated table, "
                  f"not {args.players}", file=sys.stderr)
            return 2
    if args.speed <= 0:
        print("deckhand run: --speed must be more than 0", file=sys.stderr)
        return 2
    from device.commands.recognize import builtin_profiles
    if args.profile is not None and args.profile not in builtin_profiles() and not Path(args.profile).is_file():
        print(f"deckhand run: there is no profile file {args.profile!r} (teach one with `deckhand teach`, "
              f"or name a built-in printing: {', '.join(builtin_profiles())})", file=sys.stderr)
        return 2
    options = RunOptions(game=game, players=args.players, seed=args.seed, speed=args.speed,
                         camera=args.camera, db=args.db, host_pin=args.host_pin,
                         bots=False if args.no_bots else None, speak=args.speak,
                         profile=args.profile, sim_deck=args.sim_deck)
    port = args.port or config.server.port
    bind = args.bind or config.server.bind or ("0.0.0.0" if is_raspberry_pi() else "127.0.0.1")
    problem = port_problem(bind, port)
    if problem:
        print(f"deckhand run: {problem}", file=sys.stderr)
        return 2
    shown = "localhost" if bind in ("127.0.0.1", "0.0.0.0", "::") else bind
    print(f"Deckhand: the table screen is http://{shown}:{port}/ (host controls: /host)", flush=True)

    def build_app():
        appliance = Appliance(options, config).start()   # it logs each part's status line
        atexit.register(appliance.stop)
        app = appliance.web_app(listen=bind)
        for line in welcome_lines(app, bind, port):
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
        print(f"deckhand run: {exc}", file=sys.stderr)
        return 2
    return 0


def welcome_lines(app, bind: str, port: int) -> list[str]:
    """What `run` prints once the app is built: where phones join (an address the server
    really listens on, or how to let phones in when it listens on this computer only),
    and the host PIN when it was made up for this run (it is written nowhere else)."""
    from web.qr import LAN_BIND, join_address
    d = app.extensions["deckhand"]
    join = join_address(bind, None, port, configured=d.public_url)
    if join.reachable:
        lines = [f"Deckhand: phones join at {join.url}"]
    else:
        lines = [f"Deckhand: phones cannot join: the server listens on {bind} (this computer "
                 f"only); to let phones on the network join, run `deckhand run --bind {LAN_BIND}`"]
    if d.pin_generated:
        lines.append(f"Deckhand: host PIN for this run: {d.host_pin} "
                     "(set your own with --host-pin or host_pin_hash in the config)")
    return lines
