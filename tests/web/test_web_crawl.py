"""The browser crawl: every page of every game — the table screen `/`, the phone
`/phone`, the host page (logged in), a pad page and the history — in English and French
at every display size a table uses (800×480 up to 3840×2160), in the middle of a round
and at the end of a match (states built by the games' own bots through the real table
service). One headless Chromium, one page per language, the viewport resized in place.

It fails on: vertical scroll on the table screen, horizontal scroll anywhere, elements a
player reads overlapping, text cut off, text below the size floor (2.5 % of the screen
height on the table screen, 12 px elsewhere), card codes or program text shown, and
English words on French pages. Screenshots of the table screen of each game at 800×480
and 1920×1080 in both languages go to tests/artifacts/ (git-ignored), and the figures
(page height against the viewport, overlaps, smallest text) are printed as a table.
"""
from __future__ import annotations

import re

import pytest

from browsing import ARTIFACTS, TEST_WITHIN, chromium, playwright_or_skip
from conftest import PIN
from crawl import (AUDIT_JS, CODE_PATTERNS, ENGLISH_WORDS, GAMES, PAGE_FLOOR_PX, SEATS, SIZES,
                   TABLE_FLOOR, build_state)
from sse import ServerThread
from web.app import create_app

pytestmark = pytest.mark.browser

PAGES = ("/", "/phone", "/host", "/pad/0")
SHOT_SIZES = ((800, 480), (1920, 1080))
NAMES = tuple(s["name"] for s in SEATS)
TITLES = ("Hit the Deck", "Flip 7", "Solo", "Raj", "Deckhand", "English")

sync_api = playwright_or_skip()


def _login(context, base: str) -> None:
    token = context.request.get(f"{base}/api/session").json()["csrf_token"]
    r = context.request.post(f"{base}/api/login", data={"pin": PIN},
                             headers={"X-CSRF-Token": token})
    assert r.ok, r.text()


# The audit once the page has its new size: one round trip to the browser, not two (the
# crawl makes 330 audits; waiting for the size was its own call).
AUDIT_AT_SIZE = """async ([w, h, floorPx, isTable]) => {
  const deadline = performance.now() + 5000;
  while (window.innerWidth !== w || window.innerHeight !== h) {
    if (performance.now() > deadline) throw new Error(`the page never became ${w}x${h}`);
    await new Promise(r => requestAnimationFrame(r));
  }
  return (""" + AUDIT_JS + """)([floorPx, isTable]);
}"""


def _audit(page, path: str, width: int, height: int) -> dict:
    if page.viewport_size != {"width": width, "height": height}:
        page.set_viewport_size({"width": width, "height": height})
    table = path == "/"
    floor = TABLE_FLOOR * height if table else PAGE_FLOOR_PX
    result = page.evaluate(AUDIT_AT_SIZE, [width, height, floor, table])
    result["floor"] = floor
    return result


@pytest.fixture(scope="module")
def crawl(tmp_path_factory):
    """{(path, game, moment, lang, (w, h)): audit} for every page, game, moment,
    language and size; the history page under game "-"."""
    folder = tmp_path_factory.mktemp("crawl")
    ARTIFACTS.mkdir(exist_ok=True)
    states = [build_state(folder, game, moment) for game in GAMES for moment in ("mid", "end")]
    servers = []
    for state in states:
        app = create_app(state.table, host_pin=PIN, secret_key="crawl",
                         public_url="http://192.168.1.20:8000", heartbeat=1.0)
        servers.append(ServerThread(app).__enter__())
    results: dict[tuple, dict] = {}
    try:
        # the whole crawl in one browser: bounded as one browser test is
        with chromium(sync_api) as browser, browser.bounded("the crawl", TEST_WITHIN):
            for lang in ("en", "fr"):
                context = browser.new_context(viewport={"width": 800, "height": 480})
                context.add_cookies([{"name": "lang", "value": lang, "domain": "127.0.0.1",
                                      "path": "/"}])
                first = f"http://127.0.0.1:{servers[0].port}"
                _login(context, first)   # one signed session: every server shares the key
                page = context.new_page()
                page.set_default_timeout(5000)
                for state, srv in zip(states, servers):
                    base = f"http://127.0.0.1:{srv.port}"
                    for path in PAGES:
                        page.set_viewport_size({"width": 800, "height": 480})
                        page.goto(base + path, wait_until="domcontentloaded")
                        if path == "/":   # the kiosk's status corner is part of its layout
                            page.wait_for_selector("#conn.ok")
                        assert page.locator("html").get_attribute("lang") == lang
                        for w, h in SIZES:
                            results[(path, state.game, state.moment, lang, (w, h))] = \
                                _audit(page, path, w, h)
                            if path == "/" and (w, h) in SHOT_SIZES:
                                page.screenshot(path=str(
                                    ARTIFACTS / f"table-{state.game}-{state.moment}-{lang}-{w}x{h}.png"))
                page.goto(f"http://127.0.0.1:{servers[-1].port}/history")
                for w, h in SIZES:
                    results[("/history", "-", "end", lang, (w, h))] = _audit(page, "/history", w, h)
                context.close()
    finally:
        for srv in servers:
            srv.__exit__(None, None, None)
        for state in states:
            state.store.close()
    return results


