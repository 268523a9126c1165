"""Attacks on the host session and PIN (issue 15): a cookie saved before logout, PIN
guessing from many addresses, a config PIN hash that cannot be used. Real server, real
HTTP; the many addresses are loopback addresses (127.0.0.x)."""
from __future__ import annotations

import subprocess
import sys
import time

import pytest

from attack_kit import PIN, ROOT, Browser, FLIP7, device, serve  # noqa: F401 (fixture)


def test_a_cookie_saved_before_logout_no_longer_unlocks_anything(serve):
    server = serve()
    host = Browser(server.port, device(1))
    assert host.login() == 200
    saved = Browser(server.port, device(2))
    saved.cookies, saved.token = dict(host.cookies), host.token   # copied before logout
    assert saved.call("POST", "/api/match", FLIP7)[0] == 200
    assert host.call("POST", "/api/logout")[0] == 200
    status, _, body = saved.call("POST", "/api/match", FLIP7)
    assert status == 401 and b"enter the host PIN" in body
    assert host.call("POST", "/api/match", FLIP7)[0] == 401


def test_the_host_page_logout_form_ends_the_session_too(serve):
    server = serve()
    host = Browser(server.port, device(3))
    assert host.login() == 200
    saved = dict(host.cookies)
    status, _, _ = host.call("POST", "/host/logout")
    assert status in (302, 303)
    copy = Browser(server.port, device(3))
    copy.cookies, copy.token = saved, host.token
    assert copy.call("POST", "/api/match", FLIP7)[0] == 401


def test_guessing_from_many_addresses_is_bounded_for_the_whole_table(serve):
    server = serve(app={"pin_attempts_total": 8})
    for n in range(8):   # one wrong guess each: no single address is near its own limit
        assert Browser(server.port, device(10 + n)).login("000000") == 403
    fresh = Browser(server.port, device(50))
    assert fresh.login("000000") == 429   # a new address gets no new guesses
    assert fresh.login(PIN) == 429        # not even the right one is checked now
    # the table's own screen (this machine) can still unlock
    assert Browser(server.port, "127.0.0.1").login(PIN) == 200


@pytest.mark.parametrize("iterations,salt,words", [
    ("0", "abcdef0123456789", "from 1,000 to 1,000,000"),
    ("99999999999999999999", "abcdef0123456789", "whole number"),
    ("2000000000", "abcdef0123456789", "whole number"),
    ("200000", "a b$", "must look like"),
    ("200000", "", "salt"),
])
def test_a_pin_hash_that_cannot_be_used_is_refused_at_start_in_words(tmp_path, iterations, salt, words):
    config = tmp_path / "deckhand.toml"
    config.write_text(f'[host]\npin_hash = "pbkdf2_sha256${iterations}${salt}${"0" * 64}"\n')
    t0 = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "device.cli", "run", "--config", str(config),
                           "--db", str(tmp_path / "d.sqlite3"), "--camera", "sim", "--no-bots",
                           "--port", "1", "--bind", "127.0.0.1"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "host.pin_hash" in done.stderr and words in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "d.sqlite3").exists()
