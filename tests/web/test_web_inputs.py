"""Inputs that would break pages for good (issue 15): text that cannot be written as
UTF-8, JSON nested 100,000 deep, numbers of twenty digits in a path. Each is refused at
the edge with a 400/404 in words and nothing stored; text an older version did store
is shown with replacement characters, never a 500."""
from __future__ import annotations

import json
import sqlite3
from contextlib import closing

import pytest

from device.store import EventStore
from device.table import LiveTable
from web.app import create_app

from conftest import FLIP7, PIN, csrf

PAGES = ("/", "/phone", "/history", "/host", "/pad/0", "/players", "/api/state", "/api/history")
JSON_ROUTES = ("/api/login", "/api/action", "/api/match", "/api/observe",
               "/api/camera/pause", "/api/players", "/api/camera/zones", "/api/camera/teach")


def raw_post(client, url, body: bytes | str, token=None):
    return client.post(url, data=body, content_type="application/json",
                       headers={"X-CSRF-Token": token or csrf(client)})


def test_a_seat_name_with_a_lone_surrogate_is_refused_and_starts_nothing(host, table):
    body = '{"game": "flip7", "seats": [{"name": "\\ud800x"}, {"name": "Bob"}]}'
    r = raw_post(host, "/api/match", body)
    assert r.status_code == 400
    assert r.get_json()["where"] == "seats[0].name" and "Unicode" in r.get_json()["error"]
    assert table.history() == []
    for page in PAGES:
        assert host.get(page).status_code in (200, 404), page


def test_a_player_profile_name_with_a_lone_surrogate_is_refused(host, table):
    r = raw_post(host, "/api/players", '{"name": "\\udfffAnn", "colour": "red"}')
    assert r.status_code == 400 and "Unicode" in r.get_json()["error"]
    assert table.players() == []
    assert host.get("/players").status_code == 200


class NoCamera:
    """A camera provider that must never be reached: the body is refused first."""

    def __getattr__(self, name):
        raise AssertionError(f"the camera was asked for {name}")


@pytest.mark.parametrize("url", JSON_ROUTES)
def test_json_nested_100000_deep_is_a_400_in_words_on_every_json_route(table, url):
    host = create_app(table, host_pin=PIN, secret_key="s", camera=NoCamera()).test_client()
    assert raw_post(host, "/api/login", json.dumps({"pin": PIN})).status_code == 200
    r = raw_post(host, url, "[" * 100_000 + "]" * 100_000)
    assert r.status_code == 400, (url, r.status_code)
    assert r.get_json()["error"].startswith("The request ")


def test_json_nested_deep_is_refused_before_the_pin_is_checked(client):
    r = raw_post(client, "/api/login", '{"pin": ' + "[" * 100_000 + "]" * 100_000 + "}")
    assert r.status_code == 400 and "nested" in r.get_json()["error"]


def test_json_nested_moderately_deep_is_refused_by_the_depth_bound(client):
    r = raw_post(client, "/api/login", '{"pin": ' + "[" * 500 + "]" * 500 + "}")
    assert r.status_code == 400 and "nested more than" in r.get_json()["error"]


def test_a_number_of_thousands_of_digits_in_a_body_is_a_400(host):
    for digits in (5000, 30):
        r = raw_post(host, "/api/action", '{"type": "stay", "seat": ' + "9" * digits + "}")
        assert r.status_code == 400, digits


@pytest.mark.parametrize("url", ["/history/99999999999999999999.csv",
                                 "/api/matches/99999999999999999999/rows",
                                 "/pad/99999999999999999999",
                                 "/history/" + "9" * 5000 + ".csv"])
def test_huge_numbers_in_paths_are_no_such_page(client, url):
    assert client.get(url).status_code == 404


def test_huge_numbers_in_the_query_are_a_400(client):
    assert client.get("/api/events?since=" + "9" * 30).status_code == 400
    assert client.get("/api/events?view=pad&seat=" + "9" * 30).status_code == 400


def test_text_an_older_version_stored_is_shown_with_replacement_characters(tmp_path):
    """A store written before the edge checks holds "\\ud800x" as a seat name: every
    page still answers, showing U+FFFD, and the match can be played on."""
    path = tmp_path / "old.sqlite3"
    store = EventStore(path)
    table = LiveTable(store)
    table.new_match({"type": "start", **FLIP7}, "host")
    store.close()
    with closing(sqlite3.connect(path)) as conn, conn:  # what an older version wrote
        spec = json.dumps({"type": "start", "game": "flip7", "settings": {},
                           "seats": [{"name": "\ud800x", "colour": "red"},
                                     *FLIP7["seats"][1:]]})
        conn.execute("UPDATE matches SET spec = ?", (spec,))
    store = EventStore(path)
    try:
        app = create_app(LiveTable(store), host_pin=PIN, secret_key="s")
        client = app.test_client()
        r = client.post("/api/login", json={"pin": PIN}, headers={"X-CSRF-Token": csrf(client)})
        assert r.status_code == 200
        for page in PAGES + ("/history/1.csv", "/api/matches/1/rows"):
            r = client.get(page)
            assert r.status_code == 200, (page, r.status_code)
        assert "\ufffdx" in client.get("/").get_data(as_text=True)
        assert "\ufffdx" in client.get("/api/state").get_data(as_text=True) or \
            "\\ufffdx" in client.get("/api/state").get_data(as_text=True)
    finally:
        store.close()
