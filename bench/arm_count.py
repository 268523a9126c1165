"""The same vision work's instructions on a Raspberry Pi 4's instruction set (aarch64, a
Cortex-A72's features), counted under QEMU: the measured half of docs/vision-history.md's
"Pi 4 estimate" (time = instructions / (instructions a cycle x clock)).

    .venv/bin/python bench/arm_count.py --kind whole --every 12
    .venv/bin/python bench/arm_count.py --still        # the static-frame shortcut
    .venv/bin/python bench/arm_count.py --table        # a card laid beside 7
    .venv/bin/python bench/arm_count.py --stack pypi --kind whole --every 12
    .venv/bin/python bench/arm_count.py --x86 --kind whole --every 12   # the same on x86-64

runs `bench/find_cost.py` with the arguments given (`--kind`, `--every`, `--part`, ...) on an
aarch64 Python under `qemu-aarch64 -cpu cortex-a72` (so OpenCV and numpy dispatch to the NEON
code an A72 runs: no dot-product or half-precision arithmetic) with a small TCG plugin
(`bench/arm_count_plugin.c`) that counts the guest instructions executed inside find_cost's
counted `functools.reduce`, the stretch callgrind counts on x86 (find_cost's docstring).
`--loop N` counts N rounds of a published pure-Python benchmark's loop (the calibration of
the interpreter's instructions a cycle on a Pi 4; `--x86 --loop N --python PATH` counts it
under another x86 Python, e.g. a 3.10 against a 3.11). `--still` counts the still frame of
`bench/realphotos_find.py --speed` instead, `--table` the camera loop's changed frame of
`bench/regions_bench.py` (a card laid beside 7 on a rendered table, and how many cards
`vision.reuse` kept; `--scenes-dir DIR` reads the scenes saved there, rendering and saving
them first with this host's .venv: other numpy and OpenCV releases render other pixels),
each frame a stretch (median and p95 printed). `--by-object` adds where
the instructions ran (the interpreter, OpenCV, numpy, the BLAS, libc).

`--stack debian` (the default): Debian 13's python3 (3.13), python3-numpy and
python3-opencv, with the BLAS apt installs by default (the reference BLAS, libblas3): what
setup.sh installs on a Raspberry Pi (Raspberry Pi OS is Debian 13-based).
`--stack debian-openblas`: the same with Debian's libopenblas0-serial as the BLAS (what
`apt-get install libopenblas0-serial` would make it). `--stack pypi`: the aarch64 wheels
of this .venv's numpy and OpenCV releases on Debian 12's CPython 3.11, the same code as the
x86 figures. `--x86`
counts the same command on this host under callgrind (AVX2 paths: valgrind has no AVX-512).

Not part of the project's set-up or tests: it needs, installed by hand as root,
`apt-get install qemu-user debootstrap` (Debian 12: QEMU 7.2, whose plugin API is version 1)
and gcc. The first run of a stack builds it under `--root` (default /tmp/deckhand-arm64;
pypi ~200 MB, debian ~500 MB): the arm64 packages unpacked by `debootstrap --foreign` (none
of their scripts run) and, for pypi, the wheels from pip unpacked beside them. QEMU runs
`nice -n 19`; the counts do not depend on the host's load (PYTHONHASHSEED=0; repeated
counts agree to 0.01 %). A whole-frame count takes 1-4 minutes.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from importlib import metadata
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
MARK_START, MARK_STOP = 0x5EED1, 0x5EED2   # the plugin's markers (sched_get_priority_max)
WHEELS = ("numpy", "opencv-python-headless")
LOCAL_MODES = (["--still"], ["--table"], ["--loop"])   # this file's own work, not find_cost's


def _run(cmd: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, check=True, **kwargs)


def debootstrap(system: Path, suite: str, packages: str, blas: str = "blas") -> None:
    """Debian's arm64 `packages` of `suite` unpacked into `system` (no package script runs)."""
    for tool in ("debootstrap", "qemu-aarch64", "gcc"):
        if not shutil.which(tool):
            sys.exit(f"{tool} is missing: apt-get install qemu-user debootstrap gcc (as root)")
    _run(["nice", "-n", "19", "debootstrap", "--arch=arm64", "--foreign", "--variant=minbase",
          f"--include={packages}", suite, str(system), "http://deb.debian.org/debian"],
         stdout=subprocess.DEVNULL)
    # --foreign unpacks only the essential packages: unpack the rest too
    base = (system / "debootstrap" / "base").read_text().split()
    archives = system / "var" / "cache" / "apt" / "archives"
    for package in base:
        for deb in archives.glob(f"{package}_*.deb"):
            _run(["dpkg-deb", "-x", str(deb), str(system)])
    for top in ("bin", "sbin", "lib"):   # merged /usr, as the second stage would make it
        path = system / top
        if path.is_dir() and not path.is_symlink():
            _run(["cp", "-a", f"{path}/.", str(system / "usr" / top)])
            shutil.rmtree(path)
            path.symlink_to(f"usr/{top}")
    libs = system / "usr" / "lib" / "aarch64-linux-gnu"
    for name, folder in (("libblas.so.3", blas), ("liblapack.so.3", "lapack" if blas == "blas" else blas),
                         ("libopenblas.so.0", blas)):
        if (libs / folder / name).exists() and not (libs / name).exists():   # update-alternatives'
            (libs / name).symlink_to(f"{folder}/{name}")


