"""The pages in a real browser (headless Chromium through Playwright) against a real
HTTP server: a phone following the game live, the host undoing a play, the PIN refusing
a wrong entry, the French pages, a virtual pad, and screenshots of the table screen of
every game at the end of a round (tests/artifacts/, git-ignored)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from browsing import ARTIFACTS, chromium, hold, playwright_or_skip
from conftest import FLIP7, PIN, play
from device.store import EventStore
from device.table import LiveTable
from engine.games import available_games
from sse import ServerThread
from web.app import create_app

pytestmark = pytest.mark.browser
sync_api = playwright_or_skip()


@pytest.fixture(scope="module")
def browser():
    with chromium(sync_api) as b:
        yield b


@pytest.fixture
def served(table):
    app = create_app(table, host_pin=PIN, secret_key="browser-test", heartbeat=1.0)
    with ServerThread(app) as srv:
        yield f"http://127.0.0.1:{srv.port}", table


@pytest.fixture
def page(browser, served):
    base, _ = served
    context = browser.new_context(viewport={"width": 420, "height": 860})
    outside: list[str] = []
    context.route("**/*", lambda route: (outside.append(route.request.url), route.abort())
                  if not route.request.url.startswith(base) else route.continue_())
    pg = context.new_page()
    pg.set_default_timeout(5000)
    yield pg
    context.close()
    assert not outside, f"pages asked for outside resources: {outside}"


def test_phone_updates_live_as_actions_arrive(page, served):
    base, table = served
    table.new_match({"type": "start", **FLIP7}, "host")
    page.goto(f"{base}/phone")
    page.wait_for_selector("#conn.ok")
    assert page.locator(".turn .big").inner_text() == "Bob"
    for card in ("9", "11", "+4"):
        table.submit({"type": "flip", "card": card}, "camera")
    page.wait_for_selector('#live .line [data-code="+4"]')
    assert page.locator('#live .line [data-code="9"]').count() == 1
    assert page.locator(".turn .big").inner_text() == "Bob"  # the deal is over: Bob to play
    assert int(page.locator("#live").get_attribute("data-seq")) == table.snapshot()["seq"]


def test_wrong_pin_is_refused_in_the_browser(page, served):
    base, table = served
    page.goto(f"{base}/host")
    page.fill("input[name=pin]", "0000")
    with page.expect_response(lambda r: r.url.endswith("/host/login")) as resp:
        page.click("button[type=submit]")
    assert resp.value.status == 403
    assert page.locator(".error").inner_text() == "Wrong PIN."
    assert page.locator("#match-form").count() == 0


def test_host_undoes_a_play(page, served):
    base, table = served
    page.goto(f"{base}/host")
    page.fill("input[name=pin]", PIN)
    page.click("button[type=submit]")
    page.wait_for_selector("#match-form")
    # start a match from the form
    names = page.locator("[name=seat-name]")
    for i, name in enumerate(("Ann", "Bob", "Cat")):
        names.nth(i).fill(name)
    page.select_option("#match-game", "flip7")
    page.click("#match-form button[type=submit]")
    page.wait_for_selector("#undo")
    assert table.snapshot()["match"]["game"] == "flip7"
    # a card arrives from the camera; the host takes it back
    table.submit({"type": "flip", "card": "12"}, "camera")
    page.wait_for_selector('#live .gametable [data-code="12"]')
    sync_api.expect(page.locator("#undo")).to_contain_text("Undo Bob's 12?")
    page.click("#undo")
    sync_api.expect(page.locator("#undo")).to_contain_text("Tap again to confirm")
    page.click("#undo")
    page.wait_for_selector('#live .gametable [data-code="12"]', state="detached")
    assert table.snapshot()["view"]["table"]["lines"][1]["numbers"] == []
    assert table.match_rows(1)[-1]["action"] == {"type": "undo"}
    # the generic form sends any action of the game's vocabulary
    page.select_option("#action-type", "flip")
    page.select_option("#action-fields select[name=card]", "7")
    page.click("#action-form button[type=submit]")
    page.wait_for_selector('#live .gametable [data-code="7"]')
    # an illegal one is refused in words on the page
    page.click("#action-form summary")
    page.fill("#action-json", '{"type": "hit", "seat": 0}')
    page.click("#action-form button[type=submit]")
    sync_api.expect(page.locator("#host-error")).to_have_text(re.compile(r"\w+"))
    assert table.match_rows(1)[-1]["action"]["type"] == "flip"


def test_virtual_pad_hold_means_stay(browser, served):
    base, table = served
    table.new_match({"type": "start", **FLIP7}, "host")
    for card in ("3", "4", "5"):
        table.submit({"type": "flip", "card": card}, "camera")
    context = browser.new_context(viewport={"width": 420, "height": 860}, has_touch=True)
    pg = context.new_page()
    pg.goto(f"{base}/host")
    pg.fill("input[name=pin]", PIN)
    pg.click("button[type=submit]")
    pg.goto(f"{base}/pad/1")
    assert hold(pg, "#pad", "/api/observe").status == 200
    assert table.snapshot()["view"]["table"]["lines"][1]["status"] == "stayed"
    context.close()


def test_french_pages(page, served):
    base, table = served
    table.new_match({"type": "start", **FLIP7}, "host")
    page.goto(f"{base}/phone")
    page.click("text=Français")
    page.wait_for_selector("html[lang=fr]")
    assert "Tableau des scores" in page.locator("nav").inner_text()
    assert page.locator(".turn .label").inner_text().upper() == "À QUI DE JOUER"
    table.submit({"type": "flip", "card": "FREEZE"}, "camera")
    page.wait_for_selector('#live [data-code="FREEZE"]')
    page.goto(f"{base}/host")
    assert page.locator("h1").inner_text() == "Entrez le code hôte"
    page.click("text=English")
    page.wait_for_selector("html[lang=en]")


SEATS = [{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"},
         {"name": "Cat", "colour": "green"}, {"name": "Dan", "colour": "yellow"}]


@pytest.mark.parametrize("game,rounds", [("flip7", 2), ("raj", None), ("solo", 1), ("hitthedeck", 1)])
def test_table_screen_screenshot_at_the_end_of_a_round(browser, tmp_path, game, rounds):
    if game not in available_games():
        pytest.skip(f"{game} is not in the engine yet")
    store = EventStore(tmp_path / "shot.sqlite3")
    table = LiveTable(store)
    try:
        play(table, game, SEATS, rounds, seed=11)
    except ImportError as exc:
        pytest.skip(f"{game} has no self-play yet: {exc}")
    app = create_app(table, host_pin=PIN, public_url="http://192.168.1.20:8000")
    ARTIFACTS.mkdir(exist_ok=True)
    with ServerThread(app) as srv:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        pg = context.new_page()
        pg.goto(f"http://127.0.0.1:{srv.port}/")
        pg.wait_for_selector("#conn.ok")
        pg.screenshot(path=str(ARTIFACTS / f"table-{game}.png"), full_page=True)
        context.add_cookies([{"name": "lang", "value": "fr", "url": f"http://127.0.0.1:{srv.port}/"}])
        pg.goto(f"http://127.0.0.1:{srv.port}/")
        assert pg.locator("html").get_attribute("lang") == "fr"
        pg.screenshot(path=str(ARTIFACTS / f"table-{game}-fr.png"), full_page=True)
        phone = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1)
        pp = phone.new_page()
        pp.goto(f"http://127.0.0.1:{srv.port}/phone")
        pp.screenshot(path=str(ARTIFACTS / f"phone-{game}.png"), full_page=True)
        phone.close()
        context.close()
    store.close()
    assert (ARTIFACTS / f"table-{game}.png").stat().st_size > 10_000
