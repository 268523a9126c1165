"""`Flip7Game`: Flip 7 behind the `engine.core.Game` interface (start, check, apply,
view, parse_action). It only converts between the frozen state and the rules' working
`Table`; the rules themselves are in `engine.flip7.rules`."""
from __future__ import annotations

from typing import Any

from engine.core import (Action, IllegalAction, MatchSpec, Notice, Undo, parse_action,
                         parse_settings, vocabulary)
from engine.flip7.actions import FLIP7_ACTIONS
from engine.flip7.rules import Table, check, new_table, step, thaw
from engine.flip7.state import Flip7Settings, Flip7State
from engine.flip7.view import view


class Flip7Game:
    name = "flip7"
    title = "Flip 7"
    min_seats = 3          # DESIGN.md: "3+"
    max_seats = 18         # the 94-card deck still deals everyone a card with room to play
    settings_type = Flip7Settings
    state_type = Flip7State
    actions = vocabulary(*FLIP7_ACTIONS)

    def start(self, spec: MatchSpec) -> Flip7State:
        return self.table(spec).frozen()

    def table(self, spec: MatchSpec):
        """A fresh working `Table` for `spec` (self-play steps it in place)."""
        n = len(spec.seats)
        if not self.min_seats <= n <= self.max_seats:
            raise IllegalAction("players_count", game="flip7", low=self.min_seats,
                                high=self.max_seats, count=n)
        settings = parse_settings(Flip7Settings, spec.settings)
        if isinstance(settings.target, bool) or settings.target < 1:
            raise IllegalAction("target_too_low")
        return new_table(tuple(spec.seats), settings, spec.first_dealer)

    def check(self, state: Flip7State, action: Action) -> None:
        if isinstance(action, Undo):
            raise IllegalAction("undo_not_here")
        check(thaw(state), action)

    def apply(self, state: Flip7State, action: Action) -> tuple[Flip7State, tuple[Notice, ...]]:
        if isinstance(action, Undo):
            raise IllegalAction("undo_not_here")
        t = thaw(state)
        t.notes = []
        step(t, action)
        return t.frozen(), tuple(t.notes)

    def stepper(self, state: Flip7State) -> "TableStepper":
        """A working copy of `state` stepped in place (engine.log.read_log's fast path):
        the same `check` and `step` as `apply`, without freezing after every action."""
        return TableStepper(thaw(state))

    def view(self, state: Flip7State) -> dict[str, Any]:
        return view(thaw(state))

    def parse_action(self, data: Any) -> Action:
        return parse_action(data, self.actions)


class TableStepper:
    """A rules `Table` stepped in place; `state` freezes it (see Flip7Game.stepper)."""

    def __init__(self, table: Table):
        self._table = table

    @property
    def state(self) -> Flip7State:
        return self._table.frozen()

    def apply(self, action: Action, notices: bool) -> tuple[Notice, ...]:
        if isinstance(action, Undo):
            raise IllegalAction("undo_not_here")
        table = self._table
        table.notes = [] if notices else None
        step(table, action)
        return tuple(table.notes) if notices else ()


GAME = Flip7Game()
