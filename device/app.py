"""The running appliance: every part of Deckhand wired together in one process.

`Appliance` opens the event store and the live table, the camera source and the vision
loop, the pads, the seat lights, the simulated table's bots when there is no camera, a
ticker for the referee's timeouts, and a supervisor that feeds systemd's watchdog only
while the camera and pad loops are alive. `web_app()` builds the Flask app over them.
`deckhand run` (device/commands/run.py) serves it (web/server.py).

Each part says what it is in one status line (`status_lines()`), which the log shows and
`deckhand check` reuses.
"""
from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from device.config import Config
from device.watchdog import SystemdNotifier

log = logging.getLogger("deckhand")

SIM_FIRST_PIN = 4
SIM_MAX_SEATS = 10
DEFAULT_GAME = "flip7"   # the camera reads every card and the pads tap (Hit) and hold (Stay)


@dataclass(frozen=True)
class RunOptions:
    game: str | None = None            # None: resume the unfinished simulated match, else Flip 7
    players: int | None = None
    seed: int = 1
    speed: float = 1.0
    camera: str | None = None          # None: the config's (default "auto")
    db: Path | None = None             # None: the config's store path
    host_pin: str | None = None
    bots: bool | None = None           # None: bots play when the camera is the simulated table
    speak: str | None = None           # a language: speak the changes (overrides [speech])
    rounds: int | None = None          # cap each simulated match (tests)
    fps: float | None = None
    profile: str | None = None         # a taught deck's file (or a built-in printing) to read
    sim_deck: str = "deckhand"         # the simulated table's printing: deckhand or alt


