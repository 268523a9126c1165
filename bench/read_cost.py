"""What reading a taught card costs, in instructions: a fixed set of real crops read under
callgrind, only the reading counted.

    .venv/bin/python bench/compare_readings.py --dump /tmp/x.json --work W   # makes W once
    valgrind --tool=callgrind --dump-instr=no --collect-atstart=no \\
        --toggle-collect='*functools_reduce*' --callgrind-out-file=/tmp/cg.out \\
        .venv/bin/python bench/read_cost.py --work W --mode first --every 27
    callgrind_annotate /tmp/cg.out | head      # the total is the reads' instructions

The inputs are bench/compare_readings.py's (its `--work` folder: the three teaching draws
of bench/realphotos_read.py taught by the tree that made it, and the finder's outlines on
every other photo of ../shared/realphotos/cards-edje), of those only the outlines the
read bench scores (the finder's outline of a labelled card, IoU >= 0.5), every `--every`-th
of them in a fixed order. `--mode first`: each outline's first read (`card_features` and
`classify`); `--mode reading`: `Recognizer.reading` (the first read and, for a card read
"unknown", the second look). Images and profiles are loaded before the reads, and the
reads run inside `functools.reduce` so that callgrind's toggle counts them alone; divide
the total by the reads printed. A tree whose features change must make its own `--work`
(its profiles are taught on its features), the outlines being the same finder's.
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import functools  # noqa: E402
import pickle  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DRAWS = 3


def inputs(work: Path, every: int) -> list[tuple[int, str, object]]:
    """(draw, photo, outline) of every `every`-th outline the read bench scores."""
    import realphotos_read as bench
    outlines = pickle.loads((work / "outlines.pkl").read_bytes())
    cards = bench.load_cards(bench.PHOTOS)
    scored = []
    for seed in range(DRAWS):
        for file, quads in sorted(outlines[seed].items()):
            for card in (c for c in cards if c.file == file):
                matches = [(bench.iou(bench.quad_box(q), card.box), i) for i, q in enumerate(quads)]
                best = max(matches, default=(0.0, -1))
                if best[0] >= 0.5:
                    scored.append((seed, file, quads[best[1]]))
    return scored[::every]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--work", required=True, help="bench/compare_readings.py's --work folder")
    ap.add_argument("--mode", choices=("first", "reading"), default="first")
    ap.add_argument("--every", type=int, default=27)
    ap.add_argument("--repeat", type=int, default=1, help="read the set this many times (CPU timing)")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    sys.path.insert(0, str(ROOT / "bench"))
    sys.path.insert(0, str(ROOT))
    from vision.classify import card_features, classify
    from vision.pipeline import Recognizer
    from vision.profile import load_profile_file

    work = Path(args.work)
    chosen = inputs(work, args.every)
    profiles = [load_profile_file(work / f"draw{seed}.npz") for seed in range(DRAWS)]
    recognizers = [Recognizer.create(p) for p in profiles]
    photos = ROOT.parent / "shared" / "realphotos" / "cards-edje"
    images = {f: cv2.imread(str(photos / f), cv2.IMREAD_COLOR) for f in sorted({f for _, f, _ in chosen})}
    for r in recognizers:   # one-off set-ups (Lab tables, first products) out of the count
        r.warm_up(next(iter(images.values())))

    def first(count: int, item) -> int:
        seed, file, corners = item
        classify(card_features(images[file], corners, profiles[seed]), profiles[seed], recognizers[seed].thresholds)
        return count + 1

    def reading(count: int, item) -> int:
        seed, file, corners = item
        recognizers[seed].reading(images[file], corners)
        return count + 1

    step = first if args.mode == "first" else reading
    start = time.process_time()
    reads = 0
    for _ in range(args.repeat):
        reads = functools.reduce(step, chosen, reads)
    cpu = time.process_time() - start
    print(f"{reads} reads ({args.mode}), {1000 * cpu / max(reads, 1):.3f} ms CPU a read")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
