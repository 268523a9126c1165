"""The table screen's cues in a real browser (headless Chromium through Playwright,
real HTTP): sounds for a bust and a new turn that the switch turns off, the ranked slaps
hidden after their few seconds, and the phone asking to stay awake."""
from __future__ import annotations

import pytest

from browsing import chromium, playwright_or_skip
from conftest import FLIP7

pytestmark = pytest.mark.browser
sync_api = playwright_or_skip()
MS = 1_000_000


@pytest.fixture(scope="module")
def browser():
    with chromium(sync_api, ("--autoplay-policy=no-user-gesture-required",)) as b:
        yield b


@pytest.fixture
def page(browser):
    # bypass_csp: wait_for_function evaluates its text, which the pages' CSP forbids.
    context = browser.new_context(viewport={"width": 1280, "height": 720}, bypass_csp=True)
    pg = context.new_page()
    pg.set_default_timeout(5000)
    yield pg
    context.close()


def _flip(table, code):
    table.observe({"type": "card", "zone": "discard", "card": code}, "camera")


def test_a_bust_and_the_next_turn_sound_and_the_switch_silences_them(page, served):
    base, table = served
    table.new_match({"type": "start", **FLIP7}, "host")
    page.goto(f"{base}/")
    page.wait_for_selector("#conn.ok")
    for code in ("5", "9", "4"):                       # the deal; Bob to play
        _flip(table, code)
    table.observe({"type": "pad", "seat": 1}, "pad")    # Bob hits
    _flip(table, "5")                                    # and busts: Cat's turn
    page.wait_for_function("window.deckhandSound.played.indexOf('bust') >= 0")
    played = page.evaluate("window.deckhandSound.played")
    assert played[-2:] == ["bust", "turn"], played
    page.click("#sound-toggle")
    assert page.get_attribute("#sound-toggle", "aria-pressed") == "false"
    count = len(played)
    table.observe({"type": "pad", "seat": 2, "held": True}, "pad")   # Cat stays: Ann's turn
    page.wait_for_function(f"+document.getElementById('live').dataset.seq >= {table.seq}")
    assert len(page.evaluate("window.deckhandSound.played")) == count
    page.reload()                                        # the switch is remembered
    assert page.get_attribute("#sound-toggle", "aria-pressed") == "false"


def test_the_ranked_slaps_go_away_after_their_seconds(page, served):
    from engine.hitthedeck.actions import Play, Slap, StartHand, TurnUp
    base, table = served
    table.new_match({"type": "start", "game": "hitthedeck",
                     "seats": [{"name": n} for n in ("Ann", "Bob", "Cat")]}, "host")
    for action in (StartHand(), TurnUp("R3")):
        table.submit_action(action, "host")
    page.clock.install()
    page.goto(f"{base}/")
    page.wait_for_selector("#conn.ok")
    for action in (Play(1, "HIT-HAND", 1000 * MS), Slap(1, 1100 * MS), Slap(0, 1150 * MS),
                   Slap(2, 1190 * MS)):
        table.submit_action(action, "host")
    ranking = page.locator(".slap-ranking")
    ranking.wait_for(state="visible")
    assert "draws 4" in ranking.inner_text()
    page.clock.run_for(7000)
    ranking.wait_for(state="hidden")
    table.observe({"type": "card", "zone": "discard", "card": "G2"}, "camera")   # Cat plays on
    page.wait_for_function(f"+document.getElementById('live').dataset.seq >= {table.seq}")
    assert page.locator(".slap-ranking").is_hidden()


def test_the_scoreboard_asks_to_keep_the_phone_awake(page, served):
    base, table = served
    page.goto(f"{base}/phone")
    page.wait_for_function("window.deckhandWakeLock && window.deckhandWakeLock.state !== 'unsupported'")
    assert page.evaluate("window.deckhandWakeLock.state") in ("held", "refused")
