"""A small Server-Sent Events reader over a raw socket, and a real HTTP server in a
thread, for the live-update tests."""
from __future__ import annotations

import json
import socket
import threading

from werkzeug.serving import make_server


class ServerThread:
    """werkzeug's threaded server on a free loopback port."""

    def __init__(self, app):
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.port = self.server.server_port
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()


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