class Appliance:
    FIGURES_EVERY = 60.0   # seconds between figure lines in the log

    def __init__(self, options: RunOptions, config: Config):
        self.options = options
        self.config = config
        self.notifier = SystemdNotifier()
        self.lines: dict[str, str] = {}
        self.store = None
        self.table = None
        self.vision = None
        self.pads = None
        self.lights = None
        self.scene = None
        self.bots = None
        self.decks = None
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._started = time.monotonic()

    # -- start and stop --------------------------------------------------------------------

    def start(self) -> "Appliance":
        self._started = time.monotonic()
        self._open_table()
        self._open_camera()
        self._open_pads()
        if self.scene is not None and self._bots_wanted():
            self._start_bots()
        self._open_speech()
        self._spawn(self._tick_loop, "deckhand-ticker")
        self._spawn(self._supervise, "deckhand-supervisor")
        interval = self.notifier.watchdog_interval
        self.lines["watchdog"] = (f"systemd notify, a heartbeat every {min(interval, 5.0):g} s while the "
                                  f"camera and pad loops run" if self.notifier.enabled and interval
                                  else "systemd notify" if self.notifier.enabled
                                  else "not under systemd (no NOTIFY_SOCKET): nothing to notify")
        for part, line in self.lines.items():
            log.info("%s: %s", part, line)
        return self

    def stop(self) -> None:
        if self._stop.is_set():
            return
        self._stop.set()
        self.notifier.stopping()
        for part in (self.bots, self.vision, self.pads):
            if part is not None:
                part.stop()
        if self.lights is not None:
            self.lights.close()
        for thread in self._threads:
            thread.join(timeout=3)
        log.info("%s", self.figures())
        if self.store is not None:
            self.store.close()
        log.info("stopped")

    def figures(self) -> str:
        """One line of running figures: frames read and their rate, observations, pad
        presses, the bots' corrections."""
        parts = []
        elapsed = max(time.monotonic() - self._started, 1e-9)
        if self.vision is not None:
            parts.append(f"camera: {self.vision.frames_read} frames in {elapsed:.0f} s "
                         f"({self.vision.frames_read / elapsed:.1f} fps), {self.vision.observations} "
                         f"observations, {self.vision.refused} refused")
        if self.pads is not None:
            parts.append(f"pads: {self.pads.presses} presses, {self.pads.refused} refused")
        if self.bots is not None:
            b = self.bots.stats
            parts.append(f"bots: {b.actions} actions, {b.seen_by_camera} cards read, {b.camera_missed} "
                         f"missed, {b.misread} misread, {b.pads_missed} presses lost, "
                         f"{b.extra_undone} extra undone, {b.resyncs} matches abandoned")
        return "figures: " + "; ".join(parts)

    def status_lines(self) -> list[str]:
        return [f"{part}: {line}" for part, line in self.lines.items()]

    def _spawn(self, target, name: str) -> None:
        thread = threading.Thread(target=target, name=name, daemon=True)
        thread.start()
        self._threads.append(thread)

    # -- the parts ----------------------------------------------------------------------------

    def _open_table(self) -> None:
        from device.store import EventStore
        from device.table import LiveTable
        from device.known_stores import KnownStores, default_note
        path = Path(self.options.db or self.config.store_path)
        known = KnownStores(default_note())
        missing = known.missing(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        self.store = EventStore(path)
        self.table = LiveTable(self.store)
        unnoted = known.remember(path)
        match = self.table.current_match
        resumed = f", resumed match {match.id} ({match.record.spec.game})" \
            if match is not None and not match.view.get("finished") else ""
        self.lines["store"] = f"{path}{resumed}"
        if unnoted:
            self.lines["store"] += f" ({unnoted})"
        if missing:
            from web.words import english
            said = english(missing)
            log.error("%s", said)
            self.lines["store"] += f". WARNING: {said}"
            self.table.set_status(store_warning=missing)

    def _store_dir(self) -> Path:
        return Path(self.options.db or self.config.store_path).parent

    def _open_camera(self) -> None:
        from device.camera.auto import open_source
        from device.decks import DeckSwitch, TaughtDecks
        from device.vision_loop import VisionLoop
        settings = self.config.camera
        spec = self.options.camera or settings.source
        fps = self.options.fps or settings.fps
        source, why = open_source(spec, settings.size, fps, on_status=self._camera_status,
                                  chooser=None)
        zones = {name: (z.x, z.y, z.x + z.w, z.y + z.h) for name, z in self.config.zones.items()}
        empty = None
        if source.name == "sim":
            from device.simtable import SimScene
            self.scene = SimScene(self._game(), self.options.seed, settings.size,
                                  style=self.options.sim_deck)
            source._render = self.scene.render   # the sim source draws the bots' table
            zones = self.scene.zone_rects()
            empty = self.scene.empty_frame()
        taught = TaughtDecks(self._store_dir(), self.options.profile or settings.profile)
        self.vision = VisionLoop(source, self.table, zones,
                                 make_recognizer=_deck_recognizer(taught),
                                 make_tracker=_tracker, empty_table=empty)
        self.decks = DeckSwitch(taught, self.table, self.vision.reload_recognizer)
        self.lines["deck"] = self._deck_line()
        self.vision.start()
        self.table.set_status(camera="ok")
        self.lines["camera"] = why

    def _deck_line(self) -> str:
        """The deck the camera reads for the game at start (a taught deck's file is read
        now, so a damaged one is said at start-up)."""
        from web.words import english
        game = self.decks.game() or (self._game() if self.scene is not None else None)
        if game is None:
            return "the printed deck of each game, or its taught deck (decided when a match starts)"
        in_use = self.decks.decks.in_use(game)
        line = english(in_use.said(), game)
        if in_use.problem is not None:
            line += " " + english(in_use.problem, game)
        return line

    def _camera_status(self, status: str, *args: Any) -> None:
        self.table.set_status(camera=status)

    def _open_speech(self) -> None:
        from device.speech import Announcer, EspeakVoice, SpeechError
        settings = self.config.speech
        language = self.options.speak or (settings.language if settings.enabled else None)
        if language is None:
            self.lines["speech"] = "off (turn it on with [speech] enabled = true or --speak)"
            return
        try:
            voice = EspeakVoice(language, settings.rate)
        except SpeechError as exc:
            self.lines["speech"] = f"off: {exc}"
            return
        announcer = Announcer(self.table, voice, language)
        self._spawn(lambda: announcer.run(self._stop), "deckhand-speech")
        self.lines["speech"] = f"on, in {language}, espeak-ng at {settings.rate} words a minute"

    def _open_pads(self) -> None:
        from device.pad_loop import PadLoop
        from device.pads import PadArray, PadError
        seat_pins = self.config.pad_pins
        factory = None
        if self.scene is not None:
            # The simulated table's pads are gpiozero's own mock pins (BCM 4 upwards).
            from gpiozero.pins.mock import MockFactory
            factory = MockFactory()
            seat_pins = {seat: SIM_FIRST_PIN + seat for seat in range(SIM_MAX_SEATS)}
        elif not seat_pins:
            self.lines["pads"] = "none configured; use the web pads at /pad/<seat>"
            self.table.set_status(pads="none")
            return

        def make_pads(settings, out):
            return PadArray(seat_pins, settings, out, pin_factory=factory)

        self._open_lights()
        try:
            self.pads = PadLoop(self.table, make_pads, self.config.pads, lights=self.lights).start()
        except PadError as exc:
            self.lines["pads"] = f"none ({exc}); use the web pads at /pad/<seat>"
            self.table.set_status(pads="none")
            return
        kind = self.pads.kind
        self.table.set_status(pads=kind)
        self.lines["pads"] = f"{kind}: {len(seat_pins)} seats" + \
            (" (driven by the simulated table's bots)" if self.scene is not None else "")

    def _open_lights(self) -> None:
        """The seats' LEDs and the buzzer, when the config names their pins (the simulated
        table has none: its mock pins are the pads')."""
        from device.indicators import IndicatorError, SeatLights
        if self.scene is not None or not (self.config.led_pins or self.config.buzzer is not None):
            self.lines["lights"] = "none configured"
            return
        try:
            self.lights = SeatLights.from_config(self.config)
        except IndicatorError as exc:
            self.lines["lights"] = f"none ({exc})"
            return
        self.lines["lights"] = f"{len(self.lights.leds)} seat LEDs" + \
            (", a buzzer" if self.lights.buzzer is not None else "")

    def _bots_wanted(self) -> bool:
        return self.options.bots if self.options.bots is not None else True

    def _game(self) -> str:
        """The simulated table's game: the unfinished simulated match's (after a restart)
        unless another game was asked for."""
        match = self.table.current_match
        if match is not None and not match.view.get("finished") and match.record.spec.seed is not None \
                and self.options.game in (None, match.record.spec.game):
            return match.record.spec.game
        return self.options.game or DEFAULT_GAME

    def _start_bots(self) -> None:
        from device.simtable import BotDriver
        game = self._game()
        self.bots = BotDriver(self.table, self.scene, self.pads.press, game=game,
                              seed=self.options.seed, speed=self.options.speed,
                              players=self.options.players, rounds=self.options.rounds,
                              camera_ready=lambda: self.vision.reading(self._game())).start()
        self.lines["bots"] = f"playing {game}, seed {self.options.seed}, speed x{self.options.speed:g}"

    # -- background loops -----------------------------------------------------------------------

    def _tick_loop(self) -> None:
        from engine.core import IllegalAction
        while not self._stop.wait(0.05):
            try:
                self.table.tick()
            except IllegalAction:
                pass   # nothing times out now

    def _supervise(self) -> None:
        self.notifier.ready()
        interval = self.notifier.watchdog_interval or 5.0
        last_figures = time.monotonic()
        while not self._stop.wait(min(interval, 5.0)):
            if time.monotonic() - last_figures >= self.FIGURES_EVERY:
                last_figures = time.monotonic()
                log.info("%s", self.figures())
            healthy = (self.vision is None or self.vision.alive) and (self.pads is None or self.pads.alive)
            if healthy:
                self.notifier.watchdog()
            else:
                log.error("a loop has stopped (camera alive: %s, pads alive: %s); "
                          "systemd's watchdog will restart the service",
                          self.vision.alive if self.vision else None,
                          self.pads.alive if self.pads else None)
            self.notifier.status("; ".join(self.status_lines()))

    # -- the web app ----------------------------------------------------------------------------

    def web_app(self, **options: Any):
        from device.camera_view import CameraView
        from web.app import create_app
        camera = None
        if self.vision is not None:
            from device.live_teaching import LiveTeacher
            teacher = LiveTeacher(self._store_dir() / "taught-deck.npz", on_trained=self.decks.trained,
                                  colour_of=self.decks.colour_of, for_game=self.decks.for_game)
            camera = CameraView(self.vision, teacher=teacher, save_zones=self._save_zones,
                                decks=self.decks)
        pin_check = None
        if not self.options.host_pin and self.config.host_pin_hash:
            from device.config import verify_pin
            stored = self.config.host_pin_hash
            pin_check = lambda entry: verify_pin(entry, stored)   # noqa: E731
        return create_app(self.table, host_pin=self.options.host_pin, pin_check=pin_check,
                          camera=camera, **options)


    def _save_zones(self, zones: dict[str, list[float]]) -> None:
        """Zones set on the calibration page go into the config file (when there is one)."""
        if self.config.source_path is None:
            return
        from device.config import Zone, write_zones
        write_zones(self.config.source_path,
                    {name: Zone(x0, y0, x1 - x0, y1 - y0) for name, (x0, y0, x1, y1) in zones.items()})


def _recognizer(game: str, empty: Any):
    """The printed deck's recognizer (the closed-loop harness reads with it)."""
    from vision.pipeline import Recognizer
    from vision.profile import builtin_profile
    return Recognizer.create(builtin_profile(game), empty)


def _deck_recognizer(decks: Any):
    """A recognizer factory reading each game with the deck `decks` (device.decks.
    TaughtDecks) says: the taught one or the printed one."""
    def make(game: str, empty: Any):
        from vision.pipeline import Recognizer
        recognizer = Recognizer.create(decks.profile(game), empty)
        if empty is not None:
            recognizer.warm_up(empty)   # the first card played is not the one that waits
        return recognizer
    return make


def _tracker(zones: dict):
    from device.vision_loop import ZoneTracker
    return ZoneTracker(zones)
