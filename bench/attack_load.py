"""The table under a connection attack: one client holds 300 connections open (idle,
half-sent requests, and live streams it never reads) while 50 phones follow the live
stream and the host plays; how fast /api/state and a host action answer, and whether
the phones still get every change.

    .venv/bin/python bench/attack_load.py [--root DIR] [--attack 300] [--phones 50]
                                          [--requests 100] [--seconds 60]

`deckhand run` (the real command, simulated camera, no bots) serves from the checkout
at --root (default: this one; point it at another checkout to compare servers). The
attacker is 127.0.0.2, each phone its own loopback address (127.0.0.x: all this
machine), the host 127.0.0.1. Every request has a 5 s time-out: one that times out is
counted as "no answer". The attacker (a process of its own) tops its connections back up every half second
(what the server closes or refuses, it opens again), so it holds what it can all along.
Loopback only; everything stops by itself after --seconds at most.
"""
from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import selectors
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PIN = "246813"
ATTACKER = "127.0.0.2"
FLIP7 = {"game": "flip7", "seats": [{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"},
                                     {"name": "Cat", "colour": "green"}]}


def phone_address(i: int) -> str:
    return f"127.0.{(i + 10) // 250}.{(i + 10) % 250 + 2}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Host:
    """The host's browser (127.0.0.1): cookie, CSRF token, timed requests."""

    def __init__(self, port: int):
        self.port = port
        self.cookie = ""
        self.token = ""

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, bytes, float]:
        t0 = time.monotonic()
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
        try:
            headers = {"Cookie": self.cookie} if self.cookie else {}
            data = None
            if body is not None:
                data = json.dumps(body).encode()
                headers.update({"Content-Type": "application/json", "X-CSRF-Token": self.token})
            conn.request(method, path, body=data, headers=headers)
            r = conn.getresponse()
            out = r.read()
            cookie = r.getheader("Set-Cookie")
            if cookie:
                self.cookie = cookie.split(";", 1)[0]
            return r.status, out, time.monotonic() - t0
        except OSError:
            return 0, b"", time.monotonic() - t0
        finally:
            conn.close()

    def login(self) -> None:
        status, body, _ = self.call("GET", "/api/session")
        self.token = json.loads(body)["csrf_token"]
        status, body, _ = self.call("POST", "/api/login", {"pin": PIN})
        assert status == 200, body


class Attacker:
    """One address holding `total` connections: a third idle, a third half-sent heads,
    a third live streams it never reads. Runs in a process of its own (`attack`), so
    its socket work does not slow the host's timed requests in this one."""

    def __init__(self, port: int, total: int, until: float):
        self.port, self.total, self.until = port, total, until
        self.socks: dict[str, list[socket.socket]] = {"idle": [], "half": [], "silent": []}
        self.opened = self.failed = self.refused = 0
        self.peak_open = 0

    def _open(self, kind: str) -> None:
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.settimeout(1)
        try:
            s.bind((ATTACKER, 0))
            s.connect(("127.0.0.1", self.port))
            if kind == "half":
                s.sendall(b"GET /api/state HTTP/1.1\r\nHost: x\r\n")
            elif kind == "silent":
                s.sendall(b"GET /api/events?view=table HTTP/1.1\r\nHost: x\r\n\r\n")
            s.setblocking(False)
            self.socks[kind].append(s)
            self.opened += 1
        except OSError:
            self.failed += 1
            s.close()

    def _prune(self) -> None:
        """Forget connections the server has let go: closed, reset, or answered (a 503 or
        408; an unread stream's first bytes are its 200 head). Stream bodies stay unread."""
        for kind, socks in self.socks.items():
            alive = []
            for s in socks:
                try:
                    peek = s.recv(12, socket.MSG_PEEK)
                    if peek == b"" or (peek and not peek.startswith(b"HTTP/1.1 200")):
                        self.refused += peek != b""
                        s.close()
                        continue
                except BlockingIOError:
                    pass
                except OSError:
                    s.close()
                    continue
                alive.append(s)
            self.socks[kind] = alive

    def held(self) -> int:
        return sum(len(v) for v in self.socks.values())

    def close(self) -> None:
        for socks in self.socks.values():
            for s in socks:
                s.close()


def attack(port: int, total: int, until: float, report, stop) -> None:
    """The attacker's process: attack until `until` or `stop`, then report its counts."""
    attacker = Attacker(port, total, until)
    share = total // 3
    while time.monotonic() < attacker.until and not stop.is_set():
        attacker._prune()
        for kind in attacker.socks:
            while len(attacker.socks[kind]) < share and time.monotonic() < attacker.until:
                attacker._open(kind)
        time.sleep(0.5)
        attacker._prune()
        attacker.peak_open = max(attacker.peak_open, attacker.held())
    report.put({"peak_open": attacker.peak_open, "held": attacker.held(), "opened": attacker.opened,
                "refused": attacker.refused, "failed": attacker.failed})
    attacker.close()


