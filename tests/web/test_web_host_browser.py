"""The host's and a player's tasks end to end in a real browser (headless Chromium via
Playwright, one browser for the module) against a real HTTP server on a real store:
cards entered, corrected and undone by tapping, a new match that asks first, a seat
joined by QR pressing its own pad (and unable to undo), a rematch with the same seats,
and the end-of-match summary's figures for a scripted match of each game.

Every tap the host makes is counted (`Taps`); the counts are asserted against the
issue's goals and written to tests/artifacts/host-taps.json for the report."""
from __future__ import annotations

import json
import re

import pytest

from browsing import ARTIFACTS, chromium, hold, playwright_or_skip
from conftest import FLIP7, PIN, play
from engine.log import read_log
from sse import ServerThread
from web.app import create_app

pytestmark = pytest.mark.browser
sync_api = playwright_or_skip()
expect = sync_api.expect
GOALS = {"enter a card by hand": 2, "correct a misread card": 2, "undo": 2, "start a rematch": 1}

SOLO = {"type": "start", "game": "solo", "seats": [{"name": "Ann", "colour": "red"},
                                                   {"name": "Bob", "colour": "blue"},
                                                   {"name": "Cat", "colour": "green"}]}
TAPS: dict[str, int] = {}


class Taps:
    """Clicks on a page, counted per task."""

    def __init__(self, page, task: str):
        self.page, self.task = page, task
        TAPS[task] = 0

    def __call__(self, selector: str) -> None:
        self.page.click(selector)
        TAPS[self.task] += 1


@pytest.fixture(scope="module")
def browser():
    with chromium(sync_api) as b:
        yield b
    if TAPS:
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / "host-taps.json").write_text(json.dumps(TAPS, indent=1))


@pytest.fixture
def served(table):
    app = create_app(table, host_pin=PIN, secret_key="browser-test", heartbeat=1.0)
    with ServerThread(app) as srv:
        # the pages' phones are browsers on this machine: this is the address they reach
        app.extensions["deckhand"].public_url = f"http://127.0.0.1:{srv.port}"
        yield f"http://127.0.0.1:{srv.port}", table


# A page a new app renders for the first time (the host's page after the PIN; the live
# part of a game not shown before) has its templates compiled by Jinja then (about 0.35 s
# CPU for the host's page): on a loaded machine (load 12-18) waiting for such a page
# overran 5 s (the flaky failures of test_a_new_match_during_a_running_one_asks_first,
# at both places). Such pages are waited for longer.
FIRST_PAGE_MS = 30_000


def new_page(browser, base, host=False, width=420):
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.set_default_timeout(5000)
    if host:
        page.goto(f"{base}/host")
        page.fill("input[name=pin]", PIN)
        page.click("button[type=submit]", timeout=FIRST_PAGE_MS)
        page.wait_for_selector("#match-form", timeout=FIRST_PAGE_MS)
        # the page's deferred scripts have run (its forms are wired) once it has loaded
        page.wait_for_load_state("load", timeout=FIRST_PAGE_MS)
    return page


def replayed_view(table, match_id=1):
    m = next(m for m in table.history() if m["id"] == match_id)
    start = {"type": "start", "game": m["game"], "seats": m["seats"], "settings": m["settings"]}
    timeline = read_log([json.dumps(start)] + [json.dumps(r["action"])
                                               for r in table.match_rows(match_id)])
    return timeline.game.view(timeline.state)


