"""`deckhand calibrate` and `deckhand check`, run as the command line runs them."""
from __future__ import annotations

import socket

import cv2
import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from device.cli import main
from device.commands.calibrate import find_mat, mat_layout, parse_zone_argument, place_on_mat
from device.commands.check import check_camera, check_pins, check_screen, check_store
from device.config import ConfigError, Zone, load_config, parse_config


def test_mat_layouts_fit_the_mat_and_keep_seats_apart():
    for seats in range(1, 11):
        zones = mat_layout(seats)
        assert {"discard", "reveal", "scoring"} | {f"seat:{i}" for i in range(seats)} == set(zones)
        for zone in zones.values():
            assert 0 <= zone.x and zone.x + zone.w <= 1 and 0 <= zone.y and zone.y + zone.h <= 1
        spots = [zones[f"seat:{i}"] for i in range(seats)]
        for i, a in enumerate(spots):
            for b in spots[i + 1:]:
                overlap_w = min(a.x + a.w, b.x + b.w) - max(a.x, b.x)
                overlap_h = min(a.y + a.h, b.y + b.h) - max(a.y, b.y)
                assert overlap_w <= 0 or overlap_h <= 0
    # seat 0 is at the bottom of the picture, seat 1 to its left (clockwise from above)
    four = mat_layout(4)
    assert four["seat:0"].y > 0.6 and four["seat:1"].x < 0.3
    with pytest.raises(ValueError):
        mat_layout(11)


def test_the_mat_is_found_in_a_snapshot():
    image = np.full((480, 640, 3), (60, 90, 130), np.uint8)           # a wooden table
    cv2.rectangle(image, (100, 60), (540, 420), (40, 120, 40), -1)    # the green mat
    cv2.rectangle(image, (300, 200), (360, 290), (250, 250, 250), -1)  # a card on it
    mat = find_mat(image)
    assert mat is not None
    assert abs(mat.x - 100 / 640) < 0.01 and abs(mat.y - 60 / 480) < 0.01
    assert abs(mat.w - 441 / 640) < 0.01 and abs(mat.h - 361 / 480) < 0.01
    assert find_mat(np.full((480, 640, 3), 90, np.uint8)) is None      # a bare table


def test_zones_are_placed_on_the_mat():
    placed = place_on_mat({"discard": Zone(0.5, 0.5, 0.5, 0.5)}, Zone(0.1, 0.2, 0.8, 0.6))
    assert placed["discard"] == Zone(0.5, 0.5, 0.4, 0.3)


@pytest.mark.parametrize("text, words", [
    ("discard", "write NAME=x,y,w,h"),
    ("table=0.1,0.1,0.1,0.1", "unknown zone"),
    ("discard=0.1,0.1,0.1", "four numbers"),
    ("discard=a,b,c,d", "four numbers"),
    ("discard=0.9,0.1,0.2,0.1", "reaches past the edge"),
])
def test_zone_arguments_are_checked(text, words):
    with pytest.raises(ConfigError, match=words):
        parse_zone_argument(text)


def test_calibrate_on_the_simulated_table_writes_zones_on_its_mat(tmp_path, capsys):
    path = tmp_path / "deckhand.toml"
    path.write_text('[seats.0]\npad = 17\n[seats.1]\npad = 27\n[seats.2]\npad = 22\n')
    snapshot = tmp_path / "snap.png"
    code = main(["calibrate", "--config", str(path), "--camera", "sim",
                 "--zone", "discard=0.4,0.35,0.2,0.3", "--snapshot", str(snapshot)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "Mat: found" in out and "(by hand)" in out
    zones = load_config(path).zones
    assert zones["discard"] == Zone(0.4, 0.35, 0.2, 0.3)
    assert set(zones) == {"discard", "reveal", "scoring", "seat:0", "seat:1", "seat:2"}
    assert zones["seat:0"].x > 0.08 and zones["seat:0"].y + zones["seat:0"].h <= 0.95   # on the mat
    assert cv2.imread(str(snapshot)).shape == (480, 640, 3)
    assert load_config(path).pad_pins == {0: 17, 1: 27, 2: 22}   # the rest of the file kept


def test_calibrate_errors_are_clear(tmp_path, capsys):
    path = tmp_path / "deckhand.toml"
    assert main(["calibrate", "--config", str(path), "--camera", "sim"]) == 2
    assert "--seats: say how many seats" in capsys.readouterr().err
    assert main(["calibrate", "--config", str(path), "--zone", "nowhere=0,0,1,1", "--camera", "sim"]) == 2
    assert "--zone nowhere: there is no zone “nowhere”" in capsys.readouterr().err
    assert main(["calibrate", "--config", str(path), "--seats", "2", "--camera", "replay:/nonexistent"]) == 1
    err = capsys.readouterr().err
    assert "no snapshot from the camera replay:/nonexistent: there is no file or folder /nonexistent" in err
    assert not path.exists()   # nothing written on failure
    assert main(["calibrate", "--config", str(path), "--seats", "2", "--camera", "sim", "--dry-run"]) == 0
    assert not path.exists()


def test_check_camera_reports_the_frame_or_the_failure():
    config = parse_config({"camera": {"width": 320, "height": 240}})
    ok = check_camera(config, "sim")
    assert ok[0].ok and "320×240" in ok[0].text
    bad = check_camera(config, "replay:/nonexistent")
    assert not bad[0].ok and "there is no file or folder /nonexistent" in bad[0].text


def test_check_pins_opens_each_pin_and_names_the_broken_one():
    factory = MockFactory()
    config = parse_config({"seats": {"0": {"pad": 17, "led": 5}}, "turn_button": 16})
    found = check_pins(config, factory)
    assert all(f.ok for f in found) and len(found) == 3 and "reads released" in found[0].text
    from gpiozero import InputDevice
    holder = InputDevice(17, pin_factory=factory)   # something else has the pad's pin
    found = check_pins(config, factory)
    assert not found[0].ok and "BCM 17 cannot be opened: GPIOPinInUse" in found[0].text
    holder.close()
    factory.reset()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_check_store_and_screen(tmp_path):
    config = parse_config({"store": {"path": str(tmp_path / "db" / "deckhand.sqlite3")}})
    assert check_store(config)[0].ok
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    readonly = parse_config({"store": {"path": str(locked / "deckhand.sqlite3")}})
    result = check_store(readonly)[0]
    import os
    if os.geteuid() != 0:   # root writes anywhere
        assert not result.ok and "cannot be written" in result.text
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        port = taken.getsockname()[1]
        busy = parse_config({"server": {"bind": "127.0.0.1", "port": port}})
        screen = check_screen(busy, which=lambda name: None)
    assert not screen[0].ok and not screen[0].needed and "no Chromium" in screen[0].text
    assert not screen[1].ok and screen[1].needed and f"port {port} on 127.0.0.1 is already in use" in screen[1].text


def test_check_command_runs_and_reports(tmp_path, capsys):
    path = tmp_path / "deckhand.toml"
    path.write_text(f'[camera]\nsource = "sim"\n[store]\npath = "{tmp_path}/d.sqlite3"\n'
                    '[server]\nbind = "127.0.0.1"\n' f'port = {free_port()}\n')
    code = main(["check", "--config", str(path)])
    out = capsys.readouterr().out
    assert "[ok  ] camera" in out and "store" in out and "screen" in out
    assert code == 0, out
    path.write_text("[seats.0]\npad = 99\n")
    assert main(["check", "--config", str(path)]) == 1
    assert "seats.0.pad: BCM 99 is not a GPIO pin" in capsys.readouterr().out