class Phones(threading.Thread):
    """`n` phones, each from its own address, reading /api/events?view=phone."""

    def __init__(self, port: int, n: int, until: float):
        super().__init__(daemon=True)
        self.sel = selectors.DefaultSelector()
        self.until = until
        self.buffers: list[bytes] = [b""] * n
        self.last_seq = [0] * n
        self.connected = self.closed = 0
        for i in range(n):
            try:
                s = socket.create_connection(("127.0.0.1", port), timeout=5,
                                             source_address=(phone_address(i), 0))
                s.sendall(b"GET /api/events?view=phone HTTP/1.1\r\nHost: x\r\n\r\n")
                s.setblocking(False)
                self.sel.register(s, selectors.EVENT_READ, i)
                self.connected += 1
            except OSError:
                pass

    def run(self) -> None:
        while time.monotonic() < self.until:
            for key, _ in self.sel.select(0.2):
                i = key.data
                try:
                    chunk = key.fileobj.recv(65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    self.sel.unregister(key.fileobj)
                    self.closed += 1
                    continue
                buf = self.buffers[i] + chunk
                while b"\n\n" in buf:
                    message, buf = buf.split(b"\n\n", 1)
                    for line in message.split(b"\n"):
                        if line.startswith(b"id: "):
                            self.last_seq[i] = int(line[4:])
                self.buffers[i] = buf[-200000:]

    def told(self, seq: int) -> int:
        return sum(1 for s in self.last_seq if s >= seq)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def figures(name: str, times: list[float], failures: int) -> str:
    if not times:
        return f"  {name}: no answer at all ({failures} timed out or failed)"
    ms = [t * 1000 for t in times]
    return (f"  {name}: {len(ms)} answered, {failures} no answer; p50 {statistics.median(ms):.0f} ms, "
            f"p95 {pct(ms, 95):.0f} ms, max {max(ms):.0f} ms")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", type=Path, default=ROOT, help="the checkout whose `deckhand run` serves")
    ap.add_argument("--attack", type=int, default=300, help="connections the attacker holds")
    ap.add_argument("--phones", type=int, default=50)
    ap.add_argument("--requests", type=int, default=100, help="/api/state and host actions each")
    ap.add_argument("--seconds", type=float, default=60.0, help="hard stop")
    args = ap.parse_args()

    port = free_port()
    workdir = tempfile.mkdtemp(prefix="deckhand-attack-")
    log = Path(workdir) / "run.log"
    python = args.root / ".venv" / "bin" / "python"
    env = {**os.environ, "DECKHAND_KNOWN_STORES": str(Path(workdir) / "known")}
    proc = subprocess.Popen([str(python if python.exists() else sys.executable), "-m", "device.cli", "run",
                             "--camera", "sim", "--no-bots", "--db", str(Path(workdir) / "d.sqlite3"),
                             "--port", str(port), "--bind", "127.0.0.1", "--host-pin", PIN],
                            cwd=args.root, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT,
                            start_new_session=True)
    started = time.monotonic()
    until = started + args.seconds
    attacker = phones = None
    try:
        host = Host(port)
        while host.call("GET", "/api/state")[0] != 200:
            if proc.poll() is not None or time.monotonic() > started + 40:
                print(log.read_text()[-2000:])
                return 1
            time.sleep(0.2)
        host.login()
        assert host.call("POST", "/api/match", FLIP7)[0] == 200
        load_before = os.getloadavg()
        report, stop = multiprocessing.Queue(), multiprocessing.Event()
        attacker = multiprocessing.Process(target=attack, args=(port, args.attack, until, report, stop),
                                           daemon=True)
        attacker.start()
        time.sleep(3.0)   # the attacker opens what it can
        phones = Phones(port, args.phones, until)
        phones.start()
        time.sleep(1.0)
        state_times, action_times = [], []
        state_fail = action_fail = 0
        last_seq = 0
        for i in range(args.requests):
            if time.monotonic() > until - 5:
                break
            status, _, took = host.call("GET", "/api/state")
            (state_times.append(took) if status == 200 else None)
            state_fail += status != 200
            body = {"type": "flip", "card": "5"} if i % 2 == 0 else {"type": "undo"}
            status, out, took = host.call("POST", "/api/action", body)
            if status == 200:
                action_times.append(took)
                last_seq = json.loads(out)["seq"]
            else:
                action_fail += 1
            time.sleep(0.05)
        waited = time.monotonic()
        while phones.told(last_seq) < phones.connected - phones.closed and time.monotonic() < waited + 5:
            time.sleep(0.05)
        waited = time.monotonic() - waited
        told = phones.told(last_seq) if last_seq else 0
        load_after = os.getloadavg()
        stop.set()
        counts = report.get(timeout=30)
        print(f"attack load: `deckhand run` from {args.root}, {os.cpu_count()} cores, "
              f"load average {load_before[0]:.2f} before, {load_after[0]:.2f} after "
              f"(1 min; other sessions share this machine)")
        print(f"  attacker {ATTACKER}: keeps asking for {args.attack} connections (a third idle, a "
              f"third half-sent, a third unread streams); open as it counts them (with those still "
              f"in the listen queue) at most {counts['peak_open']}, {counts['held']} at the end; "
              f"{counts['opened']} opened in all, "
              f"{counts['refused']} answered 503/408 and closed, {counts['failed']} connects failed")
        print(f"  phones: {phones.connected}/{args.phones} streams opened, {phones.closed} closed by "
              f"the server; {told} were told the last action (seq {last_seq}), all of them "
              f"{waited:.1f} s after its answer")
        print(figures("GET /api/state", state_times, state_fail))
        print(figures("host action POST /api/action", action_times, action_fail))
        goal = bool(state_times) and bool(action_times) and pct([t * 1000 for t in state_times], 95) < 200 \
            and pct([t * 1000 for t in action_times], 95) < 200 and state_fail == 0 and action_fail == 0
        print(f"  goal (p95 < 200 ms, every request answered): {'met' if goal else 'NOT met'}")
        return 0
    finally:
        if attacker is not None and attacker.is_alive():
            attacker.terminate()
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        said = [line for line in log.read_text(errors="replace").splitlines() if "web front stopped" in line]
        if said:
            print("  the server's own count: " + said[-1].split("web front stopped: ", 1)[1])


if __name__ == "__main__":
    sys.exit(main())
