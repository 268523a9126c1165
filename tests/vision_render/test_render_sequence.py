"""Clips of play: the truth says when a card is down and clear, and when nothing happened."""
from dataclasses import replace

import cv2
import numpy as np

from vision.render.cards import CANONICAL_SIZE, render_card
from vision.render.scene import SceneSpec
from vision.render.sequence import (card_landing_sequence, hand_pass_sequence,
                                    pickup_putback_sequence, pile_taken_sequence)

CLEAN = SceneSpec(table="wood", light="flat", tilt_deg=15, tilt_dir_deg=200, roll_deg=30,
                  card_width=0.2)
W, H = CANONICAL_SIZE


def face_error(image, game, code, corners):
    dst = np.float32([[-0.5, -0.5], [W - 0.5, -0.5], [W - 0.5, H - 0.5], [-0.5, H - 0.5]])
    m = cv2.getPerspectiveTransform(np.float32(corners), dst)
    got = cv2.warpPerspective(image, m, (W, H)).astype(np.int16)
    want = render_card(game, code).astype(np.int16)
    return float(np.abs(got - want)[12:-12, 12:-12].mean())


def test_card_landing_says_when_the_card_is_down_and_clear():
    clip = card_landing_sequence("solo", "G7", np.random.default_rng(1), spec=CLEAN,
                                 pile=("R3", "R5"))
    at = clip.landed_at
    assert [e.kind for e in clip.events] == ["landed"] and 0 < at < len(clip)
    for frame, truth in clip:
        new = [c for c in truth.cards if c.code == "G7"]
        down_and_clear = (truth.pile_clear and new and new[0].zone == "discard"
                          and new[0].visible > 0.999)
        assert bool(down_and_clear) == (truth.index >= at)
        if truth.index < 3:
            assert truth.pile_top == "R5" and not new and not truth.hand
    frame, truth = clip[at]
    (card,) = [c for c in truth.cards if c.code == "G7"]
    assert card.top and face_error(frame, "solo", "G7", card.corners) < 4
    # some frames before it show the card in the air or under fingers
    assert any(c.code == "G7" and (c.zone == "air" or c.visible < 1)
               for _, t in list(clip)[:at] for c in t.cards)


def test_clips_are_deterministic():
    a = card_landing_sequence("flip7", "FREEZE", np.random.default_rng(7))
    b = card_landing_sequence("flip7", "FREEZE", np.random.default_rng(7))
    assert len(a) == len(b) and a.events == b.events
    assert all(np.array_equal(x, y) for x, y in zip(a.frames, b.frames))


def test_hand_passing_over_the_pile_is_no_play():
    clip = hand_pass_sequence("hitthedeck", np.random.default_rng(2), spec=CLEAN,
                              pile=("B2", "Y-CUT"))
    assert clip.events == ()
    assert {t.pile_top for _, t in clip} == {"Y-CUT"}
    assert any(not t.pile_clear for _, t in clip)  # the hand does cross the pile
    assert all(t.hand for _, t in clip)
    tops = [c for _, t in clip for c in t.cards if c.code == "Y-CUT"]
    assert min(c.visible for c in tops) < 0.9
    assert clip.truths[0].pile_clear and clip.truths[-1].pile_clear


def test_pick_up_and_put_back_leaves_the_same_top_card():
    clip = pickup_putback_sequence("raj", np.random.default_rng(3), spec=CLEAN,
                                   pile=("P3", "red:4", "blue:11"))
    assert clip.events == ()
    assert clip.truths[0].pile_top == clip.truths[-1].pile_top == "blue:11"
    lifted = [t for _, t in clip if any(c.zone == "air" for c in t.cards)]
    assert lifted and all(not t.pile_clear for t in lifted)
    assert all(t.pile_top == "red:4" for t in lifted)
    assert clip.truths[-1].pile_clear and not clip.truths[-1].hand


def test_pile_taken_away_leaves_the_bare_table():
    clip = pile_taken_sequence("flip7", np.random.default_rng(4), spec=CLEAN,
                               pile=("3", "x2", "12"))
    (event,) = clip.events
    assert event.kind == "cleared"
    assert clip.truths[0].pile_top == "12"
    for frame, truth in clip:
        assert (truth.index >= event.frame) == (truth.pile_clear and not truth.cards)
    assert np.array_equal(clip.frames[-1], clip.empty)  # no noise in CLEAN: exactly bare
    noisy = pile_taken_sequence("flip7", np.random.default_rng(4),
                                spec=replace(CLEAN, noise=3.0))
    assert not np.array_equal(noisy.frames[-1], noisy.frames[-2])  # each frame its own noise


def test_plays_in_a_row_land_one_after_another():
    from vision.render.sequence import plays_sequence
    codes = ["R3", "R7", "G7", "G7"]  # the same card twice (two copies) is two plays
    clip = plays_sequence("solo", codes, np.random.default_rng(5), spec=CLEAN, pile=("Y1",),
                          pass_chance=1.0)
    assert [e.code for e in clip.events] == codes and all(e.kind == "landed" for e in clip.events)
    frames = [e.frame for e in clip.events]
    assert frames == sorted(frames) and len(set(frames)) == len(frames)
    for event in clip.events:
        frame, truth = clip[event.frame]
        (top,) = [c for c in truth.cards if c.top and c.zone == "discard"]
        assert top.code == event.code and top.visible > 0.999 and truth.pile_clear
        assert face_error(frame, "solo", event.code, top.corners) < 4
    assert clip.truths[-1].pile_top == "G7"
    assert sum(1 for _, t in clip if t.hand and not t.pile_clear) > len(codes)  # passes too
