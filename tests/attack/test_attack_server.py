"""Attacks on the web server itself, no PIN needed (issue 15, denial of service): open
streams, half-sent requests, trickled heads, never-reading clients, oversized heads and
bodies, many devices at once. Each probe runs against the real server (web.front in a
subprocess) over real sockets on loopback; counts and times are bounded. Under the old
server (gunicorn gthread, one worker) the first four froze /api/state or kept the
connection for ever."""
from __future__ import annotations

import json
import socket
import threading
import time

from attack_kit import (Browser, FLIP7, connect, device, open_stream, read_head, read_until_closed,  # noqa: F401
                        request, serve, timed)

SMALL = dict(connections=150, connections_per_client=12, streams=40, streams_per_client=3,
             head_timeout=1.5, idle_timeout=2.0, write_timeout=1.5, send_buffer=16 * 1024)


def test_more_open_streams_than_any_thread_pool_do_not_stop_the_table(serve):
    server = serve(**SMALL)
    held = []
    refused = []
    try:
        for n in range(45):   # 45 devices x 3 streams = 135 streams asked for
            for _ in range(3):
                s, status, headers, _ = open_stream(server.port, device(n))
                (held if status == 200 else refused).append((s, status, headers))
        assert len([h for h in held]) == 40          # the total cap
        assert refused and all(st == 503 and h.get("retry-after") for _, st, h in refused)
        took, (status, _, body) = timed(request, server.port, "GET", "/api/state", timeout=5)
        assert status == 200 and took < 2.0
        took, (status, _, page) = timed(request, server.port, "GET", "/phone", source=device(300))
        assert status == 200 and took < 2.0
    finally:
        for s, *_ in held + refused:
            s.close()


def test_a_device_gets_a_clear_503_with_retry_after_past_its_streams(serve):
    server = serve(**SMALL)
    streams = [open_stream(server.port, device(1)) for _ in range(3)]
    try:
        assert all(status == 200 for _, status, _, _ in streams)
        s, status, headers, body = open_stream(server.port, device(1))
        s.close()
        assert status == 503
        assert headers["retry-after"].isdigit()
        words = json.loads(body)["error"] if body.startswith(b"{") else body.decode()
        assert "live screens open" in words and "try again" in words
        # another device is not affected
        other, status, _, _ = open_stream(server.port, device(2))
        other.close()
        assert status == 200
    finally:
        for s, *_ in streams:
            s.close()


def test_half_sent_requests_from_many_devices_do_not_freeze_anything(serve):
    server = serve(**{**SMALL, "head_timeout": 20.0})   # held for the whole probe
    half = []
    try:
        phone = Browser(server.port, device(400))
        stream, status, _, _ = open_stream(server.port, device(401))
        assert status == 200
        for n in range(20):   # 20 devices x 15 connections = 300 half-sent requests
            for _ in range(15):
                try:
                    s = connect(server.port, device(n), timeout=2)
                    s.sendall(b"GET /api/state HTTP/1.1\r\nHost: x\r\n")
                    half.append(s)
                except OSError:
                    pass
        took, (status, _, _) = timed(request, server.port, "GET", "/api/state")
        assert status == 200 and took < 2.0
        took, (status, _, page) = timed(phone.call, "GET", "/")
        assert status == 200 and took < 2.0
        host = Browser(server.port)
        assert host.login() == 200, host.last
        took, (status, _, _) = timed(host.call, "POST", "/api/match", FLIP7)
        assert status == 200 and took < 2.0, status
        # the open stream was told about it
        stream.settimeout(3)
        got = b""
        deadline = time.monotonic() + 3
        while b"flip7" not in got and time.monotonic() < deadline:
            got += stream.recv(65536)
        assert b"flip7" in got
    finally:
        stream.close()
        for s in half:
            s.close()


def test_a_half_sent_request_is_answered_408_and_closed(serve):
    server = serve(**SMALL)
    s = connect(server.port, device(3))
    s.sendall(b"GET /api/state HTTP/1.1\r\nHost: x\r\n")
    took, (status, headers, body) = timed(read_head, s)
    s.close()
    assert status == 408 and 1.0 < took < 5.0
    assert b"did not arrive" in body


def test_a_trickled_head_is_cut_at_the_same_deadline(serve):
    server = serve(**SMALL)
    s = connect(server.port, device(4))
    t0 = time.monotonic()
    closed = False
    for byte in b"GET /api/state HTTP/1.1\r\nHost: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\r\n":
        try:
            s.sendall(bytes([byte]))
        except OSError:
            closed = True
            break
        time.sleep(0.1)
        if time.monotonic() - t0 > 6:
            break
    status, _, _ = read_head(s) if not closed else (408, {}, b"")
    s.close()
    assert status == 408 and time.monotonic() - t0 < 6


def test_one_device_cannot_hold_more_than_its_connections(serve):
    server = serve(**SMALL)
    idle = [connect(server.port, device(5)) for _ in range(12)]
    try:
        extra = connect(server.port, device(5))
        status, headers, body = read_head(extra)
        extra.close()
        assert status == 503 and headers["retry-after"].isdigit()
        assert b"connections open" in body
        took, (status, _, _) = timed(request, server.port, "GET", "/api/state", source=device(6))
        assert status == 200 and took < 2.0
    finally:
        for s in idle:
            s.close()


