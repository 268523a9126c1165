"""The browser tests' Chromium (tests/web/browsing.py) cannot wait for ever: a call
Playwright gives no timeout (here an `evaluate` whose promise never settles, and one
whose script never returns) ends when its limit is past, by killing the browser,
saying why; the next call gets a new browser, and pages a test left open are closed."""
from __future__ import annotations

import threading
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


def test_a_close_chromium_never_answers_ends_with_a_warning_and_a_new_browser(browser, monkeypatch):
    import browsing
    monkeypatch.setattr(browsing, "CLOSE_WITHIN", 2.0)
    page = browser.new_page()
    old = browser.browser

    class Stuck:          # a close Chromium never answers, as a context's disposal once did
        def close(self):
            page.evaluate("new Promise(() => {})")

    stuck = Stuck()
    browser._close_bounded(stuck, "closing a context")
    t0 = time.monotonic()
    with pytest.warns(RuntimeWarning, match=r"within 2 s \(closing a context\): killed"):
        stuck.close()                            # before: waited for ever, then failed the test
    assert time.monotonic() - t0 < 10.0
    assert not old.is_connected()
    stuck.close()                                # the browser is gone: nothing to wait for
    page = browser.new_page()
    page.set_content("<p>back</p>")
    assert page.inner_text("p") == "back"


def test_contexts_and_pages_still_close_as_playwright_closes_them(browser):
    context = browser.new_context()
    pages = [context.new_page(), context.new_page()]
    pages[0].close()
    assert pages[0].is_closed() and not pages[1].is_closed()
    context.close()
    assert pages[1].is_closed()


class StreamCount:
    """WSGI middleware: how many event streams the server is serving now (a stream ends
    when the server learns its client went away: its next heartbeat cannot be sent)."""

    def __init__(self, app):
        self.wsgi, self.open, self.lock = app.wsgi_app, 0, threading.Lock()
        app.wsgi_app = self

    def __call__(self, environ, start_response):
        body = self.wsgi(environ, start_response)
        if environ["PATH_INFO"] != "/api/events":
            return body
        with self.lock:
            self.open += 1
        counter = self

        class Counted:
            def __iter__(self):
                return iter(body)

            def close(self):
                with counter.lock:
                    counter.open -= 1
                getattr(body, "close", lambda: None)()
        return Counted()

    def becomes(self, n: int, within: float) -> bool:
        deadline = time.monotonic() + within
        while self.open != n and time.monotonic() < deadline:
            time.sleep(0.05)
        return self.open == n


def test_a_context_is_disposed_of_only_once_its_pages_are_closed(browser, table, monkeypatch):
    """Chromium is asked to dispose of a context only when none of its pages is open
    (with a window open, the disposal waits for it to close, and that wait sometimes
    never ended); the pages' streams end. Before, a page was sent to about:blank and
    was still open, its window too, when the disposal was asked for."""
    from conftest import FLIP7, PIN
    from sse import ServerThread
    from web.app import create_app

    app = create_app(table, host_pin=PIN, secret_key="browser-test", heartbeat=0.5)
    streams = StreamCount(app)
    table.new_match({"type": "start", **FLIP7}, "host")
    disposal = sync_api.BrowserContext.close
    open_then = []

    def dispose(context, *args, **options):
        open_then.append([not p.is_closed() for p in pages])
        return disposal(context, *args, **options)
    monkeypatch.setattr(sync_api.BrowserContext, "close", dispose)
    with ServerThread(app) as srv:
        context = browser.new_context(viewport={"width": 390, "height": 844})
        pages = [context.new_page(), context.new_page()]
        pages[0].goto(f"http://127.0.0.1:{srv.port}/phone")     # its stream and wake lock
        pages[1].goto(f"http://127.0.0.1:{srv.port}/")
        for page in pages:
            page.wait_for_selector("#conn.ok")
        assert streams.becomes(2, within=5.0)
        context.close()
        assert open_then == [[False, False]]                   # before: [[True, True]]
        assert all(p.is_closed() for p in pages)
        assert streams.becomes(0, within=5.0)
