"""Finding cards only where the frame changed (`vision.regions`) against finding them in
the whole frame (`vision.detect`), on rendered 640x480 scenes of 8 cards:

    .venv/bin/python bench/regions_bench.py --scenes 60 [--photo-tables] [--game solo]

For each scene, the frame before one card was laid (its place painted with the empty
table, as the vision bench's speed section does) is found whole; then the frame with the
card is found regionally and whole (the card landing), and the frame without it again
(the card taken away). Printed: how many scenes give the same outlines both ways (every
corner within 1.5 px), how many fell back to the whole frame, and the finder's CPU time
(this process, one thread) median and p95 both ways; and the camera loop's whole changed
frame (`StillFrames`: finding, then reading the cards that changed) with the whole frame
searched (as before `vision.regions`) and only where it changed; with the load average.
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from vision import regions  # noqa: E402
from vision.detect import changed_pixels, detect  # noqa: E402
from vision.pipeline import Recognizer, StillFrames  # noqa: E402
from vision.profile import builtin_profile  # noqa: E402
from vision.render.scene import random_scene  # noqa: E402
from vision_bench import _one_card_away  # noqa: E402

SAME = 1.5   # pixels: two outlines this close corner by corner are the same


def same_outlines(a, b) -> bool:
    """Whether two findings hold the same outlines (in any order)."""
    if len(a.cards) != len(b.cards):
        return False
    left = [c.corners for c in b.cards]
    for card in a.cards:
        match = next((i for i, o in enumerate(left) if float(np.abs(o - card.corners).max()) <= SAME), None)
        if match is None:
            return False
        left.pop(match)
    return True


def timed(function, *args):
    c0 = time.process_time()
    result = function(*args)
    return result, (time.process_time() - c0) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", type=int, default=60)
    parser.add_argument("--game", default="solo")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--photo-tables", action="store_true", help="real tables cut from photos")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    profile = builtin_profile(args.game)
    rng = np.random.default_rng(args.seed)
    whole_ms, part_ms, gone_whole_ms, gone_part_ms, loop_whole_ms, loop_part_ms = [], [], [], [], [], []
    scenes = same_landed = same_gone = whole_falls = same_labels = 0
    for _ in range(args.scenes):
        scene = random_scene(args.game, rng, n_cards=8, photo_tables=args.photo_tables)
        before = _one_card_away(scene)
        if before is None:
            continue
        scenes += 1
        r = Recognizer.create(profile, scene.empty)
        _, last = regions.find(before, r.table, r.settings, None)
        whole, ms = timed(detect, scene.image, r.table, r.settings)
        whole_ms.append(ms)
        changed = changed_pixels(cv2.GaussianBlur(scene.image, (3, 3), 0), r.table, r.settings)
        whole_falls += regions.changed_boxes(last.grey, regions.shrunk(scene.image), last.detection.cards,
                                             changed) is None
        (part, landed), ms = timed(regions.find, scene.image, r.table, r.settings, last)
        part_ms.append(ms)
        same_landed += same_outlines(whole, part)
        for regional, times in ((False, loop_whole_ms), (True, loop_part_ms)):
            loop = StillFrames()
            loop.read(r, before)
            if not regional:
                loop.found = None     # as before vision.regions: the whole frame searched
            landed_reading, ms = timed(loop.read, r, scene.image)
            times.append(ms)
            same_labels += regional and sorted(c.label for c in landed_reading.cards) == \
                sorted(c.label for c in r.read(scene.image).cards)
        gone, ms = timed(detect, before, r.table, r.settings)
        gone_whole_ms.append(ms)
        (gone_part, _), ms = timed(regions.find, before, r.table, r.settings, landed)
        gone_part_ms.append(ms)
        same_gone += same_outlines(gone, gone_part)

    def figures(ms):
        return f"median {statistics.median(ms):.2f} ms, p95 {float(np.percentile(ms, 95)):.2f} ms"

    print(f"{args.game}, {scenes} scenes of 8 cards with one card apart, "
          f"{'real tables cut from photos' if args.photo_tables else 'rendered tables'}, seed {args.seed}; "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"  a card lands: the same outlines both ways in {same_landed} of {scenes}; "
          f"the whole frame searched (change too large) in {whole_falls}")
    print(f"    finder CPU, whole frame {figures(whole_ms)}; only where it changed {figures(part_ms)}")
    print(f"  the camera loop's changed frame (StillFrames: finding and reading the cards that changed), CPU:"
          f" finding in the whole frame {figures(loop_whole_ms)}; only where it changed {figures(loop_part_ms)};"
          f" the labels a whole reading's in {same_labels} of {scenes}")
    print(f"  the card taken away: the same outlines in {same_gone} of {scenes}")
    print(f"    finder CPU, whole frame {figures(gone_whole_ms)}; only where it changed {figures(gone_part_ms)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
