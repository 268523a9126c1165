"""How long teaching a 54-face deck takes, live and from photos (wall time, this machine).

    .venv/bin/python bench/teach_speed.py                  # both
    .venv/bin/python bench/teach_speed.py --skip photos    # live only

The self-check lines end with its views not read right, a wrong card and "unknown" apart.

The deck is Solo's "alt" printing (a deck of the UNO family drawn as a commercial deck
might be), its first 54 faces.

* **live**: the simulated table (`vision.render.teaching.sliding_row`) shows rows of 3
  faces slid and turned a little every frame; `device.live_teaching.LiveTeacher`
  collects until every face has enough views, row after row, then trains in the
  background. Printed: frames looked at, the collector's time, the players' time at the
  camera (frames looked at x the collector's pace, at least one look every 0.15 s), and
  the training's wall time (players need not wait for it).
* **photos**: 162 photos (3 a face) rendered on random tables, some cut from the real
  photographs in ../shared; `vision.teach.teach_folder` as `deckhand teach` runs it:
  wall and CPU time, photos skipped (no card found, or a crop too poor to teach from).

Fixed seeds. Say the machine's load when quoting the times.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from device.live_teaching import ENOUGH, POLL_S, LiveTeacher  # noqa: E402
from device.vision_loop import LatestFrame  # noqa: E402
from vision.profile import deck_colour  # noqa: E402
from vision.render.cards import deck_codes  # noqa: E402
from vision.render.scene import spread_scene  # noqa: E402
from vision.render.teaching import empty_of, sliding_row  # noqa: E402
from vision.teach import teach_folder  # noqa: E402
from web.words import english  # noqa: E402

ROW = 3


class Feed:
    def __init__(self, codes, seed):
        self.render = sliding_row("solo", codes, "alt", seed)
        self.empty = empty_of("solo", seed)
        self.looks = 0

    def latest(self):
        self.looks += 1
        return LatestFrame(self.render(self.looks), self.looks, self.looks, None, None)


def named(code: str) -> str:
    """The name a host would type: the colour word first ("red R7"), as live teaching
    takes a card's colour from its name."""
    colour = deck_colour("solo", code)
    return f"{colour} {code}" if colour else code


def not_right(check: list[dict]) -> str:
    """The self-check's views not read right, split as a wrong card and "unknown" (from its
    messages: "teach.confused" and "teach.unsure" count every such view): a wrong card costs
    a game far more than an unknown one, so the two are printed apart."""
    wrong = sum(m["params"]["count"] for m in check if m["code"] == "teach.confused")
    unknown = sum(m["params"]["count"] for m in check if m["code"] == "teach.unsure")
    return f"not right: {wrong} read as another card, {unknown} unknown"


def live(codes: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        teacher = LiveTeacher(Path(tmp) / "taught.npz")
        looks, collecting = 0, 0.0
        for start in range(0, len(codes), ROW):
            row = [named(c) for c in codes[start:start + ROW]]
            feed = Feed(codes[start:start + ROW], seed=start)
            t0 = time.perf_counter()
            teacher.start(row, feed.latest, lambda: feed.empty)
            while any(f["shots"] < ENOUGH for f in teacher.status()["faces"] if f["label"] in row):
                if feed.looks > 400:
                    print(f"  row {row}: gave up after 400 frames")
                    break
                time.sleep(0.05)
            teacher.stop()
            collecting += time.perf_counter() - t0
            looks += feed.looks
        t0 = time.perf_counter()
        teacher.train()
        teacher.wait(3600)
        training = time.perf_counter() - t0
        status = teacher.status()
        per_look = collecting / max(looks, 1)
        print(f"live: {len(codes)} faces in rows of {ROW}, {ENOUGH} views each: {looks} frames looked at, "
              f"collector {collecting:.0f} s ({1000 * per_look:.0f} ms a frame); players' time at the camera "
              f"≈ {looks * max(per_look, POLL_S) / 60:.1f} min (+ laying out {len(codes) // ROW + 1} rows)")
        check = english(status["check"][0]).rstrip(".") if status["check"] else "no check"
        print(f"  training in the background: {training:.0f} s wall; {check}; {not_right(status['check'])}")


def photos(codes: list[str]) -> None:
    rng = np.random.default_rng(3)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        rows = ["file,label,colour"]
        for code in codes:
            for k in range(3):
                scene = spread_scene("solo", [code], rng, style="alt")
                name = f"{code}-{k}.jpg"
                cv2.imwrite(str(folder / name), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
                rows.append(f"{name},{code},{deck_colour('solo', code)}")
        (folder / "labels.csv").write_text("\n".join(rows) + "\n")
        t0, cpu = time.perf_counter(), time.process_time()
        taught = teach_folder(folder, folder / "labels.csv", "solo-alt")
        seconds, cpu = time.perf_counter() - t0, time.process_time() - cpu
        why = Counter(reason.code for _, reason in taught.skipped)
        print(f"photos: {len(rows) - 1} photos of {len(codes)} faces taught in {seconds:.0f} s wall, {cpu:.0f} s CPU "
              f"({len(taught.skipped)} skipped and named: {why['teach.no_card']} no card found, "
              f"{why['teach.poor_crop']} poor crops, {why['teach.no_field'] + why['teach.too_small']} no card of the deck); "
              f"{taught.check.lines()[0]}; "
              f"{not_right([w.message() for w in taught.check.said()])}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--faces", type=int, default=54)
    parser.add_argument("--skip", default="", help="live,photos")
    args = parser.parse_args(argv)
    codes = list(deck_codes("solo"))[:args.faces]
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if "live" not in args.skip:
        live(codes)
    if "photos" not in args.skip:
        photos(codes)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
