"""The TOML config: the example file loads; every bad value gives an error that starts
with the key it is about; zones are rewritten without touching the rest; host PIN
hashes verify."""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from device.config import (Config, ConfigError, Zone, default_pin_map, hash_pin, load_config, parse_config,
                           verify_pin, write_zones)

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "deckhand.toml"


def test_the_example_config_loads():
    config = load_config(EXAMPLE)
    assert config.pad_pins == {0: 17, 1: 27, 2: 22, 3: 23}
    assert config.led_pins == {0: 5, 1: 6, 2: 12, 3: 13}
    assert config.turn_button == 16 and config.buzzer == 18
    assert config.pads.pull == "up" and not config.pads.active_high and config.pads.hold_ms == 600
    assert config.camera.size == (640, 480) and config.camera.source == "auto"
    assert set(config.zones) == {"discard", "reveal", "scoring", "seat:0", "seat:1", "seat:2", "seat:3"}
    assert config.server.port == 8000 and config.source_path == EXAMPLE


def test_no_file_means_the_defaults():
    config = load_config(None)
    assert config == Config(store_path=config.store_path)
    assert config.seats == () and config.camera.source == "auto"


def test_a_seat_can_be_just_a_pad_pin_and_the_default_map_is_valid():
    assert parse_config({"seats": {"0": 17, "1": 27}}).pad_pins == {0: 17, 1: 27}
    config = parse_config({"seats": default_pin_map(6)})
    assert len(config.seats) == 6 and len(set(config.pad_pins.values()) | set(config.led_pins.values())) == 12


@pytest.mark.parametrize("data, key, words", [
    ({"seats": {"0": {"pad": 40}}}, "seats.0.pad", "BCM 40 is not a GPIO pin"),
    ({"seats": {"0": {"pad": 1}}}, "seats.0.pad", "BCM 1 is not a GPIO pin"),
    ({"seats": {"0": {"pad": "GPIO17"}}}, "seats.0.pad", "must be a BCM pin number"),
    ({"seats": {"0": {"pad": 17}, "1": {"pad": 17}}}, "seats.1.pad", "BCM 17 is already used by seats.0.pad"),
    ({"seats": {"0": {"pad": 17, "led": 5}, "1": {"pad": 27}}, "buzzer": 5}, "buzzer", "already used by seats.0.led"),
    ({"seats": {"0": {"pad": 17}}, "turn_button": 17}, "turn_button", "already used"),
    ({"seats": {"0": {"pad": 17}, "2": {"pad": 27}}}, "seats.1", "is missing"),
    ({"seats": {"1": {"pad": 17}}}, "seats.0", "is missing"),
    ({"seats": {"0": {"led": 5}}}, "seats.0.pad", "is missing"),
    ({"seats": {"zero": {"pad": 17}}}, "seats.zero", "seat keys are seat numbers"),
    ({"seats": {"0": {"pad": 17, "colour": "red"}}}, "seats.0.colour", "unknown key"),
    ({"pads": {"pull": "sideways"}}, "pads.pull", "must be \"up\", \"down\" or \"none\""),
    ({"pads": {"pull": "none"}}, "pads.active", "say whether a pressed pad reads"),
    ({"pads": {"pull": "up", "active": "high"}}, "pads.active", "would read pressed"),
    ({"pads": {"debounce_ms": -1}}, "pads.debounce_ms", "between 0 and 200"),
    ({"pads": {"debounce_ms": "fast"}}, "pads.debounce_ms", "must be a number"),
    ({"pads": {"hold_ms": 5, "debounce_ms": 10}}, "pads.hold_ms", "between 50"),
    ({"pads": {"stuck_s": 0.1}}, "pads.stuck_s", "between 1"),
    ({"pads": {"pull": "down"}, "seats": {"0": {"pad": 2}}}, "seats.0.pad", "fixed pull-up"),
    ({"camera": {"source": "webcam"}}, "camera.source", "unknown source"),
    ({"camera": {"width": 641}}, "camera.width", "even whole number"),
    ({"camera": {"fps": 0}}, "camera.fps", "between 1 and 120"),
    ({"zones": {"discard": [0.9, 0.1, 0.2, 0.2]}}, "zones.discard", "reaches past the edge"),
    ({"zones": {"discard": [0.1, 0.1, 0, 0.2]}}, "zones.discard", "more than 0"),
    ({"zones": {"discard": [0.1, 0.1, 0.2]}}, "zones.discard", "four numbers"),
    ({"zones": {"kitchen": [0.1, 0.1, 0.2, 0.2]}}, "zones.kitchen", "unknown zone"),
    ({"server": {"port": 70000}}, "server.port", "1..65535"),
    ({"host": {"pin_hash": "1234"}}, "host.pin_hash", "must look like"),
    ({"store": {"path": ""}}, "store.path", "must be a file path"),
    ({"colour": "blue"}, "colour", "unknown key"),
    ({"pads": 3}, "pads", "must be a table"),
])
def test_bad_config_is_refused_naming_the_key(data, key, words):
    with pytest.raises(ConfigError) as caught:
        parse_config(data)
    assert caught.value.key == key
    assert str(caught.value).startswith(f"{key}: ") and words in str(caught.value)


