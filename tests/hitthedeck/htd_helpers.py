"""Small helpers for the Hit the Deck tests: a table started at a known top card and
a way to run actions and refusals."""
from __future__ import annotations

import pytest

from engine.core import IllegalAction, MatchSpec, Seat
from engine.hitthedeck import GAME
from engine.hitthedeck.actions import StartHand, TurnUp
from said import said

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")


def spec(n: int = 3, **settings) -> MatchSpec:
    return MatchSpec("hitthedeck", tuple(Seat(name) for name in NAMES[:n]), settings)


def begin(n: int = 3, top: str = "R3", **settings):
    """A hand under way: dealt, `top` turned up (dealer Ann, so Bob plays first)."""
    return run(GAME.start(spec(n, **settings)), StartHand(), TurnUp(top))


def run(state, *actions):
    for action in actions:
        state, _ = GAME.apply(state, action)
    return state


def notices(state, action):
    return GAME.apply(state, action)[1]


def refused(state, action, *words: str) -> str:
    """The action is refused with a reason containing every one of `words`."""
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, action)
    reason = said(caught.value, "hitthedeck", state)
    for word in words:
        assert word.lower() in reason.lower(), reason
    return reason
