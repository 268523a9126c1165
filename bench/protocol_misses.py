"""Each protocol-2 card a `bench/protocols.py --keep` folder did not read right, classified:
the outline found at the card's centre (its IoU with the truth), the card read at its true
corners (the pipeline's whole path, and `vision.classify` alone with the step that made it
"unknown", as bench/unknown_steps.py notes it), and for a card read "unknown" the gate that
refused it at the outline found (`refused_by`). Run after the bench (it reads the profile
the bench taught there, KEEP/p2.npz):

    LANG=C.UTF-8 LANGUAGE=en .venv/bin/python bench/protocol_misses.py KEEP [FILE...]

One line a miss: file, true label, the bench's outcome and answer, session, the outlines
found (IoU, label, confidence; best first), then "at truth". A miss whose outline is far
from the truth (IoU under about 0.9) but reads right at the true corners is the finder's
outline; one read right at a true-like outline is the reader's (its step says which check);
"not found" with no outline near is the finder's. FILE...: only those photos (any outcome).
Session 18 (p2-misses) classified the fresh draws' misses with it (docs/vision-history.md,
"Protocol 2's misses on fresh draws, classified"); session 21 (p2-unknown) the unknowns by gate.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import protocols as P  # noqa: E402
import unknown_steps as U  # noqa: E402
import vision.classify as C  # noqa: E402
from vision.pipeline import Recognizer  # noqa: E402
from vision.profile import load_profile  # noqa: E402
from vision.render.uno_deck import deck  # noqa: E402


def iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quads."""
    a, b = np.float32(a).reshape(4, 2), np.float32(b).reshape(4, 2)
    inter, _ = cv2.intersectConvexConvex(a, b)
    union = cv2.contourArea(a) + cv2.contourArea(b) - inter
    return float(inter) / union if union > 0 else 0.0


# `vision.classify`'s checks after the reader's probability, in the order it asks them: the
# last one noted True refused the card
GATES = ("_doubtful", "_unseen_against", "_glare_unconfirmed", "_unlike_taught_inks", "_undone_against")


def refused_by(recognizer: Recognizer, calls: dict, frame: np.ndarray, corners: np.ndarray) -> tuple[str, str]:
    """The gate that made the reading of the outline `corners` (as found, unturned) "unknown",
    and the card it guessed: "steady" (read, then `vision.steady` refused it), "path" (read
    by `classify` on the outline the pipeline read from, made "unknown" by the pipeline's own
    outline paths: two turns read as two cards, a corner on the border's bar), "frame" (no
    side shows the white frame), "nocard", "bar", or a check of GATES."""
    first, read_from, _ = recognizer._first_reading(frame, corners)
    if first.known:
        return ("steady" if not recognizer._steady(frame, read_from, first) else "known"), first.label
    calls.clear()
    reading = C.classify(C.card_features(frame, read_from, recognizer.profile), recognizer.profile,
                         recognizer.thresholds)
    if reading.known:
        return "path", first.guess or reading.label
    said = [name for name in GATES if any(calls.get(name, ()))]
    if said:
        return said[-1], reading.guess
    if calls.get("shows_frame") and calls["shows_frame"][-1] is False:
        return "frame", reading.guess
    return ("nocard" if reading.guess == C.UNKNOWN else "bar"), reading.guess


def main() -> int:
    work = Path(sys.argv[1])
    only = set(sys.argv[2:])
    calls: dict = {}
    for name in ("shows_frame", "frame_under_glare") + GATES:
        U.noted(calls, name)
    faces = deck()
    symbol_of = {f.label: f.symbol for f in faces}
    by_label = {f.label: f for f in faces}
    profile = load_profile(str(work / "p2.npz"))
    recognizer = Recognizer.create(profile)
    for row in json.loads((work / "p2-read" / "truth.json").read_text()):
        if row["label"] is None or (only and row["file"] not in only):
            continue
        photo = P.Photo(row["file"], by_label[row["label"]], np.float32(row["corners"]), row["session"])
        frame = cv2.imread(str(work / "p2-read" / row["file"]))
        read = recognizer.read(frame)
        found = [c.to_json() for c in read.cards]
        outcome = P.judge(photo, found, symbol_of)
        if outcome.kind == "right" and not only:
            continue
        outlines = sorted(((round(iou(c["corners"], photo.corners), 2), c["label"], round(float(c["confidence"]), 3))
                           for c in found), reverse=True)[:3]
        gate = ""
        if outcome.kind == "unknown":
            # the unknown outline at the card's centre read best, as found (a card's corners in
            # its JSON are turned to the face read)
            centre = tuple(float(v) for v in photo.corners.mean(axis=0))
            here = [i for i, c in enumerate(found) if cv2.pointPolygonTest(np.float32(c["corners"]), centre, False) >= 0]
            best = max(here, key=lambda i: found[i]["confidence"])
            why, guess = refused_by(recognizer, calls, frame, np.float32(read.detection.cards[best].corners))
            gate = f" | refused by {why} (guess {guess}, {'right' if guess == photo.face.label else 'wrong'})"
        truth = recognizer.read_card(frame, photo.corners)
        step, reading = U.step(calls, frame, photo.corners, profile, photo.face.label)
        print(f"{row['file']} {photo.face.label:18s} {outcome.kind:9s} said={outcome.said or '-'} "
              f"[{row['session']}] outlines={outlines}{gate} | at truth: {truth.label} {truth.confidence:.2f}; "
              f"classify {step} guess={reading.guess} {reading.confidence}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
