"""Protocol 1 of a `bench/protocols.py --keep` folder read at each card's true outline
(its truth.json corners) with the profile the bench taught there (KEEP/p1-0.npz): right /
wrong / unknown in all and by session, without the finder's outline in the way. Session
17 (glare-paper) used it to try paper fits and streak undoing on the glare stress
(docs/vision-history.md, "A streaked face balanced by its frame's paper"):

    LANG=C.UTF-8 LANGUAGE=en .venv/bin/python bench/glare_true_corners.py KEEP [--rows]

`--rows` also prints each card (file, true label, outcome, guess, confidence).
"""
from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import vision.classify as C  # noqa: E402
from vision.profile import load_profile  # noqa: E402


def main() -> int:
    work = Path(sys.argv[1])
    profile = load_profile(str(work / "p1-0.npz"))
    truth = json.loads((work / "p1" / "truth.json").read_text())
    kinds, rows = Counter(), []
    for session, items in truth.items():
        if int(session) == 0:   # the teaching session
            continue
        for row in items:
            if row["label"] is None or row["corners"] is None:
                continue
            frame = cv2.imread(str(work / "p1" / row["file"]))
            reading = C.classify(C.card_features(frame, np.float32(row["corners"]), profile), profile)
            kind = "unknown" if not reading.known else "right" if reading.label == row["label"] else "wrong"
            kinds[kind] += 1
            kinds[f"{row['session']}: {kind}"] += 1
            rows.append((row["file"], row["label"], kind, reading.guess, float(reading.confidence)))
    print(dict(sorted(kinds.items())))
    if "--rows" in sys.argv:
        for row in rows:
            print(row)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
