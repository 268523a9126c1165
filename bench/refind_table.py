"""How often a taught deck's card is looked for again around its outline at the table.

    .venv/bin/python bench/refind_table.py --clips 4 --scenes 10
    .venv/bin/python bench/refind_table.py --games solo --clips 2 --profiles /tmp/taught.pkl

`Recognizer._found_around` (`vision/refind.py`) runs the finder on a window around a taught
card's outline still "unknown" after its completions: about a whole frame's finding. This
bench teaches each game's "alt" printing as bench/vision_bench.py's teaching part does (one
rendered picture a card, seed 5), then reads, as the camera loop reads them (one
`StillFrames` a sequence), that deck's tracker clips (hand passes, put-backs, a card
landing, the pile taken, slaps; rendered tables and real tables cut from photos) and
regions_bench's scenes (a card laid beside 7: before, landed, before, landed). It counts
the frames read (not the still ones), the outlines read, the looks around and what they
found (a reading taken or not). `--profiles FILE` keeps the taught profiles (a pickle) so
a second run need not teach again.

`--photos N`: real cards instead, the deck of ../shared/realphotos/cards-edje taught as
bench/realphotos_read.py teaches it (2 photos a rank, draw `--seed`), and every Nth
`train_` photo (not a teaching one) read as a camera frame with a hand passing over it:
the photo, then `HAND_FRAMES` frames with a skin-coloured hand and arm (an ellipse and a
band from the photo's bottom edge) moving across it, then the photo again.
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import pickle  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
if "--code" in sys.argv:   # another tree's vision/ (e.g. `git archive main vision` unpacked)
    sys.path.insert(0, sys.argv[sys.argv.index("--code") + 1])

from vision import pipeline  # noqa: E402
from vision.pipeline import Recognizer, StillFrames  # noqa: E402
from vision.profile import deck_colour  # noqa: E402
from vision.render.scene import random_scene, random_spec, spread_scene  # noqa: E402
from vision.render.sequence import (card_landing_sequence, hand_pass_sequence,  # noqa: E402
                                    pickup_putback_sequence, pile_taken_sequence, slap_sequence)
from vision.teach import TeachError, add_frame, finish, start_session  # noqa: E402

GAMES = ("hitthedeck", "solo", "flip7")


def taught_profile(game: str):
    """The game's "alt" printing taught as bench/vision_bench.py's `teaching` does."""
    from vision.render.cards import deck_codes

    rng = np.random.default_rng(5)
    session = start_session(f"{game}-alt")
    for code in deck_codes(game):
        for _ in range(5):
            scene = spread_scene(game, [code], rng, style="alt")
            try:
                session = add_frame(session, scene.image, code, deck_colour(game, code), empty_table=scene.empty)
                break
            except TeachError:
                pass
    return finish(session).profile


class Counting:
    """`Recognizer._found_around` wrapped: each call counted, with whether it changed the
    reading."""

    def __init__(self):
        self.calls = 0
        self.taken = 0
        self.seconds = 0.0
        self.original = pipeline.Recognizer._found_around

    def __enter__(self):
        original = self.original

        def counted(recognizer, frame, corners, first, *search):
            t0 = time.process_time()
            best, where = original(recognizer, frame, corners, first, *search)
            self.seconds += time.process_time() - t0
            self.calls += 1
            self.taken += where is not corners
            return best, where

        pipeline.Recognizer._found_around = counted
        return self

    def __exit__(self, *exc):
        pipeline.Recognizer._found_around = self.original


READINGS: list = []   # every frame's cards (label, confidence, corners), for --dump


def read_frames(recognizer: Recognizer, frames, tally: Counter, counting: Counting) -> None:
    loop = StillFrames()
    for frame in frames:
        before_reused, before_calls = loop.reused, counting.calls
        reading = loop.read(recognizer, frame)
        READINGS.append(tuple((c.label, float(c.confidence), c.corners.tobytes()) for c in reading.cards))
        tally["frames"] += 1
        if loop.reused > before_reused:
            continue
        tally["changed frames"] += 1
        tally["outlines"] += len(reading.detection.cards)
        tally["unknown cards"] += sum(not c.known for c in reading.cards)
        calls = counting.calls - before_calls
        tally["frames looking around"] += calls > 0
        tally["max looks in a frame"] = max(tally["max looks in a frame"], calls)


HAND_FRAMES = 6


def hand_pass(photo: np.ndarray, frames: int = HAND_FRAMES) -> list[np.ndarray]:
    """The photo, a hand and arm sweeping from left to right across its lower half
    (`frames` frames), and the photo again."""
    h, w = photo.shape[:2]
    out = [photo]
    for i in range(frames):
        frame = photo.copy()
        x = int(w * (i + 0.5) / frames)
        y = int(h * 0.6)
        cv2.line(frame, (x, y), (x + w // 8, h + 20), (105, 135, 185), max(8, w // 9))
        cv2.ellipse(frame, (x, y), (w // 12, h // 12), 30, 0, 360, (120, 150, 200), -1)
        out.append(frame)
    return out + [photo]


def real_photos(every: int, seed: int) -> Counter:
    """Looks around at a hand pass over real photos (see the module's docstring)."""
    import realphotos_read as bench

    cards = bench.load_cards(bench.PHOTOS)
    teaching = bench.teaching_draw(cards, shots=2, seed=seed)
    images = {c.file: cv2.imread(str(bench.PHOTOS / c.file)) for c in teaching}
    profile = bench.teach([(c, images[c.file]) for c in teaching], "cards-edje")[0]
    taught = {c.file for c in teaching}
    files = sorted({c.file for c in cards if Path(c.file).name.startswith("train_") and c.file not in taught})
    tally = Counter()
    with Counting() as counting:
        for file in files[::every]:
            photo = cv2.imread(str(bench.PHOTOS / file))
            read_frames(Recognizer.create(profile), hand_pass(photo), tally, counting)
        tally["looks around"] += counting.calls
        tally["looks taken"] += counting.taken
        tally["looks CPU ms"] += round(counting.seconds * 1000)
    tally["photos"] = len(files[::every])
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--clips", type=int, default=4, help="clips of each kind a game and a kind of table")
    parser.add_argument("--scenes", type=int, default=10, help="regions_bench scenes a game and a kind of table")
    parser.add_argument("--profiles", type=Path, help="a pickle of the taught profiles (made when missing)")
    parser.add_argument("--photos", type=int, default=0, metavar="N",
                        help="real photos instead: every Nth train_ photo with a hand passing over it")
    parser.add_argument("--seed", type=int, default=1, help="--photos: the teaching draw")
    parser.add_argument("--code", help="run this folder's vision/ (another tree's)")
    parser.add_argument("--dump", type=Path, help="write every frame's cards here (a pickle), to compare")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    print(f"vision from {Path(pipeline.__file__).parent}")
    if args.photos:
        grand = real_photos(args.photos, args.seed)
        if args.dump:
            args.dump.write_bytes(pickle.dumps(READINGS))
        print("real photos: " + ", ".join(f"{k} {v}" for k, v in grand.items()))
        print(f"looks around a changed frame: {grand['looks around'] / max(grand['changed frames'], 1):.3f};"
              f" changed frames with one: {grand['frames looking around'] / max(grand['changed frames'], 1):.1%}")
        return 0
    profiles = {}
    if args.profiles and args.profiles.exists():
        profiles = pickle.loads(args.profiles.read_bytes())
    from vision_bench import _one_card_away

    grand = Counter()
    for game in args.games.split(","):
        if game not in profiles:
            profiles[game] = taught_profile(game)
            if args.profiles:
                args.profiles.write_bytes(pickle.dumps(profiles))
        profile = profiles[game]
        for photo_tables in (False, True):
            tally = Counter()
            with Counting() as counting:
                rng = np.random.default_rng(4)
                for _ in range(args.clips):
                    spec = lambda: random_spec(rng, photo_tables=photo_tables)  # noqa: E731
                    clips = [hand_pass_sequence(game, rng, spec(), style="alt"),
                             pickup_putback_sequence(game, rng, spec(), style="alt"),
                             card_landing_sequence(game, profile.labels[int(rng.integers(len(profile.labels)))],
                                                   rng, spec(), style="alt"),
                             pile_taken_sequence(game, rng, spec(), style="alt")]
                    if game == "hitthedeck":
                        clips.append(slap_sequence(game, rng, spec(), style="alt"))
                    for clip in clips:
                        read_frames(Recognizer.create(profile, clip.empty), clip.frames, tally, counting)
                rng = np.random.default_rng(7)
                for _ in range(args.scenes):
                    scene = random_scene(game, rng, n_cards=8, style="alt", photo_tables=photo_tables)
                    before = _one_card_away(scene)
                    if before is not None:
                        read_frames(Recognizer.create(profile, scene.empty),
                                    [before, scene.image, before, scene.image], tally, counting)
                tally["looks around"] += counting.calls
                tally["looks taken"] += counting.taken
                tally["looks CPU ms"] += round(counting.seconds * 1000)
            grand.update({k: v for k, v in tally.items() if not k.startswith("max")})
            grand["max looks in a frame"] = max(grand["max looks in a frame"], tally["max looks in a frame"])
            print(f"{game} {'photo' if photo_tables else 'rendered'} tables: " +
                  ", ".join(f"{k} {v}" for k, v in tally.items()), flush=True)
    print("all: " + ", ".join(f"{k} {v}" for k, v in grand.items()))
    if args.dump:
        args.dump.write_bytes(pickle.dumps(READINGS))
    if grand["changed frames"]:
        print(f"looks around a changed frame: {grand['looks around'] / grand['changed frames']:.3f};"
              f" changed frames with one: {grand['frames looking around'] / grand['changed frames']:.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
