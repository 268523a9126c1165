"""The camera loop's recognizer has read a card-sized outline before the first frame
(the one-off set-ups are paid when the game starts, not by the first card played), and
that read changes nothing the recognizer reads afterwards."""
from __future__ import annotations

from device.app import _deck_recognizer
from device.decks import TaughtDecks
from device.simtable import SimScene
from engine.observations import DISCARD
from vision.pipeline import Recognizer
from vision.profile import builtin_profile


def test_the_appliances_recognizer_is_warmed_on_the_empty_table(tmp_path, monkeypatch):
    scene = SimScene("flip7", 2)
    empty = scene.empty_frame()
    warmed = []
    real = Recognizer.warm_up

    def warm_up(self, frame):
        warmed.append(frame)
        return real(self, frame)

    monkeypatch.setattr(Recognizer, "warm_up", warm_up)
    recognizer = _deck_recognizer(TaughtDecks(tmp_path, printed=builtin_profile))("flip7", empty)
    assert len(warmed) == 1 and warmed[0] is empty
    scene.lay(DISCARD, "7")
    assert [c.label for c in recognizer.read(scene.render()).cards] == ["7"]


def test_warming_up_changes_no_reading():
    scene = SimScene("raj", 4)
    empty = scene.empty_frame()
    for code in ("red:5", "P-3", "blue:12"):
        scene.lay(DISCARD, code)
    frame = scene.render()
    cold = Recognizer.create(builtin_profile("raj"), empty)
    warm = Recognizer.create(builtin_profile("raj"), empty)
    warm.warm_up(empty)
    warm.warm_up(frame)
    a, b = cold.read(frame), warm.read(frame)
    assert [c.to_json() for c in a.cards] == [c.to_json() for c in b.cards] and a.cards
