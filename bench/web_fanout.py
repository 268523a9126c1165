"""Live-update fan-out: N phones on Server-Sent Events, actions posted by the host, how
long until every phone has each change, and whether any phone missed one.

    .venv/bin/python bench/web_fanout.py [--clients 50] [--actions 200] [--interval 0.05]
                                         [--view phone|table|none]

The app runs under the production server (web.server.serve: the asyncio front of
web/front.py) in a child process, on a real LiveTable over a real SQLite file. The phones are
non-blocking sockets in this process, each from its own loopback address, each on /api/events?view=phone (the rendered live
region, as a phone page gets it). Latency of one change on one phone = the moment its
event arrives minus the moment the host began the POST that logged it (so it includes
the POST itself: an upper bound on "logged -> on the phone").
"""
from __future__ import annotations

import argparse
import json
import os
import random
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.core import MatchSpec  # noqa: E402
from engine.flip7.selfplay import play_match  # noqa: E402

SERVER = """
from device.store import EventStore
from device.table import LiveTable
from web.app import create_app
from web.server import serve

def build():
    return create_app(LiveTable(EventStore({db!r})), host_pin="1234", heartbeat=5.0)

from dataclasses import replace
from web.front import Limits
serve(build, "127.0.0.1", {port}, replace(Limits(), request_threads={threads}))
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, threads: int, workdir: str) -> subprocess.Popen:
    script = Path(workdir) / "serve.py"
    script.write_text(textwrap.dedent(SERVER.format(db=str(Path(workdir) / "bench.sqlite3"),
                                                   port=port, threads=threads)))
    proc = subprocess.Popen([sys.executable, str(script)], cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=1).read()
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


class Host:
    """The host's browser: session cookie, CSRF token, JSON POSTs."""

    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        with self.opener.open(f"{base}/api/session") as r:
            self.token = json.load(r)["csrf_token"]
        self.post("/api/login", {"pin": "1234"})

    def post(self, path: str, body: dict) -> dict:
        req = urllib.request.Request(f"{self.base}{path}", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json",
                                              "X-CSRF-Token": self.token})
        with self.opener.open(req) as r:
            return json.load(r)


class Phones:
    """N event streams read by one selector loop in a thread; arrival time per seq."""

    def __init__(self, port: int, n: int, since: int, view: str):
        self.sel = selectors.DefaultSelector()
        self.arrivals: list[dict[int, float]] = [{} for _ in range(n)]
        self.buffers = [b""] * n
        self.stop = False
        for i in range(n):
            # each phone from its own loopback address, as phones on the Wi-Fi are
            s = socket.create_connection(("127.0.0.1", port),
                                         source_address=(f"127.0.{i // 250}.{i % 250 + 2}", 0))
            query = f"view={view}&since={since}" if view != "none" else f"since={since}"
            s.sendall(f"GET /api/events?{query} HTTP/1.0\r\n"
                      f"Host: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
            s.setblocking(False)
            self.sel.register(s, selectors.EVENT_READ, i)
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop:
            for key, _ in self.sel.select(timeout=0.2):
                now = time.perf_counter()
                i = key.data
                try:
                    data = key.fileobj.recv(1 << 20)
                except BlockingIOError:
                    continue
                if not data:
                    self.sel.unregister(key.fileobj)
                    continue
                buf = self.buffers[i] + data
                *lines, rest = buf.split(b"\n")
                self.buffers[i] = rest
                for line in lines:
                    if line.startswith(b"id: "):
                        self.arrivals[i].setdefault(int(line[4:]), now)

    def close(self) -> None:
        self.stop = True
        self.thread.join()
        for key in list(self.sel.get_map().values()):
            key.fileobj.close()


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--actions", type=int, default=200)
    ap.add_argument("--interval", type=float, default=0.05, help="seconds between actions")
    ap.add_argument("--threads", type=int, default=12)
    ap.add_argument("--view", default="phone", choices=["phone", "table", "none"],
                    help="what each stream carries: a screen's live region, or the snapshot JSON")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as workdir:
        port = free_port()
        server = start_server(port, args.threads, workdir)
        try:
            base = f"http://127.0.0.1:{port}"
            host = Host(base)
            seats = ["Ann", "Bob", "Cat", "Dan"]
            spec = {"game": "flip7", "seats": seats, "settings": {"target": 10_000}}
            host.post("/api/match", spec)
            actions = []
            seed = 1
            while len(actions) < args.actions:  # bot rounds, as many as needed
                m = MatchSpec.from_json({"type": "start", **spec, "seed": seed})
                actions = [a.to_json() for a in play_match(m, seed=seed)][: args.actions]
                seed += 1
            with urllib.request.urlopen(f"{base}/api/state") as r:
                since = json.load(r)["seq"]
            phones = Phones(port, args.clients, since, args.view)
            time.sleep(1.0)  # every stream connected and waiting
            sent: dict[int, float] = {}
            for action in actions:
                t0 = time.perf_counter()
                seq = host.post("/api/action", action)["seq"]
                sent[seq] = t0
                time.sleep(random.uniform(0.5, 1.5) * args.interval)
            time.sleep(1.5)
            phones.close()
        finally:
            server.terminate()
            server.wait(timeout=10)

    latencies, lost = [], 0
    for arrivals in phones.arrivals:
        for seq, t0 in sent.items():
            if seq in arrivals:
                latencies.append((arrivals[seq] - t0) * 1000)
            else:
                lost += 1
    print(f"web fan-out: {args.clients} SSE phones (view={args.view}), {len(sent)} host actions, "
          f"~{args.interval * 1000:.0f} ms apart, web front with {args.threads} request threads")
    if latencies:
        print(f"  POST start -> on every phone: p50 {statistics.median(latencies):.1f} ms, "
              f"p95 {percentile(latencies, 95):.1f} ms, p99 {percentile(latencies, 99):.1f} ms, "
              f"max {max(latencies):.1f} ms  (goal: p95 < 100 ms)")
    print(f"  deliveries {len(latencies)} of {len(sent) * args.clients}; lost {lost} (goal: 0)")


if __name__ == "__main__":
    main()