def test_file_errors_are_clear(tmp_path):
    with pytest.raises(ConfigError, match="no such file"):
        load_config(tmp_path / "missing.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("[seats.0\npad = 17\n")
    with pytest.raises(ConfigError, match="is not valid TOML"):
        load_config(broken)


def test_holds_can_be_switched_off():
    assert parse_config({"pads": {"hold_ms": 0}}).pads.hold_ms is None


def test_write_zones_replaces_only_the_zones_table(tmp_path):
    path = tmp_path / "deckhand.toml"
    original = EXAMPLE.read_text()
    path.write_text(original)
    before = load_config(path)
    zones = {"discard": Zone(0.1, 0.2, 0.3, 0.4), "seat:0": Zone(0.0, 0.8, 0.2, 0.2)}
    write_zones(path, zones)
    after = load_config(path)
    assert dict(after.zones) == zones
    assert (after.seats, after.pads, after.camera, after.turn_button) == \
        (before.seats, before.pads, before.camera, before.turn_button)
    text = path.read_text()
    assert "# One table per seat" in text and text.count("[zones]") == 1


def test_write_zones_creates_a_file_and_refuses_bad_zones(tmp_path):
    path = tmp_path / "new" / "deckhand.toml"
    write_zones(path, {"reveal": Zone(0.5, 0.5, 0.5, 0.5)})
    assert load_config(path).zones["reveal"] == Zone(0.5, 0.5, 0.5, 0.5)
    with pytest.raises(ConfigError, match="zones.discard"):
        write_zones(path, {"discard": Zone(0.9, 0.9, 0.5, 0.5)})
    assert load_config(path).zones["reveal"] == Zone(0.5, 0.5, 0.5, 0.5)   # nothing lost


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(
    st.sampled_from(["discard", "reveal", "scoring", "seat:0", "seat:1", "seat:7"]),
    st.tuples(st.floats(0, 0.5), st.floats(0, 0.5), st.floats(0.01, 0.5), st.floats(0.01, 0.5)),
    min_size=1))
def test_zones_survive_a_write_and_read(tmp_path_factory, raw):
    path = tmp_path_factory.mktemp("z") / "deckhand.toml"
    zones = {name: Zone(*values) for name, values in raw.items()}
    write_zones(path, zones)
    read = load_config(path).zones
    assert set(read) == set(zones)
    for name, zone in zones.items():
        # written with 4 decimals: half the last digit, and a float's error (0.03125 -> 0.0312)
        assert all(abs(a - b) <= 5e-5 + 1e-12 for a, b in zip(read[name].as_list(), zone.as_list()))


def test_host_pin_hash_round_trip():
    stored = hash_pin("4321")
    assert parse_config({"host": {"pin_hash": stored}}).host_pin_hash == stored
    assert verify_pin("4321", stored) and not verify_pin("1234", stored)
    assert not verify_pin("4321", "nonsense")
    with pytest.raises(ConfigError, match="4 to 12 digits"):
        hash_pin("12a")


def test_every_key_of_the_example_is_known():
    """The example file is the documentation of the format: it must use every table."""
    data = tomllib.loads(EXAMPLE.read_text())
    assert {"seats", "pads", "camera", "server", "zones", "turn_button", "buzzer"} <= set(data)