def test_host_enters_corrects_and_undoes_a_card_in_few_taps(browser, served):
    base, table = served
    table.new_match(SOLO, "host")
    host = new_page(browser, base, host=True)
    screen = new_page(browser, base, width=1280)
    screen.goto(base + "/")
    screen.wait_for_selector("#conn.ok")

    tap = Taps(host, "enter a card by hand")
    tap('#picker [data-card="R5"]')                      # the starter, where the referee expects it
    expect(host.locator("#undo")).to_contain_text("Undo the Red 5?")
    TAPS["enter a card by hand"] = 0
    tap('#picker [data-card="R7"]')                      # Bob's play
    expect(host.locator("#undo")).to_contain_text("Undo Bob's Red 7?")
    assert table.match_rows(1)[-1]["action"] == {"type": "play", "seat": 1, "card": "R7",
                                                 "colour": None}
    expect(screen.locator(".banner")).to_have_text("The host entered Bob's Red 7.")

    tap = Taps(host, "correct a misread card")
    tap("#correct")
    expect(host.locator(".pickhint")).to_have_text("Tap the right card for Bob's Red 7")
    tap('#picker [data-card="R9"]')
    expect(host.locator("#undo")).to_contain_text("Undo Bob's Red 9?")
    assert [r["action"] for r in table.match_rows(1)][-2:] == [
        {"type": "undo"}, {"type": "play", "seat": 1, "card": "R9", "colour": None}]
    assert replayed_view(table) == table.snapshot()["view"]
    expect(screen.locator(".banner")).to_have_text(
        "The host corrected Bob's Red 7 to Bob's Red 9.")

    tap = Taps(host, "undo")
    tap("#undo")
    expect(host.locator("#undo")).to_contain_text("Tap again to confirm: Undo Bob's Red 9?")
    assert table.match_rows(1)[-1]["action"]["type"] == "play"     # one tap undoes nothing
    tap("#undo")
    expect(host.locator("#undo")).to_contain_text("Undo the Red 5?")
    assert table.match_rows(1)[-1]["action"] == {"type": "undo"}
    expect(screen.locator(".banner")).to_have_text("The host undid Bob's Red 9.")

    # a card for a chosen seat: two taps (the seat, then the face)
    tap = Taps(host, "enter a card for a chosen seat")
    tap('.seatpick[data-seat="1"]')
    tap('#picker [data-card="R3"]')
    expect(host.locator("#undo")).to_contain_text("Undo Bob's Red 3?")
    for task, goal in GOALS.items():
        if task in TAPS:
            assert TAPS[task] <= goal, (task, TAPS[task])
    host.context.close()
    screen.context.close()


def test_a_new_match_during_a_running_one_asks_first(browser, served):
    base, table = served
    table.new_match({"type": "start", **FLIP7}, "host")
    host = new_page(browser, base, host=True)
    host.select_option("#match-game", "solo")
    host.click("#match-form button[type=submit]")
    expect(host.locator("#running-ask")).to_be_visible()
    expect(host.locator("#running-words")).to_contain_text("A match is being played")
    host.click('[data-running=""]')                      # keep playing it
    expect(host.locator("#running-ask")).to_be_hidden()
    assert table.snapshot()["match"]["game"] == "flip7"
    host.click("#match-form button[type=submit]")
    host.click('[data-running="end"]')
    # the page reloads with the new match: Solo's live part rendered for the first time
    expect(host.locator("#live .gamehead .gametitle")).to_have_text("Solo", timeout=FIRST_PAGE_MS)
    assert table.snapshot()["match"]["game"] == "solo"
    first = next(m for m in table.history() if m["id"] == 1)
    assert first["ended_at"] is not None
    host.context.close()


