"""Soak: `deckhand run` on the simulated table at 20x speed (30 minutes of game time in
90 s) with 50 phones following the live stream over loopback.

    .venv/bin/python bench/soak.py [--seconds 90] [--phones 50] [--speed 20] [--game flip7]

Prints the server's memory (RSS of its processes) at the start and the end, the camera
loop's frames read against the frames asked for (the rest would be dropped by a real
camera), how many updates each phone missed (gaps in the seq ids it was sent), how far
apart the 50 phones received the same update (fan-out), and the bots' corrections.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def group_rss_mb(pgid: int) -> float:
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if os.getpgid(int(entry)) != pgid:
                continue
            with open(f"/proc/{entry}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except (OSError, ProcessLookupError):
            continue
    return total / 1024


class Phone(threading.Thread):
    def __init__(self, url: str, stop: threading.Event):
        super().__init__(daemon=True)
        self.url, self.stop = url, stop
        self.arrivals: dict[int, int] = {}
        self.order: list[int] = []
        self.reconnects = 0

    def run(self) -> None:
        last = None
        while not self.stop.is_set():
            headers = {"Last-Event-ID": str(last)} if last is not None else {}
            try:
                req = urllib.request.Request(self.url, headers=headers)
                with urllib.request.urlopen(req, timeout=10) as r:
                    for raw in r:
                        if self.stop.is_set():
                            return
                        if raw.startswith(b"data:"):
                            seq = json.loads(raw[5:])["seq"]
                            self.arrivals.setdefault(seq, time.monotonic_ns())
                            self.order.append(seq)
                            last = seq
            except Exception:
                if self.stop.is_set():
                    return
                self.reconnects += 1
                time.sleep(0.2)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=90)
    p.add_argument("--phones", type=int, default=50)
    p.add_argument("--speed", type=float, default=20)
    p.add_argument("--game", default="flip7")
    p.add_argument("--fps", type=float, default=30)
    args = p.parse_args(argv)

    tmp = Path(tempfile.mkdtemp(prefix="deckhand-soak-"))
    port, log = free_port(), tmp / "soak.log"
    proc = subprocess.Popen([str(ROOT / ".venv/bin/deckhand"), "run", "--camera", "sim", "--speed", str(args.speed),
                             "--db", str(tmp / "soak.db"), "--port", str(port), "--game", args.game,
                             "--bind", "127.0.0.1", "--threads", str(args.phones + 16)],
                            cwd=ROOT, start_new_session=True, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=2).read()
            break
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                print("deckhand run did not start"); return 1
            time.sleep(0.1)
    stop = threading.Event()
    phones = [Phone(f"http://127.0.0.1:{port}/api/events?view=phone", stop) for _ in range(args.phones)]
    for phone in phones:
        phone.start()
    time.sleep(3)
    rss_start = group_rss_mb(proc.pid)
    t0 = time.monotonic()
    samples = []
    while time.monotonic() - t0 < args.seconds:
        time.sleep(5)
        samples.append(group_rss_mb(proc.pid))
    rss_end = group_rss_mb(proc.pid)
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=5) as r:
        final = json.load(r)
    stop.set()
    t1 = time.monotonic()
    os.killpg(proc.pid, signal.SIGTERM)
    code = proc.wait(timeout=30)
    stop_s = time.monotonic() - t1
    text = log.read_text(errors="replace")

    figures = re.findall(r"figures: (.*)", text)
    seqs = sorted(set().union(*(set(p.arrivals) for p in phones)))
    gaps = []
    for phone in phones:
        got = sorted(s for s in phone.arrivals if s >= seqs[0])
        gaps.append(sum(b - a - 1 for a, b in zip(got, got[1:]) if b - a > 1))
    spreads = []
    for seq in seqs:
        times = [p.arrivals[seq] for p in phones if seq in p.arrivals]
        if len(times) == len(phones):
            spreads.append((max(times) - min(times)) / 1e6)
    spreads.sort()
    game_minutes = args.seconds * args.speed / 60
    print(f"{args.game} at x{args.speed:g} for {args.seconds:.0f} s (~{game_minutes:.0f} min of play), "
          f"{args.phones} phones on /api/events?view=phone")
    print(f"  server RSS: {rss_start:.0f} MB at start, {rss_end:.0f} MB at end "
          f"(growth {rss_end - rss_start:+.1f} MB; max sample {max(samples):.0f} MB)")
    print(f"  RSS every 5 s: {' '.join(f'{x:.0f}' for x in samples)} MB")
    print(f"  updates: {len(seqs)} seq ids sent, final seq {final['seq']}, match {final['match']['id']}; "
          f"phones missing updates: {sum(1 for g in gaps if g)} (total gaps {sum(gaps)}), "
          f"reconnects {sum(p.reconnects for p in phones)}")
    if spreads:
        print(f"  fan-out (first to last of {args.phones} phones, same update): median "
              f"{statistics.median(spreads):.1f} ms, p95 {spreads[int(0.95 * (len(spreads) - 1))]:.1f} ms, "
              f"max {spreads[-1]:.1f} ms")
    if figures:
        print(f"  {figures[-1]}")
        m = re.search(r"camera: (\d+) frames in (\d+) s", figures[-1])
        if m:
            frames, secs = int(m.group(1)), int(m.group(2))
            asked = args.fps * secs
            print(f"  frames: {frames} read of {asked:.0f} a {args.fps:g} fps camera gives "
                  f"({100 * (1 - frames / asked):.0f} % would be dropped)")
    print(f"  SIGTERM: exit {code} in {stop_s:.1f} s; errors in the log: {text.count('Traceback')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
