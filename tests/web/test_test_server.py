"""The web tests' own HTTP server (tests/web/sse.py) stops within its limit whatever its
clients do: a browser that still holds a stream or an unused connection when its test
ends (a test that failed before closing its pages) does not keep a thread writing into
the closed table, and a serving loop that stops answering cannot hold the run (the
CI run of stop 26 waited 5,400 s after a browser test)."""
from __future__ import annotations

import socket
import threading
import time

import pytest

from sse import ServerThread, SSEReader


def test_a_held_stream_ends_with_the_server(app, table):
    srv = ServerThread(app).__enter__()
    stream = SSEReader(srv.port, "/api/events")
    stream.message()
    # a connection opened ahead and not used yet (browsers preconnect): its thread waits
    # for a request line that does not come
    idle = socket.create_connection(("127.0.0.1", srv.port), timeout=5)
    waited = time.monotonic() + 10.0           # the server takes it in its own time
    while len(srv.server.open) < 2 and time.monotonic() < waited:
        time.sleep(0.05)
    assert len(srv.server.open) == 2
    t0 = time.monotonic()
    assert srv.stop() == []
    assert time.monotonic() - t0 < 3.0
    with pytest.raises((EOFError, OSError)):
        for _ in range(5):                     # before: a heartbeat every 0.5 s, for ever
            stream.message()
    assert idle.recv(1) == b""
    assert not srv.server.open
    stream.close()
    idle.close()


def test_a_loop_that_stops_answering_is_left_within_the_limit(app):
    srv = ServerThread(app).__enter__()
    stuck, release = threading.Event(), threading.Event()

    def hang():                                # the loop's hook between two polls
        stuck.set()
        release.wait(30)

    srv.server.service_actions = hang
    assert stuck.wait(5)
    t0 = time.monotonic()
    with pytest.warns(RuntimeWarning, match="did not stop within its limit") as said:
        left = srv.stop(within=1.0)
    took = time.monotonic() - t0
    release.set()
    assert left == [srv.thread] and took < 2.0           # before: shutdown() never returned
    assert "release.wait" in str(said[0].message)        # the stuck thread's stack is shown
    with pytest.raises(OSError):                         # and the port is closed
        socket.create_connection(("127.0.0.1", srv.port), timeout=2)
