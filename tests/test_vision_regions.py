"""Finding cards only where the frame changed (vision.regions): a card laid beside others
is found with the outline the whole-frame finder gives it, the others' outlines are kept
without a search; a card taken away is gone; a large change searches the whole frame."""
from __future__ import annotations

import cv2
import numpy as np

from test_vision_support import profile, without
from vision import regions
from vision.detect import changed_pixels, detect
from vision.pipeline import Recognizer, StillFrames
from vision.render.scene import SceneSpec, render_scene
from vision.render.sequence import card_landing_sequence

SPEC = SceneSpec(table="wood", noise=2, card_width=0.11)
CODES = ["R3", "G7", "B5", "Y2", "R9"]


def scene():
    return render_scene("solo", CODES, SPEC, np.random.default_rng(5))


def search(last, frame, r):
    """What `regions.find` searches in `frame` after `last`: (boxes, outlines kept) or None."""
    changed = changed_pixels(cv2.GaussianBlur(frame, (3, 3), 0), r.table, r.settings)
    return regions.changed_boxes(last.grey, regions.shrunk(frame), last.detection.cards, changed)


def same(a, b) -> bool:
    """Whether two findings hold the same outlines (every corner within 1.5 px), in any order."""
    left = [c.corners for c in b.cards]
    for card in a.cards:
        match = next((i for i, o in enumerate(left) if float(np.abs(o - card.corners).max()) <= 1.5), None)
        if match is None:
            return False
        left.pop(match)
    return not left


def test_a_card_laid_beside_others_is_found_where_it_changed_as_in_the_whole_frame():
    s = scene()
    r = Recognizer.create(profile("solo"), s.empty)
    before = without(s, "B5")
    first, last = regions.find(before, r.table, r.settings, None)
    assert len(first.cards) == len(CODES) - 1
    boxes, kept = search(last, s.image, r)
    share = sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in boxes) / (s.image.shape[0] * s.image.shape[1])
    assert share < 0.2 and len(kept) >= 2        # a small part searched, cards away from it kept
    landed, _ = regions.find(s.image, r.table, r.settings, last)
    whole = detect(s.image, r.table, r.settings)
    assert len(whole.cards) == len(CODES) and same(landed, whole)
    assert sum(any(k is c for c in landed.cards) for k in kept) == len(kept)   # kept, not found again
    assert np.array_equal(landed.changed, whole.changed)                      # the tracker's mask too


def test_a_card_taken_away_is_gone():
    s = scene()
    r = Recognizer.create(profile("solo"), s.empty)
    _, last = regions.find(s.image, r.table, r.settings, None)
    before = without(s, "G7")
    assert search(last, before, r) is not None
    gone, _ = regions.find(before, r.table, r.settings, last)
    g7 = next(c for c in s.cards if c.code == "G7").corners.mean(axis=0)
    assert len(gone.cards) == len(CODES) - 1
    assert all(np.linalg.norm(c.corners.mean(axis=0) - g7) > 20 for c in gone.cards)
    assert same(gone, detect(before, r.table, r.settings))


def test_a_large_change_or_no_earlier_finding_searches_the_whole_frame(monkeypatch):
    s = scene()
    r = Recognizer.create(profile("solo"), s.empty)
    _, last = regions.find(s.image, r.table, r.settings, None)
    brighter = np.clip(s.image.astype(np.int16) + 30, 0, 255).astype(np.uint8)   # the light changed
    assert search(last, brighter, r) is None
    calls = []
    real = regions.detect
    monkeypatch.setattr(regions, "detect", lambda frame, *a, **k: calls.append(frame.shape) or real(frame, *a, **k))
    masks = []
    real_mask = regions.changed_pixels
    monkeypatch.setattr(regions, "changed_pixels", lambda *a: masks.append(1) or real_mask(*a))
    found, _ = regions.find(brighter, r.table, r.settings, last)
    assert calls == [brighter.shape] and same(found, real(brighter, r.table, r.settings))
    assert masks == []   # too large a change is seen on the grey copies, before the costly mask
    calls.clear()
    regions.find(s.image, r.table, r.settings, None)
    assert calls == [s.image.shape]


def test_the_camera_loop_reads_a_landing_as_a_whole_reading_does():
    s = scene()
    r = Recognizer.create(profile("solo"), s.empty)
    loop = StillFrames()
    loop.read(r, without(s, "Y2"))
    assert loop.found is not None
    landed = loop.read(r, s.image)
    whole = r.read(s.image)
    assert sorted(c.label for c in landed.cards) == sorted(c.label for c in whole.cards) == sorted(CODES)
    assert same(landed.detection, whole.detection)
    loop.forget()
    assert loop.found is None


def test_a_card_a_hand_uncovers_is_found_whole():
    """The hand lays a card and leaves: the frame where the hand moves off it changes
    over only part of the card (the part the hand covered), yet the card is found, and
    every frame of the clip gives the cards a whole reading gives."""
    rng = np.random.default_rng(3)
    rng.integers(10)     # the state in which this clip's hand covers the card as it is laid
    clip = card_landing_sequence("hitthedeck", "HIT-3", rng, still_before=3, flight=6, retreat=5, still_after=8)
    r = Recognizer.create(profile("hitthedeck"), clip.empty)
    loop = StillFrames()
    for frame in clip.frames:
        seen, whole = loop.read(r, frame), r.read(frame)
        assert sorted(c.label for c in seen.cards) == sorted(c.label for c in whole.cards)
        assert same(seen.detection, whole.detection)
    assert "HIT-3" in [c.label for c in seen.cards]


