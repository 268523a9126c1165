"""What reading a taught colour deck's card costs, in instructions: protocol 1's photos of
a `bench/protocols.py --keep` folder (every 8th of the three read sessions), each card's
first read (`card_features` and `classify` at its true corners) under callgrind, only the
reads counted (they run inside `functools.reduce`):

    valgrind --tool=callgrind --dump-instr=no --collect-atstart=no \\
        --toggle-collect='*functools_reduce*' --callgrind-out-file=/tmp/cg.out \\
        .venv/bin/python bench/colour_read_cost.py KEEP_DIR PROFILE.npz
    callgrind_annotate /tmp/cg.out | head      # the total is the reads' instructions

(PROFILE: a profile taught by `bench/protocols.py`, e.g. KEEP_DIR/p1-0.npz.)
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import functools  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.classify import card_features, classify  # noqa: E402
from vision.profile import load_profile  # noqa: E402


def main(argv: list[str]) -> int:
    folder, profile = Path(argv[0]), load_profile(argv[1])
    truth = json.loads((folder / "p1" / "truth.json").read_text())
    rows = [r for k in ("1", "2", "4") for r in truth[k]][::8]
    crops = [(cv2.imread(str(folder / "p1" / r["file"])), np.float32(r["corners"])) for r in rows]
    classify(card_features(*crops[0], profile), profile)   # one-off set-ups, not counted
    read = functools.reduce(lambda done, c: done + [classify(card_features(c[0], c[1], profile), profile).label],
                            crops, [])
    print(f"{len(read)} reads")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
