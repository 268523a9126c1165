"""`deckhand run` and the appliance's parts: the real command serves the screens of a
live simulated table and stops cleanly on SIGTERM; the parts run with real threads
(camera + vision loop, gpiozero mock pads, bots, ticker, supervisor) without gunicorn;
every action kind of every game says how it happens at a table; the camera view's
zones are checked and its picture is a real JPEG.
"""
from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from device.app import Appliance, RunOptions
from device.camera.sim import SimSource
from device.camera_view import CameraView
from device.config import Config
from device.simtable import HOW, HostInput, PadPress, physical_event
from device.store import EventStore
from device.table import LiveTable
from device.vision_loop import VisionLoop
from engine.core import Action, EndMatch, Undo
from engine.games import GAME_MODULES, get_game

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(port: int, path: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as r:
        return r.status, r.read()


# --- the command --------------------------------------------------------------------------

def test_deckhand_run_serves_a_live_table_and_stops_cleanly_on_sigterm(tmp_path):
    port = free_port()
    log = tmp_path / "run.log"
    proc = subprocess.Popen(
        [sys.executable, "-m", "device.cli", "run", "--camera", "sim", "--speed", "20",
         "--db", str(tmp_path / "d.db"), "--port", str(port), "--game", "raj", "--bind", "127.0.0.1"],
        cwd=ROOT, start_new_session=True, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                status, body = fetch(port, "/api/state")
                break
            except (OSError, http.client.HTTPException):   # not up, or connected to itself
                assert proc.poll() is None, log.read_text()
                assert time.monotonic() < deadline, "no answer from deckhand run"
                time.sleep(0.1)
        first = json.loads(body)
        for path in ("/", "/phone"):
            status, page = fetch(port, path)
            assert status == 200 and b"<html" in page.lower()
        # listening on loopback only: the table screen says how to let phones in, and
        # the made-up PIN it shows (to this computer) is the one printed at start
        table_page = fetch(port, "/")[1].decode()
        assert "deckhand run --bind 0.0.0.0" in table_page and '<div class="qr">' not in table_page
        shown_pin = table_page.split('id="host-pin">')[1].split("<")[0]
        # the table plays itself: the camera reads the bots' cards, pads are pressed
        deadline = time.monotonic() + 20
        while True:
            state = json.loads(fetch(port, "/api/state")[1])
            if state["match"] and state["seq"] >= first["seq"] + 6:
                break
            assert time.monotonic() < deadline, "the simulated table did not advance"
            time.sleep(0.3)
        assert state["match"]["game"] == "raj"
        assert state["status"]["camera"] == "ok" and state["status"]["pads"] == "mock"
    finally:
        t0 = time.monotonic()
        os.killpg(proc.pid, signal.SIGTERM)
        code = proc.wait(timeout=15)
        took = time.monotonic() - t0
    text = log.read_text(errors="replace")
    assert code == 0, text[-2000:]
    assert took < 10
    for part in ("store:", "camera: sim", "pads: mock", "bots: playing raj", "watchdog:"):
        assert part in text, part
    assert text.count(f"host PIN for this run: {shown_pin}") == 1
    assert text.count("phones cannot join: the server listens on 127.0.0.1") == 1
    assert "run `deckhand run --bind 0.0.0.0`" in text
    assert "Traceback" not in text, text[-3000:]
    # the camera read cards itself (sources in the store), and pads were pressed
    import sqlite3
    with sqlite3.connect(tmp_path / "d.db") as conn:
        sources = {s for (s,) in conn.execute("SELECT source FROM actions")}
    assert {"camera", "pad"} <= sources, sources


# --- the parts, with real threads ----------------------------------------------------------

def actions_in_effect(table: LiveTable) -> int:
    """The actions in effect summed over every match in the store (an undo takes one
    back and is a row itself)."""
    total = 0
    for match in table.history():
        kinds = [row["action"]["type"] for row in table.match_rows(match["id"])]
        total += len(kinds) - 2 * kinds.count("undo")
    return total


def test_appliance_parts_run_with_real_threads(tmp_path):
    options = RunOptions(game="flip7", speed=20, camera="sim", db=tmp_path / "a.db", seed=3)
    appliance = Appliance(options, Config()).start()
    try:
        assert set(appliance.lines) >= {"store", "camera", "pads", "bots", "watchdog"}
        # a give-up time, not a pace: 8 actions take about 5 s quietly, far longer on a
        # loaded machine
        deadline = time.monotonic() + 120
        while appliance.bots.stats.actions < 8:
            assert time.monotonic() < deadline, appliance.bots.stats
            time.sleep(0.1)
        assert appliance.vision.alive and appliance.pads.alive and appliance.bots.alive
        assert appliance.vision.frames_read > 10
        assert appliance.vision.observations >= 1       # the camera read cards
        assert appliance.pads.presses >= 1             # the mock pins went through debounce
        stats = appliance.bots.stats
        assert stats.seen_by_camera >= 1 and stats.pad_presses >= 1
        # the store holds the bots' actions (one may be on its way), over every match the
        # bots played: on a slow machine they may have given one up and started the next
        assert actions_in_effect(appliance.table) >= stats.actions - 1, stats
        app = appliance.web_app()
        client = app.test_client()
        assert client.get("/api/state").get_json()["match"]["game"] == "flip7"
        assert client.get("/").status_code == 200
    finally:
        appliance.stop()
    names = {t.name for t in threading.enumerate()}
    assert not names & {"deckhand-camera", "deckhand-bots", "deckhand-pad-loop", "deckhand-ticker",
                        "deckhand-supervisor"}, names


# --- what each action is at the table ---------------------------------------------------

@pytest.mark.parametrize("game", sorted(GAME_MODULES))
def test_every_action_kind_says_how_it_happens(game):
    vocabulary = get_game(game).actions
    assert set(HOW[game]) == set(vocabulary), "every kind listed, and only real kinds"
    assert physical_event(game, Undo()) == HostInput()
    assert physical_event(game, EndMatch()) == HostInput()


def test_an_unknown_action_kind_is_an_error_not_host_input():
    from dataclasses import dataclass
    from typing import ClassVar

    @dataclass(frozen=True)
    class Juggle(Action):
        kind: ClassVar[str] = "juggle"

    with pytest.raises(ValueError, match="juggle"):
        physical_event("flip7", Juggle())


def test_flip7_target_is_the_pad_of_the_player_picked():
    from engine.flip7.actions import Stay, Target
    assert physical_event("flip7", Target(0, 2)) == PadPress(2)
    assert physical_event("flip7", Stay(1)) == PadPress(1, held=True)


def test_slaps_and_claims_keep_the_bots_time():
    from engine.hitthedeck.actions import CloseWindow, Slap
    from engine.solo.actions import CatchSolo, Claim
    from device.simtable import Automatic
    assert physical_event("hitthedeck", Slap(2, 123)) == PadPress(2, t_ns=123)
    assert physical_event("hitthedeck", CloseWindow(5)) == Automatic()
    assert physical_event("solo", Claim(1, 77)) == PadPress(1, t_ns=77)
    assert physical_event("solo", CatchSolo(3, 0)) == PadPress(3)


def test_solo_colour_named_with_a_card_is_host_input():
    from device.simtable import host_part, strip_host_part
    from engine.solo.actions import ChooseColour, Play, StartRound
    from engine.core import MatchSpec, Seat
    assert host_part("solo", Play(2, "CHOOSE", "G")) == ChooseColour(2, "G")
    assert strip_host_part(Play(2, "CHOOSE", "G")) == Play(2, "CHOOSE")
    state = get_game("solo").start(MatchSpec("solo", (Seat("A"), Seat("B"), Seat("C"))))
    assert host_part("solo", StartRound("CHOOSE", "R"), state) == ChooseColour(state.match.dealer, "R")
    assert host_part("solo", Play(1, "R5")) is None


# --- the camera view -------------------------------------------------------------------------

def _loop(tmp_path) -> VisionLoop:
    table = LiveTable(EventStore(tmp_path / "c.db"))
    source = SimSource(size=(320, 240), fps=None, limit=1)
    loop = VisionLoop(source, table, {"discard": (0.1, 0.1, 0.5, 0.9)},
                      make_recognizer=lambda game, empty: None, make_tracker=lambda zones: None)
    frame = next(source.frames())
    loop.process(frame.image, frame.t_ns, frame.index)
    return loop


def test_camera_view_serves_the_newest_frame_as_jpeg(tmp_path):
    view = CameraView(_loop(tmp_path))
    data = view.latest_jpeg()
    assert data[:2] == b"\xff\xd8"
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape == (240, 320, 3)
    assert view.detections() == []      # no match: nothing read


def test_camera_view_without_a_frame_says_so(tmp_path):
    table = LiveTable(EventStore(tmp_path / "e.db"))
    loop = VisionLoop(SimSource(size=(64, 48), fps=None, limit=0), table, {},
                      make_recognizer=lambda g, e: None, make_tracker=lambda z: None)
    view = CameraView(loop)
    assert view.latest_jpeg() is None
    assert view.teach("7")["ok"] is False


@pytest.mark.parametrize("zones,words", [
    ({"": [0, 0, 1, 1]}, "needs a name"),
    ({"discard": [0, 0, 1]}, "four numbers"),
    ({"discard": [0, 0, "1", 1]}, "four numbers"),
    ({"discard": [0, 0, True, 1]}, "four numbers"),
    ({"discard": [0.5, 0, 0.4, 1]}, "x0 < x1"),
    ({"discard": [0, 0, 1.2, 1]}, "between 0 and 1"),
])
def test_camera_view_refuses_bad_zones_in_words_and_keeps_the_old_ones(tmp_path, zones, words):
    loop = _loop(tmp_path)
    saved = []
    view = CameraView(loop, save_zones=saved.append)
    with pytest.raises(ValueError, match=words):
        view.set_zones(zones)
    assert view.zones() == {"discard": [0.1, 0.1, 0.5, 0.9]}
    assert saved == []


def test_camera_view_sets_and_saves_good_zones(tmp_path):
    loop = _loop(tmp_path)
    saved = []
    view = CameraView(loop, save_zones=saved.append)
    view.set_zones({"discard": [0.2, 0.2, 0.6, 0.8], "reveal": [0.6, 0.2, 0.9, 0.8]})
    assert loop.zones == {"discard": (0.2, 0.2, 0.6, 0.8), "reveal": (0.6, 0.2, 0.9, 0.8)}
    assert saved == [{"discard": [0.2, 0.2, 0.6, 0.8], "reveal": [0.6, 0.2, 0.9, 0.8]}]


# --- the watchdog ------------------------------------------------------------------------------

def test_watchdog_is_fed_only_while_the_camera_loop_lives(tmp_path, monkeypatch):
    address = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(address)
    sock.settimeout(0.2)
    monkeypatch.setenv("NOTIFY_SOCKET", address)
    monkeypatch.setenv("WATCHDOG_USEC", "200000")     # a heartbeat every 0.1 s

    def received(seconds: float) -> list[str]:
        out, end = [], time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                out.append(sock.recv(4096).decode())
            except socket.timeout:
                pass
        return out

    appliance = Appliance(RunOptions(game="raj", camera="sim", db=tmp_path / "w.db", bots=False),
                          Config()).start()
    try:
        assert "heartbeat every 0.1 s" in appliance.lines["watchdog"]
        first = received(1.0)
        assert first[0] == "READY=1"
        assert first.count("WATCHDOG=1") >= 3
        assert any(m.startswith("STATUS=store:") for m in first)
        appliance.vision.stop()          # the camera loop ends (a lost camera, a crash)
        received(0.3)
        assert not appliance.vision.alive
        assert "WATCHDOG=1" not in received(1.0)   # systemd will restart the service
    finally:
        appliance.stop()
        sock.close()
    # Out of systemd nothing is sent and nothing fails.
    monkeypatch.delenv("NOTIFY_SOCKET")
    assert Appliance(RunOptions(), Config()).notifier.enabled is False


# --- a property of the simulated table -------------------------------------------------------


@settings(max_examples=12, deadline=None)
@given(game=st.sampled_from(sorted(GAME_MODULES)), seed=st.integers(0, 10_000))
def test_every_bot_action_is_a_real_card_a_real_pad_or_host_input(game, seed):
    """Over any seeded bot match: a card laid is a card of the game's deck, laid in the
    game's card zone; a pad pressed belongs to a seat at the table."""
    import importlib
    from device.simtable import CARD_ZONE, CardDown, bot_actions, sim_spec
    from engine.observations import DISCARD
    deck = importlib.import_module(f"engine.{game}.deck").DECK
    spec = sim_spec(game, None, seed)
    for _, action in zip(range(150), bot_actions(spec, seed)):
        event = physical_event(game, action)
        if isinstance(event, CardDown):
            assert event.code in deck.codes
            assert event.zone == CARD_ZONE.get(game, DISCARD)
        elif isinstance(event, PadPress):
            assert 0 <= event.seat < len(spec.seats)


def test_run_resumes_the_unfinished_simulated_match_unless_another_game_is_asked(tmp_path):
    from device.simtable import sim_spec
    store = EventStore(tmp_path / "g.db")
    LiveTable(store).new_match(sim_spec("raj", None, 4).to_json(), "bot")
    store.close()

    def game_for(asked):
        appliance = Appliance(RunOptions(game=asked, db=tmp_path / "g.db"), Config())
        appliance._open_table()
        try:
            return appliance._game()
        finally:
            appliance.store.close()

    assert game_for(None) == "raj"
    assert game_for("raj") == "raj"
    assert game_for("solo") == "solo"
    assert game_for(None) == "raj"      # asking for another game did not end the match


class _BlindScene:
    """A table no camera watches: cards laid are never read."""

    def reach(self, zone): pass
    def lay(self, zone, code): pass
    def withdraw(self): pass
    def clear(self, zone=None): pass


def test_bots_end_a_match_they_cannot_follow_and_start_the_next(tmp_path):
    """A match whose log left the bots' script (a person played another card) is ended as
    a host would, not resumed into the same refusal forever."""
    from device.simtable import BotDriver, bot_actions, sim_spec
    from engine.hitthedeck.actions import StartHand, TurnUp
    spec = sim_spec("hitthedeck", None, 1)
    script = list(bot_actions(spec, 1))
    assert script[0] == StartHand() and script[1].kind == "turn_up" and script[2].kind == "play"
    table = LiveTable(EventStore(tmp_path / "b.db"))
    table.new_match(spec.to_json(), "bot")
    table.submit_action(StartHand(), "host")
    other = next(c for c in ("G2", "B5", "Y4") if c[0] != script[2].card[0] and c[1:] != script[2].card[1:])
    table.submit_action(TurnUp(other), "host")       # not the bots' card
    first = table.current_match.id
    bots = BotDriver(table, _BlindScene(), lambda seat, held: None, game="hitthedeck", seed=1,
                     speed=50, card_timeout=0.05).start()
    try:
        deadline = time.monotonic() + 10
        while table.current_match.id == first:
            assert time.monotonic() < deadline, "the bots never gave the match up"
            time.sleep(0.05)
    finally:
        bots.stop()
    assert bots.stats.resyncs == 1
    ended = {m["id"]: m for m in table.history()}[first]
    assert ended["ended_at"] is not None


def test_seat_lights_follow_the_turn_when_the_config_names_led_pins(tmp_path, monkeypatch):
    """On hardware (here gpiozero's mock pins, chosen the documented way) the LEDs named
    in the config light the seat whose turn it is; a pin that cannot open is said in words."""
    from gpiozero import Device
    from device.config import SeatPins
    from device.pad_loop import PadLoop
    from device.simtable import sim_spec
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setattr(Device, "pin_factory", None)
    from device.simtable import bot_actions
    config = Config(seats=(SeatPins(0, 17, 22), SeatPins(1, 27, 23), SeatPins(2, 18, 24)))
    appliance = Appliance(RunOptions(db=tmp_path / "l.db"), config)
    appliance._open_table()
    spec = sim_spec("flip7", 3, 1)
    appliance.table.new_match(spec.to_json(), "host")
    for action in bot_actions(spec, 1):      # the deal, until someone must Hit or Stay
        if appliance.table.current_match.view["turn"] is not None:
            break
        appliance.table.submit_action(action, "host")
    appliance._open_lights()
    assert appliance.lines["lights"] == "3 seat LEDs"
    loop = PadLoop(appliance.table, lambda settings, out: None, config.pads, lights=appliance.lights)
    loop._show_turn()
    turn = appliance.table.current_match.view["turn"]
    assert {seat: led.value for seat, led in appliance.lights.leds.items()} == \
        {s: int(s == turn) for s in (0, 1, 2)}
    assert turn is not None
    appliance.lights.close()
    appliance.store.close()
    broken = Appliance(RunOptions(db=tmp_path / "m.db"), Config(seats=(SeatPins(0, 17, 99),)))
    broken._open_table()
    broken._open_lights()
    assert broken.lines["lights"].startswith("none (seat 0's LED on BCM 99")
    broken.store.close()


def test_seat_lights_flash_the_slap_loser_then_show_the_turn_and_repeat_nothing(monkeypatch):
    """The lights are told only what changed: a lost slap flashes the loser (the turn
    light waits for the flashing), then the turn; the same view again sends nothing."""
    from device import pad_loop
    from device.pad_loop import PadLoop, light_signals

    class Lights:
        def __init__(self):
            self.calls = []

        def show_turn(self, seat):
            self.calls.append(("turn", seat))

        def show_slap_loser(self, seat):
            self.calls.append(("loser", seat))

    class Match:
        def __init__(self, view):
            self.view = view

    class Table:
        current_match = None

    slap = {"open": False, "last": {"caller": 0, "order": [],
                                    "penalised": [{"seat": 2, "drew": 4}, {"seat": 1, "drew": 0}],
                                    "forgot_call": False}}
    view = {"turn": 1, "table": {"slap_window": slap}}
    assert light_signals(view) == (1, (2,))
    assert light_signals(None) == (None, ())
    table, lights = Table(), Lights()
    loop = PadLoop(table, lambda settings, out: None, Config().pads, lights=lights)
    table.current_match = Match({"turn": 0, "table": {}})
    loop._show_turn()
    loop._show_turn()
    assert lights.calls == [("turn", 0)]
    now = [100.0]
    monkeypatch.setattr(pad_loop.time, "monotonic", lambda: now[0])
    table.current_match = Match(view)
    loop._show_turn()
    assert lights.calls[1:] == [("loser", 2)]
    now[0] += pad_loop.SLAP_FLASH_S
    loop._show_turn()
    loop._show_turn()
    assert lights.calls[1:] == [("loser", 2), ("turn", 1)]


def test_run_prints_where_phones_join_and_a_made_up_pin_only(tmp_path, monkeypatch):
    from device.commands.run import welcome_lines
    from web import qr
    from web.app import create_app

    monkeypatch.setattr(qr, "lan_address", lambda: "192.168.1.77")
    with EventStore(tmp_path / "w.db") as store:
        table = LiveTable(store)
        made_up = create_app(table, listen="0.0.0.0")
        pin = made_up.config["DECKHAND_HOST_PIN"]
        assert welcome_lines(made_up, "0.0.0.0", 8000) == [
            "Deckhand: phones join at http://192.168.1.77:8000/phone",
            f"Deckhand: host PIN for this run: {pin} (set your own with --host-pin or "
            "host_pin_hash in the config)"]
        chosen = create_app(table, host_pin="2468", listen="10.0.0.9")
        assert welcome_lines(chosen, "10.0.0.9", 81) == ["Deckhand: phones join at http://10.0.0.9:81/phone"]


def test_run_refuses_a_player_count_the_game_cannot_seat(capsys):
    from device.cli import main
    assert main(["run", "--game", "raj", "--players", "9"]) == 2
    assert "Raj is for 2 to 5 players" in capsys.readouterr().err
    assert main(["run", "--players", "1"]) == 2
    assert "Flip 7 is for 3 to" in capsys.readouterr().err