def test_a_seat_joined_by_qr_presses_its_pad_and_cannot_undo(browser, served):
    base, table = served
    table.new_match({"type": "start", **FLIP7}, "host")
    for card in ("3", "4", "5"):
        table.submit({"type": "flip", "card": card}, "camera")
    screen = new_page(browser, base, width=1280)
    screen.goto(base + "/")
    join_url = screen.locator("#seat-qr").get_attribute("data-url")
    assert re.fullmatch(r"http://[^/]+/join\?k=[0-9a-f]{16}", join_url)
    expect(screen.locator("#open-seats")).to_contain_text("Bob")
    phone = new_page(browser, base)
    phone.goto(base + "/join?" + join_url.split("?", 1)[1])
    phone.click('button[data-seat="1"]')
    phone.wait_for_url(base + "/seat")
    expect(phone.locator("#my-turn")).to_have_text("Your turn")
    expect(screen.locator(".banner")).to_have_text("Bob joined from a phone.")
    expect(screen.locator("#open-seats")).not_to_contain_text("Bob")
    # Bob holds the pad: Stay
    assert hold(phone, "#pad", "/api/seat/press").status == 200
    assert table.snapshot()["view"]["table"]["lines"][1]["status"] == "stayed"
    expect(phone.locator("#my-turn")).to_have_text("Cat to play")
    # the player's page cannot undo, end, start or press another pad
    rows = len(table.match_rows(1))
    statuses = phone.evaluate("""async () => {
        const token = document.querySelector('meta[name="csrf-token"]').content;
        const out = [];
        for (const [url, body] of [["/api/undo", {}], ["/api/action", {type: "end_match"}],
                                   ["/api/match", {game: "flip7", seats: ["A", "B", "C"]}],
                                   ["/api/observe", {type: "pad", seat: 2, held: false}]]) {
            const r = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json",
                                        "X-CSRF-Token": token}, body: JSON.stringify(body)});
            out.push(r.status);
        }
        return out; }""")
    assert statuses == [401, 401, 401, 401]
    assert len(table.match_rows(1)) == rows
    # the host takes the seat back: the phone's next press is refused in words
    host = new_page(browser, base, host=True)
    host.click('[data-free-seat="1"]')
    expect(screen.locator(".banner")).to_have_text("The host took back Bob's seat.")
    phone.click("#pad")
    expect(phone.locator("#pad-error")).to_contain_text("holds no seat")
    for p in (screen, phone, host):
        p.context.close()


def test_a_rematch_starts_with_the_same_seats_in_one_tap(browser, served):
    base, table = served
    table.new_match({"type": "start", **FLIP7}, "host")
    table.submit({"type": "end_match"}, "host")
    host = new_page(browser, base, host=True)
    expect(host.locator(".summary")).to_be_visible()
    expect(host.locator(".gamehead .round")).to_have_text("Final result")
    tap = Taps(host, "start a rematch")
    tap("#rematch")
    host.wait_for_selector("#picker")
    match = table.snapshot()["match"]
    assert match["id"] == 2
    assert match["seats"] == [{"name": s["name"], "colour": s["colour"]} for s in FLIP7["seats"]]
    assert TAPS["start a rematch"] <= GOALS["start a rematch"]
    host.context.close()


