"""Deckhand's configuration file (TOML): which BCM pin each seat's pad and LED is on,
how the pads are wired (pull-up, active level) and debounced, the turn button and
buzzer, the camera source and working size, the calibrated table zones, the host PIN
hash, the web server's bind address and port, and where the store lives.

`load_config(path)` reads and checks a file; `parse_config(data)` checks an already
parsed mapping. Every problem raises `ConfigError` whose message starts with the key
it is about (`seats.2.pad: ...`). `write_zones(path, zones)` rewrites only the
`[zones]` table of a file (what `deckhand calibrate` saves). The host PIN hash format
(`hash_pin`, `verify_pin`) lives here because the file stores it.

What does not live here: opening pins (`device.pads`, `device.indicators`) or cameras
(`device.camera`). See `examples/deckhand.toml` for a commented example.
"""
from __future__ import annotations

import dataclasses
import hashlib
import hmac
import os
import re
import secrets
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

# BCM numbers of the GPIO lines on the 40-pin header. 0 and 1 are the HAT ID EEPROM
# bus, which must stay free for HATs, so they are not offered.
GPIO_PINS = range(2, 28)
# These have 1.8 kOhm pull-ups soldered on the board: they cannot be pulled down.
FIXED_PULL_UP_PINS = frozenset({2, 3})

ZONE_NAMES = ("discard", "reveal", "scoring")
SEAT_ZONE = re.compile(r"^seat:(\d+)$")

DEFAULT_CONFIG_PATHS = (
    Path("/etc/deckhand/deckhand.toml"),
    Path.home() / ".config" / "deckhand" / "deckhand.toml",
)

# The default pin map (docs/hardware.md draws it): pads, then LEDs, seat 0 first.
DEFAULT_PAD_PINS = (17, 27, 22, 23, 24, 25)
DEFAULT_LED_PINS = (5, 6, 12, 13, 19, 26)
DEFAULT_TURN_BUTTON = 16
DEFAULT_BUZZER = 18

PIN_HASH_SCHEME = "pbkdf2_sha256"
PIN_HASH_ITERATIONS = 200_000
PIN_HASH_MIN_ITERATIONS = 1_000
PIN_HASH_MAX_ITERATIONS = 1_000_000


class ConfigError(ValueError):
    """A configuration problem; `key` is the dotted key it is about. `said` is it as a
    code and params (web.messages "config.*"; the param "key" is the key) for a command
    that says it in the person's language (`deckhand calibrate`); str() is the English."""

    def __init__(self, key: str, message: str, code: str = "", **params: Any):
        super().__init__(f"{key}: {message}")
        self.key = key
        self.message = message
        self.said = {"code": code, "params": {"key": key, **params}} if code else None


@dataclass(frozen=True)
class SeatPins:
    seat: int
    pad: int
    led: int | None = None


@dataclass(frozen=True)
class PadSettings:
    """How every pad (and the turn button) is wired and judged.

    pull: "up", "down" or "none" (an external driver such as an FSR comparator).
    active_high: True when a pressed pad reads high.
    debounce_ms: a contact must stay released this long before the release counts;
        edges closer than this after a release are chatter of the same press.
    hold_ms: a press lasting this long is a hold (`held=True`); None: no holds, every
        press is reported at once as a tap.
    stuck_s: a pad down this long is reported stuck.
    order_window_ms: how long edges wait for late edge callbacks of other pins, so
        presses are handed on in the order they happened.
    """

    pull: str = "up"
    active_high: bool = False
    debounce_ms: float = 10.0
    hold_ms: float | None = 600.0
    stuck_s: float = 20.0
    order_window_ms: float = 2.0


@dataclass(frozen=True)
class CameraSettings:
    source: str = "auto"      # auto | picam | picam:N | usb:N | usb:/dev/videoN | replay:PATH | sim
    width: int = 640
    height: int = 480
    fps: float = 30.0
    profile: str | None = None   # a taught deck's file (or a built-in printing) to read

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)


@dataclass(frozen=True)
class Zone:
    """A rectangle of the table in normalized image coordinates (0..1, origin top left)."""

    x: float
    y: float
    w: float
    h: float

    def to_pixels(self, width: int, height: int) -> tuple[int, int, int, int]:
        return (round(self.x * width), round(self.y * height),
                round(self.w * width), round(self.h * height))

    def as_list(self) -> list[float]:
        return [self.x, self.y, self.w, self.h]


