"""What finding cards in a whole new real frame costs, in instructions: a fixed set of real
photos made 640x480, found under callgrind, only the finding counted.

    valgrind --tool=callgrind --dump-instr=no --collect-atstart=no \\
        --toggle-collect='*functools_reduce*' --callgrind-out-file=/tmp/cg.out \\
        .venv/bin/python bench/find_cost.py --every 12
    callgrind_annotate /tmp/cg.out | head      # the total is the finding's instructions

The frames are every `--every`-th photo of ../shared/realphotos/cards-edje's `train_` split
(sorted by name; test_ is held out), made 640x480 as bench/realphotos_find.py's speed
figure makes them, each through `vision.realfind.find_outlines` with the settings of
`--kind`: `plain` is a built-in deck's (`detect.PLAIN_SETTINGS`, the finder path of a whole
new frame in `realphotos_find.py --speed`), `learned` a deck taught from photos
(`detect.LEARNED_SETTINGS`), `fields` a colour-field deck's (`detect.FIELD_SETTINGS`),
`bleed` one whose faces print no white frame (`detect.BLEED_SETTINGS`, full-bleed faces;
`read-bleed` as that deck is read, `READ_BLEED_SETTINGS`; `read-fields` as a framed colour-field
deck is read, `READ_FIELD_SETTINGS`); `whole`
the whole new frame of `realphotos_find.py --speed`: `Recognizer.read` with the built-in Solo
profile (its finder is `plain`'s), finding and reading every card found. The
photos are loaded and found once uncounted (first-call set-ups: lookup tables, numpy's
lazy imports, the learned model) before the count; the finds run inside `functools.reduce` so that
callgrind's toggle counts them alone: divide the total by the frames printed. Without
valgrind, `--repeat N` prints the CPU time a frame (paired runs of two trees: `--code DIR`
runs another tree's vision/ on the same frames).

`--part MODULE:NAME` (e.g. `vision.sidefit:refined`, `vision.pipeline:Recognizer._read_found`)
counts one function alone inside those frames: it runs inside `functools.reduce` (and the
frames' loop does not), so the same valgrind command gives that function's instructions
with everything it calls (every call in the counted frames; the names other vision modules
imported it under are rebound too). One part a run: nested toggles would switch each other off.
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import functools  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PHOTOS = ROOT.parent / "shared" / "realphotos" / "cards-edje"


def as_640x480(image: np.ndarray) -> np.ndarray:
    """The photo scaled to cover 640x480 and cut to it (bench/realphotos_find.py's)."""
    h, w = image.shape[:2]
    scale = max(640 / w, 480 / h)
    big = cv2.resize(image, (max(640, round(w * scale)), max(480, round(h * scale))),
                     interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    y0, x0 = (big.shape[0] - 480) // 2, (big.shape[1] - 640) // 2
    return np.ascontiguousarray(big[y0:y0 + 480, x0:x0 + 640])


def frames(split: str, every: int) -> list[np.ndarray]:
    """Every `every`-th labelled photo of the split, made 640x480, in name order."""
    with open(PHOTOS / "labels.csv", encoding="utf-8") as f:
        names = sorted({line.split(",", 1)[0] for line in f.read().splitlines()[1:] if line})
    chosen = [n for n in names if Path(n).name.startswith(f"{split}_")][::every]
    return [as_640x480(cv2.imread(str(PHOTOS / n), cv2.IMREAD_COLOR)) for n in chosen]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", default="train", choices=("train", "test"))
    ap.add_argument("--every", type=int, default=12)
    ap.add_argument("--kind", default="plain", choices=("plain", "learned", "fields", "read-fields", "bleed", "read-bleed",
                                                             "whole"))
    ap.add_argument("--none", action="store_true", help="load and warm up only (a baseline)")
    ap.add_argument("--repeat", type=int, default=1, help="find the set this many times (CPU timing)")
    ap.add_argument("--part", default="", help="MODULE:NAME, a function counted alone (above)")
    ap.add_argument("--code", default=str(ROOT), help="the repository folder whose vision/ runs (an "
                    "older tree unpacked with `git archive REV vision engine | tar -x -C DIR`)")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    sys.path.insert(0, args.code)
    from vision.detect import FIELD_SETTINGS, LEARNED_SETTINGS, PLAIN_SETTINGS
    from vision.realfind import find_outlines

    chosen = frames(args.split, args.every)
    if args.kind == "whole":
        from vision.pipeline import Recognizer
        from vision.profile import builtin_profile
        recognizer = Recognizer.create(builtin_profile("solo"))

        def find_one(frame: np.ndarray) -> int:
            return len(recognizer.read(frame).cards)
    else:
        if args.kind in ("bleed", "read-bleed"):
            from vision.detect import BLEED_SETTINGS, READ_BLEED_SETTINGS
        if args.kind == "read-fields":
            from vision.detect import READ_FIELD_SETTINGS
        settings = {"plain": PLAIN_SETTINGS, "learned": LEARNED_SETTINGS, "fields": FIELD_SETTINGS,
                    "bleed": BLEED_SETTINGS if args.kind == "bleed" else None,
                    "read-bleed": READ_BLEED_SETTINGS if args.kind == "read-bleed" else None,
                    "read-fields": READ_FIELD_SETTINGS if args.kind == "read-fields" else None}[args.kind]

        def find_one(frame: np.ndarray) -> int:
            return len(find_outlines(frame, settings))
    for frame in chosen:   # first-call set-ups (lookup tables, lazy imports, the model) out of the count
        find_one(frame)

    def find(count: int, frame: np.ndarray) -> int:
        return count + find_one(frame)

    work = [] if args.none else chosen * args.repeat
    calls = counted_alone(args.part) if args.part else None
    c0 = time.process_time()
    if calls is None:
        outlines = functools.reduce(find, work, 0)
    else:   # the part alone runs inside functools.reduce (callgrind's toggle)
        calls.append(0)
        outlines = 0
        for frame in work:
            outlines = find(outlines, frame)
    cpu = time.process_time() - c0
    print(f"{len(work)} frames ({len(chosen)} photos x {args.repeat}), {outlines} outlines, "
          f"{1000 * cpu / max(len(work), 1):.2f} ms CPU a frame"
          + (f"; {args.part} called {len(calls) - 1} times in them" if calls is not None else ""))
    return 0


def counted_alone(part: str) -> list:
    """Make the function `part` (MODULE:NAME, NAME may be Class.method) run inside
    `functools.reduce` once the returned list is not empty (each counted call appends to
    it), wherever a vision module imported it; the frames' loop then runs outside it."""
    import importlib

    module_name, _, name = part.partition(":")
    owner = importlib.import_module(module_name)
    *path, last = name.split(".")
    for step in path:
        owner = getattr(owner, step)
    plain = vars(owner)[last] if isinstance(owner, type) else getattr(owner, last)
    static = isinstance(plain, staticmethod)
    function = plain.__func__ if static else plain
    calls: list = []

    def alone(*args, **kwargs):
        if not calls:
            return function(*args, **kwargs)
        calls.append(1)
        return functools.reduce(lambda _, __: function(*args, **kwargs), [None], None)

    setattr(owner, last, staticmethod(alone) if static else alone)
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("vision") and module is not owner \
                and getattr(module, last, None) is function:
            setattr(module, last, alone)
    return calls


if __name__ == "__main__":
    sys.exit(main())
