"""Live teaching on the camera page, in a real browser against a real HTTP server: the
host names a row of cards lying under the (simulated) camera, presses Start, and the page
shows each card's views counting up, the training's progress, and the self-check."""
from __future__ import annotations

import os
import shutil

import pytest

from conftest import PIN
from device.camera_view import CameraView
from device.live_teaching import ENOUGH, LiveTeacher
from device.vision_loop import LatestFrame
from sse import ServerThread
from web.app import create_app

pytestmark = pytest.mark.browser

CHROMIUM = os.environ.get("DECKHAND_CHROMIUM") or shutil.which("chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]
if not CHROMIUM:
    pytest.skip("no Chromium installed (apt-get install chromium, or set DECKHAND_CHROMIUM)",
                allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")


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


def test_the_host_teaches_a_row_of_cards_live_and_sees_the_progress(table, tmp_path):
    teacher = LiveTeacher(tmp_path / "taught.npz")
    camera = CameraView(SimulatedTable(["Y5", "B-REV"]), teacher=teacher)
    app = create_app(table, host_pin=PIN, secret_key="browser-test", camera=camera)
    with ServerThread(app) as srv, sync_api.sync_playwright() as p:
        base = f"http://127.0.0.1:{srv.port}"
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 420, "height": 900})
        page.set_default_timeout(10_000)
        page.goto(f"{base}/host")
        page.fill("input[name=pin]", PIN)
        page.click("button[type=submit]")
        page.wait_for_selector("#match-form")
        page.goto(f"{base}/camera")
        page.fill("#live-labels", "Yellow 5, Blue reverse")
        page.click("#live-start")
        page.wait_for_selector('#live-faces li[data-label="Yellow 5"]')
        # the views count up per card, then training shows its progress, then the check
        progress_seen = page.wait_for_function(
            "() => !document.getElementById('live-training').hidden"
            " || document.getElementById('live-check').textContent.length > 0", timeout=300_000)
        assert progress_seen
        page.wait_for_function("() => document.getElementById('live-check').textContent.includes('self-check')",
                               timeout=300_000)
        faces = page.locator("#live-faces li").all_inner_texts()
        assert faces == [f"Yellow 5: {ENOUGH} / {ENOUGH} ✓", f"Blue reverse: {ENOUGH} / {ENOUGH} ✓"]
        assert "held-out" in page.locator("#live-check").inner_text()
        browser.close()
    assert (tmp_path / "taught.npz").exists()
