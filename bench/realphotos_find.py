"""Finding cards in real photographs: ../shared/realphotos/cards-edje (standard playing
cards on real tables, one axis-aligned box per labelled card).

    .venv/bin/python bench/realphotos_find.py                 # both splits
    .venv/bin/python bench/realphotos_find.py --split train   # the split we tune on
    .venv/bin/python bench/realphotos_find.py --show FILE.jpg --out found.png   # draw one

Each photo is downscaled to the working size first (long side at most 640 pixels, as the
camera's frames are) and given to `vision.detect.find_cards` with no empty-table picture
(these photos have none), with the real-table settings of a taught deck whose face is no
colour field (`detect.LEARNED_SETTINGS`: the learned outline scorer has the last say), as
`deckhand recognize` does with playing cards taught from photos; `--hand` without the
scorer (`detect.PLAIN_SETTINGS`, as for a built-in deck). What is counted:

* found: a labelled card is found when an outline's bounding box has IoU >= 0.5 with the
  label's box (each outline counts for one card at most). "Isolated" cards are those no
  other label box overlaps; "all" is every labelled card.
* false outlines: outlines whose bounding box has IoU < 0.5 with every label box (a
  duplicate of a card already matched is counted separately).
* ms per photo: the downscale plus finding, one thread, median and p95, as wall time
  and as this process's CPU time (the machine is shared: see the load average printed).

The `test_` photos are the held-out split (the source's own test folder): tune on `train`,
report both. Fixed order, no randomness: the same command prints the same figures.
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import csv  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.detect import LEARNED_SETTINGS, PLAIN_SETTINGS, DetectSettings, find_cards  # noqa: E402
from vision.pipeline import to_working_size  # noqa: E402
from vision.realfind import find_outlines  # noqa: E402

PHOTOS = ROOT.parent / "shared" / "realphotos" / "cards-edje"
MATCH_IOU = 0.5

Box = tuple[float, float, float, float]


def load_labels(folder: Path = PHOTOS) -> dict[str, list[Box]]:
    """Label boxes per photo file (relative to `folder`), in stored pixels."""
    boxes: dict[str, list[Box]] = {}
    with open(folder / "labels.csv", newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            boxes.setdefault(row["file"], []).append(
                tuple(float(row[k]) for k in ("x1", "y1", "x2", "y2")))
    return boxes


def iou(a: Box, b: Box) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def overlaps(a: Box, b: Box) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def outline_box(corners: np.ndarray) -> Box:
    pts = np.asarray(corners, np.float32).reshape(-1, 2)
    return float(pts[:, 0].min()), float(pts[:, 1].min()), float(pts[:, 0].max()), float(pts[:, 1].max())


@dataclass
class PhotoScore:
    labels: int = 0
    found: int = 0
    isolated: int = 0
    isolated_found: int = 0
    false: int = 0
    duplicates: int = 0
    missed: list[int] = field(default_factory=list)   # indexes of labels not found


def score_photo(labels: list[Box], outlines: list[Box]) -> PhotoScore:
    """Match outlines to label boxes greedily by IoU (best pairs first)."""
    score = PhotoScore(labels=len(labels))
    pairs = sorted(((iou(o, b), i, j) for i, o in enumerate(outlines) for j, b in enumerate(labels)),
                   reverse=True)
    used_o, used_l = set(), set()
    for value, i, j in pairs:
        if value < MATCH_IOU:
            break
        if i in used_o or j in used_l:
            continue
        used_o.add(i)
        used_l.add(j)
    for i, o in enumerate(outlines):
        if i in used_o:
            continue
        if any(iou(o, b) >= MATCH_IOU for b in labels):
            score.duplicates += 1
        else:
            score.false += 1
    for j, b in enumerate(labels):
        isolated = not any(overlaps(b, other) for k, other in enumerate(labels) if k != j)
        score.isolated += isolated
        if j in used_l:
            score.found += 1
            score.isolated_found += isolated
        else:
            score.missed.append(j)
    return score


def find_in_photo(image: np.ndarray, settings: DetectSettings | None) -> tuple[list[Box], float, float, float]:
    """Outline boxes in the stored photo's pixels, the working scale, and ms spent: wall
    time and this process's CPU time (on a busy machine the wall time includes waiting for
    a core; the CPU time is close to what an idle machine would take)."""
    t0, c0 = time.perf_counter(), time.process_time()
    small, scale = to_working_size(image)
    if settings is None:  # the real-table outlines alone
        quads = find_outlines(small, LEARNED_SETTINGS)
    else:
        quads = [f.corners for f in find_cards(small, None, settings)]
    ms, cpu_ms = (time.perf_counter() - t0) * 1000, (time.process_time() - c0) * 1000
    return [tuple(v / scale for v in outline_box(q)) for q in quads], scale, ms, cpu_ms


def split_of(name: str) -> str:
    return "test" if Path(name).name.startswith("test_") else "train"


def run(split: str, settings: DetectSettings | None, verbose: bool = False) -> dict[str, float]:
    labels = load_labels()
    totals = PhotoScore()
    times: list[float] = []
    cpu_times: list[float] = []
    photos = 0
    for name in sorted(labels):
        if split != "all" and split_of(name) != split:
            continue
        image = cv2.imread(str(PHOTOS / name), cv2.IMREAD_COLOR)
        if image is None:
            raise SystemExit(f"cannot read {PHOTOS / name}")
        find_in_photo(image, settings)  # warm (first-call costs are not the photo's)
        boxes, _, ms, cpu_ms = find_in_photo(image, settings)
        times.append(ms)
        cpu_times.append(cpu_ms)
        s = score_photo(labels[name], boxes)
        photos += 1
        for key in ("labels", "found", "isolated", "isolated_found", "false", "duplicates"):
            setattr(totals, key, getattr(totals, key) + getattr(s, key))
        if verbose and (s.missed or s.false):
            print(f"    {name}: found {s.found}/{s.labels}, false {s.false}")
    return {"photos": photos, "labels": totals.labels,
            "isolated": totals.isolated_found / max(totals.isolated, 1),
            "isolated_n": totals.isolated, "isolated_found": totals.isolated_found,
            "all": totals.found / max(totals.labels, 1), "found": totals.found,
            "false_per_photo": totals.false / max(photos, 1), "false": totals.false,
            "duplicates": totals.duplicates,
            "ms_median": statistics.median(times), "ms_p95": float(np.percentile(times, 95)),
            "cpu_median": statistics.median(cpu_times), "cpu_p95": float(np.percentile(cpu_times, 95))}


def as_640x480(image: np.ndarray) -> np.ndarray:
    """The photo scaled to cover 640x480 and cut to it (a camera frame's size)."""
    h, w = image.shape[:2]
    scale = max(640 / w, 480 / h)
    big = cv2.resize(image, (max(640, round(w * scale)), max(480, round(h * scale))),
                     interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    y0, x0 = (big.shape[0] - 480) // 2, (big.shape[1] - 640) // 2
    return np.ascontiguousarray(big[y0:y0 + 480, x0:x0 + 640])


def speed(limit: int) -> dict[str, list[float]]:
    """CPU ms on real photos made 640x480: a still frame (the shortcut's test and its
    answer), a changed frame through the whole pipeline (finding, and reading every card
    found with the built-in Solo profile: the reading's cost does not depend on the deck),
    finding alone, and reading per card; plus a 2000-pixel photo (downscale first)."""
    from vision.pipeline import Recognizer, StillFrames
    from vision.profile import builtin_profile

    recognizer = Recognizer.create(builtin_profile("solo"))
    out: dict[str, list[float]] = {k: [] for k in ("still", "changed", "find", "card", "cards", "big")}
    names = sorted(load_labels())[:limit]
    for name in names:
        frame = as_640x480(cv2.imread(str(PHOTOS / name), cv2.IMREAD_COLOR))
        still = StillFrames()
        still.read(recognizer, frame)          # the first reading (and warm-up)
        c0 = time.process_time()
        still.read(recognizer, frame.copy())   # nothing changed: the shortcut answers
        out["still"].append((time.process_time() - c0) * 1000)
        c0 = time.process_time()
        reading = recognizer.read(frame)
        changed = (time.process_time() - c0) * 1000
        c0 = time.process_time()
        find_cards(frame, None, recognizer.settings)
        found = (time.process_time() - c0) * 1000
        out["changed"].append(changed)
        out["find"].append(found)
        out["cards"].append(len(reading.cards))
        if reading.cards:
            out["card"].append(max(0.0, changed - found) / len(reading.cards))
    image = cv2.imread(str(PHOTOS / names[0]), cv2.IMREAD_COLOR)
    big = cv2.resize(image, (1500, 2000), interpolation=cv2.INTER_LINEAR)
    for _ in range(5):
        c0 = time.process_time()
        recognizer.read(big)
        out["big"].append((time.process_time() - c0) * 1000)
    return out


def show(name: str, out: str, settings: DetectSettings | None) -> None:
    """Draw one photo's label boxes (blue) and outlines found (green) into `out`."""
    path = PHOTOS / "images" / Path(name).name
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    small, scale = to_working_size(image)
    found = find_outlines(small, LEARNED_SETTINGS) if settings is None else [f.corners for f in find_cards(small, None, settings)]
    for box in load_labels().get(f"images/{path.name}", []):
        x1, y1, x2, y2 = (int(round(v * scale)) for v in box)
        cv2.rectangle(small, (x1, y1), (x2, y2), (255, 80, 0), 1)
    for corners in found:
        cv2.polylines(small, [np.round(corners).astype(np.int32)], True, (0, 230, 0), 2)
    cv2.imwrite(out, small)
    print(f"wrote {out}: {len(found)} outlines")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", choices=("train", "test", "all", "both"), default="both",
                        help="train: tuned on; test: held out (the test_ photos)")
    parser.add_argument("--verbose", action="store_true", help="name the photos with misses")
    parser.add_argument("--show", metavar="FILE", help="draw one photo's outlines (with --out)")
    parser.add_argument("--out", default="found.png")
    parser.add_argument("--speed", type=int, metavar="N", default=0,
                        help="also time N photos made 640x480 (still frame, changed frame, per card)")
    parser.add_argument("--hand", action="store_true",
                        help="the finder's own gates alone (detect.PLAIN_SETTINGS: no learned outline scorer)")
    parser.add_argument("--only-real", action="store_true",
                        help="time and score vision.realfind's outlines alone")
    args = parser.parse_args(argv)
    if not PHOTOS.is_dir():
        print(f"no photos at {PHOTOS} (the shared folder beside the repository)", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    settings = None if args.only_real else DetectSettings(real=PLAIN_SETTINGS if args.hand else LEARNED_SETTINGS)
    if args.show:
        show(args.show, args.out, settings)
        return 0
    splits = ("train", "test") if args.split == "both" else (args.split,)
    print(f"load average: {' '.join(f'{v:.2f}' for v in os.getloadavg())} (a shared machine)")
    for split in splits:
        r = run(split, settings, args.verbose)
        print(f"== {split}: {r['photos']} photos, {r['labels']} labelled cards")
        print(f"  cards found, isolated: {r['isolated_found']}/{r['isolated_n']} = {r['isolated']:.1%};"
              f" all: {r['found']}/{r['labels']} = {r['all']:.1%}")
        print(f"  false outlines per photo: {r['false_per_photo']:.2f} ({r['false']});"
              f" duplicates of a found card: {r['duplicates']}")
        print(f"  ms per photo (downscale to the working size + finding, one thread):"
              f" wall median {r['ms_median']:.1f}, p95 {r['ms_p95']:.1f};"
              f" CPU median {r['cpu_median']:.1f}, p95 {r['cpu_p95']:.1f}")
    if args.speed:
        t = speed(args.speed)
        def fig(key: str) -> str:
            values = t[key] or [float("nan")]
            return f"median {statistics.median(values):.2f}, p95 {float(np.percentile(values, 95)):.2f}"
        print(f"== speed, CPU ms on {len(t['changed'])} real photos made 640x480, one thread"
              f" ({statistics.mean(t['cards']):.1f} outlines a frame on average)")
        print(f"  still frame (nothing changed since the last reading): {fig('still')}")
        print(f"  changed frame (find + read every card): {fig('changed')}; finding alone: {fig('find')}")
        print(f"  reading, per card: {fig('card')}")
        print(f"  a 1500x2000 photo through the recognizer (downscaled first): {fig('big')}")
        print("  Raspberry Pi 4: not a multiple of these times; bench/arm_count.py counts the same work's"
              " instructions on a Pi's stack (docs/vision-history.md, \"Pi 4 estimate\")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
