"""The closed loop: seeded bot matches played on the simulated table are rebuilt exactly
from rendered camera frames (real vision pipeline and tracker), pad presses and host
input, through each game's real referee (device.closedloop).

Only the first actions of one seed per game are played here (the whole file stays well
under a minute); `bench/closed_loop.py` plays whole matches and sweeps noise and blur.
"""
from __future__ import annotations

import dataclasses

import pytest

from device.closedloop import reconstruct
from device.simtable import CardDown, bot_actions, physical_event, sim_spec

# (game, seed, actions): enough actions for cards, pads and host input of each game.
CASES = [("flip7", 1, 30), ("solo", 1, 36), ("raj", 1, 20), ("hitthedeck", 1, 26)]


@pytest.mark.parametrize("game,seed,actions", CASES)
def test_closed_loop_rebuilds_the_bots_match_exactly(game, seed, actions):
    report = reconstruct(game, seed, max_actions=actions)
    assert report.actions == actions
    assert report.cards > 5, "the stretch must put cards on the table"
    assert report.mismatches == []
    assert report.cards_read == report.cards
    assert report.final_equal and report.exact
    # every card was reported within a few frames of landing (30 fps)
    assert max(report.landing_frames) <= 8


def test_the_loop_sees_more_than_cards():
    """The stretches above also press pads and enter host input: the loop checks those
    through the referee too (not only the camera)."""
    kinds = {}
    for game, seed, actions in CASES:
        spec = sim_spec(game, None, seed)
        events = [type(physical_event(game, a)).__name__
                  for _, a in zip(range(actions), bot_actions(spec, seed))]
        kinds[game] = set(events)
    for game in kinds:
        assert "CardDown" in kinds[game] and "PadPress" in kinds[game], (game, kinds[game])


class _Misreader:
    """The real recognizer, but every card it reads is reported as the same wrong label."""

    def __init__(self, real, wrong: str):
        self.real, self.wrong = real, wrong

    def read(self, image):
        reading = self.real.read(image)
        cards = tuple(dataclasses.replace(c, label=self.wrong) if c.known else c for c in reading.cards)
        return dataclasses.replace(reading, cards=cards)


def test_a_misreading_camera_is_caught():
    """The harness would notice a broken camera: every card read as '0' in Flip 7."""
    from device.app import _recognizer

    report = reconstruct("flip7", 1, max_actions=12,
                         make_recognizer=lambda game, empty: _Misreader(_recognizer(game, empty), "0"))
    assert not report.exact
    assert report.cards_read < report.cards
    assert any("flip(card='0'" in m or "nothing" in m for m in report.mismatches)


def test_a_wrong_physical_event_is_caught(monkeypatch):
    """A pad press that should have been a Stay (hold) but is sent as a tap is caught."""
    import device.closedloop as closedloop
    from device.simtable import PadPress

    real = closedloop.physical_event

    def taps_only(game, action):
        event = real(game, action)
        return dataclasses.replace(event, held=False) if isinstance(event, PadPress) else event

    monkeypatch.setattr(closedloop, "physical_event", taps_only)
    spec = sim_spec("flip7", None, 1)
    first_stay = next(i for i, a in enumerate(bot_actions(spec, 1)) if a.kind == "stay")
    report = reconstruct("flip7", 1, max_actions=first_stay + 1)
    assert not report.exact
    assert any("stay" in m for m in report.mismatches)


def test_card_events_name_the_card_laid():
    spec = sim_spec("hitthedeck", None, 2)
    for _, action in zip(range(40), bot_actions(spec, 2)):
        event = physical_event("hitthedeck", action)
        if isinstance(event, CardDown):
            assert event.code in (getattr(action, "card", None), getattr(action, "exposed_card", None))
