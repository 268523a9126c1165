"""Whether two versions of the code read a taught deck's cards the same on every real photo
and every simulated protocol photo.

    .venv/bin/python bench/compare_readings.py --against main      # this tree against main
    .venv/bin/python bench/compare_readings.py --against 7117e0a --protocols /tmp/my_photos
    .venv/bin/python bench/compare_readings.py --dump /tmp/now.json
    .venv/bin/python bench/compare_readings.py --compare /tmp/a.json /tmp/b.json

The cards are read from fixed inputs, made once by this tree and kept in `--work` (taught
profiles and outlines are not what is compared): the three teaching draws of
bench/realphotos_read.py (2 photos a rank, seeds 0-2) taught as that bench teaches, and
the finder's outlines on every other photo of ../shared/realphotos/cards-edje. Every
outline is read by `Recognizer.reading` (the first read, and the second look at an unknown
card), and an unknown one also with no bar (the bench's best guess). With `--protocols DIR`
(a folder `bench/protocols.py --keep DIR` wrote: p1-0.npz, p2.npz and their photos) protocol
1's photos of the three other sessions and protocol 2's reading photos are read by
`Recognizer.read`, as `deckhand recognize` reads them. A reading is its label, colour,
confidence, symbol score, turn, best guess and the outline it was read from; they compare
exactly. `--against REV` unpacks REV (`git archive`) into a temporary folder and runs this
script's dump there, on the same inputs. A speed change must print "identical"; any other
change must say what it moved (bench/realphotos_read.py --shots 2 --seeds 3 and
bench/protocols.py, before and after). Prints CPU ms a reading of each tree as a by-product
(one process, load dependent: give `uptime`'s load with it).
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import dataclasses  # noqa: E402
import json  # noqa: E402
import pickle  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DRAWS = 3
WORK = ROOT / "tests" / "artifacts" / "compare_readings"


def prepare(work: Path) -> None:
    """Teach the three draws and find the outlines, once (this tree's code)."""
    if (work / "outlines.pkl").is_file():
        return
    import realphotos_read as bench
    from vision.pipeline import Recognizer
    from vision.profile import save_profile

    work.mkdir(parents=True, exist_ok=True)
    cards = bench.load_cards(bench.PHOTOS)
    images = {f: cv2.imread(str(bench.PHOTOS / f), cv2.IMREAD_COLOR) for f in sorted({c.file for c in cards})}
    outlines = {}
    for seed in range(DRAWS):
        teaching = bench.teaching_draw(cards, 2, seed)
        profile = bench.teach([(c, images[c.file]) for c in teaching], "cards-edje")[0]
        save_profile(profile, work / f"draw{seed}.npz")
        settings = Recognizer.create(profile).settings
        taught = {c.file for c in teaching}
        outlines[seed] = {f: [found.corners for found in bench.find_cards(image, None, settings)]
                          for f, image in images.items() if f not in taught}
    (work / "outlines.pkl").write_bytes(pickle.dumps(outlines))


def _reading(reading, corners) -> list:
    return [reading.label, reading.colour, reading.confidence, reading.symbol_score, bool(reading.turned),
            reading.guess, np.asarray(corners, np.float32).tolist()]


def dump(work: Path, protocols: Path | None) -> dict:
    """Every reading of the fixed inputs with this tree's code, and CPU seconds spent."""
    from vision.classify import Thresholds, card_features, classify
    from vision.pipeline import Recognizer
    from vision.profile import load_profile_file

    photos = ROOT.parent / "shared" / "realphotos" / "cards-edje"
    outlines = pickle.loads((work / "outlines.pkl").read_bytes())
    no_bar = Thresholds(min_confidence=0.0, min_colour_confidence=0.0)
    out, cpu, reads = {}, 0.0, 0
    for seed in range(DRAWS):
        profile = load_profile_file(work / f"draw{seed}.npz")
        recognizer, open_profile = Recognizer.create(profile), dataclasses.replace(profile, min_confidence=0.0)
        rows = []
        for file, quads in sorted(outlines[seed].items()):
            image = cv2.imread(str(photos / file), cv2.IMREAD_COLOR)
            for corners in quads:
                start = time.process_time()
                reading, used = recognizer.reading(image, corners)
                cpu += time.process_time() - start
                reads += 1
                raw = None if reading.known else _reading(classify(card_features(image, corners, profile),
                                                                   open_profile, no_bar), corners)
                rows.append([file] + _reading(reading, used) + [raw])
        out[f"real draw {seed}"] = rows
    if protocols is not None:
        for name, folder, skip in (("p1-0.npz", "p1", "s0-"), ("p2.npz", "p2-read", None)):
            recognizer = Recognizer.create(load_profile_file(protocols / name))
            rows = []
            for path in sorted((protocols / folder).glob("*.jpg")):
                if skip and path.name.startswith(skip):
                    continue   # protocol 1's teaching session
                seen = recognizer.read(cv2.imread(str(path), cv2.IMREAD_COLOR)).cards
                rows.append([path.name, [[c.label, c.colour, c.confidence, c.corners.tolist()] for c in seen]])
            out[f"protocol {name}"] = rows
    out["cpu"] = [cpu, reads]
    return out


def compare(a: dict, b: dict) -> int:
    """Print what differs; the number of readings that differ."""
    differ = 0
    for key in sorted(set(a) | set(b)):
        if key == "cpu":
            continue
        left, right = a.get(key, []), b.get(key, [])
        bad = [(x, y) for x, y in zip(left, right) if x != y]
        differ += len(bad) + abs(len(left) - len(right))
        print(f"  {key}: {len(left)} readings, {len(bad) + abs(len(left) - len(right))} differ")
        for x, y in bad[:5]:   # a real photo's reading without its outline; a protocol photo's cards
            shown = (lambda r: r[1:7]) if key.startswith("real") else (lambda r: [c[:3] for c in r[1]])
            print(f"    {x[0]}: {shown(x)}\n      -> {shown(y)}")
    for name, run in (("first", a), ("second", b)):
        if "cpu" in run:
            print(f"  {name}: {1000 * run['cpu'][0] / max(run['cpu'][1], 1):.2f} ms CPU a real-photo reading")
    print("identical" if not differ else f"{differ} readings differ")
    return differ


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--against", help="a git revision to compare this tree with")
    ap.add_argument("--dump", help="write this tree's readings to this JSON file")
    ap.add_argument("--compare", nargs=2, metavar=("A", "B"), help="compare two dumps")
    ap.add_argument("--protocols", help="a folder bench/protocols.py --keep wrote (its p1-0.npz, p2.npz, photos)")
    ap.add_argument("--work", default=str(WORK), help="where the taught profiles and outlines are kept")
    ap.add_argument("--root", default=str(ROOT), help="the tree whose code reads (--against sets it)")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    if args.compare:
        return 1 if compare(*(json.loads(Path(p).read_text()) for p in args.compare)) else 0
    sys.path.insert(0, str(ROOT / "bench"))
    sys.path.insert(0, args.root)
    work = Path(args.work)
    protocols = Path(args.protocols) if args.protocols else None
    prepare(work)
    if args.dump:
        Path(args.dump).write_text(json.dumps(dump(work, protocols)))
        return 0
    if not args.against:
        ap.error("say --against REV, --dump FILE or --compare A B")
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "tree"
        tree.mkdir()
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.against], check=True, capture_output=True)
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
        (Path(tmp) / "shared").symlink_to(ROOT.parent / "shared")
        theirs, ours = Path(tmp) / "theirs.json", Path(tmp) / "ours.json"
        extra = ["--protocols", str(protocols)] if protocols else []
        subprocess.run([sys.executable, str(Path(__file__).resolve()), "--dump", str(theirs), "--work", str(work),
                        "--root", str(tree)] + extra, check=True)
        Path(ours).write_text(json.dumps(dump(work, protocols)))
        print(f"{args.against} (first) against this tree (second):")
        return 1 if compare(json.loads(theirs.read_text()), json.loads(ours.read_text())) else 0


if __name__ == "__main__":
    raise SystemExit(main())