def prepare(root: Path, stack: str) -> None:
    """The aarch64 Python of `stack` under `root` (once): `pypi`, Debian 12's CPython 3.11
    with the aarch64 wheels of this .venv's numpy and OpenCV releases beside it; `debian`,
    Debian 13's python3, python3-numpy and python3-opencv (what Raspberry Pi OS, Debian 13
    based, installs with apt, as setup.sh does on a Pi); `debian-openblas`, the same with
    libopenblas0-serial as the BLAS."""
    if stack.startswith("debian"):
        if not (root / stack / "usr" / "bin" / "python3").exists():
            debootstrap(root / stack, "trixie", "python3,python3-numpy,python3-opencv"
                        + (",libopenblas0-serial" if stack == "debian-openblas" else ""),
                        "openblas-serial" if stack == "debian-openblas" else "blas")
        return
    system, site = root / "system", root / "site"
    if not (system / "usr" / "bin" / "python3.11").exists():
        debootstrap(system, "bookworm", "python3.11,libpython3.11-stdlib")
    if not site.exists():
        with tempfile.TemporaryDirectory() as tmp:
            pins = [f"{name}=={metadata.version(name)}" for name in WHEELS]
            _run([sys.executable, "-m", "pip", "download", "-q", "--dest", tmp, "--only-binary=:all:",
                  "--implementation", "cp", "--python-version", "3.11",
                  "--platform", "manylinux2014_aarch64", "--platform", "manylinux_2_17_aarch64",
                  "--platform", "manylinux_2_28_aarch64", "--no-deps", *pins])
            site.mkdir()
            for wheel in Path(tmp).glob("*.whl"):
                _run([sys.executable, "-m", "zipfile", "-e", str(wheel), str(site)])


def plugin(root: Path) -> Path:
    """The counting plugin, built from bench/arm_count_plugin.c when that is newer."""
    source, built = BENCH / "arm_count_plugin.c", root / "arm_count.so"
    if not built.exists() or built.stat().st_mtime < source.stat().st_mtime:
        fresh = built.with_suffix(f".{os.getpid()}.so")   # a running QEMU keeps the old one
        _run(["gcc", "-shared", "-fPIC", "-O2", "-o", str(fresh), str(source)])
        os.replace(fresh, built)
    return built


