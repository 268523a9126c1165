"""Race: a tiny test-only game that follows the engine.core.Game protocol, so the store,
the live table and the log can be tested without any real game. Seats take turns adding
1 to 3 points to the round; "score" closes the round (the seat on turn scores the pot);
first to the target wins. Its referee turns a pad press into "add 1" (held: "add 2").

Other test modules import `RACE`, `games` and `referees` from here; the tests at the
bottom pin the toy's own rules so a broken toy cannot hide a broken store.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

import pytest

from engine.core import (Action, EndMatch, IllegalAction, MatchSpec, Notice, Seat,
                         parse_settings, vocabulary)
from engine.match import MatchProgress, MatchRule, close_round, finish
from engine.observations import CardSeen, PadPressed


@dataclass(frozen=True)
class RaceSettings:
    target: int = 10


@dataclass(frozen=True)
class Add(Action):
    kind: ClassVar[str] = "add"
    seat: int
    n: int


@dataclass(frozen=True)
class Score(Action):
    kind: ClassVar[str] = "score"


@dataclass(frozen=True)
class RaceState:
    progress: MatchProgress
    rule: MatchRule
    turn: int
    pot: int = 0


class Race:
    name = "race"
    title = "Race"
    min_seats = 2
    max_seats = 4
    settings_type = RaceSettings
    state_type = RaceState
    actions = vocabulary(Add, Score)

    def start(self, spec: MatchSpec) -> RaceState:
        settings = parse_settings(RaceSettings, spec.settings)
        if settings.target < 1:
            raise IllegalAction("the target must be at least 1")
        n = len(spec.seats)
        return RaceState(MatchProgress.new(n), MatchRule(settings.target), turn=1 % n)

    def check(self, state: RaceState, action: Action) -> None:
        if state.progress.finished:
            raise IllegalAction("the match is over")
        if isinstance(action, Add):
            if action.seat != state.turn:
                raise IllegalAction(f"it is seat {state.turn}'s turn, not seat {action.seat}'s")
            if not 1 <= action.n <= 3:
                raise IllegalAction("add 1, 2 or 3")
        elif isinstance(action, Score):
            if state.pot == 0:
                raise IllegalAction("there is nothing to score")
        elif not isinstance(action, EndMatch):
            raise IllegalAction(f"Race has no {action.kind!r} action")

    def apply(self, state: RaceState, action: Action) -> tuple[RaceState, tuple[Notice, ...]]:
        self.check(state, action)
        n = state.progress.seats
        if isinstance(action, Add):
            return replace(state, pot=state.pot + action.n, turn=(state.turn + 1) % n), ()
        if isinstance(action, Score):
            scores = tuple(state.pot if i == state.turn else 0 for i in range(n))
            progress = close_round(state.progress, scores, state.rule)
            notice = Notice("scored", f"Seat {state.turn} scores {state.pot}", (state.turn,))
            return replace(state, progress=progress, pot=0,
                           turn=(progress.dealer + 1) % n), (notice,)
        return replace(state, progress=finish(state.progress, "high")), ()

    def view(self, state: RaceState) -> dict[str, Any]:
        p = state.progress
        return {"game": "race", "seats": p.seats, "round": p.round_no, "dealer": p.dealer,
                "turn": None if p.finished else state.turn, "totals": list(p.totals),
                "history": [list(h) for h in p.history], "finished": p.finished,
                "winners": list(p.winners), "prompt": "" if p.finished else
                f"seat {state.turn}: add 1 to 3, or score", "table": {"pot": state.pot}}


RACE = Race()


def games(name: str):
    """A game lookup that knows Race (and nothing else)."""
    if name == "race":
        return RACE
    raise IllegalAction(f"unknown game {name!r}")


class RaceReferee:
    @staticmethod
    def interpret(state: RaceState, observation: Any) -> tuple[Action, ...]:
        if isinstance(observation, PadPressed):
            return (Add(observation.seat, 2 if observation.held else 1),)
        if isinstance(observation, CardSeen):
            raise IllegalAction("Race is played without cards")
        return ()


def referees(name: str):
    if name == "race":
        return RaceReferee
    raise ImportError(name)


def race_spec(seats: int = 3, target: int = 10) -> MatchSpec:
    return MatchSpec("race", tuple(Seat(f"P{i}", f"c{i}") for i in range(seats)),
                     {"target": target})


# -- the toy's own rules ------------------------------------------------------------


def test_race_adds_in_turn_and_scores_the_pot_to_the_seat_on_turn():
    state = RACE.start(race_spec())
    state, _ = RACE.apply(state, Add(1, 3))
    state, _ = RACE.apply(state, Add(2, 2))
    assert state.pot == 5 and state.turn == 0
    state, notices = RACE.apply(state, Score())
    assert state.progress.totals == (5, 0, 0) and notices[0].seats == (0,)


def test_race_refuses_out_of_turn_and_out_of_range():
    state = RACE.start(race_spec())
    with pytest.raises(IllegalAction, match="turn"):
        RACE.apply(state, Add(0, 1))
    with pytest.raises(IllegalAction, match="1, 2 or 3"):
        RACE.apply(state, Add(1, 4))
    with pytest.raises(IllegalAction, match="nothing to score"):
        RACE.apply(state, Score())


def test_race_ends_at_the_target():
    state = RACE.start(race_spec(2, target=3))
    state, _ = RACE.apply(state, Add(1, 3))
    state, _ = RACE.apply(state, Score())
    assert RACE.view(state)["finished"] and RACE.view(state)["winners"] == [0]
    with pytest.raises(IllegalAction, match="over"):
        RACE.apply(state, Add(0, 1))
