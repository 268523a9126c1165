"""Why each card of a `bench/protocols.py --keep` folder read "unknown": its final outline
read again with each step of `vision.classify.classify_learned` noted (the white frame
check, the "no card" class, the bar, `_doubtful`, the glare check). Run after the bench
(it reads the profiles the bench taught there, KEEP/p1-0.npz and KEEP/p2.npz):

    LANG=C.UTF-8 LANGUAGE=en .venv/bin/python bench/unknown_steps.py KEEP

Prints each protocol's counts (right, symbol, not found, "unknown:STEP(guess right /
wrong)"; "glare-frame-STEP": the frame seen only under glare, then STEP; "known-on-final": read on its outline alone, held unknown by the pipeline's other
paths) and each unknown card. Session 16 (glare-read): the glare stress's table in
docs/vision-history.md. The steps are noted by wrapping `vision.classify`'s functions in this
process only.
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
sys.path.insert(0, str(ROOT / "bench"))

import protocols as P  # noqa: E402
import vision.classify as C  # noqa: E402
from vision.pipeline import Recognizer  # noqa: E402
from vision.profile import load_profile  # noqa: E402
from vision.render.uno_deck import deck  # noqa: E402


def noted(calls: dict, name: str) -> None:
    """`vision.classify.<name>` wrapped to append each result to calls[name]."""
    inner = getattr(C, name)

    def wrapper(*args, **kwargs):
        result = inner(*args, **kwargs)
        calls.setdefault(name, []).append(result)
        return result
    setattr(C, name, wrapper)


def step(calls: dict, frame: np.ndarray, corners: np.ndarray, profile, truth: str) -> tuple[str, object]:
    """The step that made the card at `corners` unknown, and the reading."""
    calls.clear()
    reading = C.classify(C.card_features(frame, corners, profile), profile)
    guess = "right" if reading.guess == truth else "wrong"
    if reading.known:
        return "known-on-final(" + ("right" if reading.label == truth else "wrong") + ")", reading
    refused = calls.get("shows_frame") and calls["shows_frame"][-1] is False
    if refused and not (calls.get("frame_under_glare") and calls["frame_under_glare"][-1]):
        return "frame", reading
    if refused and reading.guess != C.UNKNOWN:   # seen under glare (vision.whiteframe.frame_under_glare)
        return f"glare-frame-{step_after(calls, reading, guess)}", reading
    if reading.guess == C.UNKNOWN:
        return "nocard", reading
    return step_after(calls, reading, guess), reading


def step_after(calls: dict, reading, guess: str) -> str:
    """The step after the frame check and the "no card" class that made a reading unknown."""
    if calls.get("_glare_unconfirmed") and calls["_glare_unconfirmed"][-1]:
        return f"glare({guess})"
    if calls.get("_doubtful") and calls["_doubtful"][-1]:
        return f"doubtful({guess})"
    return f"bar({guess})"


def run(calls: dict, folder: Path, profile_path: Path, photos, symbol_of: dict, tag: str) -> Counter:
    profile = load_profile(str(profile_path))
    recognizer = Recognizer.create(profile)
    kinds, rows = Counter(), []
    for photo in photos:
        if photo.face is None:
            continue
        frame = cv2.imread(str(folder / photo.file))
        found = [c.to_json() for c in recognizer.read(frame).cards]
        outcome = P.judge(photo, found, symbol_of)
        if outcome.kind != "unknown":
            kinds[outcome.kind] += 1
            continue
        centre = tuple(float(v) for v in photo.corners.mean(axis=0))
        here = [c for c in found if cv2.pointPolygonTest(np.float32(c["corners"]), centre, False) >= 0]
        best = max(here, key=lambda c: (c["label"] != "unknown", c["confidence"]))
        why, reading = step(calls, frame, np.float32(best["corners"]), profile, photo.face.label)
        kinds["unknown:" + why] += 1
        rows.append((photo.file, photo.face.label, why, reading.guess, reading.confidence))
    print(tag, dict(sorted(kinds.items())))
    for row in rows:
        print("  ", row)
    return kinds


def main() -> int:
    work = Path(sys.argv[1])
    calls: dict = {}
    for name in ("shows_frame", "frame_under_glare", "_doubtful", "_glare_unconfirmed"):
        if hasattr(C, name):   # (frame_under_glare: since session 16)
            noted(calls, name)
    faces = deck()
    symbol_of = {f.label: f.symbol for f in faces}
    by_label = {f.label: f for f in faces}

    def photo(row):
        return P.Photo(row["file"], by_label.get(row["label"]),
                       None if row["corners"] is None else np.float32(row["corners"]), row["session"])
    shots = {int(k): [photo(r) for r in v] for k, v in json.loads((work / "p1" / "truth.json").read_text()).items()}
    run(calls, work / "p1", work / "p1-0.npz", [p for s in shots if s != 0 for p in shots[s]], symbol_of, "protocol 1")
    reads = [photo(r) for r in json.loads((work / "p2-read" / "truth.json").read_text())]
    run(calls, work / "p2-read", work / "p2.npz", reads, symbol_of, "protocol 2")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