def count_arm(root: Path, stack: str, args: list[str],
              by_object: dict[str, int] | None = None) -> tuple[int, int, str]:
    """(instructions counted, those in the CPython interpreter's own code, find_cost's line)
    of find_cost.py `args` on aarch64; `by_object`, when given, is filled with the counted
    instructions by the object file (executable or shared library) they ran in."""
    system = root / (stack if stack.startswith("debian") else "system")
    python = str(system / "usr" / "bin" / ("python3" if stack.startswith("debian") else "python3.11"))
    env = dict(os.environ, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1",
               QEMU_LD_PREFIX=str(system))
    env.pop("PYTHONHOME", None)
    env.pop("PYTHONPATH", None)
    if stack == "pypi":
        env["PYTHONPATH"] = str(root / "site")
    # Debian's python3.x links the interpreter in statically and is not position-independent:
    # its code's addresses are the same every run
    maps = subprocess.run(["qemu-aarch64", "-cpu", "cortex-a72", python, "-c",
                           "import sys; print(*[l for l in open('/proc/self/maps') if "
                           "l.rstrip().endswith('/bin/python%d.%d' % sys.version_info[:2]) "
                           "and 'x' in l.split()[1]])"], env=env, capture_output=True, text=True,
                          check=True).stdout.split()
    lo, hi = maps[0].split("-")
    scratch = tempfile.TemporaryDirectory()
    profile, maps_out = Path(scratch.name) / "profile", Path(scratch.name) / "maps"
    options = f"lo=0x{lo},hi=0x{hi},each=1" + (f",profile={profile}" if by_object is not None else "")
    env["ARM_COUNT_MAPS"] = str(maps_out)
    cmd = ["nice", "-n", "19", "qemu-aarch64", "-cpu", "cortex-a72", "-plugin", f"{plugin(root)},{options}",
           python, str(Path(__file__).resolve()), "--guest", *args]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=ROOT)
    if by_object is not None and profile.exists() and maps_out.exists():
        by_object.update(sum_by_object(profile.read_text(), maps_out.read_text()))
    scratch.cleanup()
    if done.returncode:
        sys.exit(f"the aarch64 run failed:\n{done.stdout}\n{done.stderr}")
    found = re.search(r"arm_count: counted (\d+) instructions in \d+ stretches, (\d+) in the range",
                      done.stderr)
    if not found:
        sys.exit(f"no count from the plugin:\n{done.stderr}")
    stretches = [int(n) for n in re.findall(r"arm_count: stretch (\d+)", done.stderr)]
    if stretches:
        ranked = sorted(stretches)
        p95 = ranked[min(len(ranked) - 1, round(0.95 * (len(ranked) - 1)))]
        print(f"each counted stretch (a frame, with --still or --table): median "
              f"{statistics.median(ranked) / 1e6:.2f} M, p95 {p95 / 1e6:.2f} M, "
              f"min {ranked[0] / 1e6:.2f} M, max {ranked[-1] / 1e6:.2f} M")
    return int(found.group(1)), int(found.group(2)), done.stdout.strip().splitlines()[-1]


def sum_by_object(profile: str, maps: str) -> dict[str, int]:
    """The plugin's per-block counts ("ADDRESS COUNT" lines) summed by the file the guest's
    /proc/self/maps shows mapped at each address."""
    import bisect

    spans = []
    for line in maps.splitlines():
        fields = line.split()
        if len(fields) >= 6 and "x" in fields[1]:
            lo, hi = (int(v, 16) for v in fields[0].split("-"))
            spans.append((lo, hi, Path(fields[5]).name))
    spans.sort()
    starts = [lo for lo, _, _ in spans]
    out: dict[str, int] = {}
    for line in profile.splitlines():
        address, count = line.split()
        at = int(address, 16)
        i = bisect.bisect_right(starts, at) - 1
        name = spans[i][2] if i >= 0 and at < spans[i][1] else "?"
        out[name] = out.get(name, 0) + int(count)
    return out


