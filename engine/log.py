"""Folding a match log into its state.

A log is a `MatchSpec` followed by actions. The state is the fold of the actions that
are still in effect; `Undo` takes back the last one still in effect (both rows stay in
the log). `Timeline` keeps the states so an undo costs nothing, and `read_log` turns a
JSON-lines file into a timeline, stopping at the first bad line with its number.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterable

from engine.core import Action, Game, IllegalAction, MatchSpec, Notice, Undo, parse_action
from engine.games import get_game


class Timeline:
    """The states of one match in order; the last is the current state. It starts at the
    start of the match, or at `base`, a state folded earlier (a subclass says how to undo
    below it: `_reach_below_start`)."""

    def __init__(self, game: Game, spec: MatchSpec, base: Any = None):
        self.game = game
        self.spec = spec
        self._states: list[Any] = [game.start(spec) if base is None else base]
        self._actions: list[Action] = []

    @property
    def state(self) -> Any:
        return self._states[-1]

    @property
    def actions(self) -> tuple[Action, ...]:
        """The actions in effect since the timeline's first state, oldest first."""
        return tuple(self._actions)

    @property
    def depth(self) -> int:
        """How many actions are in effect."""
        return len(self._actions)

    def check(self, action: Action) -> None:
        if isinstance(action, Undo):
            if not self.depth:
                raise IllegalAction("there is nothing to undo")
            return
        self.game.check(self.state, action)

    def apply(self, action: Action) -> tuple[Notice, ...]:
        """Apply one action (or undo); raise IllegalAction and change nothing if refused."""
        if isinstance(action, Undo):
            return (Notice("undo", f"Undone: {self.undo()}"),)
        new_state, notices = self.game.apply(self.state, action)
        self._states.append(new_state)
        self._actions.append(action)
        return notices

    def undo(self) -> Action:
        """Take back the last action in effect and return it."""
        if not self._actions:
            self._reach_below_start()
        self._states.pop()
        return self._actions.pop()

    def _reach_below_start(self) -> None:
        """Make the actions before the first state undoable, or refuse."""
        raise IllegalAction("there is nothing to undo")


def fold(game: Game, spec: MatchSpec, actions: Iterable[Action]) -> Any:
    """The state after `actions` (undos included) from the start of `spec`."""
    timeline = Timeline(game, spec)
    for action in actions:
        timeline.apply(action)
    return timeline.state


@dataclass(frozen=True)
class LogError(Exception):
    """A log line that could not be read or applied."""

    line: int
    reason: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.reason}"


def read_log(lines: Iterable[str]) -> Timeline:
    """A timeline from JSON lines: the first non-blank line is the start line."""
    timeline: Timeline | None = None
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise LogError(number, f"not JSON: {exc.msg}") from None
        try:
            if timeline is None:
                spec = MatchSpec.from_json(data)
                timeline = Timeline(get_game(spec.game), spec)
            else:
                timeline.apply(parse_action(data, timeline.game.actions))
        except IllegalAction as exc:
            raise LogError(number, exc.reason) from None
    if timeline is None:
        raise LogError(0, "the log is empty: it must start with a start line")
    return timeline
