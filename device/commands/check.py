"""`deckhand check`: says what this machine has for Deckhand — the config file, the
camera (what `auto` picks, and one frame from it), the pins (each pad, LED, turn
button and buzzer opened through gpiozero), the store (the SQLite file can be written)
and the screen (Chromium present, the web port free). Exit code 0 when nothing needed
is broken (no camera or no GPIO is fine: the simulated table and keyboard pads stand
in), 1 otherwise.

The checks are plain functions returning `Finding`s, so tests can run them one by one.
"""
from __future__ import annotations

import argparse
import shutil
import sqlite3
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable

from device.config import Config, ConfigError, find_config_path, load_config
from device.ports import port_problem


@dataclass(frozen=True)
class Finding:
    part: str            # "config", "camera", "pins", "store", "screen"
    ok: bool
    text: str
    needed: bool = True  # a failure that is not needed is a warning

    def line(self) -> str:
        mark = "ok  " if self.ok else ("FAIL" if self.needed else "warn")
        return f"[{mark}] {self.part:7s} {self.text}"


def check_camera(config: Config, spec: str | None = None, **open_kwargs: Any) -> list[Finding]:
    from device.camera.auto import open_source
    from device.camera.base import CameraLost, SourceError

    spec = spec or config.camera.source
    try:
        source, why = open_source(spec, config.camera.size, config.camera.fps, realtime=False,
                                  resilient=False, **open_kwargs)
    except (SourceError, ValueError) as exc:
        return [Finding("camera", False, f"{spec}: {exc}")]
    try:
        start = time.monotonic()
        frame = next(iter(source.frames()), None)
        took_ms = (time.monotonic() - start) * 1000
    except (SourceError, CameraLost) as exc:
        return [Finding("camera", False, f"{why}; but no frame: {exc}")]
    finally:
        source.close()
    if frame is None:
        return [Finding("camera", False, f"{why}; but it gave no frame")]
    height, width = frame.image.shape[:2]
    found = [Finding("camera", True, f"{why}; first frame {width}x{height} in {took_ms:.0f} ms")]
    if source.name == "sim" and spec == "auto":
        found.append(Finding("camera", False, "no real camera: connect a Pi camera or a USB webcam to read cards",
                             needed=False))
    return found


def check_pins(config: Config, pin_factory: Any = None) -> list[Finding]:
    """Opens every configured pin through gpiozero and gives each back at once."""
    from gpiozero.exc import BadPinFactory

    wanted: list[tuple[str, int, str]] = []
    for seat in config.seats:
        wanted.append((f"seat {seat.seat} pad", seat.pad, "in"))
        if seat.led is not None:
            wanted.append((f"seat {seat.seat} LED", seat.led, "out"))
    if config.turn_button is not None:
        wanted.append(("turn button", config.turn_button, "in"))
    if config.buzzer is not None:
        wanted.append(("buzzer", config.buzzer, "out"))
    if not wanted:
        return [Finding("pins", False, "no pads configured ([seats] in the config): pads from the keyboard "
                        "or the phones", needed=False)]
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
                state = "pressed" if device.is_active else "released"
                factory_name = type(device.pin_factory).__name__
                device.close()
                findings.append(Finding("pins", True, f"{what}: BCM {pin} opens ({factory_name}), reads {state}"))
            else:
                device.close()
                findings.append(Finding("pins", True, f"{what}: BCM {pin} opens"))
        except BadPinFactory:
            return [Finding("pins", False, "no GPIO on this machine (gpiozero found no pin factory): "
                            "pads from the keyboard or the phones", needed=False)]
        except Exception as exc:
            findings.append(Finding("pins", False, f"{what}: BCM {pin} cannot be opened: {type(exc).__name__}: {exc}"))
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
            return [Finding("store", True, f"{path}: in use by a running Deckhand (it holds the "
                                           f"store's lock)")]
        return [Finding("store", False, f"{path}: cannot be written ({exc})")]
    return [Finding("store", True, f"{path}: writable (SQLite {sqlite3.sqlite_version})")]


def check_screen(config: Config, which: Callable[[str], str | None] = shutil.which) -> list[Finding]:
    findings = []
    browser = next((found for name in ("chromium", "chromium-browser") if (found := which(name))), None)
    if browser:
        findings.append(Finding("screen", True, f"Chromium: {browser}"))
    else:
        findings.append(Finding("screen", False, "no Chromium: the kiosk screen needs it "
                                "(apt install chromium); phones and other browsers still work", needed=False))
    from device.camera.auto import is_raspberry_pi
    bind = config.server.bind or ("0.0.0.0" if is_raspberry_pi() else "127.0.0.1")
    port = config.server.port
    problem = port_problem(bind, port)
    if problem is None:
        findings.append(Finding("screen", True, f"web port {bind}:{port} is free"))
    else:
        findings.append(Finding("screen", False, problem))
    return findings


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("check", help="say what camera, pins, store and screen this machine has",
                            description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", help="config file (default: $DECKHAND_CONFIG, /etc/deckhand/deckhand.toml, "
                        "~/.config/deckhand/deckhand.toml)")
    parser.add_argument("--camera", help="camera source to check (default: the config's)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    path = find_config_path(args.config)
    try:
        config = load_config(path)
    except ConfigError as exc:
        print(Finding("config", False, str(exc)).line())
        return 1
    findings = [Finding("config", True, f"{path}: {_summary(config)}" if path else
                        f"no config file: defaults ({_summary(config)})")]
    findings += check_camera(config, args.camera)
    findings += check_pins(config)
    findings += check_store(config)
    findings += check_screen(config)
    for finding in findings:
        print(finding.line())
    broken = [f for f in findings if not f.ok and f.needed]
    print(f"{len(broken)} problem(s)" if broken else "all needed parts work")
    return 1 if broken else 0


def _summary(config: Config) -> str:
    parts = [f"{len(config.seats)} seat(s)" if config.seats else "no pads",
             f"camera {config.camera.source} {config.camera.width}x{config.camera.height}",
             f"{len(config.zones)} zone(s)"]
    if config.turn_button is not None:
        parts.append(f"turn button BCM {config.turn_button}")
    return ", ".join(parts)


if __name__ == "__main__":
    sys.exit(run(argparse.Namespace(config=None, camera=None)))
