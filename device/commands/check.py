"""`deckhand check`: says what this machine has for Deckhand — the config file, the
camera (what `auto` picks, and one frame from it), the pins (each pad, LED, turn
button and buzzer opened through gpiozero), the store (the SQLite file can be written)
and the screen (Chromium present, the web port free). Exit code 0 when nothing needed
is broken (no camera or no GPIO is fine: the simulated table and keyboard pads stand
in), 1 otherwise.

The checks are plain functions returning `Finding`s, so tests can run them one by one.
Each finding says what it found as a message (a code of web.messages, "check.*", and
its params), put into words in the shell's language when printed (device.commands.words).
"""
from __future__ import annotations

import argparse
import shutil
import sqlite3
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable

from web.messages import N_
from device.commands.words import Words
from device.config import Config, ConfigError, find_config_path, load_config
from device.ports import port_problem

ENGLISH = Words("en")


def said(code: str, **params: Any) -> dict[str, Any]:
    return {"code": code, "params": params}


@dataclass(frozen=True)
class Finding:
    part: str            # "config", "camera", "pins", "store", "screen"
    ok: bool
    said: dict[str, Any] | str  # what was found: {"code", "params"} (web.messages "check.*")
    needed: bool = True  # a failure that is not needed is a warning

    @property
    def text(self) -> str:
        """What was found, in English (for logs and tests)."""
        return self.said_in(ENGLISH)

    def said_in(self, words: Words) -> str:
        return words.say(self.said) if isinstance(self.said, dict) else str(self.said)

    def line(self, words: Words = ENGLISH) -> str:
        marks = [words(code) for code in ("check.mark_ok", "check.mark_fail", "check.mark_warn")]
        mark = marks[0] if self.ok else marks[1] if self.needed else marks[2]
        width = max(len(m) for m in marks)
        parts = [words(f"check.part_{part}") for part in PARTS]
        return f"[{mark:{width}s}] {words(f'check.part_{self.part}'):{max(map(len, parts))}s} {self.said_in(words)}"


PARTS = ("config", "camera", "pins", "store", "screen")


def check_camera(config: Config, spec: str | None = None, **open_kwargs: Any) -> list[Finding]:
    from device.camera.auto import open_source
    from device.camera.base import CameraLost, SourceError

    spec = spec or config.camera.source
    try:
        source, why = open_source(spec, config.camera.size, config.camera.fps, realtime=False,
                                  resilient=False, **open_kwargs)
    except SourceError as exc:
        return [Finding("camera", False, said("check.camera_not_opened", camera=spec, why=_why(exc)))]
    except ValueError:   # not a camera spec (device.camera.auto.parse_spec)
        return [Finding("camera", False, said("check.camera_unknown", camera=spec))]
    try:
        start = time.monotonic()
        frame = next(iter(source.frames()), None)
        took_ms = (time.monotonic() - start) * 1000
    except (SourceError, CameraLost) as exc:
        return [Finding("camera", False, said("check.camera_no_frame", camera=source.name, why=_why(exc)))]
    finally:
        source.close()
    if frame is None:
        return [Finding("camera", False, said("check.camera_no_frame", camera=source.name,
                                              why=said("camera.no_picture", camera=source.name)))]
    height, width = frame.image.shape[:2]
    found = [Finding("camera", True, said("check.camera_auto_frame" if spec == "auto" else "check.camera_frame",
                                          camera=source.name, width=width, height=height, ms=round(took_ms)))]
    if source.name == "sim" and spec == "auto":
        found.append(Finding("camera", False, said("check.camera_none"), needed=False))
    return found


def _why(exc: Exception) -> dict[str, Any] | str:
    """A camera problem as its message (device.camera's `said`) where it has one."""
    return getattr(exc, "said", None) or str(exc)


def check_pins(config: Config, pin_factory: Any = None) -> list[Finding]:
    """Opens every configured pin through gpiozero and gives each back at once."""
    from gpiozero.exc import BadPinFactory

    wanted: list[tuple[dict[str, Any], int, str]] = []
    for seat in config.seats:
        wanted.append((said("check.pin_pad", number=seat.seat + 1), seat.pad, "in"))
        if seat.led is not None:
            wanted.append((said("check.pin_led", number=seat.seat + 1), seat.led, "out"))
    if config.turn_button is not None:
        wanted.append((said("check.pin_turn_button"), config.turn_button, "in"))
    if config.buzzer is not None:
        wanted.append((said("check.pin_buzzer"), config.buzzer, "out"))
    if not wanted:
        return [Finding("pins", False, said("check.no_pads"), needed=False)]
    import warnings

    from gpiozero import InputDevice, OutputDevice

    pull_up = {"up": True, "down": False, "none": None}[config.pads.pull]
    active_state = config.pads.active_high if pull_up is None else None
    findings = []
    for what, pin, direction in wanted:
        try:
            with warnings.catch_warnings():   # gpiozero warns about each factory it could not load
                warnings.simplefilter("ignore")
                device = _open(InputDevice, OutputDevice, direction, pin, pull_up, active_state, pin_factory)
            if direction == "in":
                pressed = device.is_active
                factory_name = type(device.pin_factory).__name__
                device.close()
                findings.append(Finding("pins", True, said("check.pin_reads_pressed" if pressed else
                                                           "check.pin_reads_released", what=what, pin=pin,
                                                           factory=factory_name)))
            else:
                device.close()
                findings.append(Finding("pins", True, said("check.pin_opens", what=what, pin=pin)))
        except BadPinFactory:
            return [Finding("pins", False, said("check.no_gpio"), needed=False)]
        except Exception as exc:   # gpiozero's own words: its class names the fault
            findings.append(Finding("pins", False, said("check.pin_not_opened", what=what, pin=pin,
                                                        why=f"{type(exc).__name__}: {exc}")))
    return findings


