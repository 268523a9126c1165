"""What reading a taught colour deck's card costs, in instructions: protocol 1's photos of
a `bench/protocols.py --keep` folder (every 8th of the three read sessions), each card's
first read (`card_features` and `classify` at its true corners) under callgrind, only the
reads counted (they run inside `functools.reduce`):

    valgrind --tool=callgrind --dump-instr=no --collect-atstart=no \\
        --toggle-collect='*functools_reduce*' --callgrind-out-file=/tmp/cg.out \\
        .venv/bin/python bench/colour_read_cost.py KEEP_DIR PROFILE.npz
    callgrind_annotate /tmp/cg.out | head      # the total is the reads' instructions

(PROFILE: a profile taught by `bench/protocols.py`, e.g. KEEP_DIR/p1-0.npz.)

`--photos EVERY` counts whole protocol photos instead: every EVERY-th of protocol 2's
reading photos (KEEP_DIR/p2-read, in name order) read by `Recognizer.read` with PROFILE
(KEEP_DIR/p2.npz), as `deckhand recognize` reads them: finding, the first reads, the
second looks and the steadiness check (`vision.steady`). Divide the total by the photos
printed. `--calls` also prints how many crops the reader read (`card_features` calls,
counted uncounted: run it without valgrind); `--part MODULE:NAME` counts one function
alone (as `bench/find_cost.py --part`, e.g. `vision.pipeline:Recognizer._steady`);
`--repeat N` prints CPU ms a photo (paired runs: `--code DIR` runs another tree's vision/).
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import functools  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", help="a folder bench/protocols.py --keep wrote")
    ap.add_argument("profile", help="a profile it taught (p1-0.npz for the first reads, p2.npz for --photos)")
    ap.add_argument("--photos", type=int, default=0, metavar="EVERY",
                    help="read every EVERY-th protocol-2 reading photo whole (Recognizer.read)")
    ap.add_argument("--calls", action="store_true", help="print the reader's crops (card_features calls)")
    ap.add_argument("--part", default="", help="MODULE:NAME, a function counted alone (bench/find_cost.py)")
    ap.add_argument("--repeat", type=int, default=1, help="read the set this many times (CPU timing)")
    ap.add_argument("--code", default=str(ROOT), help="the repository folder whose vision/ runs")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    sys.path.insert(0, args.code)
    from vision.classify import card_features, classify
    from vision.profile import load_profile

    folder, profile = Path(args.folder), load_profile(args.profile)
    if args.photos:
        from vision.pipeline import Recognizer

        recognizer = Recognizer.create(profile)
        work = [cv2.imread(str(p), cv2.IMREAD_COLOR) for p in sorted((folder / "p2-read").glob("*.jpg"))][::args.photos]

        def one(photo: np.ndarray) -> int:
            return len(recognizer.read(photo).cards)
        what = "photos"
    else:
        truth = json.loads((folder / "p1" / "truth.json").read_text())
        rows = [r for k in ("1", "2", "4") for r in truth[k]][::8]
        work = [(cv2.imread(str(folder / "p1" / r["file"])), np.float32(r["corners"])) for r in rows]

        def one(crop: tuple[np.ndarray, np.ndarray]) -> int:
            return classify(card_features(crop[0], crop[1], profile), profile).known
        what = "reads"
    for item in work[:1] if not args.photos else work:   # one-off set-ups, not counted
        one(item)
    crops = _counting("card_features") if args.calls else None
    calls = None
    if args.part:
        sys.path.insert(0, str(ROOT / "bench"))
        from find_cost import counted_alone
        calls = counted_alone(args.part)
        calls.append(0)
    start = time.process_time()
    if calls is None:
        functools.reduce(lambda done, item: done + one(item), work * args.repeat, 0)
    else:   # the part alone runs inside functools.reduce (callgrind's toggle)
        for item in work * args.repeat:
            one(item)
    cpu = time.process_time() - start
    n = len(work) * args.repeat
    print(f"{n} {what}, {1000 * cpu / n:.2f} ms CPU each"
          + (f"; {len(crops)} crops read ({len(crops) / n:.2f} each)" if crops is not None else "")
          + (f"; {args.part} called {len(calls) - 1} times" if calls is not None else ""))
    return 0


def _counting(name: str) -> list:
    """Make `vision.classify.<name>` append to the returned list at each call, wherever a
    vision module imported it."""
    import vision.classify as owner

    function, calls = getattr(owner, name), []

    def counted(*args, **kwargs):
        calls.append(1)
        return function(*args, **kwargs)
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("vision") and getattr(module, name, None) is function:
            setattr(module, name, counted)
    return calls


if __name__ == "__main__":
    sys.exit(main())
