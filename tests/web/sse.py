"""A small Server-Sent Events reader over a raw socket, and a real HTTP server in a
thread, for the live-update tests."""
from __future__ import annotations

import json
import socket
import sys
import threading
import time
import traceback
import warnings

from werkzeug.serving import ThreadedWSGIServer

from web.server import stop_streams


class _Server(ThreadedWSGIServer):
    """werkzeug's threaded server that knows its open connections and their threads, so
    they can be ended: left alone, a stream or a keep-alive connection a browser still
    holds outlives the server (its thread writes heartbeats into a closed table)."""

    def __init__(self, app):
        super().__init__("127.0.0.1", 0, app)
        self.lock = threading.Lock()
        self.open: dict[socket.socket, threading.Thread] = {}

    def process_request_thread(self, request, client_address):
        with self.lock:
            self.open[request] = threading.current_thread()
        try:
            super().process_request_thread(request, client_address)
        finally:
            with self.lock:
                self.open.pop(request, None)


class ServerThread:
    """werkzeug's threaded server on a free loopback port. Leaving the block stops it
    within `STOP_WITHIN` seconds whatever its clients do: its streams are asked to end,
    the serving loop to stop, and every connection still open is shut."""

    STOP_WITHIN = 10.0

    def __init__(self, app):
        self.app = app
        self.server = _Server(app)
        self.port = self.server.server_port
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.1,),
                                       daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop()

    def stop(self, within: float | None = None) -> list[threading.Thread]:
        """Stop serving; the threads (the loop's, requests') still alive after `within`
        seconds, each named with its stack in a warning (they are daemons: they do not
        hold the run)."""
        deadline = time.monotonic() + (self.STOP_WITHIN if within is None else within)
        stop_streams(self.app)                 # streams end within web.live.WAKE
        # socketserver's shutdown() waits without limit for the loop: ask in a thread
        threading.Thread(target=self.server.shutdown, daemon=True).start()
        self.thread.join(max(0.0, deadline - time.monotonic()))
        _shut(self.server.socket)              # also wakes a loop stuck in accept()
        self.server.server_close()
        with self.server.lock:
            still = dict(self.server.open)
        for conn, thread in still.items():
            _shut(conn)                        # a held stream or idle keep-alive: EOF
        left = [t for t in [self.thread, *still.values()]
                if (t.join(max(0.0, deadline - time.monotonic())), t.is_alive())[1]]
        if left:
            frames = sys._current_frames()
            stacks = "\n".join(f"{t.name}:\n" + "".join(traceback.format_stack(frames[t.ident]))
                               for t in left if t.ident in frames)
            warnings.warn(f"the test server on port {self.port} did not stop within its "
                          f"limit; threads left:\n{stacks}", RuntimeWarning, stacklevel=2)
        return left


def _shut(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass                                   # already closed, or never connected


class SSEReader:
    """GET a stream and read its messages one by one."""

    def __init__(self, port: int, path: str, headers: dict[str, str] | None = None,
                 timeout: float = 5.0):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        lines = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Accept: text/event-stream",
                 "Connection: close"]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.file = self.sock.makefile("rb")
        self.status = int(self.file.readline().split()[1])
        self.headers = {}
        while True:
            line = self.file.readline().decode().strip()
            if not line:
                break
            k, _, v = line.partition(":")
            self.headers[k.strip().lower()] = v.strip()
        self.chunked = self.headers.get("transfer-encoding") == "chunked"
        self._buf = b""

    def _more(self) -> bytes:
        if not self.chunked:
            data = self.file.read1(65536)
        else:
            size = int(self.file.readline().strip() or b"0", 16)
            data = self.file.read(size)
            self.file.readline()
        if not data:
            raise EOFError("stream closed")
        return data

    def message(self) -> dict:
        """The next message: {"id", "event", "data" (parsed JSON), "comment"}."""
        while b"\n\n" not in self._buf:
            self._buf += self._more()
        raw, self._buf = self._buf.split(b"\n\n", 1)
        msg: dict = {"id": None, "data": None, "comment": None, "retry": None}
        for line in raw.decode().split("\n"):
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "":
                msg["comment"] = value
            elif field == "data":
                msg["data"] = json.loads(value)
            elif field in ("id", "retry", "event"):
                msg[field] = value
        return msg

    def event(self) -> dict:
        """The next message that carries data (skipping retry and heartbeats)."""
        while True:
            msg = self.message()
            if msg["data"] is not None:
                return msg

    def close(self):
        self.sock.close()
