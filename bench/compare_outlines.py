"""Whether two versions of the code give the same card outlines on every real photo.

    .venv/bin/python bench/compare_outlines.py --against main        # this tree against main
    .venv/bin/python bench/compare_outlines.py --against 620bb5d --limit 60
    .venv/bin/python bench/compare_outlines.py --dump /tmp/now.npz   # write this tree's outlines
    .venv/bin/python bench/compare_outlines.py --compare /tmp/a.npz /tmp/b.npz

The frames are those of bench/realphotos_find.py: every photo of
../shared/realphotos/cards-edje at the working size (long side 640 at most) and made
640x480 (a camera frame's size), each through `vision.realfind.find_outlines` with the
plain settings and with framed colour fields (taught decks and teaching), and through
`vision.detect.find_cards` as `deckhand recognize` calls it (no empty table: the real-table
outlines, or detect's own sources where they find nothing), and with the learned outline
scorer (`detect.LEARNED_SETTINGS`, taught decks with no colour field; a REV before it has no
`learned` setting). `--against REV` unpacks REV
(`git archive`) into a temporary folder and runs this same script's dump on that code, so
REV needs no copy of it. Outlines compare bit for bit (float32 corners, in order); a frame
that differs is named, with its outline counts and the largest corner move of outlines that
pair up. A speed change must print "identical"; any other change must say what it moved
(bench/realphotos_find.py --split both, before and after).
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PHOTOS = ROOT.parent / "shared" / "realphotos" / "cards-edje"
KINDS = ("plain", "fields", "detect", "learned")


def photo_names(limit: int) -> list[str]:
    """The labelled photos (relative to PHOTOS), in the bench's fixed order."""
    with open(PHOTOS / "labels.csv", encoding="utf-8") as f:
        names = sorted({line.split(",", 1)[0] for line in f.read().splitlines()[1:] if line})
    return names[:limit] if limit else names


def frames(image: np.ndarray) -> dict[str, np.ndarray]:
    """The photo at the working size and made 640x480 (as bench/realphotos_find.py)."""
    from vision.pipeline import to_working_size

    h, w = image.shape[:2]
    scale = max(640 / w, 480 / h)
    big = cv2.resize(image, (max(640, round(w * scale)), max(480, round(h * scale))),
                     interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    y0, x0 = (big.shape[0] - 480) // 2, (big.shape[1] - 640) // 2
    return {"working": to_working_size(image)[0],
            "640x480": np.ascontiguousarray(big[y0:y0 + 480, x0:x0 + 640])}


def dump(out: Path, code: Path, limit: int) -> None:
    """Write the outlines the code in `code` finds on every frame into `out` (npz: one
    N x 4 x 2 float32 array per frame and kind)."""
    sys.path.insert(0, str(code))
    import vision.detect
    from vision.detect import DetectSettings, find_cards
    from vision.realfind import RealSettings, find_outlines

    cv2.setNumThreads(1)
    plain, fields, detect = RealSettings(), RealSettings(framed_fields=True), DetectSettings()
    # a taught deck's real-table settings as the code in `code` has them (a REV from before
    # LEARNED_SETTINGS: the learned scorer alone)
    learned = getattr(vision.detect, "LEARNED_SETTINGS", RealSettings(colour_fields=False, learned=True))
    found: dict[str, np.ndarray] = {}
    c0 = time.process_time()
    for name in photo_names(limit):
        image = cv2.imread(str(PHOTOS / name), cv2.IMREAD_COLOR)
        for size, frame in frames(image).items():
            runs = {"plain": lambda: find_outlines(frame, plain),
                    "fields": lambda: find_outlines(frame, fields),
                    "detect": lambda: [c.corners for c in find_cards(frame, None, detect)],
                    "learned": lambda: find_outlines(frame, learned)}
            for kind, run in runs.items():
                quads = [np.asarray(q, np.float32).reshape(4, 2) for q in run()]
                found[f"{name}|{size}|{kind}"] = np.array(quads, np.float32).reshape(-1, 4, 2)
    np.savez_compressed(out, **found)
    print(f"{code}: {len(found)} frame runs in {time.process_time() - c0:.0f} s CPU -> {out}")


def compare(a_path: Path, b_path: Path) -> int:
    """Print where the two dumps differ; 0 when every frame's outlines are identical."""
    a, b = np.load(a_path), np.load(b_path)
    keys = sorted(set(a.files) | set(b.files))
    differ: dict[str, list[str]] = {kind: [] for kind in KINDS}
    for key in keys:
        if key not in a.files or key not in b.files:
            print(f"  {key}: only in {'the first' if key in a.files else 'the second'}")
            continue
        qa, qb = a[key], b[key]
        if qa.shape == qb.shape and np.array_equal(qa, qb):
            continue
        moved = ""
        if len(qa) and len(qb):
            # each outline of the first against its nearest of the second (corner to corner)
            gaps = np.abs(qa[:, None] - qb[None, :]).max(axis=(2, 3))
            moved = f", nearest outlines' corners at most {gaps.min(axis=1).max():.2f} px apart"
        differ[key.rsplit("|", 1)[1]].append(f"  {key}: {len(qa)} outlines -> {len(qb)}{moved}")
    total = 0
    for kind in KINDS:
        runs = sum(key.endswith(f"|{kind}") for key in keys)
        print(f"{kind}: {runs - len(differ[kind])} of {runs} frames identical")
        for line in differ[kind]:
            print(line)
        total += len(differ[kind])
    print("identical" if not total else f"{total} frame runs differ")
    return 0 if not total else 1


def against(rev: str, limit: int) -> int:
    """Dump REV's outlines and this tree's, and compare them."""
    with tempfile.TemporaryDirectory(prefix="outlines-") as tmp:
        code = Path(tmp) / "code"
        code.mkdir()
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "vision", "engine"],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(code)], input=archive, check=True)
        old, new = Path(tmp) / "old.npz", Path(tmp) / "new.npz"
        for where, out in ((code, old), (ROOT, new)):
            subprocess.run([sys.executable, __file__, "--dump", str(out), "--code", str(where),
                            "--limit", str(limit)], check=True)
        print(f"== {rev} (first) against this tree (second)")
        return compare(old, new)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", metavar="REV", help="compare this tree with a git revision")
    parser.add_argument("--dump", metavar="FILE", help="write the outlines of the code in --code")
    parser.add_argument("--code", default=str(ROOT), help="the repository folder whose vision/ runs")
    parser.add_argument("--compare", nargs=2, metavar=("A", "B"), help="compare two dumps")
    parser.add_argument("--limit", type=int, default=0, help="the first N photos only (0: all)")
    args = parser.parse_args(argv)
    if not PHOTOS.is_dir():
        print(f"no photos at {PHOTOS} (the shared folder beside the repository)", file=sys.stderr)
        return 2
    if args.dump:
        dump(Path(args.dump), Path(args.code), args.limit)
        return 0
    if args.compare:
        return compare(Path(args.compare[0]), Path(args.compare[1]))
    if args.against:
        return against(args.against, args.limit)
    parser.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main())
