"""The browser tests' Chromium (tests/web/browsing.py) cannot wait for ever: a call
Playwright gives no timeout (here an `evaluate` whose promise never settles, and one
whose script never returns) ends when its limit is past, by killing the browser,
saying why; the next call gets a new browser, and pages a test left open are closed."""
from __future__ import annotations

import time

import pytest

from browsing import BrowserKilled, chromium, playwright_or_skip

pytestmark = pytest.mark.browser
sync_api = playwright_or_skip()


@pytest.fixture(scope="module")
def browser():
    with chromium(sync_api) as b:
        yield b


@pytest.mark.parametrize("script", ["new Promise(() => {})", "() => { while (true) {} }"])
def test_a_call_that_never_returns_is_ended_and_the_browser_replaced(browser, script):
    page = browser.new_page()
    old = browser.browser
    t0 = time.monotonic()
    with pytest.raises(BrowserKilled, match=r"within 2 s \(evaluate\): killed"):
        with browser.bounded("evaluate", within=2.0):
            page.evaluate(script)                # before: waited for ever
    assert time.monotonic() - t0 < 10.0
    assert not old.is_connected()
    page = browser.new_page()                    # a new browser
    assert browser.browser is not old
    page.set_content("<p>back</p>")
    assert page.inner_text("p") == "back"


def test_pages_a_test_left_open_are_closed(browser):
    pages = [browser.new_page(), browser.new_context().new_page()]
    browser.close_contexts()
    assert all(p.is_closed() for p in pages)
