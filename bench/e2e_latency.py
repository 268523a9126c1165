"""End to end: from a card appearing in the camera's frames to the phones showing it.

The whole appliance runs in this process (simulated camera at 30 fps, real vision and
tracker, referee, SQLite store with synchronous=FULL, bots playing Flip 7), served over
real HTTP on loopback; `--phones` SSE clients follow `/api/events?view=phone` (the
phone's rendered HTML, as browsers get it). For every card the bots lay, the time from
the card landing in the scene (the next frame shows it) to each phone receiving the
event that logged it is measured.

    .venv/bin/python bench/e2e_latency.py [--cards 60] [--phones 5] [--fps 30] [--game flip7]
        [--stable-frames 3] [--alone-share 0.1|off] [--hand-phase bots|random]

Prints median, p95 and max in milliseconds, the camera's frame rate, and what the camera
part of each card's time is made of: the hand still over the card, the wait for the first
frame drawn after it left, the frames after that one until the tracker spoke, drawing
that frame and reading it (recognizer, tracker, referee); then the table's part: the
referee, the store's append (the SQLite commit with its fsync), the snapshot published,
the first stream thread waking for it, the phone's live region rendered, and the bytes
reaching the phones. Under load from other processes every part but the hand grows: the
load average is printed with the figures. `--server werkzeug` (the default, as the
figures in docs/vision.md were taken) serves the app with werkzeug's threaded server;
`--server front` with the asyncio front of web/front.py, as `deckhand run` does.
`--hand-phase random` lets each hand reach a random 0 to 1/fps later than the bots would: the
bots lay their next card a fixed time after they see the last one logged, and the camera thread
logs it, so by default the moment the hand leaves is locked to the camera's frames at a phase
the camera thread's own timing sets (a quicker camera thread moves the hand's leaving earlier
against the frames, and its saving shows as a longer wait); players are timed by no camera.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from device.cli import BLAS_THREADS  # noqa: E402

# One BLAS thread, as `deckhand` sets it before numpy is imported: numpy's default spreads
# every template product over both cores, its waiting threads taking CPU from the camera
# loop and the web threads (the bench measured the appliance slower than it runs).
for _name in BLAS_THREADS:
    os.environ.setdefault(_name, "1")

from werkzeug.serving import make_server  # noqa: E402

from device import store as store_module  # noqa: E402

from device.app import Appliance, RunOptions  # noqa: E402
from device.config import Config  # noqa: E402
from device.vision_loop import ZoneTracker  # noqa: E402
from vision.pipeline import REFINE_SCALES, Recognizer  # noqa: E402
from vision.track import TrackSettings  # noqa: E402


class Phone(threading.Thread):
    """A phone following the stream from a thread of the appliance's process."""

    def __init__(self, url: str):
        super().__init__(daemon=True)
        self.url = url
        self.arrivals: dict[int, int] = {}

    def run(self) -> None:
        try:
            with urllib.request.urlopen(self.url, timeout=60) as r:
                for raw in r:
                    if raw.startswith(b"data:"):
                        now = time.monotonic_ns()
                        seq = json.loads(raw[5:])["seq"]
                        self.arrivals.setdefault(seq, now)
        except Exception:
            return

    def stop(self) -> None:
        pass


# A phone of its own: another process (a phone is another device), so its reading of the
# stream takes no turns with the appliance's threads. It prints "seq monotonic_ns" for
# each event as it arrives: CLOCK_MONOTONIC is one clock for every process of the host.
PHONE = """
import json, sys, time, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=60) as r:
    for raw in r:
        if raw.startswith(b"data:"):
            now = time.monotonic_ns()
            print(json.loads(raw[5:])["seq"], now, flush=True)
"""