def _where(key) -> str:
    path, game, moment, lang, (w, h) = key
    return f"{path} {game} {moment} {lang} {w}x{h}"


def _report(problems: list[str]) -> str:
    """The problems, each said once with the displays it happens at."""
    sizes: dict[str, list[str]] = {}
    for p in problems:
        head, _, rest = p.partition(": ")
        where, _, size = head.rpartition(" ")
        sizes.setdefault(f"{where}: {rest}", []).append(size)
    return "\n".join(f"{k} (at {', '.join(v)})" for k, v in list(sizes.items())[:40])


def test_figures(crawl):
    """The figures for the report: per display size × game × language, the table
    screen's page height against the viewport, overlaps and the smallest text (the worst
    of the middle of a round and the end of the match), and the floor."""
    lines = [f"{'display':>10} {'game':<11} {'lang':<4} {'page h / viewport':>18} "
             f"{'overlaps':>8} {'smallest text px':>16} {'floor px':>8}"]
    for w, h in SIZES:
        for game in GAMES:
            for lang in ("en", "fr"):
                runs = [crawl[("/", game, m, lang, (w, h))] for m in ("mid", "end")]
                size = f"{w}x{h}"
                tall = f"{max(r['scrollH'] for r in runs)} / {h}"
                overlaps = sum(len(r["overlaps"]) for r in runs)
                smallest = min(r["minFont"] for r in runs)
                lines.append(f"{size:>10} {game:<11} {lang:<4} {tall:>18} {overlaps:>8} "
                             f"{smallest:>16.1f} {runs[0]['floor']:>8.1f}")
    text = "\n".join(lines)
    (ARTIFACTS / "crawl-figures.txt").write_text(text + "\n")
    print("\n" + text)
    assert len(lines) == 1 + len(SIZES) * len(GAMES) * 2


def _layout_problems(crawl, table: bool) -> list[str]:
    """Scroll (vertical only counts on the table screen), overlaps, text cut off and text
    under the floor, for the table screen or for every other page."""
    problems = []
    for key, r in crawl.items():
        if (key[0] == "/") != table:
            continue
        where = _where(key)
        if table and not (r["qrShown"] and r["scoresShown"]):
            problems.append(f"{where}: the scores or the join QR code not wholly on screen")
        if table and r["scrollH"] > r["vh"] + 1:
            problems.append(f"{where}: scrolls ({r['scrollH']} px tall for {r['vh']})")
        if r["scrollW"] > r["vw"] + 1:
            problems.append(f"{where}: scrolls sideways ({r['scrollW']} px wide for {r['vw']})")
        problems += [f"{where}: overlap {o}" for o in r["overlaps"]]
        problems += [f"{where}: cut off {c}" for c in r["cut"]]
        problems += [f"{where}: below {r['floor']:.1f} px: {s}" for s in r["small"]]
    return problems


def test_table_screen_fits_every_display_without_scroll_overlap_or_small_text(crawl):
    problems = _layout_problems(crawl, table=True)
    assert not problems, _report(problems)


def test_other_pages_fit_their_width_without_overlap_or_small_text(crawl):
    problems = _layout_problems(crawl, table=False)
    assert not problems, _report(problems)


def _found(text: str, patterns) -> list[str]:
    return [m.group(0) for p in patterns for m in re.finditer(p, text)]


def _program_text(crawl, host: bool) -> list[str]:
    problems = []
    for key, r in crawl.items():
        if key[4] != SIZES[0] or (key[0] == "/host") != host:
            continue   # the words do not change with the size
        shown = _found(r["text"] + "\n" + r["options"], CODE_PATTERNS)
        if shown:
            problems.append(f"{_where(key)}: {sorted(set(shown))}")
    return problems


def test_no_card_code_or_program_text_on_the_viewing_pages(crawl):
    problems = _program_text(crawl, host=False)
    assert not problems, "\n".join(problems)


def test_no_card_code_or_program_text_on_the_host_page(crawl):
    problems = _program_text(crawl, host=True)
    assert not problems, "\n".join(p[:300] for p in problems)


def _english(text: str) -> list[str]:
    for name in NAMES + TITLES:
        text = text.replace(name, " ")
    words = set(re.findall(r"[A-Za-zÀ-ÿ']+", text.lower()))
    return sorted(words & set(ENGLISH_WORDS))


def test_french_pages_have_no_english_words(crawl):
    problems = []
    for key, r in crawl.items():
        if key[3] != "fr" or key[4] != SIZES[0]:
            continue
        found = _english(r["words"] + "\n" + r["options"])
        if found:
            problems.append(f"{_where(key)}: {found}")
    assert not problems, "\n".join(problems)