def test_the_camera_loop_makes_each_small_copy_once_from_one_grey_frame(monkeypatch):
    """The still-frame thumbnail and the grey copy the regions compare come from one grey
    copy of the frame (`pipeline.small_copies`): the 640x480 frame is area-shrunk once, in
    one channel, and `regions.shrunk` is not run again in `regions.find`; the grey copy
    kept is `regions.shrunk`'s, the thumbnail that copy halved."""
    s = scene()
    assert s.image.shape == (480, 640, 3)
    r = Recognizer.create(profile("solo"), s.empty)
    loop = StillFrames()
    loop.read(r, without(s, "Y2"))
    expected = regions.shrunk(s.image)
    resize, shrink = cv2.resize, regions.shrunk
    frames_shrunk: list[tuple[int, ...]] = []
    shrunk_calls: list[int] = []

    def counted_resize(src, *args, **kwargs):
        if src.shape[:2] == (480, 640):
            frames_shrunk.append(src.shape)
        return resize(src, *args, **kwargs)

    def counted_shrunk(frame):
        shrunk_calls.append(1)
        return shrink(frame)
    monkeypatch.setattr(cv2, "resize", counted_resize)
    monkeypatch.setattr(regions, "shrunk", counted_shrunk)
    landed = loop.read(r, s.image)              # a changed frame: found again where it changed
    assert sorted(c.label for c in landed.cards) == sorted(CODES)
    assert frames_shrunk == [(480, 640)] and shrunk_calls == [1]   # one grey copy shrunk, once
    assert np.array_equal(loop.found.grey, expected)
    assert np.array_equal(loop.thumb, cv2.resize(expected, (80, 60), interpolation=cv2.INTER_AREA))
    frames_shrunk.clear()
    assert loop.read(r, s.image) is landed      # a still frame: only its copies are made
    assert frames_shrunk == [(480, 640)]


def test_with_no_empty_table_no_grey_copy_is_made_and_a_later_table_searches_the_whole_frame(monkeypatch):
    """A recognizer with no empty table (`deckhand recognize`, a photo) compares no frame
    with an earlier one, so `regions.find` makes no grey copy for it (2.6 M instructions
    of a whole new real frame); a finding kept from it is never compared: a loop given it
    with an empty table searches the whole frame and finds what a whole reading finds."""
    s = scene()
    calls: list[int] = []
    shrink = regions.shrunk
    monkeypatch.setattr(regions, "shrunk", lambda frame: calls.append(1) or shrink(frame))
    bare = Recognizer.create(profile("solo"))
    reading, _, found = bare.read_changed(s.image, [], None)
    assert calls == [] and found.grey is None
    assert sorted(c.label for c in reading.cards) == sorted(CODES)
    with_table = Recognizer.create(profile("solo"), s.empty)
    searched: list[int] = []
    detect_whole = regions.detect
    monkeypatch.setattr(regions, "detect", lambda *a, **k: searched.append(1) or detect_whole(*a, **k))
    again, _, later = with_table.read_changed(s.image, [], found)
    assert searched == [1] and calls == [1] and later.grey is not None   # the whole frame, with its copy
    assert same(again.detection, with_table.read(s.image).detection)


def test_the_grey_copies_still_tell_a_card_laid_from_the_cameras_noise():
    """On the simulated camera's frames (sensor noise, a new draw each frame), the
    still-frame test and the regions' difference see no change between frames of a still
    table (the noise stays at most half the thresholds on the grey-first copies), and see
    a card laid, taken away, or a hand reaching in."""
    from device.simtable import SimScene
    from vision.pipeline import STILL_DIFFERENCE, changed, small_copies

    for game, seed, noise in (("solo", 2, 2.0), ("flip7", 5, 2.0), ("raj", 3, 3.0)):
        sim = SimScene(game, seed=seed, noise=noise)
        sim.lay("discard", {"solo": "Y9", "flip7": "7", "raj": "red:5"}[game])
        still = [small_copies(sim.render()) for _ in range(5)]
        thumb, grey = still[0]
        for other_thumb, other_grey in still[1:]:
            assert int(cv2.norm(thumb, other_thumb, cv2.NORM_INF)) <= STILL_DIFFERENCE // 2
            assert int(cv2.norm(grey, other_grey, cv2.NORM_INF)) <= regions.DIFFERENCE // 2
            assert not changed(thumb, other_thumb)
            assert cv2.countNonZero(regions._difference(grey, other_grey)) == 0
        sim.lay("discard", {"solo": "R3", "flip7": "9", "raj": "red:11"}[game])
        laid_thumb, laid_grey = small_copies(sim.render())
        assert changed(thumb, laid_thumb)
        assert cv2.countNonZero(regions._difference(grey, laid_grey)) > 100   # a card's worth
        sim.clear("discard")
        gone_thumb, gone_grey = small_copies(sim.render())
        assert changed(laid_thumb, gone_thumb)
        assert cv2.countNonZero(regions._difference(laid_grey, gone_grey)) > 100
        sim.reach("discard")
        hand_thumb, hand_grey = small_copies(sim.render())
        assert changed(gone_thumb, hand_thumb)
        assert cv2.countNonZero(regions._difference(gone_grey, hand_grey)) > 100
