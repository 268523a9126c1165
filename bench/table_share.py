"""The table's share of card landing -> phone, alone: an action handed to the table
(as the camera thread hands its observation over) until every phone has the event.

A real `LiveTable` on a SQLite file in /tmp (`synchronous=FULL`), the app served by
`web/front.py` (what `deckhand run` serves) over loopback, `--phones` phones following
`/api/events?view=phone` from processes of their own (bench/e2e_latency.py's). A thread
plays a Flip 7 match's actions (the engine's self-play, the real log, growing recent
plays) one every `--gap` seconds through `submit_action`, and for each action the time
from the call to each phone receiving its event is taken, with the camera thread's
wall and CPU time in the call and the CPU of rendering the phone's region (wherever it is
rendered). No camera runs: the figures are the table's own, with fewer neighbours on
the cores than in the e2e bench.

    .venv/bin/python bench/table_share.py [--actions 150] [--phones 5] [--gap 0.1]

Prints median / p95 ms and the load average. Runs against whichever code tree it is in
(an older tree without web/prepare.py renders after the commit, as before).
"""
from __future__ import annotations

import argparse
import importlib
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from e2e_latency import PhoneProcess, pct, time_phone_renders  # noqa: E402

from device.store import EventStore  # noqa: E402
from device.table import LiveTable  # noqa: E402
from engine.core import MatchSpec  # noqa: E402
from web.app import create_app  # noqa: E402
from web.front import FrontServer  # noqa: E402

SEATS = [{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"},
         {"name": "Cat", "colour": "green"}]


def actions(seed: int, count: int) -> tuple[dict, list]:
    spec = {"type": "start", "game": "flip7", "seats": SEATS, "settings": {}, "seed": seed}
    selfplay = importlib.import_module("engine.flip7.selfplay")
    played = list(selfplay.play_match(MatchSpec.from_json(spec), None, seed, rounds=50))
    return spec, played[:count]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--actions", type=int, default=150)
    p.add_argument("--phones", type=int, default=5)
    p.add_argument("--gap", type=float, default=0.1)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--switch-ms", type=float, default=None,
                   help="Python's thread switch interval (sys.setswitchinterval; default 5 ms)")
    args = p.parse_args(argv)
    if args.switch_ms is not None:
        sys.setswitchinterval(args.switch_ms / 1000)

    import logging
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    tmp = Path(tempfile.mkdtemp(prefix="deckhand-share-"))
    store = EventStore(tmp / "share.db")
    table = LiveTable(store)
    spec, moves = actions(7, args.actions + args.warmup)
    table.new_match(spec, "host")
    app = create_app(table, host_pin="2468", secret_key="bench")

    render_cpu = time_phone_renders()

    server = FrontServer(app)
    threading.Thread(target=server.serve, args=("127.0.0.1", 0, False), daemon=True).start()
    server.ready.wait(10)
    phones = [PhoneProcess(f"http://127.0.0.1:{server.address[1]}/api/events?view=phone")
              for _ in range(args.phones)]
    for phone in phones:
        phone.start()
    time.sleep(2.0)   # the phones connected and shown the region now

    sent: list[tuple[int, int, float, float]] = []   # (seq, start ns, wall ms, CPU ms)
    for action in moves:
        start, cpu = time.monotonic_ns(), time.thread_time_ns()
        seq = table.submit_action(action, "camera")["seq"]
        sent.append((seq, start, (time.monotonic_ns() - start) / 1e6,
                     (time.thread_time_ns() - cpu) / 1e6))
        time.sleep(args.gap)
    time.sleep(1.0)
    for phone in phones:
        phone.stop()
    server.stop()
    store.close()

    share, first, wall, cpu, rendered = [], [], [], [], []
    for seq, start, w, c in sent[args.warmup:]:
        arrivals = [ph.arrivals[seq] for ph in phones if seq in ph.arrivals]
        share.extend((a - start) / 1e6 for a in arrivals)
        if arrivals:
            first.append((min(arrivals) - start) / 1e6)
        wall.append(w)
        cpu.append(c)
        if seq in render_cpu:
            rendered.append(render_cpu[seq])
    if not share:
        print("no event reached the phones")
        return 1

    def line(values: list[float]) -> str:
        return f"{statistics.median(values):.1f} / {pct(values, 0.95):.1f}"

    print(f"table share, {len(wall)} actions, {args.phones} phones (front), switch interval "
          f"{sys.getswitchinterval() * 1000:g} ms, load average "
          f"{os.getloadavg()[0]:.1f}; median / p95 ms")
    print(f"  action handed over -> every phone has it: {line(share)} ({len(share)} deliveries); first phone {line(first)}")
    print(f"  the call (referee, commit with fsync, publish): wall {line(wall)}, CPU {line(cpu)}")
    if rendered:
        print(f"  the phone region's render, CPU: {line(rendered)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
