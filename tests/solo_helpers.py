"""Small builders shared by the Solo tests (not a test module)."""
from __future__ import annotations

from dataclasses import replace

from engine.core import MatchSpec, Seat
from engine.solo import GAME
from engine.solo.actions import StartRound
from engine.solo.state import SoloState


def spec(n: int = 4, **settings) -> MatchSpec:
    return MatchSpec("solo", tuple(Seat(f"P{i}") for i in range(n)), settings)


def run(state: SoloState, *actions) -> SoloState:
    for action in actions:
        state, _ = GAME.apply(state, action)
    return state


def started(n: int = 4, starter: str = "R5", **settings) -> SoloState:
    """A round under way: dealer seat 0, `starter` turned over, seat 1 to play
    (unless the starter says otherwise)."""
    return run(GAME.start(spec(n, **settings)), StartRound(starter))


def with_hands(state: SoloState, *hands: int) -> SoloState:
    return replace(state, hands=tuple(hands))