@dataclass(frozen=True)
class ServerSettings:
    bind: str | None = None   # None: all interfaces on a Pi, localhost elsewhere (deckhand run)
    port: int = 8000


@dataclass(frozen=True)
class SpeechSettings:
    """Spoken announcements (device.speech): enabled, the language ("en" or "fr") and
    the rate in words per minute."""

    enabled: bool = False
    language: str = "en"
    rate: int = 165


@dataclass(frozen=True)
class Config:
    seats: tuple[SeatPins, ...] = ()
    pads: PadSettings = field(default_factory=PadSettings)
    turn_button: int | None = None
    buzzer: int | None = None
    camera: CameraSettings = field(default_factory=CameraSettings)
    zones: Mapping[str, Zone] = field(default_factory=dict)
    server: ServerSettings = field(default_factory=ServerSettings)
    speech: SpeechSettings = field(default_factory=SpeechSettings)
    host_pin_hash: str | None = None
    store_path: Path = field(default_factory=lambda: default_store_path())
    source_path: Path | None = None

    @property
    def pad_pins(self) -> dict[int, int]:
        return {s.seat: s.pad for s in self.seats}

    @property
    def led_pins(self) -> dict[int, int]:
        return {s.seat: s.led for s in self.seats if s.led is not None}


def default_store_path() -> Path:
    state = os.environ.get("STATE_DIRECTORY")  # systemd's StateDirectory=
    if state:
        return Path(state.split(":")[0]) / "deckhand.sqlite3"
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "deckhand" / "deckhand.sqlite3"


def default_pin_map(seats: int) -> dict[str, Any]:
    """The `[seats]` table of the default wiring for `seats` players (at most 6)."""
    if not 1 <= seats <= len(DEFAULT_PAD_PINS):
        raise ConfigError("seats", f"the default pin map has 1 to {len(DEFAULT_PAD_PINS)} seats, not {seats}",
                          "config.default_map", high=len(DEFAULT_PAD_PINS), count=seats)
    return {str(i): {"pad": DEFAULT_PAD_PINS[i], "led": DEFAULT_LED_PINS[i]} for i in range(seats)}


# ---------------------------------------------------------------- reading


def find_config_path(explicit: str | os.PathLike[str] | None = None) -> Path | None:
    """The file to read: the explicit one, $DECKHAND_CONFIG, then the default places."""
    if explicit:
        return Path(explicit)
    env = os.environ.get("DECKHAND_CONFIG")
    if env:
        return Path(env)
    for candidate in DEFAULT_CONFIG_PATHS:
        if candidate.is_file():
            return candidate
    return None


def load_config(path: str | os.PathLike[str] | None) -> Config:
    """Read and check a config file; no path means the defaults (no pads, camera auto)."""
    if path is None:
        return Config()
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise ConfigError(str(path), "no such file", "config.no_file") from None
    except OSError as exc:
        raise ConfigError(str(path), f"cannot be read ({exc.strerror})", "config.unreadable") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise ConfigError(str(path), f"is not UTF-8 text (line {line}); save it as UTF-8", "config.not_utf8",
                          line=line) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        at = re.search(r"line (\d+), column (\d+)", str(exc))
        where = {"line": int(at[1]), "column": int(at[2])} if at else {}
        raise ConfigError(str(path), f"is not valid TOML ({exc})", "config.not_toml_at" if at else "config.not_toml",
                          **where) from None
    except RecursionError:
        raise ConfigError(str(path), "nests arrays or tables too deeply to be a configuration",
                          "config.too_deep") from None
    config = parse_config(data)
    return _replace(config, source_path=path)


def _replace(config: Config, **changes: Any) -> Config:
    return dataclasses.replace(config, **changes)


_TOP_KEYS = {"seats", "pads", "turn_button", "buzzer", "camera", "zones", "server", "host", "store",
             "speech"}


