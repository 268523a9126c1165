"""Vision benchmark: accuracy, tracker behaviour, speed and teaching, on rendered scenes.

    .venv/bin/python bench/vision_bench.py               # the full run (2,000 scenes a game)
    .venv/bin/python bench/vision_bench.py --scenes 200 --passes 100   # a quicker look

Fixed seeds: the same command prints the same accuracy figures. Speed runs on one thread
(cv2.setNumThreads(1)). What is counted:

* accuracy: every card whose face is fully visible must be read with its code; a partly
  covered card may be "unknown" or missing but never another code; a report where no
  card is, or of a card back, is a false report. Colour confusions count reports whose
  colour differs from the card's.
* distractor scenes (hands, phones, mugs, card backs, no cards): any known report is a
  false report.
* tracker: hands passing over a pile must never make a play; cards landing must be seen,
  and how many frames after landing the event comes is reported.
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one thread, as on the appliance's budget
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import functools  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.classify import WORK_SIZE, classify, face_features  # noqa: E402
from vision.pipeline import Recognizer, StillFrames  # noqa: E402
from vision.profile import builtin_profile, deck_colour  # noqa: E402
from vision.render.scene import distractor_scene, random_scene, spread_scene  # noqa: E402
from vision.render.sequence import (card_landing_sequence, hand_pass_sequence,  # noqa: E402
                                    open_bids_sequence, pickup_putback_sequence, pile_taken_sequence,
                                    slap_sequence)
from vision.teach import TeachError, add_frame, finish, start_session  # noqa: E402
from vision.track import TrackSettings, prime, start, step, zone_from_polygon  # noqa: E402
from vision.warp import warp_card  # noqa: E402


GAMES = ("hitthedeck", "solo", "flip7", "raj")
SLAPS = ("hitthedeck",)     # games whose tracker clips include hands slapping the pile
OPEN_BIDS = ("raj",)        # ... and several cards laid side by side at once
FULLY_VISIBLE = 0.999
MATCH_DISTANCE = 0.3    # of the card's short side: mean corner distance, found to true


@dataclass
class Tally:
    full: int = 0
    full_right: int = 0
    full_unknown: int = 0
    full_missed: int = 0
    wrong: int = 0                 # a known report with another card's code
    colour_confusions: int = 0
    partial_read: int = 0
    false_reports: int = 0         # a known report where no face-up card is
    confusions: Counter = field(default_factory=Counter)
    outline_errors: list = field(default_factory=list)    # fully visible cards found: mean corner
                                                          # distance to the truth / short side
    right_confidences: list = field(default_factory=list)  # ... and read right: their confidence

    def add(self, other: "Tally") -> None:
        for name in ("full", "full_right", "full_unknown", "full_missed", "wrong",
                     "colour_confusions", "partial_read", "false_reports"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.confusions.update(other.confusions)
        self.outline_errors += other.outline_errors
        self.right_confidences += other.right_confidences


def quad_distance(a: np.ndarray, b: np.ndarray) -> float:
    """Mean corner distance between two card outlines, either way round."""
    return float(min(np.linalg.norm(a - np.roll(b, k, axis=0), axis=1).mean() for k in (0, 2)))


@dataclass(frozen=True)
class Miss:
    """One card not read right (`kind`: not found, unknown, wrong) or a report where no
    card is ("false"), for `--misses`: the true card (None for "false") and what was
    read there (None when nothing was found)."""

    kind: str
    card: object
    seen: object


def score_scene(scene, reading, game: str, misses: list | None = None) -> Tally:
    """Compare what was read with the scene's truth: each found card is matched to the
    true card whose outline it follows (a pile's cards share a centre, not an outline).
    `misses` (a list) collects every fully visible card not read right and every wrong
    or false report."""
    tally = Tally()
    note = misses.append if misses is not None else (lambda miss: None)
    matched: dict[int, int] = {}
    errors: dict[int, float] = {}
    for i, seen in enumerate(reading.cards):
        best, best_d = None, None
        for j, card in enumerate(scene.cards):
            d = quad_distance(seen.corners, card.corners)
            if best_d is None or d < best_d:
                best, best_d = j, d
        if best is not None:
            short = float(np.linalg.norm(scene.cards[best].corners[1] - scene.cards[best].corners[0]))
            if best_d < MATCH_DISTANCE * short and best not in matched:
                matched[best] = i
                errors[best] = best_d / short
                continue
        if seen.known:
            tally.false_reports += 1
            note(Miss("false", None, seen))
    for j, card in enumerate(scene.cards):
        full = card.visible >= FULLY_VISIBLE
        tally.full += full
        if j not in matched:
            tally.full_missed += full
            if full:
                note(Miss("not found", card, None))
            continue
        seen = reading.cards[matched[j]]
        if full:
            tally.outline_errors.append(errors[j])
        if seen.label == card.code:
            tally.full_right += full
            if full:
                tally.right_confidences.append(seen.confidence)
            tally.partial_read += not full
        elif not seen.known:
            tally.full_unknown += full
            if full:
                note(Miss("unknown", card, seen))
        else:
            note(Miss("wrong", card, seen))
            tally.wrong += 1
            tally.confusions[(card.code, seen.label)] += 1
            if seen.colour != deck_colour(game, card.code):
                tally.colour_confusions += 1
    return tally


def accuracy(game: str, scenes: int, seed: int, style: str = "deckhand", profile=None,
             difficulty: str = "default", photo_tables: bool = False,
             misses_dir: Path | None = None) -> Tally:
    """Rendered scenes read and scored. With `misses_dir`, every miss is drawn there as a
    picture (`save_misses`) and listed in its misses.tsv."""
    profile = profile or builtin_profile(game)
    rng = np.random.default_rng(seed)
    total = Tally()
    for index in range(scenes):
        scene = random_scene(game, rng, difficulty=difficulty, style=style, photo_tables=photo_tables)
        recognizer = Recognizer.create(profile, scene.empty)
        reading = recognizer.read(scene.image)
        misses: list[Miss] = []
        total.add(score_scene(scene, reading, game, misses))
        if misses_dir is not None and misses:
            save_misses(misses_dir, f"{game}{'-photo' if photo_tables else ''}-{index:04d}",
                        scene, reading, recognizer, misses)
    return total


MISS_SCALE = 3   # the pictures of misses are drawn this many times the frame's size


def save_misses(out: Path, name: str, scene, reading, recognizer, misses: list[Miss]) -> None:
    """Each miss as a PNG (`<name>-<n>-<kind>.png`): the frame around the card, three
    times its size, with the true outline (green, a dot on the face's top-left corner),
    what was found there (red) and every other outline found (yellow); beside it the
    face warped from the found outline and from the true one. One line a miss in
    misses.tsv: what was read from the found outline and from the true one (an outline
    a few pixels off shows as a miss read right from the true outline)."""
    out.mkdir(parents=True, exist_ok=True)
    tsv = out / "misses.tsv"
    if not tsv.exists():
        tsv.write_text("picture\tkind\tcode\tread\tconfidence\tvisible\tshort_side\t"
                       "corner_error\tread_from_true_outline\ttrue_confidence\tspec\n")
    h, w = scene.image.shape[:2]
    rows = []
    for n, miss in enumerate(misses):
        quad = miss.card.corners if miss.card is not None else miss.seen.corners
        x0, y0 = np.floor(quad.min(axis=0) - 20).astype(int).clip(0)
        x1, y1 = np.ceil(quad.max(axis=0) + 20).astype(int)
        x1, y1 = min(int(x1), w), min(int(y1), h)
        crop = cv2.resize(scene.image[y0:y1, x0:x1], None, fx=MISS_SCALE, fy=MISS_SCALE,
                          interpolation=cv2.INTER_NEAREST)
        def draw(q, colour, thickness=1):
            pts = np.round((np.asarray(q) - [x0, y0]) * MISS_SCALE).astype(np.int32)
            cv2.polylines(crop, [pts], True, colour, thickness, cv2.LINE_AA)
            cv2.circle(crop, tuple(int(v) for v in pts[0]), 4, colour, -1)
        for other in reading.cards:
            if other is not miss.seen:
                draw(other.corners, (0, 220, 255))
        if miss.card is not None:
            draw(miss.card.corners, (0, 200, 0), 2)
        if miss.seen is not None:
            draw(miss.seen.corners, (0, 0, 255), 2)
        panels = [crop]
        for q in (miss.seen.corners if miss.seen is not None else None,
                  miss.card.corners if miss.card is not None else None):
            face = np.zeros((WORK_SIZE[1] * 3, WORK_SIZE[0] * 3, 3), np.uint8)
            if q is not None:
                face = cv2.resize(warp_card(scene.image, q, WORK_SIZE), None, fx=3, fy=3,
                                  interpolation=cv2.INTER_NEAREST)
            panels.append(face)
        height = max(p.shape[0] for p in panels)
        picture = np.hstack([cv2.copyMakeBorder(p, 0, height - p.shape[0], 0, 4, cv2.BORDER_CONSTANT)
                             for p in panels])
        file = f"{name}-{n}-{miss.kind.replace(' ', '')}.png"
        cv2.imwrite(str(out / file), picture)
        true_read = recognizer.read_card(scene.image, miss.card.corners) if miss.card is not None else None
        error = quad_distance(miss.seen.corners, miss.card.corners) \
            if miss.seen is not None and miss.card is not None else float("nan")
        short = float(np.linalg.norm(quad[1] - quad[0]))
        spec = scene.spec
        rows.append("\t".join(str(v) for v in (
            file, miss.kind, miss.card.code if miss.card is not None else "",
            miss.seen.label if miss.seen is not None else "",
            miss.seen.confidence if miss.seen is not None else "",
            round(miss.card.visible, 3) if miss.card is not None else "", round(short, 1),
            round(error, 2), true_read.label if true_read is not None else "",
            true_read.confidence if true_read is not None else "",
            f"{spec.table} light={spec.light} glare={spec.glare} shadow={spec.shadow} "
            f"blur={spec.blur:.2f} motion={spec.motion_blur:.1f} noise={spec.noise:.1f} "
            f"jpeg={spec.jpeg_quality} hand={spec.hand} tilt={spec.tilt_deg:.0f}")))
    with tsv.open("a") as f:
        f.write("".join(row + "\n" for row in rows))


def distractors(game: str, scenes: int, seed: int) -> tuple[int, int]:
    """(scenes with a false report, scenes)."""
    profile = builtin_profile(game)
    rng = np.random.default_rng(seed)
    bad = 0
    for _ in range(scenes):
        scene = distractor_scene(rng, game=game)
        reading = Recognizer.create(profile, scene.empty).read(scene.image)
        bad += any(c.known for c in reading.cards)
    return bad, scenes


def speed(game: str, frames: int, seed: int) -> dict[str, float]:
    """Whole pipeline per 640x480 frame with up to 8 cards, and per-card classification."""
    cv2.setNumThreads(1)
    profile = builtin_profile(game)
    rng = np.random.default_rng(seed)
    frame_ms, card_ms, cpu_ms, still_ms, one_ms, one_whole = [], [], [], [], [], []
    differ = 0
    for _ in range(frames):
        scene = random_scene(game, rng, n_cards=8)
        recognizer = Recognizer.create(profile, scene.empty)
        still = StillFrames()
        still.read(recognizer, scene.image)  # warm, and the reading a still frame gets again
        t0, c0 = time.perf_counter(), time.process_time()
        reading = recognizer.read(scene.image)
        frame_ms.append((time.perf_counter() - t0) * 1000)
        cpu_ms.append((time.process_time() - c0) * 1000)
        c0 = time.process_time()
        still.read(recognizer, scene.image.copy())
        still_ms.append((time.process_time() - c0) * 1000)
        for seen in reading.cards:
            t0 = time.perf_counter()
            face = warp_card(scene.image, seen.corners, WORK_SIZE)
            classify(face_features(face), profile)
            card_ms.append((time.perf_counter() - t0) * 1000)
        before = _one_card_away(scene)
        if before is not None:   # a card lands beside the others: the camera loop's changed frame
            loop = StillFrames()
            loop.read(recognizer, before)
            c0 = time.process_time()
            landed = loop.read(recognizer, scene.image)
            one_ms.append((time.process_time() - c0) * 1000)
            one_whole.append(cpu_ms[-1])
            differ += sorted(c.label for c in landed.cards) != sorted(c.label for c in reading.cards)
    return {"frame_median": statistics.median(frame_ms),
            "one_median": statistics.median(one_ms) if one_ms else float("nan"),
            "one_p95": float(np.percentile(one_ms, 95)) if one_ms else float("nan"),
            "one_frames": len(one_ms), "one_differ": differ,
            "one_whole": statistics.median(one_whole) if one_whole else float("nan"),
            "cpu_median": statistics.median(cpu_ms), "cpu_p95": float(np.percentile(cpu_ms, 95)),
            "still_median": statistics.median(still_ms), "still_p95": float(np.percentile(still_ms, 95)),
            "frame_p95": float(np.percentile(frame_ms, 95)),
            "card_median": statistics.median(card_ms) if card_ms else float("nan"),
            "card_p95": float(np.percentile(card_ms, 95)) if card_ms else float("nan")}


def _one_card_away(scene) -> np.ndarray | None:
    """The scene before one of its cards was laid: a fully visible card that no other
    card touches, its place (and shadow) painted over with the empty table; None when
    every card touches another."""
    h, w = scene.image.shape[:2]
    places = []
    for card in scene.cards:
        mask = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(mask, np.round(card.corners).astype(np.int32), 255)
        places.append(cv2.dilate(mask, np.ones((13, 13), np.uint8)))
    for i, card in enumerate(scene.cards):
        if card.visible >= 0.999 and not any(cv2.countNonZero(cv2.bitwise_and(places[i], other))
                                             for j, other in enumerate(places) if j != i):
            before = scene.image.copy()
            before[places[i] > 0] = scene.empty[places[i] > 0]
            return before
    return None


def _clip_readings(clip, profile) -> list:
    """Every frame of a clip read as the camera loop reads it: through `StillFrames`, so a
    frame like the last one read gets that reading again."""
    recognizer = Recognizer.create(profile, clip.empty)
    still = StillFrames()
    return [still.read(recognizer, frame) for frame in clip.frames]


def _run_clip(clip, readings, settings: TrackSettings = TrackSettings()) -> list[tuple[int, object]]:
    """Events a tracker reports over a clip's readings, primed with what lies there at its
    start."""
    size = (clip.frames[0].shape[1], clip.frames[0].shape[0])
    state = start([zone_from_polygon(name, poly, size) for name, poly in clip.zones.items()], settings)
    state = prime(state, readings[0])
    events = []
    for i, reading in enumerate(readings[1:], start=1):
        state, seen = step(state, reading, i)
        events += [(i, e) for e in seen]
    return events


def tracker(game: str, passes: int, seed: int, settings: list[TrackSettings] | None = None,
            pace: int = 1, progress: int = 0) -> list[dict[str, object]]:
    """False plays over hand passes and put-backs; landings seen and their delay; piles
    taken: one tally per tracker setting, all over the same clips read once. `pace`: the
    clips have that many times the frames (2: a 30 fps camera, 1: 15 fps)."""
    settings = settings or [TrackSettings()]
    profile = builtin_profile(game)
    rng = np.random.default_rng(seed)
    tallies = [{"settings": s, "passes": passes, "false_plays": 0, "putbacks": 0, "putback_plays": 0,
                "landings": 0, "landed_seen": 0, "landed_wrong": 0, "delays": [], "takes": 0,
                "cleared": 0, "slaps": 0, "slap_plays": 0, "bids": 0, "bids_seen": 0, "bid_extra": 0,
                "bid_delays": []} for s in settings]
    players = [c for c in profile.labels if not c.startswith("P")] if game in OPEN_BIDS else []
    points = [c for c in profile.labels if c.startswith("P")] if game in OPEN_BIDS else []

    def each(clip):
        readings = _clip_readings(clip, profile)
        return [(t, _run_clip(clip, readings, t["settings"])) for t in tallies]

    # interleaved, so that a run stopped early (--progress) has every kind of clip
    for n in range(1, passes + 1):
        for t, events in each(hand_pass_sequence(game, rng, frames=16 * pace)):
            t["false_plays"] += len(events)
        if n % 4 == 0 or n == passes and not tallies[0]["putbacks"]:
            for t, events in each(pickup_putback_sequence(game, rng, reach=4 * pace, hold=4 * pace,
                                                          still_after=6 * pace)):
                t["putbacks"] += 1
                t["putback_plays"] += len(events)
        if game in SLAPS and (n % 2 == 0 or n == passes and not tallies[0]["slaps"]):
            for t, events in each(slap_sequence(game, rng, down=3 * pace, still_after=6 * pace)):
                t["slaps"] += 1
                t["slap_plays"] += len(events)
        if game in OPEN_BIDS and (n % 5 == 0 or n == passes and not tallies[0]["bids"]):
            codes = [players[i] for i in rng.choice(len(players), int(rng.integers(1, 4)), replace=False)]
            lying = [points[int(rng.integers(len(points)))]] if rng.random() < 0.7 else []
            clip = open_bids_sequence(game, codes, rng, lying=lying, flight=5 * pace, retreat=4 * pace,
                                      still_after=8 * pace, pass_after=12 * pace)
            for t, events in each(clip):
                plays = [(i, e) for i, e in events if e.zone == "discard" and getattr(e, "card", None)]
                t["bids"] += len(codes)
                for landed in clip.events:
                    seen = [i for i, e in plays if e.card == landed.code]
                    if seen:
                        t["bids_seen"] += 1
                        t["bid_delays"].append(seen[0] - landed.frame)
                t["bid_extra"] += len(plays) - len({e.card for _, e in plays if e.card in codes})
        if n % 10 == 0 or n == passes and not tallies[0]["landings"]:
            code = profile.labels[int(rng.integers(len(profile.labels)))]
            clip = card_landing_sequence(game, code, rng, still_before=3 * pace, flight=6 * pace,
                                         retreat=5 * pace, still_after=8 * pace)
            for t, events in each(clip):
                events = [(i, e) for i, e in events if e.zone == "discard"]
                plays = [(i, e) for i, e in events if getattr(e, "card", None) == code]
                t["landings"] += 1
                t["landed_wrong"] += len(events) - len(plays)
                if plays:
                    t["landed_seen"] += 1
                    t["delays"].append(plays[0][0] - clip.landed_at)
        if n % 20 == 0 or n == passes and not tallies[0]["takes"]:
            for t, events in each(pile_taken_sequence(game, rng, reach=4 * pace, still_after=8 * pace)):
                t["takes"] += 1
                t["cleared"] += any(type(e).__name__ == "ZoneEmpty" and e.zone == "discard"
                                    for _, e in events)
        if progress and n % progress == 0 and n < passes:
            for t in tallies:
                print_tracker(dict(t, passes=n), 15 * pace, file=sys.stderr)
    return tallies


def print_tracker(t: dict[str, object], fps: float, file=sys.stdout) -> None:
    s = t["settings"]
    quick = "off" if s.alone_share is None else f"{s.alone_share:g}"
    delays = t["delays"] or [float("nan")]
    print(f"  tracker, {s.stable_frames} stable frames, a lone card at once {quick} (clips at {fps:g} fps):"
          f" false plays in {t['passes']} hand passes: {t['false_plays']};"
          f" in {t['putbacks']} pick-up-and-put-backs: {t['putback_plays']}", file=file)
    print(f"    landings seen {t['landed_seen']}/{t['landings']} (other events {t['landed_wrong']}),"
          f" frames from landing to event: median {statistics.median(delays):.0f},"
          f" p95 {np.percentile(delays, 95):.0f}, max {max(delays):.0f}"
          f" (median at {fps:g} fps: {statistics.median(delays) / fps * 1000:.0f} ms);"
          f" piles taken seen {t['cleared']}/{t['takes']}", file=file, flush=True)
    if t["slaps"]:
        print(f"    false plays in {t['slaps']} slaps on the pile: {t['slap_plays']}", file=file, flush=True)
    if t["bids"]:
        bid = t["bid_delays"] or [float("nan")]
        print(f"    cards laid side by side at once: seen {t['bids_seen']}/{t['bids']}, other or repeated"
              f" events {t['bid_extra']} (a hand passes over them after), frames from landing to event:"
              f" median {statistics.median(bid):.0f}, max {max(bid):.0f}", file=file, flush=True)


def spreads(game: str, count: int, seed: int) -> tuple[int, int, int]:
    """Spreads of 15 cards in the scoring zone: (read whole, reported wrong or short,
    spreads)."""
    from vision.track import Zone

    profile = builtin_profile(game)
    rng = np.random.default_rng(seed)
    full = list(profile.labels)
    whole = wrong = 0
    for _ in range(count):
        codes = [full[i] for i in rng.choice(len(full), 15, replace=len(full) < 15)]
        scene = spread_scene(game, codes, rng)
        reading = Recognizer.create(profile, scene.empty).read(scene.image)
        state = start([Zone("scoring", (0.0, 0.0, 1.0, 1.0), spread=True)])
        events = []
        for t in range(4):
            state, seen = step(state, reading, t)
            events += seen
        for event in events:
            if sorted(event.cards) == sorted(codes):
                whole += 1
            else:
                wrong += 1
    return whole, wrong, count


def teaching(game: str, scenes: int, seed: int) -> tuple[Tally, object, float]:
    """Teach the "alt" printing of a deck from one picture per card (a card alone on a
    rendered table), then read scenes of that deck."""
    from vision.render.cards import deck_codes

    rng = np.random.default_rng(seed)
    t0 = time.perf_counter()
    session = start_session(f"{game}-alt")
    retakes = 0
    for code in deck_codes(game):
        for attempt in range(5):  # a photo where the card is not found is taken again
            scene = spread_scene(game, [code], rng, style="alt")
            try:
                session = add_frame(session, scene.image, code, deck_colour(game, code),
                                    empty_table=scene.empty)
                break
            except TeachError:
                retakes += 1
    print(f"  teaching: {retakes} photos taken again (no card found in them)")
    taught = finish(session)
    seconds = time.perf_counter() - t0
    return accuracy(game, scenes, seed + 1, style="alt", profile=taught.profile), taught.check, seconds


def print_accuracy(game: str, tally: Tally, label: str = "") -> None:
    read = tally.full_right / max(tally.full, 1)
    print(f"  {label}fully visible cards read right: {tally.full_right}/{tally.full} = {read:.2%}"
          f"  (unknown {tally.full_unknown}, not found {tally.full_missed})")
    print(f"  {label}wrong codes reported: {tally.wrong} (colour confusions {tally.colour_confusions});"
          f" reports where no card is: {tally.false_reports};"
          f" partly covered cards read right: {tally.partial_read}")
    if tally.confusions:
        pairs = ", ".join(f"{a}->{b} x{n}" for (a, b), n in tally.confusions.most_common(6))
        print(f"  {label}confusions: {pairs}")
    if tally.outline_errors and tally.right_confidences:
        errors, confidences = np.array(tally.outline_errors), np.array(tally.right_confidences)
        print(f"  {label}outlines of fully visible cards found, off the truth by (share of the short side):"
              f" mean {errors.mean():.4f}, p90 {np.percentile(errors, 90):.4f};"
              f" right readings' confidence: mean {confidences.mean():.3f}, p10 {np.percentile(confidences, 10):.3f},"
              f" p2 {np.percentile(confidences, 2):.3f}; below 0.5: {int((confidences < 0.5).sum())}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", type=int, default=2000, help="rendered scenes per game")
    parser.add_argument("--distractors", type=int, default=None,
                        help="distractor scenes per game (default: scenes / 2)")
    parser.add_argument("--passes", type=int, default=1000, help="hand passes for the tracker")
    parser.add_argument("--frames", type=int, default=200, help="frames timed per game")
    parser.add_argument("--spreads", type=int, default=50, help="spreads of 15 cards per game")
    parser.add_argument("--teach-scenes", type=int, default=None,
                        help="scenes of the taught alt deck per game (default: scenes / 4)")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--stable-frames", default=str(TrackSettings().stable_frames),
                        help="the tracker's stable frames; a comma list compares them on the same clips")
    parser.add_argument("--alone-share", default=str(TrackSettings().alone_share),
                        help="the tracker's alone_share (a lone new card counts at once; 'off': never);"
                             " a comma list compares them")
    parser.add_argument("--progress", type=int, default=0, metavar="N",
                        help="print the tracker's tallies so far every N hand passes (to stderr)")
    parser.add_argument("--clip-fps", type=int, default=15, choices=(15, 30),
                        help="the tracker's clips as a camera at this rate sees them (30: twice the frames)")
    parser.add_argument("--photo-tables", action="store_true",
                        help="accuracy scenes on real tables cut from ../shared/realphotos photos")
    parser.add_argument("--misses", metavar="DIR", type=Path,
                        help="draw every miss of the accuracy scenes as a picture in DIR"
                             " (with misses.tsv; tests/artifacts/ is ignored by git)")
    parser.add_argument("--picture", metavar="PNG",
                        help="only draw the camera's view with what vision reads (docs/vision.md)")
    parser.add_argument("--skip", default="", help="comma list of parts to skip: "
                        "accuracy,distractors,tracker,spreads,speed,teach")
    args = parser.parse_args(argv)
    if args.picture:
        draw_camera_view(args.picture)
        return 0
    skip = set(filter(None, args.skip.split(",")))
    games = [g for g in args.games.split(",") if g]
    n_distractors = args.distractors if args.distractors is not None else max(1, args.scenes // 2)
    for game in games:
        print(f"== {game}")
        builtin_profile(game)  # render and cache outside the timings
        if "accuracy" not in skip:
            print_accuracy(game, accuracy(game, args.scenes, seed=1, misses_dir=args.misses))
            if args.photo_tables:
                print_accuracy(game, accuracy(game, args.scenes, seed=1, photo_tables=True,
                                              misses_dir=args.misses), "photo tables: ")
        if "distractors" not in skip:
            bad, n = distractors(game, n_distractors, seed=2)
            print(f"  distractor scenes with a false report: {bad}/{n} = {bad / n:.2%}")
        if "tracker" not in skip:
            variants = [TrackSettings(stable_frames=int(n), alone_share=None if a == "off" else float(a))
                        for n in args.stable_frames.split(",") for a in args.alone_share.split(",")]
            for t in tracker(game, args.passes, seed=4, settings=variants, pace=args.clip_fps // 15,
                             progress=args.progress):
                print_tracker(t, args.clip_fps)
        if "spreads" not in skip:
            whole, wrong, n = spreads(game, args.spreads, seed=6)
            print(f"  spreads of 15 cards: read whole {whole}/{n}, reported wrong or short {wrong}"
                  " (the rest: not reported, a card not found)")
        if "speed" not in skip:
            s = speed(game, args.frames, seed=3)
            print_speed(s)
        if "teach" not in skip:
            n = args.teach_scenes if args.teach_scenes is not None else max(1, args.scenes // 4)
            tally, check, seconds = teaching(game, n, seed=5)
            print(f"  teaching the alt deck from one picture per card ({seconds:.1f} s), then {n} scenes:")
            print_accuracy(game, tally, "taught: ")
            for line in check.lines():
                print(f"    {line}")
    return 0


def draw_camera_view(path: str) -> None:
    """What the camera should see: an overhead view of the table at 640x480, cards about
    a ninth of the picture wide, the discard pile and the reveal spot in their zones; each
    card found is outlined with what was read."""
    from vision.render.scene import SceneSpec, render_scene

    spec = SceneSpec(table="wood", tilt_deg=8, light="neutral", noise=0, card_width=0.12)
    cards = [("R3", "G3", "G-SWAP"), "B7", "Y-REV", "TAKE4", "R9"]
    scene = render_scene("solo", cards, spec, np.random.default_rng(2))
    reading = Recognizer.create(builtin_profile("solo"), scene.empty).read(scene.image)
    out = scene.image.copy()
    for name, polygon in scene.zones.items():
        cv2.polylines(out, [np.round(polygon).astype(np.int32)], True, (255, 255, 255), 1, cv2.LINE_AA)
        x, y = np.round(polygon.min(axis=0)).astype(int)
        cv2.putText(out, f"zone: {name}", (x + 4, y + 14), cv2.FONT_HERSHEY_SIMPLEX, 0.45,
                    (255, 255, 255), 1, cv2.LINE_AA)
    for seen in reading.cards:
        colour = (60, 220, 60) if seen.known else (60, 60, 230)
        cv2.polylines(out, [np.round(seen.corners).astype(np.int32)], True, colour, 2, cv2.LINE_AA)
        tl = np.round(seen.corners[0]).astype(int)
        cv2.circle(out, tuple(int(v) for v in tl), 4, colour, -1, cv2.LINE_AA)
        x, y = np.round(seen.corners.mean(axis=0)).astype(int)
        text = f"{seen.label} {seen.confidence:.2f}"
        cv2.putText(out, text, (x - 30, y + 4), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 3, cv2.LINE_AA)
        cv2.putText(out, text, (x - 30, y + 4), cv2.FONT_HERSHEY_SIMPLEX, 0.5, colour, 1, cv2.LINE_AA)
    out = (out // 8) * 8 + 4  # fewer shades: the PNG stays small for the docs
    cv2.imwrite(path, out, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    print(f"wrote {path} ({Path(path).stat().st_size // 1024} KB)")


def print_speed(s: dict[str, float]) -> None:
    """Measured figures. A Raspberry Pi 4's time is not a multiple of them (sessions 4-15
    multiplied by an assumed 3.5): its stack runs other code (NEON paths, Debian's OpenCV
    and BLAS), so bench/arm_count.py counts the same work's aarch64 instructions and
    docs/vision-history.md ("Pi 4 estimate") turns them into a time range."""
    print(f"  speed, one thread, 640x480, 8 cards: frame median {s['frame_median']:.1f} ms,"
          f" p95 {s['frame_p95']:.1f} ms; per card median {s['card_median']:.2f} ms,"
          f" p95 {s['card_p95']:.2f} ms")
    print(f"  the same frames in this process's CPU time (a busy machine's wall time includes waiting"
          f" for a core; load average {os.getloadavg()[0]:.1f}): median {s['cpu_median']:.1f} ms,"
          f" p95 {s['cpu_p95']:.1f} ms; a still frame (nothing changed since the last reading):"
          f" median {s['still_median']:.2f} ms, p95 {s['still_p95']:.2f} ms")
    print(f"  one card laid beside the others, through the camera loop's StillFrames (the cards that lie"
          f" as they lay keep their readings), CPU: median {s['one_median']:.1f} ms, p95 {s['one_p95']:.1f} ms"
          f" ({s['one_frames']} frames, whose whole reading took {s['one_whole']:.1f} ms median; the cards"
          f" read differ from a whole reading's in {s['one_differ']})")
    print("  Raspberry Pi 4: not a multiple of these times; bench/arm_count.py counts the same work's"
          " instructions on a Pi's stack (docs/vision-history.md, \"Pi 4 estimate\")")


if __name__ == "__main__":
    sys.exit(main())