def count_x86(args: list[str], by_object: dict[str, int] | None = None,
              python: str = "") -> tuple[int, int, str]:
    """(instructions counted, those in the CPython interpreter's own code, find_cost's line)
    of find_cost.py `args` under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "cg.out"
        done = subprocess.run(
            ["nice", "-n", "19", "valgrind", "--tool=callgrind", "--dump-instr=no",
             "--collect-atstart=no", "--toggle-collect=*functools_reduce*",
             f"--callgrind-out-file={out}", python or str(ROOT / ".venv" / "bin" / "python"),
             *([str(Path(__file__).resolve()), "--local"] if args[:1] in LOCAL_MODES
               else [str(BENCH / "find_cost.py")]), *args],
            env=dict(os.environ, PYTHONHASHSEED="0"), capture_output=True, text=True, cwd=ROOT)
        if done.returncode:
            sys.exit(f"the callgrind run failed:\n{done.stderr[-2000:]}")
        text = out.read_text()
        totals = re.search(r"^(?:summary|totals):\s*(\d+)", text, re.M)
        objects = self_cost_by_object(text)
        interpreter = sum(n for name, n in objects.items()   # the executable or libpython
                          if re.match(r"(lib)?python3\.11\b", Path(name).name))
        if by_object is not None:
            for name, n in objects.items():
                by_object[Path(name).name] = by_object.get(Path(name).name, 0) + n
        return int(totals.group(1)), interpreter, done.stdout.strip().splitlines()[-1]


def self_cost_by_object(text: str) -> dict[str, int]:
    """Callgrind's self instructions summed by object file (the cost lines that follow a
    `calls=` line are a call's inclusive cost, not the caller's own, and are skipped)."""
    names: dict[str, str] = {}
    costs: dict[str, int] = {}
    current, after_call = "", False
    for line in text.splitlines():
        if line.startswith(("ob=", "cob=")):   # an object's name is given once, where first seen
            key, _, value = line.partition("=")
            found = re.match(r"\((\d+)\)(?: (.*))?", value)
            if found and found.group(2):
                names[found.group(1)] = found.group(2)
            if key == "ob":
                current = names.get(found.group(1), "?") if found else value
        elif line.startswith("calls="):
            after_call = True
        elif line[:1].isdigit() or line[:1] in "+-*":
            if after_call:
                after_call = False
                continue
            parts = line.split()
            if len(parts) >= 2:
                costs[current] = costs.get(current, 0) + int(parts[1])
    return costs


def still_cost(args: list[str]) -> int:
    """`--still`: the still frame of `bench/realphotos_find.py --speed` (the shortcut's test
    and its answer, `StillFrames.read` of a copy of the frame last read) on find_cost's
    frames, each inside functools.reduce (counted; the first reading is not)."""
    import functools

    sys.path.insert(0, str(BENCH))
    sys.path.insert(0, str(ROOT))
    import find_cost
    from vision.pipeline import Recognizer, StillFrames
    from vision.profile import builtin_profile

    ap = argparse.ArgumentParser()
    ap.add_argument("--split", default="train")
    ap.add_argument("--every", type=int, default=12)
    opts = ap.parse_args(args)
    find_cost.cv2.setNumThreads(1)
    recognizer = Recognizer.create(builtin_profile("solo"))
    chosen = find_cost.frames(opts.split, opts.every)
    cards = 0
    for frame in chosen:
        still = StillFrames()
        still.read(recognizer, frame)   # the first reading, not counted
        reading = functools.reduce(lambda _, __: still.read(recognizer, frame.copy()), [None], None)
        cards += len(reading.cards)
    print(f"{len(chosen)} frames ({len(chosen)} photos x 1), still frames: {cards} cards answered again")
    return 0


def table_cost(args: list[str]) -> int:
    """`--table`: the camera loop's changed frame at the table of `bench/regions_bench.py`
    (rendered 640x480 scenes of 8 cards, one card laid: `StillFrames.read` of the frame with
    it after the frame without it, finding only where the frame changed), each inside
    functools.reduce (counted; the rendering and the reading before are not)."""
    import functools

    sys.path.insert(0, str(BENCH))
    sys.path.insert(0, str(ROOT))
    import cv2
    import numpy as np
    from vision import pipeline
    from vision.pipeline import Recognizer, StillFrames
    from vision.profile import builtin_profile
    from vision.render.scene import random_scene
    from vision_bench import _one_card_away

    ap = argparse.ArgumentParser()
    ap.add_argument("--scenes", type=int, default=30)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--game", default="solo")
    ap.add_argument("--scenes-dir", default="", help="read the scenes saved there (scene*.npz), or "
                    "render them and save them there: other numpy/OpenCV releases render other pixels")
    opts = ap.parse_args(args)
    cv2.setNumThreads(1)
    profile = builtin_profile(opts.game)
    rng = np.random.default_rng(opts.seed)
    frames = cards = 0
    reuse = {"kept": 0, "read again": 0}   # what vision.reuse answered for the cards found
    counted: dict[str, int] = {}           # ... in the counted frames
    plain_kept_reading = pipeline.kept_reading

    def kept_reading(*a, **kw):
        found = plain_kept_reading(*a, **kw)
        reuse["read again" if found is None else "kept"] += 1
        return found

    pipeline.kept_reading = kept_reading
    def scenes():   # (the frame with the card, the frame before it, the empty table)
        saved = sorted(Path(opts.scenes_dir).glob("scene*.npz")) if opts.scenes_dir else []
        for path in saved:
            with np.load(path) as arrays:
                yield arrays["image"], arrays["before"], arrays["empty"]
        if saved:
            return
        for i in range(opts.scenes):
            scene = random_scene(opts.game, rng, n_cards=8, photo_tables=False)
            before = _one_card_away(scene)
            if before is None:
                continue
            if opts.scenes_dir:
                Path(opts.scenes_dir).mkdir(parents=True, exist_ok=True)
                np.savez(Path(opts.scenes_dir) / f"scene{i:03d}.npz", image=scene.image, before=before,
                         empty=scene.empty)
            yield scene.image, before, scene.empty

    for image, before, empty in scenes():
        recognizer = Recognizer.create(profile, empty)
        loop = StillFrames()
        loop.read(recognizer, before)
        before_counts = dict(reuse)
        reading = functools.reduce(lambda _, __: loop.read(recognizer, image), [None], None)
        frames += 1
        cards += len(reading.cards)
        counted = {k: counted.get(k, 0) + reuse[k] - before_counts[k] for k in reuse}
    print(f"{frames} frames ({frames} scenes x 1), a card laid beside 7 at the table; {cards} cards "
          f"in the readings, of the cards found {counted.get('kept', 0)} kept and "
          f"{counted.get('read again', 0)} read again")
    return 0


def loop_cost(args: list[str]) -> int:
    """`--loop N`: N rounds of the pure-Python loop of alexdedyura/cpu-benchmark (one of its
    timed attempts is 10,000 rounds; its README gives a Raspberry Pi 4's time), inside
    functools.reduce: an interpreter's instructions a round, to turn that published time into
    the A72's instructions a cycle on interpreted code (docs/vision-history.md, "Pi 4 estimate")."""
    import functools

    def rounds(n: int) -> None:
        for _ in range(n):
            for x in range(1, 1000):
                3.141592 * 2 ** x
            for x in range(1, 10000):
                float(x) / 3.141592
            for x in range(1, 10000):
                float(3.141592) / x

    n = int(args[0])
    rounds(1)   # warm-up, not counted
    functools.reduce(lambda _, __: rounds(n), [None], None)
    print(f"{n} frames ({n} rounds of the loop), Python {sys.version.split()[0]}")
    return 0


def guest(args: list[str]) -> int:
    """Inside QEMU: find_cost.py (or `--still`) with each outermost functools.reduce between
    the markers."""
    import functools

    reduce = functools.reduce

    def mark(code: int) -> None:
        try:
            os.sched_get_priority_max(code)
        except OSError:
            pass

    def marked(*a, **kw):
        mark(MARK_START)
        try:
            return reduce(*a, **kw)
        finally:
            mark(MARK_STOP)

    functools.reduce = marked
    if os.environ.get("ARM_COUNT_MAPS"):   # where each object file lies, for --by-object
        import atexit

        atexit.register(lambda: Path(os.environ["ARM_COUNT_MAPS"]).write_text(
            Path("/proc/self/maps").read_text()))
    if args[:1] == ["--still"]:
        return still_cost(args[1:])
    if args[:1] == ["--table"]:
        return table_cost(args[1:])
    if args[:1] == ["--loop"]:
        return loop_cost(args[1:])
    sys.path.insert(0, str(BENCH))
    import find_cost

    return find_cost.main(args)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--guest"]:
        return guest(argv[1:])
    if argv[:2] == ["--local", "--still"]:   # under callgrind (--x86 --still)
        return still_cost(argv[2:])
    if argv[:2] == ["--local", "--table"]:
        return table_cost(argv[2:])
    if argv[:2] == ["--local", "--loop"]:
        return loop_cost(argv[2:])
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog="other arguments go to bench/find_cost.py")
    ap.add_argument("--root", default="/tmp/deckhand-arm64", help="where the aarch64 Python lives")
    ap.add_argument("--x86", action="store_true", help="count on this host under callgrind instead")
    ap.add_argument("--stack", default="debian", choices=("debian", "debian-openblas", "pypi"),
                    help="debian: Debian 13's python3, numpy and OpenCV, as a Pi installs them; "
                    "debian-openblas: the same with Debian's OpenBLAS (libopenblas0-serial) as the "
                    "BLAS; pypi: this .venv's numpy and OpenCV releases (aarch64 wheels) on CPython 3.11")
    ap.add_argument("--still", action="store_true", help="count the still frame (the static-frame "
                    "shortcut of realphotos_find.py --speed) instead of find_cost.py's work")
    ap.add_argument("--table", action="store_true", help="count the changed frame at the table (a "
                    "card laid beside 7, regions_bench.py's camera loop) instead")
    ap.add_argument("--by-object", action="store_true",
                    help="also print the instructions by object file (executable, library)")
    ap.add_argument("--loop", type=int, metavar="N", help="count N rounds of a published Python "
                    "benchmark's loop instead (the interpreter's calibration)")
    ap.add_argument("--python", default="", help="with --x86 --loop: the Python to run (e.g. a 3.10)")
    args, rest = ap.parse_known_args(argv)
    if args.still or args.table:
        rest = ["--still" if args.still else "--table", *rest]
    if args.loop:
        rest = ["--loop", str(args.loop), *rest]
    if args.table and "--scenes-dir" in rest and not args.x86:   # the scenes rendered here, once
        folder = Path(rest[rest.index("--scenes-dir") + 1])
        if not any(folder.glob("scene*.npz")):
            _run([sys.executable, str(Path(__file__).resolve()), "--local", *rest],
                 stdout=subprocess.DEVNULL, cwd=ROOT)
    by_object: dict[str, int] | None = {} if args.by_object else None
    if args.x86:
        total, interpreter, line = count_x86(rest, by_object, args.python)
    else:
        root = Path(args.root)
        root.mkdir(parents=True, exist_ok=True)
        prepare(root, args.stack)
        total, interpreter, line = count_arm(root, args.stack, rest, by_object)
    frames = max(int(re.match(r"(\d+) frames", line).group(1)), 1)
    print(line)
    where = "x86-64 (callgrind)" if args.x86 else f"aarch64 (cortex-a72, {args.stack})"
    print(f"{where}: {total:,} instructions, "
          f"{total / frames / 1e6:.2f} M a frame, of which the CPython interpreter's own code "
          f"{interpreter / frames / 1e6:.2f} M ({100 * interpreter / max(total, 1):.1f} %)")
    for name, n in sorted((by_object or {}).items(), key=lambda item: -item[1])[:10]:
        print(f"  {n / frames / 1e6:7.2f} M a frame  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
