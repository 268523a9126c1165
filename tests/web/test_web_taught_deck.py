"""A deck taught at the table is read at the table: the whole appliance on the simulated
table printed in the alternative style (which Deckhand's printed profile cannot read),
served over real HTTP. The host teaches two Flip 7 cards live, training finishes, and a
card of that deck laid in the flip spot becomes the play in the engine; the host's switch
between the printed and the taught deck is PIN-gated; after a restart on the same store
the taught deck is still read; a damaged deck file falls back to the printed deck, said in
words."""
from __future__ import annotations

import http.cookiejar
import json
import logging
import threading
import time
import urllib.error
import urllib.request

from conftest import PIN
from device.app import Appliance, RunOptions
from device.config import Config
from device.live_teaching import ENOUGH
from device.simtable import sim_spec
from engine.observations import DISCARD, REVEAL
from sse import ServerThread


class Phone:
    """A browser over real HTTP: cookies kept, the CSRF token sent with each POST."""

    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.token = None

    def get(self, path: str) -> dict:
        return json.loads(self.page(path))

    def page(self, path: str) -> str:
        with self.opener.open(self.base + path, timeout=10) as r:
            return r.read().decode()

    def post(self, path: str, body: dict) -> tuple[int, dict]:
        if self.token is None:
            self.token = self.get("/api/session")["csrf_token"]
        request = urllib.request.Request(self.base + path, json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json",
                                                  "X-CSRF-Token": self.token})
        try:
            with self.opener.open(request, timeout=10) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())


def appliance_for(store, **changes) -> Appliance:
    settings = {"game": "flip7", "camera": "sim", "db": store / "deckhand.sqlite3", "host_pin": PIN,
                "bots": False, "sim_deck": "alt", "fps": 20, **changes}
    return Appliance(RunOptions(**settings), Config()).start()


def wait_for(what, timeout: float, why: str):
    deadline = time.monotonic() + timeout
    while True:
        value = what()
        if value:
            return value
        assert time.monotonic() < deadline, why
        time.sleep(0.1)


def camera_plays(appliance) -> list[str]:
    """The cards the camera played in the current match, in order."""
    match = appliance.table.current_match
    rows = appliance.table.match_rows(match.id)
    return [r["action"]["card"] for r in rows
            if r.get("source") == "camera" and r["action"].get("type") == "flip"]


def lay(appliance, code: str) -> None:
    """A hand reaches over the flip spot, puts the card down and leaves."""
    scene = appliance.scene
    scene.reach(DISCARD)
    time.sleep(0.2)
    scene.clear(DISCARD)
    scene.lay(DISCARD, code)
    scene.withdraw()


class Sliding:
    """The host keeps sliding and turning the cards under the camera (each laid again,
    somewhere else, a few times a second) while they are taught."""

    def __init__(self, scene, cards: dict[str, str]):
        self.scene, self.cards = scene, cards
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self.stop.wait(0.25):
            for zone, code in self.cards.items():
                self.scene.clear(zone)
                self.scene.lay(zone, code)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join(5)
        self.scene.clear()