class PhoneProcess:
    """A phone following the stream from a process of its own; `arrivals` once stopped."""

    def __init__(self, url: str):
        self.url = url
        self.arrivals: dict[int, int] = {}
        self._process: subprocess.Popen | None = None

    def start(self) -> None:
        self._process = subprocess.Popen([sys.executable, "-c", PHONE, self.url], stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, text=True)

    def stop(self) -> None:
        if self._process is None:
            return
        self._process.terminate()
        out, _ = self._process.communicate(timeout=10)
        for line in out.splitlines():
            seq, _, now = line.partition(" ")
            if seq.isdigit() and now.isdigit():
                self.arrivals.setdefault(int(seq), int(now))


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def print_breakdown(cards: list[int], laid, shown, snapshots, drawn, frame_of, observed, cpu) -> None:
    """Where the camera part of each card's time goes: the hand still over it, the wait for
    the first frame drawn after the hand left, the frames after that one until the
    tracker spoke, drawing that frame, and reading it (recognizer + tracker); and the
    camera thread's CPU time for the drawing and the reading of the frame that made the
    event (what a busy machine's wall times are made of before the waiting for a core)."""
    order = sorted(snapshots)
    parts: dict[str, list[float]] = {k: [] for k in ("hand", "wait", "frames", "draw", "read")}
    after: list[int] = []
    used: list[int] = []
    for i in cards:
        first = next((f for f in order if snapshots[f] > shown[i]), None)
        k = frame_of[i]
        if first is None or k not in drawn:
            continue
        after.append(k - first)
        used.append(i)
        parts["hand"].append((shown[i] - laid[i]) / 1e6)
        parts["wait"].append((snapshots[first] - shown[i]) / 1e6)
        parts["frames"].append((snapshots[k] - snapshots[first]) / 1e6)
        parts["draw"].append((drawn[k] - snapshots[k]) / 1e6)
        parts["read"].append((observed[i] - drawn[k]) / 1e6)
    if not after:
        return
    print("  camera part by card (median / p95 ms): " + ", ".join(
        f"{name} {statistics.median(v):.0f} / {pct(v, 0.95):.0f}" for name, v in parts.items()))
    spread = ", ".join(f"{n:+d}: {after.count(n)}" for n in sorted(set(after)))
    print(f"  frame that made the event, counted from the first frame drawn after the hand left: {spread}")
    made = [(frame_of[i], n) for i, n in zip(used, after)
            if frame_of[i] in cpu["read"] and frame_of[i] in cpu["draw"]]
    for what, group in (("on the first frame after the hand", [k for k, n in made if n <= 0]),
                        ("on a later frame", [k for k, n in made if n > 0])):
        if group:
            draw = [cpu["draw"][k] / 1e6 for k in group]
            read = [cpu["read"][k] / 1e6 for k in group]
            print(f"  camera thread CPU for the frame that made the event, {what} ({len(group)}), median / p95 ms:"
                  f" draw {statistics.median(draw):.1f} / {pct(draw, 0.95):.1f},"
                  f" read {statistics.median(read):.1f} / {pct(read, 0.95):.1f}")


def table_breakdown(logged, observed, committed, logged_at, asked, rendered, phones) -> dict[str, list[float]]:
    """Where the table's part of each card's time goes (ms): the referee and the engine
    before the store's append, the append (SQLite commit with its fsync), the snapshot
    built and published, the first stream thread waking and asking for the phone's live
    region, rendering it, and from then to each phone having the event."""
    parts: dict[str, list[float]] = {k: [] for k in ("referee", "commit", "publish", "wake", "render", "send")}
    done: set[int] = set()
    for index, seq in logged:
        if index in done or index not in committed or seq not in asked or seq not in rendered:
            continue
        done.add(index)
        start, end = committed[index]
        parts["referee"].append((start - observed[index]) / 1e6)
        parts["commit"].append((end - start) / 1e6)
        parts["publish"].append((logged_at[index] - end) / 1e6)
        parts["wake"].append((asked[seq] - logged_at[index]) / 1e6)
        parts["render"].append((rendered[seq] - asked[seq]) / 1e6)
        parts["send"].extend((phone.arrivals[seq] - rendered[seq]) / 1e6 for phone in phones if seq in phone.arrivals)
    return parts if done else {}


