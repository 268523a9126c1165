"""Live teaching on the camera page, in a real browser against a real HTTP server: the
host names a row of cards lying under the (simulated) camera, presses Start, and the page
shows each card's views counting up, the training's progress, and the self-check."""
from __future__ import annotations

import pytest

from browsing import chromium, playwright_or_skip
from conftest import PIN
from device.camera_view import CameraView
from device.live_teaching import ENOUGH, LiveTeacher
from device.vision_loop import LatestFrame
from sse import ServerThread
from web.app import create_app

pytestmark = pytest.mark.browser

sync_api = playwright_or_skip()


class SimulatedTable:
    """What CameraView needs of the vision loop: the newest frame of the simulated table
    (a row of cards slid a little every frame), its zones and its empty picture."""

    def __init__(self, codes, seed=5):
        from vision.render.teaching import empty_of, sliding_row
        self._render = sliding_row("solo", codes, "alt", seed)
        self.empty_table = empty_of("solo", seed)
        self._index = 0
        self.zones = {}

    @property
    def latest(self):
        self._index += 1
        return LatestFrame(self._render(self._index), self._index, self._index, None, None)

    def set_zones(self, zones):
        self.zones = dict(zones)


def _camera_page_as_host(browser, base):
    """A new page signed in with the host PIN, on the camera page."""
    page = browser.new_page(viewport={"width": 420, "height": 900})
    page.set_default_timeout(10_000)
    page.goto(f"{base}/host")
    page.fill("input[name=pin]", PIN)
    page.click("button[type=submit]")
    page.wait_for_selector("#match-form")
    page.goto(f"{base}/camera")
    return page


def test_the_host_teaches_a_row_of_cards_live_and_sees_the_progress(table, tmp_path):
    teacher = LiveTeacher(tmp_path / "taught.npz")
    camera = CameraView(SimulatedTable(["Y5", "B-REV"]), teacher=teacher)
    app = create_app(table, host_pin=PIN, secret_key="browser-test", camera=camera)
    with ServerThread(app) as srv, chromium(sync_api) as browser:
        base = f"http://127.0.0.1:{srv.port}"
        page = _camera_page_as_host(browser, base)
        page.fill("#live-labels", "Yellow 5, Blue reverse")
        page.click("#live-start")
        page.wait_for_selector('#live-faces li[data-label="Yellow 5"]')
        # the views count up per card, then training shows its progress, then the check
        progress_seen = page.wait_for_function(
            "() => !document.getElementById('live-training').hidden"
            " || document.getElementById('live-check').textContent.length > 0", timeout=300_000)
        assert progress_seen
        page.wait_for_function("() => document.getElementById('live-check').textContent.includes('Self-check')",
                               timeout=300_000)
        faces = page.locator("#live-faces li").all_inner_texts()
        assert faces == [f"Yellow 5: {ENOUGH} / {ENOUGH} ✓", f"Blue reverse: {ENOUGH} / {ENOUGH} ✓"]
        assert "held-out" in page.locator("#live-check").inner_text()
    assert (tmp_path / "taught.npz").exists()


def test_everyone_sees_which_deck_is_read_and_the_host_switches_it(table, tmp_path):
    from device.decks import DeckSwitch, TaughtDecks
    from device.simtable import sim_spec
    from vision.profile import builtin_profile, profile_from_faces
    from vision.render.cards import render_card
    table.new_match(sim_spec("solo", 3, 1).to_json(), "host")
    decks = TaughtDecks(tmp_path, printed=builtin_profile)
    taught = profile_from_faces("kitchen deck", [(name, "", render_card("solo", code, "alt"))
                                                 for name, code in (("Red 7", "R7"), ("Bleu 2", "B2"))], views=1)
    decks.install(taught, "solo")
    reloads = []
    camera = CameraView(SimulatedTable(["R7"]), teacher=LiveTeacher(tmp_path / "taught.npz"),
                        decks=DeckSwitch(decks, table, lambda: reloads.append(1)))
    app = create_app(table, host_pin=PIN, secret_key="browser-test", camera=camera)
    taught_words = "The camera reads the taught deck “kitchen deck”: it knows 2 of the 55 Solo cards."
    with ServerThread(app) as srv, chromium(sync_api) as browser:
        base = f"http://127.0.0.1:{srv.port}"
        phone = browser.new_page(viewport={"width": 420, "height": 900})
        phone.set_default_timeout(10_000)
        phone.goto(f"{base}/camera")
        phone.wait_for_function(f"() => document.getElementById('deck-said').textContent === {taught_words!r}")
        assert phone.locator("#deck-switch").count() == 0        # a phone cannot switch
        french = browser.new_page(locale="fr-FR", extra_http_headers={"Accept-Language": "fr"})
        french.goto(f"{base}/camera")
        french.wait_for_function("() => document.getElementById('deck-said').textContent.startsWith("
                                 "'La caméra lit le jeu appris « kitchen deck »')")
        host = _camera_page_as_host(browser, base)
        host.wait_for_function(f"() => document.getElementById('deck-said').textContent === {taught_words!r}")
        assert host.locator("#deck-taught").is_disabled() and host.locator("#deck-printed").is_enabled()
        host.click("#deck-printed")
        host.wait_for_function("() => document.getElementById('deck-said').textContent === "
                               "\"The camera reads Deckhand's printed Solo deck.\"")
        phone.wait_for_function("() => document.getElementById('deck-said').textContent === "
                                "\"The camera reads Deckhand's printed Solo deck.\"")
        host.click("#deck-taught")
        host.wait_for_function(f"() => document.getElementById('deck-said').textContent === {taught_words!r}")
    assert reloads == [1, 1] and decks.in_use("solo").taught
