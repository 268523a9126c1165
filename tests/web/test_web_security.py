"""The host PIN: entry, the limit on wrong entries (429 after five in five minutes per
client), a made-up PIN shown on the kiosk only, the signed session."""
from __future__ import annotations

import pytest

from conftest import FLIP7, PIN, csrf, post_json
from web.app import create_app
from web.security import PinGate, make_pin


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def test_wrong_pin_is_refused_and_unlocks_nothing(client, table):
    r = post_json(client, "/api/login", {"pin": "0000"})
    assert r.status_code == 403 and r.get_json()["error"] == "Wrong PIN."
    assert post_json(client, "/api/match", FLIP7).status_code == 401
    assert post_json(client, "/api/login", {"pin": ""}).status_code == 400
    assert post_json(client, "/api/login", {"pin": 2468}).status_code == 400
    assert table.snapshot()["match"] is None


def test_five_wrong_pins_then_429_even_for_the_right_one(table):
    clock = Clock()
    app = create_app(table, host_pin=PIN, clock=clock)
    c = app.test_client()
    for _ in range(5):
        assert post_json(c, "/api/login", {"pin": "1111"}).status_code == 403
    r = post_json(c, "/api/login", {"pin": PIN})
    assert r.status_code == 429 and "try again in" in r.get_json()["error"]
    form = c.post("/host/login", data={"pin": PIN, "csrf_token": csrf(c)})
    assert form.status_code == 429 and "Too many wrong PINs" in form.get_data(as_text=True)
    # another client is not blocked
    other = app.test_client()
    other.environ_base["REMOTE_ADDR"] = "192.168.1.50"
    assert post_json(other, "/api/login", {"pin": PIN}).status_code == 200
    # five minutes after the first wrong entry, the first client may try again
    clock.now += 301
    assert post_json(c, "/api/login", {"pin": PIN}).status_code == 200


def test_pin_gate_window_slides():
    clock = Clock()
    gate = PinGate("1234", max_failures=2, window=10, clock=clock)
    assert not gate.check("a", "9")
    clock.now += 5
    assert not gate.check("a", "9")
    assert gate.retry_after("a") == 5
    clock.now += 5
    assert gate.retry_after("a") == 0 and gate.check("a", "1234")


def test_wrong_pin_form_says_so(client):
    r = client.post("/host/login", data={"pin": "0", "csrf_token": csrf(client)})
    assert r.status_code == 403 and "Wrong PIN." in r.get_data(as_text=True)


def test_made_up_pin_is_shown_on_the_kiosk_only(table):
    app = create_app(table)
    pin = app.config["DECKHAND_HOST_PIN"]
    assert len(pin) == 6 and pin.isdigit()
    kiosk = app.test_client()  # 127.0.0.1
    assert pin in kiosk.get("/").get_data(as_text=True)
    phone = app.test_client()
    phone.environ_base["REMOTE_ADDR"] = "192.168.1.50"
    assert pin not in phone.get("/").get_data(as_text=True)
    for url in ("/phone", "/host", "/api/state"):
        assert pin not in kiosk.get(url).get_data(as_text=True)
    assert post_json(phone, "/api/login", {"pin": pin}).status_code == 200


def test_a_configured_pin_is_never_shown(table):
    app = create_app(table, host_pin="97531")
    assert "97531" not in app.test_client().get("/").get_data(as_text=True)
    shown = create_app(table, host_pin="97531", show_pin=True, pin_viewers="all")
    phone = shown.test_client()
    phone.environ_base["REMOTE_ADDR"] = "10.0.0.9"
    assert "97531" in phone.get("/").get_data(as_text=True)


def test_secret_key_is_generated_per_start(table):
    a, b = create_app(table, host_pin=PIN), create_app(table, host_pin=PIN)
    assert len(a.config["SECRET_KEY"]) >= 32 and a.config["SECRET_KEY"] != b.config["SECRET_KEY"]
    # a session cookie signed by one app means nothing to the other
    c = a.test_client()
    post_json(c, "/api/login", {"pin": PIN})
    cookie = c.get_cookie("session")
    d = b.test_client()
    d.set_cookie("session", cookie.value)
    assert d.get("/api/session").get_json()["host"] is False


def test_session_cookie_is_httponly_and_samesite(client):
    r = client.get("/api/session")
    header = r.headers["Set-Cookie"]
    assert "HttpOnly" in header and "SameSite=Lax" in header


def test_make_pin_digits():
    assert all(len(make_pin(digits=d)) == d for d in (6, 8))
    assert len(make_pin()) >= 6
    with pytest.raises(ValueError, match="at least 6 digits"):
        make_pin(digits=4)


def test_a_pin_kept_only_as_a_hash_in_the_config_unlocks_the_host(table):
    from device.config import hash_pin, verify_pin
    stored = hash_pin("8642", iterations=1000)
    app = create_app(table, pin_check=lambda entry: verify_pin(entry, stored))
    c = app.test_client()
    assert post_json(c, "/api/login", {"pin": "1111"}).status_code == 403
    assert post_json(c, "/api/login", {"pin": "8642"}).status_code == 200
    assert post_json(c, "/api/match", FLIP7).status_code == 200
    assert "8642" not in app.test_client().get("/").get_data(as_text=True)
