"""Live updates over real HTTP: each change arrives as an SSE event whose id is its
seq; a browser reconnecting with Last-Event-ID gets exactly what it missed; idle
streams get heartbeats; screen streams carry their rendered live region."""
from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
import textwrap
import time
import urllib.request

from conftest import FLIP7
from sse import ServerThread, SSEReader


def test_stream_starts_with_the_snapshot_then_follows_changes(app, table):
    table.new_match({"type": "start", **FLIP7}, "host")
    with ServerThread(app) as srv:
        r = SSEReader(srv.port, "/api/events")
        assert r.status == 200 and r.headers["content-type"].startswith("text/event-stream")
        first = r.event()
        assert int(first["id"]) == table.snapshot()["seq"] == first["data"]["seq"]
        assert first["data"]["snapshot"]["match"]["game"] == "flip7"
        table.submit({"type": "flip", "card": "4"}, "camera")
        ev = r.event()
        assert int(ev["id"]) == int(first["id"]) + 1 and ev["data"]["kind"] == "action"
        assert ev["data"]["snapshot"]["view"]["table"]["lines"][1]["numbers"] == [4]
        r.close()


def test_reconnect_with_last_event_id_misses_nothing(app, table):
    table.new_match({"type": "start", **FLIP7}, "host")
    with ServerThread(app) as srv:
        r = SSEReader(srv.port, "/api/events")
        last = int(r.event()["id"])
        r.close()
        cards = ["1", "2", "3", "4"]
        for card in cards[:3]:  # the deal, while the phone is away
            table.submit({"type": "flip", "card": card}, "camera")
        table.submit({"type": "undo"}, "host")
        r = SSEReader(srv.port, "/api/events", {"Last-Event-ID": str(last)})
        got = [r.event() for _ in range(4)]
        assert [int(e["id"]) for e in got] == list(range(last + 1, last + 5))
        assert [e["data"]["kind"] for e in got] == ["action", "action", "action", "undo"]
        assert got[-1]["data"]["snapshot"] == table.snapshot()
        r.close()
        # ?since= does the same for the first connection of a page
        r = SSEReader(srv.port, f"/api/events?since={last + 3}")
        assert int(r.event()["id"]) == last + 4
        r.close()


def test_idle_stream_sends_heartbeats(app, table):
    with ServerThread(app) as srv:
        r = SSEReader(srv.port, f"/api/events?since={table.snapshot()['seq']}")
        comments = [r.message()["comment"] for _ in range(2)]
        assert "heartbeat" in comments
        r.close()


def test_screen_streams_carry_rendered_html_in_the_devices_language(app, table):
    table.new_match({"type": "start", **FLIP7}, "host")
    with ServerThread(app) as srv:
        seq = table.snapshot()["seq"]
        en = SSEReader(srv.port, f"/api/events?view=phone&since={seq}")
        fr = SSEReader(srv.port, f"/api/events?view=table&since={seq}", {"Cookie": "lang=fr"})
        table.submit({"type": "flip", "card": "9"}, "camera")
        ev_en, ev_fr = en.event(), fr.event()
        assert ev_en["data"]["seq"] == seq + 1 and "snapshot" not in ev_en["data"]
        assert 'data-code="9"' in ev_en["data"]["html"] and "Whose turn" in ev_en["data"]["html"]
        assert "À qui de jouer" in ev_fr["data"]["html"]
        en.close(), fr.close()