def parse_config(data: Mapping[str, Any]) -> Config:
    """Check a parsed TOML mapping and build a `Config`; raises `ConfigError`."""
    _no_unknown_keys(data, _TOP_KEYS, "")
    pads = _parse_pads(_table(data, "pads"))
    seats = _parse_seats(_table(data, "seats"))
    turn_button = _optional_pin(data, "turn_button")
    buzzer = _optional_pin(data, "buzzer")
    _check_pins(seats, turn_button, buzzer, pads)
    camera = _parse_camera(_table(data, "camera"))
    zones = parse_zones(_table(data, "zones"), "zones")
    server = _parse_server(_table(data, "server"))
    host = _table(data, "host")
    _no_unknown_keys(host, {"pin_hash"}, "host")
    pin_hash = host.get("pin_hash")
    fault = pin_hash_fault(pin_hash) if pin_hash is not None else None
    problem, why = fault if fault else (None, None)
    if problem is not None:
        raise ConfigError("host.pin_hash", f"{problem} (make a new one with `python -c \"from "
                          f"device.config import hash_pin; print(hash_pin('your PIN'))\"`)", "config.pin_hash",
                          why=why)
    store = _table(data, "store")
    _no_unknown_keys(store, {"path"}, "store")
    store_path = default_store_path()
    if "path" in store:
        if not isinstance(store["path"], str) or not store["path"].strip():
            raise ConfigError("store.path", "must be a file path", "config.not_path")
        store_path = Path(store["path"]).expanduser()
    speech = _parse_speech(_table(data, "speech"))
    return Config(seats=seats, pads=pads, turn_button=turn_button, buzzer=buzzer, camera=camera,
                  zones=zones, server=server, speech=speech, host_pin_hash=pin_hash,
                  store_path=store_path)


def _table(data: Mapping[str, Any], key: str, prefix: str = "") -> Mapping[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, Mapping):
        raise ConfigError(prefix + key, "must be a table", "config.not_table")
    return value


def _no_unknown_keys(data: Mapping[str, Any], allowed: set[str], prefix: str) -> None:
    for key in data:
        if key not in allowed:
            where = f"{prefix}.{key}" if prefix else key
            raise ConfigError(where, f"unknown key (known: {', '.join(sorted(allowed))})", "config.unknown_key",
                              names=sorted(allowed))


def _number(data: Mapping[str, Any], key: str, where: str, default: float, *,
            minimum: float, maximum: float) -> float:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ConfigError(f"{where}.{key}", f"must be a number, not {value!r}", "config.not_number",
                          value=str(value))
    if not minimum <= value <= maximum:
        raise ConfigError(f"{where}.{key}", f"must be between {minimum:g} and {maximum:g}, not {value:g}",
                          "config.out_of_range", low=minimum, high=maximum, value=value)
    return float(value)