def test_a_deck_taught_live_is_read_at_the_table_switched_by_the_host_and_after_a_restart(tmp_path):
    appliance = appliance_for(tmp_path)
    try:
        with ServerThread(appliance.web_app(secret_key="taught-deck")) as server:
            base = f"http://127.0.0.1:{server.port}"
            host, phone = Phone(base), Phone(base)
            assert host.post("/api/login", {"pin": PIN})[0] == 200
            appliance.table.new_match(sim_spec("flip7", 3, 1).to_json(), "host")
            deck = wait_for(lambda: phone.get("/api/camera").get("deck"), 10, "no deck shown")
            assert deck["reading"] == "printed" and not deck["taught_available"]
            assert deck["said"] == "The camera reads Deckhand's printed Flip 7 deck."
            # a stray shot named as no Flip 7 card (the host's other deck) is not trained in
            appliance.scene.lay(DISCARD, "5")
            wait_for(lambda: host.post("/api/camera/teach", {"label": "Red 7"})[0] == 200, 10, "no single shot")
            # the host lays "7" and "12" of their own (alternative) printing, left to
            # right, names them as the camera page lists them, and slides them about
            with Sliding(appliance.scene, {DISCARD: "7", REVEAL: "12"}):
                status, started = host.post("/api/camera/teaching/start", {"labels": ["7", "12"]})
                assert status == 200 and started["collecting"] == ["7", "12"]
                wait_for(lambda: not phone.get("/api/camera/teaching")["collecting"], 300, "collecting did not end")
            done = wait_for(lambda: (lambda s: s if s["progress"] == 1.0 and not s["training"] else None)(
                phone.get("/api/camera/teaching")), 300, "training did not finish")
            assert [f["shots"] for f in done["faces"] if f["label"] != "Red 7"] == [ENOUGH, ENOUGH]
            # the match being played now reads the taught deck, of this game's cards only
            assert done["deck"] == "The camera now reads Flip 7 with the taught deck “taught deck”."
            assert (tmp_path / "taught-flip7.npz").exists()
            deck = phone.get("/api/camera")["deck"]
            assert deck["reading"] == "taught" and deck["known"] == 2 and deck["total"] == 22
            assert deck["said"] == "The camera reads the taught deck “taught deck”: it knows 2 of the 22 Flip 7 cards."
            # the cards that lay there while training ended were not played; one laid now is
            time.sleep(0.5)
            assert camera_plays(appliance) == []
            lay(appliance, "7")
            wait_for(lambda: camera_plays(appliance) == ["7"], 20, "the taught card was not played")

            # changing the deck is the host's: only the host's page has the switch, and
            # the change is refused in words without the PIN
            assert 'id="deck-switch"' in host.page("/camera") and "Read the printed deck" in host.page("/camera")
            assert 'id="deck-said"' in phone.page("/camera") and 'id="deck-switch"' not in phone.page("/camera")
            status, refused = phone.post("/api/camera/deck", {"deck": "printed"})
            assert status == 401 and "host PIN" in refused["error"]
            status, chosen = host.post("/api/camera/deck", {"deck": "printed"})
            assert status == 200 and chosen["deck"]["reading"] == "printed"
            assert chosen["deck"]["said"] == "The camera reads Deckhand's printed Flip 7 deck."
            # the printed deck cannot read this printing: the next card is not played
            lay(appliance, "12")
            time.sleep(1.5)
            assert camera_plays(appliance) == ["7"]
            assert all(d["card"] is None for d in phone.get("/api/camera")["detections"])
            status, chosen = host.post("/api/camera/deck", {"deck": "taught"})
            assert status == 200 and chosen["deck"]["reading"] == "taught"
            # said in French to a French phone
            french = Phone(base)
            french.opener.addheaders = [("Accept-Language", "fr")]
            assert french.get("/api/camera")["deck"]["said"] == \
                "La caméra lit le jeu appris « taught deck » : il connaît 2 des 22 cartes de Flip 7."
    finally:
        appliance.stop()

    # a restart on the same store: the taught deck is read again, from its file
    again = appliance_for(tmp_path)
    try:
        assert again.lines["deck"].startswith("The camera reads the taught deck “taught deck”")
        wait_for(lambda: again.vision.reading("flip7"), 20, "the camera does not read Flip 7")
        lay(again, "12")
        wait_for(lambda: camera_plays(again) == ["7", "12"], 20, "the taught card was not played after a restart")
    finally:
        again.stop()


def test_a_damaged_taught_deck_falls_back_to_the_printed_deck_in_words(tmp_path, caplog):
    (tmp_path / "taught-flip7.npz").write_bytes(b"not a deck profile at all")
    caplog.set_level(logging.WARNING, logger="deckhand.decks")
    appliance = appliance_for(tmp_path, sim_deck="deckhand")
    try:
        assert appliance.lines["deck"].startswith("The camera reads Deckhand's printed Flip 7 deck. "
                                                  "The taught deck could not be read:")
        assert any("taught-flip7.npz is not read for flip7" in r.getMessage() and
                   "the printed deck is read" in r.getMessage() for r in caplog.records)
        appliance.table.new_match(sim_spec("flip7", 3, 1).to_json(), "host")
        app = appliance.web_app(secret_key="damaged")
        deck = app.test_client().get("/api/camera").get_json()["deck"]
        assert deck["reading"] == "printed" and not deck["taught_available"]
        assert deck["problem"].startswith("The taught deck could not be read:")
        # the printed deck reads on: a card of Deckhand's own printing is played
        wait_for(lambda: appliance.vision.reading("flip7"), 20, "the camera does not read Flip 7")
        lay(appliance, "9")
        wait_for(lambda: camera_plays(appliance) == ["9"], 20, "the printed card was not played")
    finally:
        appliance.stop()



def test_a_profile_named_at_start_is_read_for_its_game(tmp_path):
    """`deckhand run --profile FILE` (RunOptions.profile): the named file, labelled with the
    cards' names, is the deck read for Flip 7 from the start."""
    from vision.profile import profile_from_faces, save_profile
    from vision.render.cards import render_card
    named = save_profile(profile_from_faces("deck from photos", [
        (name, "", render_card("flip7", code, "alt")) for name, code in (("Freeze", "FREEZE"), ("×2", "x2"))],
        views=1), tmp_path / "photos.npz")
    appliance = appliance_for(tmp_path / "store", profile=str(named))
    try:
        assert appliance.lines["deck"] == \
            "The camera reads the taught deck “deck from photos”: it knows 2 of the 22 Flip 7 cards."
        assert appliance.decks.decks.profile("flip7").labels == ("FREEZE", "x2")
    finally:
        appliance.stop()