def test_bad_stream_requests_are_refused(app):
    c = app.test_client()
    assert c.get("/api/events", headers={"Last-Event-ID": "abc"}).status_code == 400
    assert c.get("/api/events?since=-3").status_code == 400
    assert c.get("/api/events?view=nope").status_code == 400
    assert c.get("/api/events?view=pad").status_code == 400
    r = c.get("/api/events?view=host")
    assert r.status_code == 401 and "PIN" in r.get_json()["error"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_runs_the_app_and_stops_with_a_stream_open(tmp_path):
    port = _free_port()
    script = tmp_path / "serve.py"
    script.write_text(textwrap.dedent(f"""
        from device.store import EventStore
        from device.table import LiveTable
        from web.app import create_app
        from web.server import serve

        def build():
            table = LiveTable(EventStore({str(tmp_path / 'g.sqlite3')!r}))
            table.new_match({{"type": "start", "game": "flip7", "seats": ["A", "B", "C"]}}, "host")
            return create_app(table, host_pin="1234", heartbeat=0.5)

        serve(build, "127.0.0.1", {port})
    """))
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    proc = subprocess.Popen([sys.executable, str(script)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 15
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=2) as resp:
                    state = resp.read().decode()
                break
            except (OSError, http.client.HTTPException):   # not up, or connected to itself
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise AssertionError(proc.stdout.read().decode() if proc.poll() is not None else "no answer")
                time.sleep(0.1)
        assert '"game":"flip7"' in state.replace(" ", "")
        r = SSEReader(port, "/api/events?since=0")
        ev = r.event()  # seq 0 is older than anything: one event with the latest snapshot
        assert int(ev["id"]) >= 1 and ev["data"]["snapshot"]["match"]["game"] == "flip7"
        assert r.message()["comment"] == "heartbeat"
        r.close()
        r = SSEReader(port, "/api/events")  # an open stream must not hold up the stop
        r.event()
        started = time.monotonic()
        proc.terminate()
        assert proc.wait(timeout=10) == 0
        assert time.monotonic() - started < 5
        assert b"SIGKILL" not in proc.stdout.read()
        r.close()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_stream_ends_when_the_server_stops_and_beats_only_when_quiet():
    import threading

    from web.live import event_stream

    calls = []
    stop = threading.Event()

    def events_since(seq, timeout):
        calls.append(timeout)
        if len(calls) == 3:
            return [{"seq": seq + 1, "kind": "action", "snapshot": {}}]
        if len(calls) == 6:
            stop.set()
        return []

    now = [0.0]

    def clock():
        now[0] += 0.4
        return now[0]

    out = list(event_stream(events_since, lambda: {"seq": 0}, 5, lambda ev: ev, 1.0, stop, clock))
    assert out[0].startswith("retry:")
    assert sum(1 for x in out if x.startswith("id: 6")) == 1
    assert all(t <= 1.0 for t in calls) and len(calls) == 6
    assert out.count(": heartbeat\n\n") >= 1


def test_fragment_cache_renders_each_key_once_for_many_streams():
    import threading

    from web.live import FragmentCache

    cache, calls, gate = FragmentCache(size=2), [], threading.Event()

    def render():
        calls.append(1)
        gate.wait(2)
        return "<p>x</p>"

    results = []
    threads = [threading.Thread(target=lambda: results.append(cache.get(("phone", "en", 1), render)))
               for _ in range(20)]
    for th in threads:
        th.start()
    gate.set()
    for th in threads:
        th.join()
    assert results == ["<p>x</p>"] * 20 and len(calls) == 1
    for seq in (2, 3):
        cache.get(("phone", "en", seq), lambda: "y")
    assert cache.get(("phone", "en", 1), lambda: "again") == "again"  # evicted: oldest first


def test_phones_of_one_view_share_one_encoding_of_each_message(app, table, monkeypatch):
    import web.views.api as api
    encoded: list[int] = []
    real = api.json_data

    def counting(data):
        encoded.append(data["seq"])
        return real(data)

    monkeypatch.setattr(api, "json_data", counting)
    table.new_match({"type": "start", **FLIP7}, "host")
    with ServerThread(app) as srv:
        phones = [SSEReader(srv.port, "/api/events?view=phone") for _ in range(3)]
        for phone in phones:
            phone.event()
        seq = table.submit({"type": "flip", "card": "4"}, "camera")["seq"]
        got = [phone.event()["data"] for phone in phones]
        for phone in phones:
            phone.close()
    assert got[0]["seq"] == seq and got[0] == got[1] == got[2] and "Bob" in got[0]["html"]
    assert encoded.count(seq) == 1
