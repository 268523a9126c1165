"""The attack suite's tools: the real web server (web.front over the real app, a real
LiveTable on a real SQLite store) started in a subprocess on loopback, and raw-socket
clients that can come from other loopback addresses (127.0.0.2, 127.0.0.3, ...: on
Linux every 127.x address is this machine), so "one device" and "many devices" can be
told apart as the server sees them."""
from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PIN = "246813"

SERVER = r'''
import json, sys, threading, time
from dataclasses import replace
from device.store import EventStore
from device.table import LiveTable
from web.app import create_app
from web.server import serve, stop_streams
try:
    from web.front import FrontServer, Limits
except ImportError:   # a Deckhand from before issue 15: run the probes against it too
    FrontServer = None

cfg = json.loads(sys.argv[1])
try:
    table = LiveTable(EventStore(cfg["db"]), store_retry=0.2)
except TypeError:
    table = LiveTable(EventStore(cfg["db"]))
try:
    app = create_app(table, host_pin=cfg["pin"], secret_key="attack-suite", heartbeat=0.5,
                     **cfg.get("app", {}))
except TypeError:
    app = create_app(table, host_pin=cfg["pin"], secret_key="attack-suite", heartbeat=0.5)

def ticker():
    while True:
        time.sleep(0.1)
        try:
            table.tick()
        except Exception:
            pass

threading.Thread(target=ticker, daemon=True).start()
if FrontServer is None:
    serve(app, "127.0.0.1", cfg["port"])
else:
    front = FrontServer(app, replace(Limits(), **cfg["limits"]), on_stop=lambda: stop_streams(app))
    front.serve("127.0.0.1", cfg["port"])
'''


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def device(n: int) -> str:
    """The n-th pretend device's address (n >= 2; 127.0.0.1 is the Pi itself)."""
    return f"127.0.{n // 250}.{n % 250 + 2}"


@dataclass
class Server:
    db: Path
    limits: dict
    port: int = field(default_factory=free_port)
    app: dict = field(default_factory=dict)
    proc: subprocess.Popen | None = None
    log: Path | None = None

    def start(self) -> "Server":
        self.log = self.log or self.db.parent / f"server-{self.port}.log"
        cfg = {"db": str(self.db), "pin": PIN, "port": self.port, "limits": self.limits,
               "app": self.app}
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen([sys.executable, "-c", SERVER, json.dumps(cfg)], cwd=ROOT,
                                     env=env, stdout=self.log.open("ab"), stderr=subprocess.STDOUT,
                                     start_new_session=True)
        deadline = time.monotonic() + 30
        while True:
            try:
                status, _, _ = request(self.port, "GET", "/api/state", timeout=2)
                if status == 200:
                    return self
            except (OSError, http.client.HTTPException):
                # not up yet; or a connection made to itself (nothing listens on the
                # port yet and the client drew the same port: it reads its own request)
                pass
            assert self.proc.poll() is None, self.log.read_text()
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> int:
        if self.proc is None or self.proc.poll() is not None:
            return self.proc.returncode if self.proc else 0
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            return self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.kill()
            return -9


def connect(port: int, source: str = "127.0.0.1", timeout: float = 5.0, rcvbuf: int | None = None) -> socket.socket:
    s = socket.socket()
    if rcvbuf is not None:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.settimeout(timeout)
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    return s


def request(port: int, method: str, path: str, body: dict | None = None, headers: dict | None = None,
            source: str = "127.0.0.1", timeout: float = 5.0) -> tuple[int, dict[str, str], bytes]:
    """One request on its own connection: (status, headers lower-cased, body)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
    try:
        data = json.dumps(body).encode() if body is not None else None
        hdrs = {"Content-Type": "application/json", **(headers or {})} if data is not None else dict(headers or {})
        conn.request(method, path, body=data, headers=hdrs)
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


class Browser:
    """Cookies kept across requests, like a browser (one device)."""

    def __init__(self, port: int, source: str = "127.0.0.1"):
        self.port, self.source = port, source
        self.cookies: dict[str, str] = {}
        self.token: str | None = None

    def call(self, method: str, path: str, body: dict | None = None, timeout: float = 5.0):
        headers = {}
        if method == "POST":
            if self.token is None:
                self.token = json.loads(self.call("GET", "/api/session")[2])["csrf_token"]
            headers["X-CSRF-Token"] = self.token
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        status, hdrs, data = request(self.port, method, path, body, headers, self.source, timeout)
        cookie = hdrs.get("set-cookie")
        if cookie:
            name, _, rest = cookie.partition("=")
            self.cookies[name] = rest.split(";", 1)[0]
        return status, hdrs, data

    def login(self, pin: str = PIN) -> int:
        status, _, body = self.call("POST", "/api/login", {"pin": pin})
        self.last = body
        return status


def read_head(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """Read an HTTP response head from a raw socket: (status, headers, body bytes so far)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    if not lines[0]:
        return 0, {}, b""
    status = int(lines[0].split(" ")[1])
    headers = {}
    for line in lines[1:]:
        k, _, v = line.partition(":")
        headers[k.strip().lower()] = v.strip()
    return status, headers, rest


def open_stream(port: int, source: str, path: str = "/api/events", rcvbuf: int | None = None,
                timeout: float = 5.0) -> tuple[socket.socket, int, dict[str, str], bytes]:
    s = connect(port, source, timeout, rcvbuf)
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: deckhand\r\nAccept: text/event-stream\r\n\r\n".encode())
    status, headers, rest = read_head(s)
    return s, status, headers, rest


def read_until_closed(sock: socket.socket, limit: float) -> tuple[bool, int]:
    """Read until the server closes (True) or `limit` seconds pass (False); bytes read."""
    total = 0
    deadline = time.monotonic() + limit
    sock.settimeout(0.2)
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            continue
        except ConnectionError:
            return True, total
        if not chunk:
            return True, total
        total += len(chunk)
    return False, total


def timed(fn, *args, **kwargs):
    t0 = time.monotonic()
    out = fn(*args, **kwargs)
    return time.monotonic() - t0, out


FLIP7 = {"game": "flip7", "seats": [{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"},
                                     {"name": "Cat", "colour": "green"}]}


@pytest.fixture
def serve(tmp_path):
    """serve(**limits) starts the real server with those web.front.Limits; killed after.
    (A fixture here, not in a conftest.py: tests/web's conftest is imported by name.)"""
    started: list[Server] = []

    def start(app: dict | None = None, db=None, **limits) -> Server:
        server = Server(db or tmp_path / "deckhand.sqlite3", limits, app=app or {},
                        log=tmp_path / f"server-{len(started)}.log").start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.kill()