def time_phone_renders() -> dict[int, float]:
    """From now on, the thread CPU ms of rendering the phone's live region, by seq, wherever
    it is rendered (a stream thread; web.prepare's thread during the commit, in a tree that
    has it)."""
    import importlib
    import web.live
    render_cpu: dict[int, float] = {}
    for name in ("web.views.api", "web.prepare"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        real = getattr(module, "render_live", web.live.render_live)

        def timed(screen, snapshot, lang, *a, _real=real, **k):
            start = time.thread_time_ns()
            html = _real(screen, snapshot, lang, *a, **k)
            if screen == "phone":
                render_cpu.setdefault(int(snapshot["seq"]), (time.thread_time_ns() - start) / 1e6)
            return html

        module.render_live = timed
    return render_cpu


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cards", type=int, default=60)
    p.add_argument("--phones", type=int, default=5)
    p.add_argument("--fps", type=float, default=30.0)
    p.add_argument("--game", default="flip7")
    p.add_argument("--speed", type=float, default=3.0)
    p.add_argument("--warmup", type=int, default=3, help="first cards left out (recognizer loading)")
    p.add_argument("--stable-frames", type=int, default=TrackSettings().stable_frames,
                   help="the tracker's stable frames")
    p.add_argument("--alone-share", default=str(TrackSettings().alone_share),
                   help="the tracker's alone_share ('off': a card always waits for the stable frames)")
    p.add_argument("--server", choices=("werkzeug", "front"), default="werkzeug",
                   help="the web server the phones follow (front: web/front.py, as `deckhand run`)")
    p.add_argument("--phones-in", choices=("processes", "threads"), default="processes",
                   help="each phone reads its stream in a process of its own (as another device would),"
                        " or in a thread of the appliance's process (before 26 Nov session 6: their reading"
                        " took turns with the appliance's threads)")
    p.add_argument("--hand-phase", choices=("bots", "random"), default="bots",
                   help="when the hand reaches for a card against the camera's frames: as the bots time it (a"
                        " fixed time after they saw the last action logged, which the camera thread logs: so"
                        " the hand leaves at a phase set by the camera thread's own timing), or a random 0 to"
                        " 1/fps later (as a player, who is not timed by the camera: the wait for the first"
                        " frame after the hand then spreads evenly over a frame)")
    p.add_argument("--switch-ms", type=float, default=None,
                   help="Python's thread switch interval for the whole process (sys.setswitchinterval)")
    args = p.parse_args(argv)
    if args.switch_ms is not None:
        sys.setswitchinterval(args.switch_ms / 1000)
    settings = TrackSettings(stable_frames=args.stable_frames,
                             alone_share=None if args.alone_share == "off" else float(args.alone_share))

    import logging
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    tmp = Path(tempfile.mkdtemp(prefix="deckhand-e2e-"))
    options = RunOptions(game=args.game, speed=args.speed, camera="sim", db=tmp / "e2e.db",
                         fps=args.fps, seed=5)
    appliance = Appliance(options, Config())
    laid: list[int] = []            # monotonic ns of each card landing
    logged: list[tuple[int, int]] = []   # (lay index, seq) of each camera-read card

    appliance.start()
    # the tracker with these settings from the next frame on (the first cards are warm-up)
    appliance.vision._make_tracker = lambda zones: ZoneTracker(zones, settings)
    appliance.vision._game = None
    scene, table = appliance.scene, appliance.table
    real_lay, real_withdraw, real_observe = scene.lay, scene.withdraw, table.observe_event
    if args.hand_phase == "random":
        import random
        phase, real_reach = random.Random(5), scene.reach

        def reach(zone):
            time.sleep(phase.uniform(0, 1 / args.fps))   # the bots' thread: the hand comes later
            real_reach(zone)

        scene.reach = reach
    shown: list[int] = []            # monotonic ns of the hand leaving each card in full view
    observed: dict[int, int] = {}    # lay index -> when the camera's observation reached the table
    logged_at: dict[int, int] = {}   # lay index -> when the table had logged and published it

    def lay(zone, code):
        real_lay(zone, code)
        laid.append(time.monotonic_ns())

    def withdraw():
        real_withdraw()
        if len(shown) < len(laid):
            shown.append(time.monotonic_ns())

    appends: list[tuple[int, int]] = []     # (start, end) of the store's appends (commit + fsync)
    committed: dict[int, tuple[int, int]] = {}   # lay index -> its append's (start, end)
    real_append = store_module.EventStore.append

    def append(self, *a, **k):
        start = time.monotonic_ns()
        try:
            return real_append(self, *a, **k)
        finally:
            appends.append((start, time.monotonic_ns()))

    store_module.EventStore.append = append

    table_cpu: list[float] = []      # the camera thread's CPU ms for the table's part of each card

    def observe(observation, source):
        before = table.seq
        arrived = time.monotonic_ns()
        count = len(appends)
        cpu_start = time.thread_time_ns()
        result = real_observe(observation, source)
        if source == "camera" and laid and result["seq"] > before:
            table_cpu.append((time.thread_time_ns() - cpu_start) / 1e6)
            logged.append((len(laid) - 1, result["seq"]))
            observed.setdefault(len(laid) - 1, arrived)
            logged_at.setdefault(len(laid) - 1, time.monotonic_ns())
            if len(appends) > count:
                committed.setdefault(len(laid) - 1, appends[count])
        return result

    snapshots: dict[int, int] = {}     # frame index -> when the scene was drawn for it
    drawn: dict[int, int] = {}         # frame index -> when its drawing was done
    cpu: dict[str, dict[int, int]] = {"draw": {}, "read": {}}   # the camera thread's CPU ns
    frame_of: dict[int, int] = {}      # lay index -> the frame whose reading made the event
    current: list[int] = [-1, 0]       # the frame being read, and its thread CPU time at the start
    real_render, real_process = scene.render, appliance.vision.process

    def render(index=0):
        snapshots[index] = time.monotonic_ns()
        start = time.thread_time_ns()
        image = real_render(index)
        cpu["draw"][index] = time.thread_time_ns() - start
        drawn[index] = time.monotonic_ns()
        return image

    def process(image, t_ns, index=0):
        current[0], current[1] = index, time.thread_time_ns()
        return real_process(image, t_ns, index)

    # the built-in reader's second looks (a card read "unknown" read again from eight
    # outlines): how many, on which frames, and the camera thread's CPU for them
    second_looks: dict[int, list[int]] = {}
    real_refined = Recognizer._refined

    def refined(self, frame, corners, first):
        start = time.thread_time_ns()
        out = real_refined(self, frame, corners, first)
        second_looks.setdefault(current[0], []).append(time.thread_time_ns() - start)
        return out

    Recognizer._refined = refined

    def observe_timed(observation, source):
        if source == "camera":
            cpu["read"].setdefault(current[0], time.thread_time_ns() - current[1])
        result = observe(observation, source)
        if source == "camera" and laid:
            frame_of.setdefault(len(laid) - 1, current[0])
        return result

    scene.lay, scene.withdraw, table.observe_event = lay, withdraw, observe_timed
    appliance.vision.source._render, appliance.vision.process = render, process
    app = appliance.web_app()
    # the phone's live region: when the first stream thread asked for it after a change
    # (it had woken), and when it was rendered
    fragments = app.extensions["deckhand"].fragments
    asked: dict[int, int] = {}
    rendered: dict[int, int] = {}
    real_get = fragments.get

    def get(key, render):
        asked.setdefault(key[2], time.monotonic_ns())
        html = real_get(key, render)
        rendered.setdefault(key[2], time.monotonic_ns())
        return html

    fragments.get = get
    render_cpu = time_phone_renders()
    if args.server == "front":
        from web.front import FrontServer
        server = FrontServer(app)
        threading.Thread(target=server.serve, args=("127.0.0.1", 0, False), daemon=True).start()
        server.ready.wait(10)
        port = server.address[1]
        server.shutdown = server.stop
    else:
        server = make_server("127.0.0.1", 0, app, threaded=True)
        port = server.server_port
        threading.Thread(target=server.serve_forever, daemon=True).start()
    kind = PhoneProcess if args.phones_in == "processes" else Phone
    phones = [kind(f"http://127.0.0.1:{port}/api/events?view=phone") for _ in range(args.phones)]
    for phone in phones:
        phone.start()
    t0 = time.monotonic()
    frames0 = appliance.vision.frames_read
    try:
        while len(logged) < args.cards + args.warmup and time.monotonic() - t0 < 600:
            time.sleep(0.2)
        time.sleep(1.0)   # the last events reach the phones
    finally:
        elapsed = time.monotonic() - t0
        frames = appliance.vision.frames_read - frames0
        stats = appliance.bots.stats
        for phone in phones:
            phone.stop()
        appliance.stop()
        server.shutdown()

    seen_once: set[int] = set()
    latencies, from_view, camera_part, table_part, log_part, push_part, first_push = [], [], [], [], [], [], []
    for index, seq in logged[args.warmup:]:
        if index in seen_once:
            continue
        seen_once.add(index)
        camera_part.append((observed[index] - laid[index]) / 1e6)
        log_part.append((logged_at[index] - observed[index]) / 1e6)
        reached = [phone.arrivals[seq] for phone in phones if seq in phone.arrivals]
        if reached:
            first_push.append((min(reached) - logged_at[index]) / 1e6)
        for phone in phones:
            if seq in phone.arrivals:
                latencies.append((phone.arrivals[seq] - laid[index]) / 1e6)
                table_part.append((phone.arrivals[seq] - observed[index]) / 1e6)
                push_part.append((phone.arrivals[seq] - logged_at[index]) / 1e6)
                if index < len(shown):
                    from_view.append((phone.arrivals[seq] - shown[index]) / 1e6)
    if not latencies:
        print("no card reached the phones")
        return 1
    print(f"{args.game}, {len(seen_once)} cards read by the camera, {args.phones} phones (SSE, view=phone, {args.server}), "
          f"camera asked for {args.fps:g} fps")
    print(f"  card lands -> phone shows it: median {statistics.median(latencies):.0f} ms, "
          f"p95 {pct(latencies, 0.95):.0f} ms, max {max(latencies):.0f} ms  ({len(latencies)} deliveries)")
    print(f"  hand off the card -> phone shows it: median {statistics.median(from_view):.0f} ms, "
          f"p95 {pct(from_view, 0.95):.0f} ms  (the hand leaves {150 / args.speed:.0f} ms after the card lands)")
    quick = "off" if settings.alone_share is None else f"{settings.alone_share:g}"
    print(f"  tracker: {settings.stable_frames} stable frames, or one once the hand has gone"
          f" (alone_share {quick}); switch interval {sys.getswitchinterval() * 1000:g} ms;"
          f" hand phase {args.hand_phase};"
          f" load average {os.getloadavg()[0]:.1f}")
    print(f"  of which camera (frames, recognizer, tracker): median {statistics.median(camera_part):.0f} ms, "
          f"p95 {pct(camera_part, 0.95):.0f} ms; referee + SQLite commit + publish + SSE: median "
          f"{statistics.median(table_part):.0f} ms, p95 {pct(table_part, 0.95):.0f} ms")
    print(f"    referee + SQLite commit + publish (the camera thread): median {statistics.median(log_part):.1f} ms,"
          f" p95 {pct(log_part, 0.95):.1f} ms; published -> phone (SSE threads, fragment, socket): median "
          f"{statistics.median(push_part):.1f} ms, p95 {pct(push_part, 0.95):.1f} ms (the first phone of each card:"
          f" median {statistics.median(first_push):.1f}, p95 {pct(first_push, 0.95):.1f} ms)")
    table_parts = table_breakdown(logged[args.warmup:], observed, committed, logged_at, asked, rendered, phones)
    if table_parts:
        print("  table part by card (median / p95 ms): " + ", ".join(
            f"{name} {statistics.median(v):.1f} / {pct(v, 0.95):.1f}" for name, v in table_parts.items()))
    counted = [render_cpu[seq] for _, seq in logged[args.warmup:] if seq in render_cpu]
    if table_cpu[args.warmup:] and counted:
        cam = table_cpu[args.warmup:]
        print(f"  table part CPU (median / p95 ms): camera thread's referee + commit + publish"
              f" {statistics.median(cam):.2f} / {pct(cam, 0.95):.2f}, the phone region's render"
              f" {statistics.median(counted):.2f} / {pct(counted, 0.95):.2f}")
    print(f"  camera loop: {frames / elapsed:.1f} frames/s read over {elapsed:.0f} s "
          f"(a frame every {1000 / max(frames / elapsed, 1e-9):.0f} ms)")
    print_breakdown([i for i in sorted(seen_once) if i in frame_of and i < len(shown)],
                    laid, shown, snapshots, drawn, frame_of, observed, cpu)
    made = {frame_of[i] for i in seen_once if i in frame_of}
    on_path = [ns for k, looks in second_looks.items() if k in made for ns in looks]
    print(f"  second looks (a card read unknown, read again from {len(REFINE_SCALES)} outlines):"
          f" {sum(map(len, second_looks.values()))} over {frames} frames read, {len(on_path)} on the frames"
          f" that made the events ({sum(on_path) / 1e6:.1f} ms camera thread CPU)")
    print(f"  bots: {stats.actions} actions, {stats.seen_by_camera} cards read, "
          f"{stats.camera_missed} missed, {stats.misread} misread")
    return 0


if __name__ == "__main__":
    sys.exit(main())
