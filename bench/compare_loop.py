"""Whether two versions of the code make the same decisions in the camera loop at the table.

    .venv/bin/python bench/compare_loop.py --against main             # this tree against main
    .venv/bin/python bench/compare_loop.py --against 30e6451 --scenes 10 --clips 4
    .venv/bin/python bench/compare_loop.py --dump /tmp/now.pkl        # write this tree's decisions
    .venv/bin/python bench/compare_loop.py --compare /tmp/a.pkl /tmp/b.pkl

The frames are read as the camera loop reads them, one `StillFrames` a sequence (the
still-frame test, the readings kept, the regional finder):

* bench/regions_bench.py's scenes (a card laid beside 7 others and taken away again:
  before, landed, before), Solo, on rendered tables and on real tables cut from photos;
* bench/vision_bench.py's tracker clips for every game (hand passes, put-backs, slaps,
  Raj's open bids, a card landing, the pile taken), each frame read and the tracker
  stepped, as the vision bench's tracker section does.

For every frame: the cards read (label, colour, confidence, corners), the outlines found
(corners and source rank), the changed-pixels mask, whether the still-frame test reused
the last reading; for every clip the tracker's events. They compare exactly (float32
corners bit for bit, the mask byte for byte). `--against REV` unpacks REV (`git archive`)
into a temporary folder and runs this script's dump on that code, so REV needs no copy of
it. A speed change must print "identical".
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import hashlib  # noqa: E402
import pickle  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("hitthedeck", "solo", "flip7", "raj")


def frame_record(reading, reused: bool) -> tuple:
    """What the loop decided on one frame, in plain values that compare exactly."""
    det = reading.detection
    mask = None if det.changed is None else hashlib.sha1(det.changed.tobytes()).hexdigest()
    return (reused,
            tuple((c.label, c.colour, float(c.confidence), c.corners.tobytes()) for c in reading.cards),
            tuple((c.corners.tobytes(), c.rank) for c in det.cards), mask)


def read_sequence(recognizer, frames, still_frames) -> list[tuple]:
    """Every frame through one `StillFrames`, as the camera loop reads them."""
    loop = still_frames()
    out, readings = [], []
    for frame in frames:
        before = loop.reused
        reading = loop.read(recognizer, frame)
        readings.append(reading)
        out.append(frame_record(reading, loop.reused > before))
    return out, readings


def dump(out: Path, code: Path, scenes: int, clips: int) -> None:
    """Write the decisions the code in `code` makes into `out` (a pickle of name -> records)."""
    sys.path.insert(0, str(code))
    sys.path.insert(0, str(code / "bench"))
    import cv2
    import numpy as np
    from vision.pipeline import Recognizer, StillFrames
    from vision.profile import builtin_profile
    from vision.render.scene import random_scene
    from vision.render.sequence import (card_landing_sequence, hand_pass_sequence, open_bids_sequence,
                                        pickup_putback_sequence, pile_taken_sequence, slap_sequence)
    from vision.track import TrackSettings, prime, start, step, zone_from_polygon

    cv2.setNumThreads(1)
    found: dict[str, object] = {}
    c0 = time.process_time()
    profile = builtin_profile("solo")
    for photo_tables in (False, True):
        rng = np.random.default_rng(7)
        for n in range(scenes):
            scene = random_scene("solo", rng, n_cards=8, photo_tables=photo_tables)
            before = _one_card_away(scene)
            if before is None:
                continue
            recognizer = Recognizer.create(profile, scene.empty)
            found[f"scene|{'photo' if photo_tables else 'rendered'}|{n}"] = \
                read_sequence(recognizer, [before, scene.image, before, scene.image], StillFrames)[0]
    for game in GAMES:
        profile = builtin_profile(game)
        rng = np.random.default_rng(4)
        labels = profile.labels
        for n in range(clips):
            sequences = {"pass": hand_pass_sequence(game, rng), "putback": pickup_putback_sequence(game, rng),
                         "landing": card_landing_sequence(game, labels[int(rng.integers(len(labels)))], rng),
                         "taken": pile_taken_sequence(game, rng)}
            if game == "hitthedeck":
                sequences["slap"] = slap_sequence(game, rng)
            if game == "raj":
                players = [c for c in labels if not c.startswith("P")]
                points = [c for c in labels if c.startswith("P")]
                codes = [players[i] for i in rng.choice(len(players), int(rng.integers(1, 4)), replace=False)]
                sequences["bids"] = open_bids_sequence(game, codes, rng, lying=[points[int(rng.integers(len(points)))]])
            for kind, clip in sequences.items():
                recognizer = Recognizer.create(profile, clip.empty)
                records, readings = read_sequence(recognizer, clip.frames, StillFrames)
                size = (clip.frames[0].shape[1], clip.frames[0].shape[0])
                state = start([zone_from_polygon(z, poly, size) for z, poly in clip.zones.items()], TrackSettings())
                state = prime(state, readings[0])
                events = []
                for i, reading in enumerate(readings[1:], start=1):
                    state, seen = step(state, reading, i)
                    events += [(i, repr(e)) for e in seen]
                found[f"clip|{game}|{kind}|{n}"] = (records, events)
    with open(out, "wb") as f:
        pickle.dump(found, f)
    print(f"{code}: {len(found)} sequences in {time.process_time() - c0:.0f} s CPU -> {out}")


def _one_card_away(scene):
    from vision_bench import _one_card_away as away   # the regions bench's own choice
    return away(scene)


def compare(a_path: Path, b_path: Path) -> int:
    """Print where the two dumps differ; 0 when every sequence is identical."""
    with open(a_path, "rb") as f:
        a = pickle.load(f)
    with open(b_path, "rb") as f:
        b = pickle.load(f)
    differ, frames = [], 0
    for key in sorted(set(a) | set(b)):
        if key not in a or key not in b:
            differ.append(f"  {key}: only in {'the first' if key in a else 'the second'}")
            continue
        ra, rb = a[key], b[key]
        events_a, events_b = (ra[1], rb[1]) if key.startswith("clip") else ((), ())
        records_a, records_b = (ra[0], rb[0]) if key.startswith("clip") else (ra, rb)
        frames += len(records_a)
        bad = [i for i, (x, y) in enumerate(zip(records_a, records_b)) if x != y]
        if bad or len(records_a) != len(records_b) or events_a != events_b:
            what = {0: "still-frame test", 1: "cards read", 2: "outlines", 3: "changed mask"}
            first = bad[0] if bad else None
            parts = [] if first is None else \
                [what[k] for k in range(4) if records_a[first][k] != records_b[first][k]]
            differ.append(f"  {key}: frames {bad[:8]} differ ({', '.join(parts)} on frame {first})"
                          + ("; tracker events differ" if events_a != events_b else ""))
    print(f"{len(set(a) | set(b)) - len(differ)} of {len(set(a) | set(b))} sequences identical ({frames} frames)")
    for line in differ:
        print(line)
    print("identical" if not differ else f"{len(differ)} sequences differ")
    return 0 if not differ else 1


def against(rev: str, scenes: int, clips: int) -> int:
    """Dump REV's decisions and this tree's, and compare them."""
    with tempfile.TemporaryDirectory(prefix="loop-") as tmp:
        code = Path(tmp) / "code"
        code.mkdir()
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "vision", "engine", "bench"],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(code)], input=archive, check=True)
        (Path(tmp) / "shared").symlink_to(ROOT.parent / "shared")   # the photo tables, beside the code
        old, new = Path(tmp) / "old.pkl", Path(tmp) / "new.pkl"
        for where, out in ((code, old), (ROOT, new)):
            subprocess.run([sys.executable, __file__, "--dump", str(out), "--code", str(where),
                            "--scenes", str(scenes), "--clips", str(clips)], check=True)
        print(f"== {rev} (first) against this tree (second)")
        return compare(old, new)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", metavar="REV", help="compare this tree with a git revision")
    parser.add_argument("--dump", metavar="FILE", help="write the decisions of the code in --code")
    parser.add_argument("--code", default=str(ROOT), help="the repository folder whose vision/ runs")
    parser.add_argument("--compare", nargs=2, metavar=("A", "B"), help="compare two dumps")
    parser.add_argument("--scenes", type=int, default=25, help="regions_bench scenes a kind of table")
    parser.add_argument("--clips", type=int, default=5, help="tracker clips of each kind a game")
    args = parser.parse_args(argv)
    if args.dump:
        dump(Path(args.dump), Path(args.code), args.scenes, args.clips)
        return 0
    if args.compare:
        return compare(Path(args.compare[0]), Path(args.compare[1]))
    if args.against:
        return against(args.against, args.scenes, args.clips)
    parser.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main())