def _pin(value: Any, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(key, f"must be a BCM pin number, not {value!r}", "config.not_pin", value=str(value))
    if value not in GPIO_PINS:
        raise ConfigError(key, f"BCM {value} is not a GPIO pin on the header "
                          f"(use {GPIO_PINS.start}..{GPIO_PINS.stop - 1})", "config.not_gpio",
                          pin=value, low=GPIO_PINS.start, high=GPIO_PINS.stop - 1)
    return value


def _optional_pin(data: Mapping[str, Any], key: str) -> int | None:
    value = data.get(key)
    return None if value is None else _pin(value, key)


def _parse_pads(data: Mapping[str, Any]) -> PadSettings:
    _no_unknown_keys(data, {"pull", "active", "debounce_ms", "hold_ms", "stuck_s", "order_window_ms"}, "pads")
    pull = data.get("pull", "up")
    if pull not in ("up", "down", "none"):
        raise ConfigError("pads.pull", f"must be \"up\", \"down\" or \"none\", not {pull!r}", "config.pull",
                          value=str(pull))
    if "active" in data:
        active = data["active"]
        if active not in ("low", "high"):
            raise ConfigError("pads.active", f"must be \"low\" or \"high\", not {active!r}", "config.active",
                              value=str(active))
        active_high = active == "high"
        if (pull == "up" and active_high) or (pull == "down" and not active_high):
            raise ConfigError("pads.active", f"a pad pulled {pull} that is active {active} would read pressed "
                              "while nobody touches it", "config.active_pressed", pull=pull, active=active)
    elif pull == "none":
        raise ConfigError("pads.active", "with pull = \"none\" say whether a pressed pad reads \"low\" or \"high\"",
                          "config.active_needed")
    else:
        active_high = pull == "down"
    debounce = _number(data, "debounce_ms", "pads", 10.0, minimum=0.0, maximum=200.0)
    hold_raw = data.get("hold_ms", 600.0)
    hold: float | None
    if hold_raw in (0, False):
        hold = None
    else:
        hold = _number(data, "hold_ms", "pads", 600.0, minimum=50.0, maximum=10_000.0)
        if hold <= debounce:
            raise ConfigError("pads.hold_ms", f"must be longer than pads.debounce_ms ({debounce:g})",
                              "config.hold_short", debounce=debounce)
    stuck = _number(data, "stuck_s", "pads", 20.0, minimum=1.0, maximum=3600.0)
    if hold is not None and stuck * 1000 <= hold:
        raise ConfigError("pads.stuck_s", "must be longer than pads.hold_ms", "config.stuck_short")
    window = _number(data, "order_window_ms", "pads", 2.0, minimum=0.0, maximum=50.0)
    return PadSettings(pull=pull, active_high=active_high, debounce_ms=debounce, hold_ms=hold,
                       stuck_s=stuck, order_window_ms=window)


def _parse_seats(data: Mapping[str, Any]) -> tuple[SeatPins, ...]:
    seats: dict[int, SeatPins] = {}
    for key, value in data.items():
        if not re.fullmatch(r"\d+", key):
            raise ConfigError(f"seats.{key}", "seat keys are seat numbers from 0 (write [seats.0])", "config.seat_key")
        seat = int(key)
        where = f"seats.{key}"
        if isinstance(value, int) and not isinstance(value, bool):
            value = {"pad": value}
        if not isinstance(value, Mapping):
            raise ConfigError(where, "must be a pad pin or a table {pad = N, led = N}", "config.seat_value")
        _no_unknown_keys(value, {"pad", "led"}, where)
        if "pad" not in value:
            raise ConfigError(f"{where}.pad", "is missing: every seat needs its pad's pin", "config.pad_missing")
        led = value.get("led")
        seats[seat] = SeatPins(seat, _pin(value["pad"], f"{where}.pad"),
                               None if led is None else _pin(led, f"{where}.led"))
    for expected in range(len(seats)):
        if expected not in seats:
            raise ConfigError(f"seats.{expected}", f"is missing: seats are numbered 0..{len(seats) - 1} "
                              f"with none skipped (found {', '.join(str(s) for s in sorted(seats))})",
                              "config.seat_missing", last=len(seats) - 1, numbers=sorted(seats))
    return tuple(seats[i] for i in range(len(seats)))


def _check_pins(seats: tuple[SeatPins, ...], turn_button: int | None, buzzer: int | None,
                pads: PadSettings) -> None:
    used: dict[int, str] = {}
    inputs: list[tuple[str, int]] = []
    claims: list[tuple[str, int | None]] = []
    for s in seats:
        claims += [(f"seats.{s.seat}.pad", s.pad), (f"seats.{s.seat}.led", s.led)]
        inputs.append((f"seats.{s.seat}.pad", s.pad))
    claims += [("turn_button", turn_button), ("buzzer", buzzer)]
    if turn_button is not None:
        inputs.append(("turn_button", turn_button))
    for key, pin in claims:
        if pin is None:
            continue
        if pin in used:
            raise ConfigError(key, f"BCM {pin} is already used by {used[pin]}", "config.pin_used", pin=pin,
                              other=used[pin])
        used[pin] = key
    if pads.pull == "down":
        for key, pin in inputs:
            if pin in FIXED_PULL_UP_PINS:
                raise ConfigError(key, f"BCM {pin} has a fixed pull-up on the board and cannot be pulled down",
                                  "config.pull_up_fixed", pin=pin)


def _parse_camera(data: Mapping[str, Any]) -> CameraSettings:
    _no_unknown_keys(data, {"source", "width", "height", "fps", "profile"}, "camera")
    source = data.get("source", "auto")
    if not isinstance(source, str) or not source:
        raise ConfigError("camera.source", "must be a string such as \"auto\", \"usb:0\" or \"replay:PATH\"",
                          "config.camera_source")
    kind = source.split(":", 1)[0]
    if kind not in ("auto", "picam", "usb", "replay", "sim"):
        raise ConfigError("camera.source", f"unknown source {source!r} "
                          "(auto, picam, usb:N, replay:PATH or sim)", "config.camera_unknown", value=source)
    width = _number(data, "width", "camera", 640, minimum=64, maximum=4608)
    height = _number(data, "height", "camera", 480, minimum=48, maximum=3496)
    for key, value in (("width", width), ("height", height)):
        if value != int(value) or int(value) % 2:
            raise ConfigError(f"camera.{key}", f"must be an even whole number of pixels, not {value:g}",
                              "config.camera_even", value=value)
    fps = _number(data, "fps", "camera", 30.0, minimum=1.0, maximum=120.0)
    profile = data.get("profile")
    if profile is not None and (not isinstance(profile, str) or not profile.strip()):
        raise ConfigError("camera.profile", "must be the path of a taught deck's profile file",
                          "config.camera_profile")
    return CameraSettings(source=source, width=int(width), height=int(height), fps=fps,
                          profile=str(Path(profile.strip()).expanduser()) if profile else None)


def parse_zone(value: Any, key: str) -> Zone:
    """A zone from [x, y, w, h] (normalized 0..1) or the text "x,y,w,h"."""
    if isinstance(value, str):
        try:
            value = [float(v) for v in value.split(",")]
        except ValueError:
            raise ConfigError(key, f"must be four numbers x,y,w,h, not {value!r}",
                              "config.zone_not_numbers", value=value) from None
    if not isinstance(value, (list, tuple)) or len(value) != 4 or any(
            isinstance(v, bool) or not isinstance(v, (int, float)) for v in value):
        raise ConfigError(key, f"must be four numbers [x, y, w, h] between 0 and 1, not {value!r}",
                          "config.zone_not_numbers",
                          value=", ".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value))
    x, y, w, h = (float(v) for v in value)
    if not (0 <= x < 1 and 0 <= y < 1):
        raise ConfigError(key, f"x and y must be between 0 and 1 (got {x:g}, {y:g})", "config.zone_outside", x=x, y=y)
    if not (w > 0 and h > 0):
        raise ConfigError(key, f"width and height must be more than 0 (got {w:g}, {h:g})", "config.zone_empty",
                          w=w, h=h)
    eps = 1e-9
    if x + w > 1 + eps or y + h > 1 + eps:
        raise ConfigError(key, f"reaches past the edge of the picture (x+w={x + w:g}, y+h={y + h:g}; at most 1)",
                          "config.zone_past_edge", right=x + w, bottom=y + h)
    return Zone(x, y, w, h)


