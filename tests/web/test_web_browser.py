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
    assert page.locator(".turn .turnname").inner_text() == "Bob"
    assert page.locator(".turn .seatmark").inner_text() == "▲"   # Bob's seat, not by colour alone
    for card in ("9", "11", "+4"):
        table.submit({"type": "flip", "card": card}, "camera")
    page.wait_for_selector('#live .line [data-code="+4"]')
    assert page.locator('#live .line [data-code="9"]').count() == 1
    assert page.locator(".turn .turnname").inner_text() == "Bob"  # the deal is over: Bob to play
    assert int(page.locator("#live").get_attribute("data-seq")) == table.snapshot()["seq"]


def test_a_phone_page_back_from_the_back_forward_cache_follows_the_game_again(page, served):
    """Going back to a live screen restores the page from the back/forward cache: its
    stream was closed at pagehide and must open again, or the screen stands still while
    it says it is live. Playwright's Chromium keeps no such cache, so the two events a
    real restore fires are fired here."""
    base, table = served
    table.new_match({"type": "start", **FLIP7}, "host")
    page.goto(f"{base}/phone")
    page.wait_for_selector("#conn.ok")
    page.evaluate("window.dispatchEvent(new PageTransitionEvent('pagehide', {persisted: true}))")
    table.submit({"type": "flip", "card": "9"}, "camera")
    page.wait_for_timeout(500)
    assert page.locator('#live .line [data-code="9"]').count() == 0   # the stream is closed
    page.evaluate("window.dispatchEvent(new PageTransitionEvent('pageshow', {persisted: true}))")
    page.wait_for_selector('#live .line [data-code="9"]')   # resumed from the last seq shown
    table.submit({"type": "flip", "card": "11"}, "camera")
    page.wait_for_selector('#live .line [data-code="11"]')
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


def test_offline_is_shown_within_3_s_and_goes_when_the_referee_is_back(browser, table):
    """The server stops (its streams end, its port closes): the table screen is covered
    by "Referee offline — reconnecting" and phones get a banner, within 3 s; when a
    server answers on the same port again both go away by themselves."""
    import time

    from werkzeug.serving import make_server

    table.new_match({"type": "start", **FLIP7}, "host")
    app = create_app(table, host_pin=PIN, heartbeat=1.0)
    srv = ServerThread(app).__enter__()
    base = f"http://127.0.0.1:{srv.port}"
    kiosk = browser.new_context(viewport={"width": 800, "height": 480})
    phone = browser.new_context(viewport={"width": 390, "height": 844})
    tv, ph = kiosk.new_page(), phone.new_page()
    tv.goto(f"{base}/")
    ph.goto(f"{base}/phone")
    for pg in (tv, ph):
        pg.wait_for_selector("#conn.ok")
        assert pg.locator("#offline").is_hidden()
    back = None
    try:
        t0 = time.monotonic()
        app.extensions["deckhand"].stopping.set()
        srv.server.shutdown()
        srv.server.server_close()
        for pg in (tv, ph):
            pg.wait_for_selector("#offline", state="visible", timeout=3000)
        took = time.monotonic() - t0
        assert took < 3.0, took
        assert tv.locator("#offline .offline-title").inner_text() == "Referee offline — reconnecting"
        cover = tv.locator("#offline").bounding_box()
        assert cover == {"x": 0, "y": 0, "width": 800, "height": 480}   # the whole screen
        assert tv.evaluate("parseFloat(getComputedStyle(document.querySelector('.offline-title')).fontSize)") >= 0.08 * 480
        banner = ph.locator("#offline").bounding_box()
        assert banner["y"] == 0 and banner["width"] == 390 and banner["height"] < 844 / 3
        # the referee is back on the same address: the notices go, the game goes on live
        back = make_server("127.0.0.1", srv.port, create_app(table, host_pin=PIN, heartbeat=1.0),
                           threaded=True)
        import threading
        threading.Thread(target=back.serve_forever, daemon=True).start()
        for pg in (tv, ph):
            pg.wait_for_selector("#offline", state="hidden", timeout=8000)
        table.submit({"type": "flip", "card": "9"}, "camera")
        tv.wait_for_selector('#live [data-code="9"]')
    finally:
        # the pages go first, while the server that streams to them still answers; then
        # the server stops whole (its streams end, its port closes): a port left listening
        # with nobody accepting would hold any stream a page opened again in the kernel's
        # backlog for good
        kiosk.close()
        phone.close()
        if back is not None:
            back.shutdown()
            back.server_close()


