"""Fixtures for the web tests: a real LiveTable on a real SQLite store in a temp dir,
the app around it, and browsers that already hold the host session."""
from __future__ import annotations

import pytest

from device.store import EventStore
from device.table import LiveTable
from web.app import create_app

PIN = "2468"


@pytest.fixture
def table(tmp_path):
    store = EventStore(tmp_path / "deckhand.sqlite3")
    yield LiveTable(store)
    store.close()


@pytest.fixture
def app(table):
    return create_app(table, host_pin=PIN, secret_key="test-secret", heartbeat=0.5)


@pytest.fixture
def served(table):
    """The app around `table` served over real HTTP on a free port: (base URL, table)."""
    from sse import ServerThread
    app = create_app(table, host_pin=PIN, secret_key="browser-test", heartbeat=1.0)
    with ServerThread(app) as srv:
        yield f"http://127.0.0.1:{srv.port}", table


@pytest.fixture(autouse=True)
def _browser_bounded(request):
    """A test on a module's browser (browsing.Chromium) is bounded as a whole: past
    TEST_WITHIN its browser is killed (the test fails there, saying why; the next one
    gets a new browser), and the pages it left open are closed after it."""
    if "browser" not in request.fixturenames:
        yield
        return
    from browsing import TEST_WITHIN, Chromium
    browser = request.getfixturevalue("browser")
    if not isinstance(browser, Chromium):
        yield
        return
    with browser.bounded(f"the test {request.node.name}", TEST_WITHIN):
        yield
        browser.close_contexts()


@pytest.fixture
def client(app):
    return app.test_client()


def csrf(client) -> str:
    return client.get("/api/session").get_json()["csrf_token"]


def post_json(client, url, body, token=None):
    headers = {"X-CSRF-Token": token if token is not None else csrf(client)}
    return client.post(url, json=body, headers=headers)


@pytest.fixture
def host(app):
    """A test client that has entered the host PIN."""
    c = app.test_client()
    r = post_json(c, "/api/login", {"pin": PIN})
    assert r.status_code == 200, r.get_json()
    return c


FLIP7 = {"game": "flip7", "seats": [{"name": "Ann", "colour": "red"},
                                     {"name": "Bob", "colour": "blue"},
                                     {"name": "Cat", "colour": "green"}]}


def play(table, game: str, seats, rounds: int, seed: int = 7, strategies=None, settings=None):
    """Start a match on `table` and play `rounds` rounds of bot actions through it (the
    real engine and the real log), returning the actions played."""
    import importlib

    from engine.core import MatchSpec

    spec_json = {"type": "start", "game": game, "seats": seats, "settings": settings or {},
                 "seed": seed}
    table.new_match(spec_json, "host")
    spec = MatchSpec.from_json(spec_json)
    selfplay = importlib.import_module(f"engine.{game}.selfplay")
    defaults = {"raj": ["random"] * len(seats), "solo": "random", "hitthedeck": None, "flip7": None}
    actions = list(selfplay.play_match(spec, strategies or defaults[game], seed, rounds=rounds))
    for action in actions:
        table.submit_action(action, "bot")
    return actions
