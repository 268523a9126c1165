"""Where the camera thread's time goes on the frame that makes a card's play.

The simulated table of `deckhand run` (`device.simtable.SimScene`, seed 5), read as the
camera loop reads it (`StillFrames`, `ZoneTracker`): a hand reaches over the bare
discard spot and rests there (7 frames), lays a card (4 frames), goes away; the first
frame after it is the landing frame; then the card is cleared (Flip 7's bots clear each
card) and the spot seen bare. For every landing frame, the camera thread's CPU time
(`time.thread_time_ns`, so what other processes take does not count) of drawing it and of
each stage of reading it, the stages timed by wrapping the functions (a few microseconds
each); then median and p95 over the landings. Last, the frame the card was laid in (the hand
still over it, 50 ms before the landing frame at the e2e bench's speed): drawn and read longer
than a frame's time, it is still being read when the next frame is due.

    OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 .venv/bin/python bench/landing_frame.py [--landings 16] [--game flip7]

The e2e bench (`bench/e2e_latency.py`) gives the same frame's draw and read CPU inside the
running appliance, with the bots' timing; this one gives the parts.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from device.simtable import SimScene  # noqa: E402
from device.vision_loop import ZoneTracker  # noqa: E402
from vision import detect, pipeline, regions  # noqa: E402
from vision.pipeline import Recognizer, StillFrames  # noqa: E402
from vision.render.cards import game_deck  # noqa: E402

# (module, function, label): the reading's stages, in the order they run
STAGES = ((pipeline, "small_copies", "small copies (thumbnail, grey copy)"),
          (regions, "shrunk", "  of them the grey copy to compare"),
          (regions, "changed_pixels", "changed pixels (whole frame)"),
          (regions, "_boxes_to_search", "boxes to search"),
          (detect, "outlines", "  finder in the box: outlines"),
          (detect, "_fit", "  finder in the box: fitting outlines"),
          (detect, "_outer_frame", "  finder in the box: printed frame"),
          (detect, "_unexplained", "  finder in the box: second look"),
          (regions, "detect", "finder in the box, whole"),
          (pipeline.regions, "find", "finding, whole"))


def _timed(acc: dict[str, list[int]], on: list[bool], real, label: str):
    def timed(*args, **kwargs):
        start = time.thread_time_ns()
        try:
            return real(*args, **kwargs)
        finally:
            if on[0]:
                acc[label].append(time.thread_time_ns() - start)
    return timed


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--landings", type=int, default=16)
    p.add_argument("--game", default="flip7")
    args = p.parse_args(argv)
    cv2.setNumThreads(1)
    from test_vision_support import profile

    acc: dict[str, list[int]] = defaultdict(list)
    on = [False]
    for module, name, label in STAGES:
        setattr(module, name, _timed(acc, on, getattr(module, name), label))
    Recognizer.read_card = _timed(acc, on, Recognizer.read_card, "reading the card")

    scene = SimScene(args.game, seed=5)
    recognizer = Recognizer.create(profile(args.game), scene.empty_frame())
    recognizer.warm_up(scene.empty_frame())
    loop, tracker = StillFrames(), ZoneTracker(scene.zone_rects())
    codes = [card.code for card in game_deck(args.game)]
    t = [0]
    at_once = 0

    def frame(timed: bool = False, before: bool = False) -> tuple:
        t[0] += 1
        on[0] = timed
        start = time.thread_time_ns()
        image = scene.render(t[0])
        drawn = time.thread_time_ns()
        reading = loop.read(recognizer, image)
        read = time.thread_time_ns()
        events = tracker.update(reading, t[0])
        done = time.thread_time_ns()
        on[0] = False
        if before:   # the frame the card is laid in, the hand over it: it may still be being
            # read when the hand goes, and then the landing frame waits for it
            acc["frame before: DRAWING (card laid, hand)"].append(drawn - start)
            acc["frame before: READING + tracker"].append(done - drawn)
        if timed:
            acc["DRAWING the frame (the simulator)"].append(drawn - start)
            acc["READING it (StillFrames.read)"].append(read - drawn)
            acc["tracker"].append(done - read)
            acc["READING + tracker"].append(done - drawn)
        return events

    for _ in range(3):
        frame()
    for i in range(args.landings + 1):    # the first landing is left out (one-off set-ups)
        scene.reach("discard")
        for _ in range(7):
            frame()
        scene.lay("discard", codes[(i * 7) % len(codes)])
        frame(before=i > 0)
        for _ in range(3):
            frame()
        scene.withdraw()
        at_once += bool(frame(timed=i > 0)) and i > 0
        for _ in range(3):
            frame()
        scene.clear("discard")
        for _ in range(10):
            frame()
    print(f"{args.game}: {args.landings} landings, {at_once} counted on the landing frame itself; "
          "camera thread CPU ms per landing frame")
    print(f"  {'stage':40s} {'calls':>5s} {'median':>7s} {'p95':>7s} {'mean/frame':>10s}")
    for label in ["DRAWING the frame (the simulator)"] + [s[2] for s in STAGES] + \
            ["reading the card", "READING it (StillFrames.read)", "tracker", "READING + tracker",
             "frame before: DRAWING (card laid, hand)", "frame before: READING + tracker"]:
        values = np.array(acc.get(label, [0])) / 1e6
        print(f"  {label:40s} {len(acc.get(label, [])):5d} {np.median(values):7.2f} "
              f"{np.percentile(values, 95):7.2f} {values.sum() / args.landings:10.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