SEATS = [{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"},
         {"name": "Cat", "colour": "green"}]


def summary_rows(page) -> dict[str, list[str]]:
    rows = {}
    for tr in page.locator(".summary .stats tbody tr").all():
        rows[tr.get_attribute("data-stat")] = [td.inner_text() for td in tr.locator("td").all()]
    return rows


def test_the_summary_shows_a_hand_scripted_flip7_match(browser, served):
    base, table = served
    table.new_match({"type": "start", **FLIP7}, "host")
    # the deal: Bob 3, Cat 4, Ann 5; Bob hits a second 3 and busts; Cat and Ann stay
    for card in ("3", "4", "5"):
        table.submit({"type": "flip", "card": card}, "camera")
    table.submit({"type": "hit", "seat": 1}, "host")
    table.submit({"type": "flip", "card": "3"}, "camera")
    table.submit({"type": "stay", "seat": 2}, "host")
    table.submit({"type": "stay", "seat": 0}, "host")
    table.submit({"type": "end_match"}, "host")
    phone = new_page(browser, base)
    phone.goto(base + "/phone")
    rows = summary_rows(phone)
    assert rows["busts"] == ["0", "1", "0"]
    assert rows["flip7s"] == ["0", "0", "0"]
    assert rows["rounds_won"] == ["1", "0", "0"]                  # Ann's 5 beat Cat's 4
    expect(phone.locator(".summary .winner .big")).to_contain_text("Ann")
    assert "Round 1 of" not in phone.locator("#live").inner_text()
    phone.context.close()


@pytest.mark.parametrize("game,rounds", [("flip7", 2), ("raj", None), ("solo", 1),
                                         ("hitthedeck", 1)])
def test_the_summary_shows_the_games_own_figures(browser, served, game, rounds):
    base, table = served
    play(table, game, SEATS, rounds, seed=5)
    if not table.snapshot()["view"]["finished"]:
        table.submit({"type": "end_match"}, "host")
    stats = table.snapshot()["stats"]
    page = new_page(browser, base, width=1280)
    page.goto(base + "/")
    shown = summary_rows(page)
    expected = {f: [str(p[f]) for p in stats["players"]] for f in stats["figures"] if f != "points"}
    assert shown == expected and shown
    standings = page.locator(".summary .standings li .total").all_inner_texts()
    assert sorted(map(int, standings)) == sorted(p["points"] for p in stats["players"])
    rounds_shown = page.locator(".summary table.rounds:not(.stats) tbody tr").count()
    assert rounds_shown == max(1, len(stats["rounds"]))
    page.context.close()


def test_the_host_corrects_a_finished_rounds_score(browser, served):
    base, table = served
    table.new_match({"type": "start", **FLIP7}, "host")
    for card in ("3", "4", "5"):                     # Bob 3, Cat 4, Ann 5
        table.submit({"type": "flip", "card": card}, "camera")
    for seat in (1, 2, 0):
        table.submit({"type": "stay", "seat": seat}, "host")
    table.submit({"type": "end_match"}, "host")
    assert table.snapshot()["view"]["history"] == [[5, 3, 4]]
    host = new_page(browser, base, host=True)
    screen = new_page(browser, base, width=1280)
    screen.goto(base + "/")
    screen.wait_for_selector("#conn.ok")
    host.click(".fixround summary")
    host.locator("#fix-round input[name=score]").nth(1).fill("13")   # Bob had 13, not 3
    host.click("#fix-round button[type=submit]")
    expect(host.locator(".summary .winner .big")).to_contain_text("Bob")
    assert table.match_rows(1)[-1]["action"] == {"type": "correct_round", "round": 1,
                                                 "scores": [5, 13, 4]}
    assert table.snapshot()["view"]["totals"] == [5, 13, 4]
    assert replayed_view(table) == table.snapshot()["view"]
    expect(screen.locator(".banner")).to_have_text("The host corrected the scores of round 1.")
    expect(screen.locator(".summary .standings li").first).to_contain_text("Bob")
    host.context.close()
    screen.context.close()


def test_a_form_is_not_sent_before_the_pages_script_is_ready(browser, served):
    """A tap on "Start the match" while host.js is still on its way would send the form as
    a plain page load (the typed seats lost, nothing started): its button waits, disabled,
    until the script has wired the form."""
    base, table = served
    host = new_page(browser, base, host=True)
    start = host.locator("#match-form button[type=submit]")
    expect(start).to_be_enabled()
    held = []
    host.route("**/static/host.js*", lambda route: held.append(route))   # slow to arrive
    host.reload(wait_until="commit")
    expect(start).to_be_disabled()
    expect(host.locator("#action-form button[type=submit], #player-form button[type=submit]")
           ).to_have_count(0)                            # no match yet: only the new-match form
    start.click(force=True)                              # a tap on it does nothing
    assert held and host.url == base + "/host"
    held[0].continue_()
    expect(start).to_be_enabled()
    host.select_option("#match-game", "solo")
    for i, name in enumerate(("Ann", "Bob")):
        host.locator("[name=seat-name]").nth(i).fill(name)
    start.click()
    expect(host.locator("#live .gamehead .gametitle")).to_have_text("Solo", timeout=FIRST_PAGE_MS)
    assert table.snapshot()["match"]["game"] == "solo"
    host.context.close()