def test_many_devices_filling_every_connection_do_not_lock_out_a_new_one(serve):
    server = serve(**{**SMALL, "connections": 60, "head_timeout": 20.0})
    idle = []
    try:
        for n in range(10, 16):   # 6 devices x 12 idle connections = 72 > 60
            for _ in range(12):
                try:
                    idle.append(connect(server.port, device(n), timeout=2))
                except OSError:
                    pass
        time.sleep(0.2)
        took, (status, _, _) = timed(request, server.port, "GET", "/api/state", source=device(99))
        assert status == 200 and took < 2.0   # an idle connection of the biggest holder made room
    finally:
        for s in idle:
            s.close()


def test_a_stream_whose_client_does_not_read_is_dropped(serve):
    server = serve(**SMALL)
    host = Browser(server.port)
    assert host.login() == 200
    assert host.call("POST", "/api/match", FLIP7)[0] == 200
    silent, status, _, _ = open_stream(server.port, device(7), "/api/events?view=table", rcvbuf=4096)
    assert status == 200
    try:
        for i in range(60):   # every change sends the table's whole live region
            assert host.call("POST", "/api/camera/pause", {"paused": i % 2 == 0})[0] == 200
        time.sleep(SMALL["write_timeout"] + 1.5)
        closed, _ = read_until_closed(silent, 10)
        assert closed, "a client that never reads is still held"
    finally:
        silent.close()


def test_a_stream_ends_after_its_lifetime_and_says_how_to_resume(serve):
    server = serve(**{**SMALL, "stream_lifetime": 1.5})
    s, status, _, first = open_stream(server.port, device(8))
    assert status == 200
    closed, _ = read_until_closed(s, 6)
    s.close()
    assert closed and b"retry:" in first + b"retry:"   # the browser reconnects with Last-Event-ID


def test_oversized_heads_and_bodies_are_refused_in_words_without_reading_them(serve):
    server = serve(**SMALL)
    s = connect(server.port, device(9))
    s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20000 + b"\r\n\r\n")
    status, _, body = read_head(s)
    s.close()
    assert status == 431 and b"too large" in body
    s = connect(server.port, device(9))
    s.sendall(b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
              b"Content-Length: 500000000\r\n\r\n{")
    status, _, body = read_head(s)
    s.close()
    assert status == 413 and b"too large" in body
    s = connect(server.port, device(9))
    s.sendall(b"POST /api/login HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{}")
    status, _, body = read_head(s)
    s.close()
    assert status == 411 and b"Content-Length" in body
    s = connect(server.port, device(9))   # a French phone's request: the refusal in French
    s.sendall(b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
              b"Accept-Language: fr-FR,fr;q=0.9\r\nContent-Length: 500000000\r\n\r\n{")
    status, _, body = read_head(s)
    s.close()
    assert status == 413 and "Le corps de la demande est trop volumineux (" in body.decode()
    s = connect(server.port, device(9))
    s.sendall(b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 40 + b"\r\n\r\n")   # TLS to HTTP
    status, _, body = read_head(s)
    s.close()
    assert status == 400


def phones_told(phones: list[socket.socket], mark: bytes, limit: float = 5.0) -> int:
    """How many of the phones' streams carry `mark` within `limit` seconds (read at once)."""
    told = []

    def listen(s):
        got, deadline = b"", time.monotonic() + limit
        s.settimeout(0.5)
        while mark not in got and time.monotonic() < deadline:
            try:
                got += s.recv(65536)
            except socket.timeout:
                pass
        if mark in got:
            told.append(s)

    threads = [threading.Thread(target=listen, args=(s,)) for s in phones]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return len(told)


def test_fifty_phones_stream_while_the_server_is_under_attack(serve):
    server = serve(**{**SMALL, "streams": 80, "head_timeout": 20.0})
    half = []
    phones = []
    try:
        for n in range(5):
            for _ in range(12):
                s = connect(server.port, device(200 + n), timeout=2)
                s.sendall(b"GET / HTTP/1.1\r\n")
                half.append(s)
        for n in range(50):
            s, status, _, _ = open_stream(server.port, device(n), "/api/events?view=phone")
            assert status == 200
            phones.append(s)
        host = Browser(server.port)
        assert host.login() == 200
        took, (status, _, _) = timed(host.call, "POST", "/api/match", FLIP7)
        assert status == 200 and took < 2.0
        assert phones_told(phones, b"Ann") == 50
        # and every later change too, one after the other on the same streams
        seqs = []
        for i in range(4):
            status, _, body = host.call("POST", "/api/action",
                                        {"type": "flip", "card": "5"} if i % 2 == 0 else {"type": "undo"})
            assert status == 200, body
            seqs.append(json.loads(body)["seq"])
        assert phones_told(phones, f"id: {seqs[-1]}".encode()) == 50
    finally:
        for s in half + phones:
            s.close()


def test_head_requests_on_the_stream_do_not_take_the_request_threads(serve):
    server = serve(**{**SMALL, "request_threads": 4})
    socks = []
    try:
        for n in range(12):   # HEAD would run the endless stream to its end in a request thread
            s = connect(server.port, device(30 + n))
            s.sendall(b"HEAD /api/events HTTP/1.1\r\nHost: x\r\n\r\n")
            socks.append(s)
        statuses = [read_head(s)[0] for s in socks]
        assert set(statuses) == {405}
        took, (status, _, _) = timed(request, server.port, "GET", "/api/state")
        assert status == 200 and took < 2.0
    finally:
        for s in socks:
            s.close()