def test_zones_are_drawn_by_dragging_and_read_as_x_y_w_h(browser, table):
    """The host drags a rectangle on the camera picture: the zone's x, y, w, h (as the
    command line's --zone takes them) follow the drag, and Save sets them."""
    from test_web_camera import StandInCamera

    camera = StandInCamera()
    app = create_app(table, host_pin=PIN, camera=camera)
    with ServerThread(app) as srv:
        base = f"http://127.0.0.1:{srv.port}"
        context = browser.new_context(viewport={"width": 900, "height": 1000})
        pg = context.new_page()
        pg.goto(f"{base}/host")
        pg.fill("input[name=pin]", PIN)
        pg.click("button[type=submit]")
        pg.wait_for_selector("#match-form")
        pg.goto(f"{base}/camera")
        pg.wait_for_selector('#zone-rows input[aria-label="Discard pile x"]')   # the zone in words
        # the stored [x0, y0, x1, y1] = [0.1, 0.1, 0.5, 0.6] reads as x,y,w,h
        values = [pg.input_value(f'#zone-rows input[aria-label="Discard pile {k}"]') for k in "xywh"]
        assert values == ["0.1", "0.1", "0.4", "0.5"]
        assert pg.locator("#zone-cli").inner_text() == "--zone discard=0.1,0.1,0.4,0.5"
        box = pg.locator("#zone-layer").bounding_box()
        pg.mouse.move(box["x"] + 0.25 * box["width"], box["y"] + 0.2 * box["height"])
        pg.mouse.down()
        pg.mouse.move(box["x"] + 0.5 * box["width"], box["y"] + 0.5 * box["height"], steps=5)
        pg.mouse.move(box["x"] + 0.75 * box["width"], box["y"] + 0.8 * box["height"], steps=5)
        pg.mouse.up()
        x, y, w, h = (float(pg.input_value(f'#zone-rows input[aria-label="Discard pile {k}"]')) for k in "xywh")
        assert (x, y, w, h) == pytest.approx((0.25, 0.2, 0.5, 0.6), abs=0.003)
        with pg.expect_response(lambda r: r.url.endswith("/api/camera/zones")) as resp:
            pg.click("#zones-form button[type=submit]")
        assert resp.value.status == 200
        x0, y0, x1, y1 = camera.zones()["discard"]
        assert (x0, y0, x1 - x0, y1 - y0) == pytest.approx((x, y, w, h), abs=1e-9)
        context.close()


def test_the_camera_page_in_french_says_everything_in_french_errors_too(browser, table):
    """The French host on the camera page: the cards seen, the zones, their x, y, l, h,
    a save the camera refuses and a save when the table cannot be reached are all said
    in French; no English word and no zone code outside the command line to copy."""
    from crawl import ENGLISH_WORDS
    from test_web_camera import StandInCamera

    app = create_app(table, host_pin=PIN, camera=StandInCamera())
    with ServerThread(app) as srv:
        base = f"http://127.0.0.1:{srv.port}"
        context = browser.new_context(viewport={"width": 900, "height": 1000}, locale="fr-FR")
        pg = context.new_page()
        pg.goto(f"{base}/host")
        pg.fill("input[name=pin]", "0000")
        pg.click("button[type=submit]")
        assert "Code erroné." in pg.inner_text("main")
        pg.fill("input[name=pin]", PIN)
        pg.click("button[type=submit]")
        pg.wait_for_selector("#match-form")
        pg.goto(f"{base}/camera")
        pg.wait_for_selector('#zone-rows input[aria-label="Pile de défausse l"]')
        assert pg.inner_text("#detections") == "7 — 93 % (Pile de défausse)"
        assert pg.inner_text(".zones thead") .split() == ["Tracer", "Zone", "x", "y", "l", "h"]
        pg.click("#zone-rows tr:first-child button")          # the stand-in needs its discard zone
        pg.click("#zones-form button[type=submit]")
        pg.wait_for_function("() => document.getElementById('host-error').textContent !== ''")
        assert pg.inner_text("#host-error") == "Ces zones n'ont pas pu être gardées : vérifiez les nombres de chaque zone."
        text = pg.inner_text("main").replace(pg.inner_text("#zone-cli"), "")
        for title in ("Hit the Deck", "Flip 7", "Solo", "Raj"):
            text = text.replace(title, " ")
        assert not set(re.findall(r"[a-zà-ÿ']+", text.lower())) & set(ENGLISH_WORDS)
        context.route("**/api/camera/zones", lambda route: route.abort())   # the table cannot be reached
        pg.click("#zones-form button[type=submit]")
        pg.wait_for_function("() => document.getElementById('host-error').textContent.startsWith('Deckhand est injoignable')")
        context.close()