def check_zone_name(name: str, key: str) -> None:
    if name not in ZONE_NAMES and not SEAT_ZONE.match(name):
        raise ConfigError(key, f"unknown zone {name!r} (use {', '.join(ZONE_NAMES)} or seat:N)",
                          "config.zone_unknown", name=name, names=list(ZONE_NAMES))


def parse_zones(data: Mapping[str, Any], prefix: str) -> dict[str, Zone]:
    zones = {}
    for name, value in data.items():
        key = f"{prefix}.{name}"
        check_zone_name(name, key)
        zones[name] = parse_zone(value, key)
    return zones


SPEECH_LANGUAGES = ("en", "fr")


def _parse_speech(data: Mapping[str, Any]) -> SpeechSettings:
    _no_unknown_keys(data, {"enabled", "language", "rate"}, "speech")
    enabled = data.get("enabled", False)
    if not isinstance(enabled, bool):
        raise ConfigError("speech.enabled", f"must be true or false, not {enabled!r}", "config.not_bool",
                          value=str(enabled))
    language = data.get("language", "en")
    if language not in SPEECH_LANGUAGES:
        raise ConfigError("speech.language", f"must be one of {', '.join(SPEECH_LANGUAGES)}, not {language!r}",
                          "config.language", value=str(language), choices=", ".join(SPEECH_LANGUAGES))
    rate = _number(data, "rate", "speech", 165, minimum=80, maximum=400)
    return SpeechSettings(enabled=enabled, language=language, rate=int(rate))


def _parse_server(data: Mapping[str, Any]) -> ServerSettings:
    _no_unknown_keys(data, {"bind", "port"}, "server")
    bind = data.get("bind")
    if bind is not None and (not isinstance(bind, str) or not bind):
        raise ConfigError("server.bind", "must be an address such as \"0.0.0.0\" or \"127.0.0.1\"",
                          "config.bind")
    port = data.get("port", 8000)
    if isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535:
        raise ConfigError("server.port", f"must be a port number 1..65535, not {port!r}", "config.port",
                          value=str(port))
    return ServerSettings(bind=bind, port=port)


# ---------------------------------------------------------------- host PIN


def hash_pin(pin: str, *, salt: str | None = None, iterations: int = PIN_HASH_ITERATIONS) -> str:
    """The text to store as `host.pin_hash` for `pin`."""
    if not pin or not pin.isdigit() or not 4 <= len(pin) <= 12:
        raise ConfigError("host.pin", "a host PIN is 4 to 12 digits", "config.pin")
    salt = salt or secrets.token_hex(8)
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt.encode(), iterations).hex()
    return f"{PIN_HASH_SCHEME}${iterations}${salt}${digest}"