def _open(input_class: Any, output_class: Any, direction: str, pin: int, pull_up: bool | None,
          active_state: bool | None, pin_factory: Any) -> Any:
    if direction == "in":
        return input_class(pin, pull_up=pull_up, active_state=active_state, pin_factory=pin_factory)
    return output_class(pin, pin_factory=pin_factory)


def check_store(config: Config) -> list[Finding]:
    path = config.store_path
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        existed = path.exists()
        connection = sqlite3.connect(path)
        try:
            connection.execute("CREATE TABLE IF NOT EXISTS deckhand_check (x INTEGER)")
            connection.execute("DROP TABLE deckhand_check")
            connection.commit()
        finally:
            connection.close()
        if not existed:
            path.unlink(missing_ok=True)
    except (OSError, sqlite3.Error) as exc:
        if "locked" in str(exc):
            return [Finding("store", True, said("check.store_in_use", path=str(path)))]
        return [Finding("store", False, said("check.store_unwritable", path=str(path),
                                             why=getattr(exc, "strerror", None) or str(exc)))]
    return [Finding("store", True, said("check.store_ok", path=str(path), version=sqlite3.sqlite_version))]


def check_screen(config: Config, which: Callable[[str], str | None] = shutil.which) -> list[Finding]:
    findings = []
    browser = next((found for name in ("chromium", "chromium-browser") if (found := which(name))), None)
    if browser:
        findings.append(Finding("screen", True, said("check.chromium", path=browser)))
    else:
        findings.append(Finding("screen", False, said("check.no_chromium"), needed=False))
    from device.camera.auto import is_raspberry_pi
    bind = config.server.bind or ("0.0.0.0" if is_raspberry_pi() else "127.0.0.1")
    port = config.server.port
    problem = port_problem(bind, port)
    if problem is None:
        findings.append(Finding("screen", True, said("check.port_free", address=bind, port=port)))
    else:
        findings.append(Finding("screen", False, problem))
    return findings


def add_parser(sub: argparse._SubParsersAction) -> None:
    from device.commands.words import LANGUAGE_HELP
    parser = sub.add_parser("check", help=N_("say what camera, pins, store and screen this machine has"),
                            description=N_("Say what this machine has for Deckhand: the config file, the camera (what \"auto\" "
                                           "picks, and one frame from it), the pins (each pad, LED, turn button and buzzer, "
                                           "opened through gpiozero), the store (the SQLite file can be written) and the "
                                           "screen (Chromium present, the web port free). The exit code is 0 when nothing "
                                           "needed is broken (no camera or no GPIO is fine: the simulated table and keyboard "
                                           "pads stand in), 1 otherwise."), epilog=LANGUAGE_HELP)
    parser.add_argument("--config", metavar=N_("FILE"), help=N_("config file (default: $DECKHAND_CONFIG, /etc/deckhand/deckhand.toml, "
                           "~/.config/deckhand/deckhand.toml)"))
    parser.add_argument("--camera", metavar=N_("SOURCE"), help=N_("camera source to check (default: the config's)"))
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    words = Words.of_shell()
    path = find_config_path(args.config)
    try:
        config = load_config(path)
    except ConfigError as exc:
        print(Finding("config", False, exc.said or str(exc)).line(words))
        return 1
    findings = [Finding("config", True, said("check.config", path=str(path), summary=_summary(config)) if path
                        else said("check.config_defaults", summary=_summary(config)))]
    findings += check_camera(config, args.camera)
    findings += check_pins(config)
    findings += check_store(config)
    findings += check_screen(config)
    for finding in findings:
        print(finding.line(words))
    broken = [f for f in findings if not f.ok and f.needed]
    print(words("check.problems", count=len(broken)) if broken else words("check.all_work"))
    return 1 if broken else 0


def _summary(config: Config) -> list[dict[str, Any]]:
    """The config in short, as messages (said one after the other)."""
    parts = [said("check.seats", count=len(config.seats)) if config.seats else said("check.no_pads_short"),
             said("check.camera_config", camera=config.camera.source, width=config.camera.width,
                  height=config.camera.height),
             said("check.zones", count=len(config.zones))]
    if config.turn_button is not None:
        parts.append(said("check.turn_button", pin=config.turn_button))
    return parts


if __name__ == "__main__":
    sys.exit(run(argparse.Namespace(config=None, camera=None)))
