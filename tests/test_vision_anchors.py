"""The camera loop compares a changed frame with the last still frames too (`StillFrames`'
anchors, `vision.regions`): the frame after the hand that laid a card differs from the
frame with the hand by the whole hand, from the table before the hand came only by the
card, so only the card's place is searched; and a hand that lays nothing leaves no play."""
from __future__ import annotations

import numpy as np
import pytest

from device.simtable import SimScene
from device.vision_loop import ZoneTracker
from engine.observations import CardSeen
from test_vision_support import profile
from vision import regions
from vision.pipeline import Recognizer, StillFrames

PILE = "discard"


class Table:
    """The simulated table with the camera loop's reading and tracker: `frame()` renders,
    reads and steps the tracker, and returns the reading and the tracker's events."""

    def __init__(self, monkeypatch, game="flip7"):
        self.scene = SimScene(game, seed=5)
        self.recognizer = Recognizer.create(profile(game), self.scene.empty_frame())
        self.loop = StillFrames()
        self.tracker = ZoneTracker(self.scene.zone_rects())
        self.searched: list[tuple[int, int]] = []   # the shapes the finder searched, this frame
        self.t = 0
        real = regions.detect
        monkeypatch.setattr(regions, "detect",
                            lambda frame, *a, **k: self.searched.append(frame.shape[:2]) or real(frame, *a, **k))

    def frame(self):
        self.searched.clear()
        self.t += 1
        self.image = self.scene.render()
        reading = self.loop.read(self.recognizer, self.image)
        return reading, self.tracker.update(reading, self.t)

    def still(self, frames=3):
        return [e for _ in range(frames) for e in self.frame()[1]]

    def lay(self, code):
        """A hand reaches over the pile and stays a moment (two frames alike: a still frame
        too), lays `code` and goes: the events of every frame, and the frame after the hand."""
        self.scene.reach(PILE)
        events = self.still(2)
        self.scene.lay(PILE, code)
        events += self.frame()[1]
        self.scene.withdraw()
        reading, now = self.frame()
        return events, now, reading


def test_the_frame_after_the_hand_is_searched_only_where_the_card_was_laid(monkeypatch):
    table = Table(monkeypatch)
    assert table.still() == []
    before, events, reading = table.lay("7")
    assert before == []
    assert events == [CardSeen(PILE, "7", table.t)]       # at once, the hand gone
    h, w = table.image.shape[:2]
    assert len(table.searched) == 1 and table.searched[0][0] * table.searched[0][1] < 0.2 * h * w
    whole = table.recognizer.read(table.image)
    assert [c.label for c in reading.cards] == [c.label for c in whole.cards] == ["7"]
    assert float(np.abs(reading.cards[0].corners - whole.cards[0].corners).max()) <= 1.5
    assert table.still(3) == []


def test_without_the_still_frames_the_frame_after_the_hand_is_a_whole_search(monkeypatch):
    """The same scene with the anchors forgotten before that frame: the old path, whole."""
    table = Table(monkeypatch)
    table.still()
    table.scene.reach(PILE)
    table.still(2)
    table.scene.lay(PILE, "7")
    table.frame()
    table.scene.withdraw()
    table.loop.anchors, table.loop.anchor_kept = (), ()
    reading, events = table.frame()
    assert table.searched == [table.image.shape[:2]]
    assert [c.label for c in reading.cards] == ["7"] and events == [CardSeen(PILE, "7", table.t)]


@pytest.mark.parametrize("game", ["flip7", "solo"])
def test_a_hand_over_the_pile_that_lays_nothing_is_no_play_and_searches_nothing(monkeypatch, game):
    table = Table(monkeypatch, game)
    table.still()
    code = profile(game).labels[3]
    _, events, _ = table.lay(code)
    assert events == [CardSeen(PILE, code, table.t)]
    assert table.still(3) == []
    for _ in range(2):       # the hand comes over the pile, rests, and goes with nothing
        table.scene.reach(PILE)
        assert table.still(3) == []
        table.scene.withdraw()
        reading, events = table.frame()
        assert events == [] and [c.label for c in reading.cards] == [code]
        assert table.searched == []      # the table as it lay before the hand: nothing to search
        assert table.still(4) == []
