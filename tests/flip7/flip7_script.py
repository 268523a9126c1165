"""Scenario helpers for the Flip 7 tests: play a script of actions written as tokens.

Tokens: `H1` Hit(1), `S1` Stay(1), `T1>2` Target(1, 2), `END` EndMatch, anything else a
card code flipped (`Flip(code)`). Seats are Ann (0), Bob (1), Cat (2), Dan (3), ...;
seat 0 deals the first round, so the deal goes 1, 2, ..., 0 and seat 1 plays first.
"""
from __future__ import annotations

import re

from engine.core import Action, EndMatch, MatchSpec, Seat
from engine.flip7 import GAME, Flip, Hit, Stay, Target

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")


def spec(players: int = 3, **settings) -> MatchSpec:
    return MatchSpec("flip7", tuple(Seat(NAMES[i]) for i in range(players)), settings)


def parse(script: str) -> list[Action]:
    actions: list[Action] = []
    for token in script.split():
        if m := re.fullmatch(r"H(\d+)", token):
            actions.append(Hit(int(m[1])))
        elif m := re.fullmatch(r"S(\d+)", token):
            actions.append(Stay(int(m[1])))
        elif m := re.fullmatch(r"T(\d+)>(\d+)", token):
            actions.append(Target(int(m[1]), int(m[2])))
        elif token == "END":
            actions.append(EndMatch())
        else:
            actions.append(Flip(token))
    return actions


def play(script: str, players: int = 3, state=None, **settings):
    """The state after `script` (from a new match, or from `state`) and all notices."""
    if state is None:
        state = GAME.start(spec(players, **settings))
    notices = []
    for action in parse(script):
        state, said = GAME.apply(state, action)
        notices.extend(said)
    return state, notices


def waiting(state) -> tuple[str, int | None]:
    v = GAME.view(state)
    return v["waiting"]["for"], v["waiting"]["seat"]


def codes(notices) -> list[str]:
    return [n.code for n in notices]