def verify_pin(pin: str, pin_hash: str) -> bool:
    if not _is_pin_hash(pin_hash):
        return False
    _, iterations, salt, digest = pin_hash.split("$")
    candidate = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt.encode(), int(iterations)).hex()
    return hmac.compare_digest(candidate, digest)


def pin_hash_problem(value: Any) -> str | None:
    """Why `value` is not a PIN hash Deckhand can check (in English), or None."""
    fault = pin_hash_fault(value)
    return fault[0] if fault else None


def pin_hash_fault(value: Any) -> tuple[str, dict[str, Any]] | None:
    """Why `value` is not a PIN hash Deckhand can check, in English and as a message
    (web.messages "pin_hash.*"), or None. The iteration count is bounded: 0 cannot be
    checked, and a huge count would make every login hang (on a Pi, 1,000,000 rounds
    already take seconds)."""
    shape = f"must look like '{PIN_HASH_SCHEME}$<iterations>$<salt>$<64 hex digits>'"
    low, high = PIN_HASH_MIN_ITERATIONS, PIN_HASH_MAX_ITERATIONS
    if not isinstance(value, str) or len(value) > 200:
        return shape, _said("pin_hash.shape", scheme=PIN_HASH_SCHEME)
    parts = value.split("$")
    if len(parts) != 4 or parts[0] != PIN_HASH_SCHEME:
        return shape, _said("pin_hash.shape", scheme=PIN_HASH_SCHEME)
    if not re.fullmatch(r"[0-9]{1,9}", parts[1]):
        return (f"the iteration count {parts[1][:20]!r} must be a whole number from {low:,} to {high:,}",
                _said("pin_hash.iterations_whole", low=low, high=high))
    iterations = int(parts[1])
    if not low <= iterations <= high:
        return (f"the iteration count {iterations:,} must be from {low:,} to {high:,}",
                _said("pin_hash.iterations_range", count=iterations, low=low, high=high))
    if not re.fullmatch(r"[A-Za-z0-9._+/=-]{4,64}", parts[2]):
        return ("the salt must be 4 to 64 letters, digits or ._+/=- characters", _said("pin_hash.salt"))
    if not re.fullmatch(r"[0-9a-f]{64}", parts[3]):
        return f"{shape}: the hash part is not 64 lower-case hex digits", _said("pin_hash.hex")
    return None


def _said(code: str, **params: Any) -> dict[str, Any]:
    return {"code": code, "params": params}


def _is_pin_hash(value: Any) -> bool:
    return pin_hash_problem(value) is None


# ---------------------------------------------------------------- writing zones


def zones_toml(zones: Mapping[str, Zone]) -> str:
    lines = ["[zones]", "# x, y, width, height as fractions of the camera picture (0..1, top left origin)"]
    for name in sorted(zones, key=_zone_order):
        key = name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else f'"{name}"'
        z = zones[name]
        lines.append(f"{key} = [{z.x:.4f}, {z.y:.4f}, {z.w:.4f}, {z.h:.4f}]")
    return "\n".join(lines) + "\n"


def _zone_order(name: str) -> tuple[int, str]:
    match = SEAT_ZONE.match(name)
    if match:
        return (1, f"{int(match.group(1)):04d}")
    return (0, name)


def write_zones(path: str | os.PathLike[str], zones: Mapping[str, Zone]) -> None:
    """Replace the `[zones]` table of the file (created if missing), keeping every other
    line as it was. The result is read back and checked before it replaces the file."""
    path = Path(path)
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    kept: list[str] = []
    in_zones = False
    for line in text.splitlines():
        header = re.match(r"^\s*\[\s*([^\[\]]+?)\s*\]\s*(#.*)?$", line)
        if header:
            in_zones = header.group(1) == "zones" or header.group(1).startswith("zones.")
            if in_zones:
                continue
        if not in_zones:
            kept.append(line)
    while kept and not kept[-1].strip():
        kept.pop()
    new_text = ("\n".join(kept) + "\n\n" if kept else "") + zones_toml(zones)
    parse_config(tomllib.loads(new_text))  # never write a file that would not load
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(new_text, encoding="utf-8")
    os.replace(tmp, path)
