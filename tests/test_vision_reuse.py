"""Readings kept from frame to frame (vision.reuse through pipeline.StillFrames): on a
frame that changed, a card that lies as it lay, its pixels unchanged, keeps its reading;
a card laid, replaced, nudged, covered or slowly relit is read again, and what the loop
reports is what a whole reading reports."""
from __future__ import annotations

import numpy as np
import pytest

from test_vision_support import profile, without
from vision.pipeline import Recognizer, StillFrames
from vision.render.scene import SceneSpec, render_scene
from vision.reuse import keep, kept_reading, unchanged

SPEC = SceneSpec(table="wood", noise=2, card_width=0.13)


def scene(codes):
    return render_scene("solo", codes, SPEC, np.random.default_rng(11))


@pytest.fixture
def reads(monkeypatch):
    """Counts the cards the recognizer really reads (every reading, `read_card`'s and the
    camera loop's, goes through `Recognizer._reading`)."""
    count = {"cards": 0}
    real = Recognizer._reading

    def counting(self, frame, corners):
        count["cards"] += 1
        return real(self, frame, corners)

    monkeypatch.setattr(Recognizer, "_reading", counting)
    return count


def labels(reading):
    return sorted(c.label for c in reading.cards)


def test_a_card_laid_beside_another_reads_only_the_new_card(reads):
    s = scene(["R3", "G7", "B5"])
    recognizer = Recognizer.create(profile("solo"), s.empty)
    loop = StillFrames()
    assert labels(loop.read(recognizer, without(s, "G7"))) == ["B5", "R3"]
    assert reads["cards"] == 2
    landed = loop.read(recognizer, s.image)
    assert reads["cards"] == 3            # the two that lay there kept their readings
    whole = recognizer.read(s.image)
    assert labels(landed) == labels(whole) == ["B5", "G7", "R3"]
    for kept, fresh in zip(sorted(landed.cards, key=lambda c: c.label), sorted(whole.cards, key=lambda c: c.label)):
        assert np.abs(kept.corners - fresh.corners).max() <= 1.5


def test_a_card_replaced_at_the_same_place_is_read_again(reads):
    first, second = scene(["R3", "G7"]), scene(["R3", "B5"])   # the same places
    recognizer = Recognizer.create(profile("solo"), first.empty)
    loop = StillFrames()
    assert labels(loop.read(recognizer, first.image)) == ["G7", "R3"]
    assert labels(loop.read(recognizer, second.image)) == ["B5", "R3"]
    assert reads["cards"] == 3


def test_a_card_covered_nudged_or_slowly_relit_is_read_again(reads):
    s = scene(["R3", "G7"])
    recognizer = Recognizer.create(profile("solo"), s.empty)
    loop = StillFrames()
    loop.read(recognizer, s.image)
    assert reads["cards"] == 2
    # a shadow over part of one card (the other lies as it lay)
    g7 = next(c for c in s.cards if c.code == "G7")
    x0, y0 = np.floor(g7.corners.min(axis=0)).astype(int)
    shaded = s.image.copy()
    shaded[y0 + 5:y0 + 25, x0 + 5:x0 + 25] = (shaded[y0 + 5:y0 + 25, x0 + 5:x0 + 25] * 0.7).astype(np.uint8)
    assert labels(loop.read(recognizer, shaded)) == ["G7", "R3"]
    assert reads["cards"] == 3
    # the whole picture moved by 3 pixels: every outline moved, every card is read
    moved = np.roll(s.image, 3, axis=1)
    moved[:, :3] = s.image[:, :3]
    assert labels(loop.read(recognizer, moved)) == ["G7", "R3"]
    assert reads["cards"] == 5
    # a slow brightening: each frame within the still test of the last read one is not
    # read at all, and a kept reading is compared with the pixels it was read from
    loop.read(recognizer, s.image)
    base = reads["cards"]
    for step in range(4, 40, 4):
        loop.read(recognizer, np.clip(s.image.astype(np.int16) + step, 0, 255).astype(np.uint8))
    assert reads["cards"] >= base + 2


def test_unknown_readings_and_other_recognizers_keep_nothing(reads):
    s = scene(["R3", "G7"])
    recognizer = Recognizer.create(profile("solo"), s.empty)
    blank = s.empty.copy()
    loop = StillFrames()
    loop.read(recognizer, blank)
    assert loop.kept == []
    loop.read(recognizer, s.image)
    assert len(loop.kept) == 2 and all(k.card.known for k in loop.kept)
    other = Recognizer.create(profile("solo"), s.empty)   # a new recognizer reads afresh
    loop.read(other, without(s, "G7"))
    assert reads["cards"] == 3
    loop.forget()
    assert loop.kept == [] and loop.kept_by is None


def test_unchanged_allows_camera_noise_and_sees_a_small_change():
    rng = np.random.default_rng(4)
    then = rng.integers(40, 215, (60, 50, 3)).astype(np.uint8)
    noisy = np.clip(then.astype(np.int16) + rng.integers(-3, 4, then.shape), 0, 255).astype(np.uint8)
    assert unchanged(then, noisy)
    patch = then.copy()
    patch[20:26, 20:26, 2] = np.clip(patch[20:26, 20:26, 2].astype(np.int16) + 20, 0, 255)   # one channel
    assert not unchanged(then, patch)
    assert not unchanged(then, then[:-1])          # a box cut by the frame's border
    corners = np.float32([[10, 10], [30, 10], [30, 40], [10, 40]])
    frame = np.zeros((100, 120, 3), np.uint8)
    kept = [keep(frame, corners, "a card")]
    assert kept_reading(kept, frame, corners + 1.5) is kept[0]
    assert kept_reading(kept, frame, corners + 2.0) is None
