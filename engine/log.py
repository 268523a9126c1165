"""Folding a match log into its state.

A log is a `MatchSpec` followed by actions. The state is the fold of the actions that
are still in effect; `Undo` takes back the last one still in effect (both rows stay in
the log). `Timeline` keeps the states so an undo costs nothing, and `read_log` turns a
JSON-lines file into a timeline, stopping at the first bad line with its number.

`read_log` is the fast path for long logs (a million actions): it parses each distinct
line once, steps a game's working copy in place when the game offers one
(`game.stepper(state)`, Flip 7's rules table), keeps a state only every
`KEEP_EVERY` actions, the recent ones (an undo refolds from the nearest) and hands back a timeline that
starts at the final state with the actions under it, folded again only if undone.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Protocol, Sequence

from engine.core import Action, Game, IllegalAction, MatchSpec, Notice, Undo, parse_action
from engine.games import get_game
from engine.untrusted import json_fault, json_problem, shorten

KEEP_EVERY = 256            # read_log: a state kept every this many actions in effect,
KEEP_RECENT = 32            # the last this many of them
_PARSED_LINES = 4096        # read_log: distinct action lines remembered (a log repeats a few)


def undone_notice(action: Action) -> Notice:
    """What an undo says: the action it took back, as its JSON (the screens name it)."""
    return Notice("undo", {"undone": action.to_json()})


class Timeline:
    """The states of one match in order; the last is the current state. It starts at the
    start of the match, or at `base`, a state folded earlier (a subclass says how to undo
    below it: `_reach_below_start`)."""

    def __init__(self, game: Game, spec: MatchSpec, base: Any = None, depth: int = 0,
                 earlier: Callable[[], Sequence[Action]] | None = None):
        """base: a state folded earlier from `depth` actions in effect, which `earlier`
        returns when an undo reaches below it (None: the start of the match)."""
        self.game = game
        self.spec = spec
        self._states: list[Any] = [game.start(spec) if base is None else base]
        self._actions: list[Action] = []
        self._base_depth = depth
        self._earlier = earlier

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
        return self._base_depth + len(self._actions)

    def check(self, action: Action) -> None:
        if isinstance(action, Undo):
            if not self.depth:
                raise IllegalAction("nothing_to_undo")
            return
        self.game.check(self.state, action)

    def apply(self, action: Action) -> tuple[Notice, ...]:
        """Apply one action (or undo); raise IllegalAction and change nothing if refused."""
        if isinstance(action, Undo):
            return (undone_notice(self.undo()),)
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
        """Fold from the start of the match up to the base, so what is under it can be
        undone; refuse when nothing is."""
        if not self._base_depth:
            raise IllegalAction("nothing_to_undo")
        actions = list(self._earlier()) if self._earlier else []
        states = [self.game.start(self.spec)]
        for action in actions:
            states.append(self.game.apply(states[-1], action)[0])
        if len(actions) != self._base_depth or states[-1] != self._states[0]:
            self._base_disagrees()
        self._states[:1] = states
        self._actions[:0] = actions
        self._base_depth = 0

    def _base_disagrees(self) -> None:
        raise IllegalAction("base_disagrees")


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
    reason: str                   # in English, for logs
    refusal: dict | None = None   # why as a code and params (the engine's refusal, or "log.*")

    def __str__(self) -> str:
        return f"line {self.line}: {shorten(self.reason, 300)}"


class Stepper(Protocol):
    """A game's working copy, stepped in place: `apply` raises IllegalAction and changes
    nothing when the action is refused; `state` is the frozen state now."""

    state: Any

    def apply(self, action: Action, notices: bool) -> tuple[Notice, ...]: ...


class _Applying:
    """The general stepper: `game.apply` one action at a time."""

    def __init__(self, game: Game, state: Any):
        self.game = game
        self.state = state

    def apply(self, action: Action, notices: bool) -> tuple[Notice, ...]:
        self.state, said = self.game.apply(self.state, action)
        return said


def stepper(game: Game, state: Any) -> Stepper:
    """The fastest way to step `game` from `state`: its own working copy if it has one."""
    make = getattr(game, "stepper", None)
    return make(state) if make is not None else _Applying(game, state)


def parse_line(number: int, text: str) -> Any:
    """One log line's JSON value, checked (engine.untrusted.json_problem); LogError
    naming the line when it is not JSON or not acceptable."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise LogError(number, "the line is nested too deeply", _why("log.too_deep")) from None
    except json.JSONDecodeError as exc:
        raise LogError(number, f"not JSON: {exc.msg} (column {exc.colno})",
                       _why("log.not_json", column=exc.colno)) from None
    except ValueError as exc:  # int("9" * 5000): Python's limit on digits
        if "digits" in str(exc):
            raise LogError(number, "a number has too many digits", _why("log.too_many_digits")) from None
        raise LogError(number, f"not JSON ({exc})", _why("log.not_json_at_all")) from None
    fault = json_fault(data)
    if fault:
        code, where = fault
        raise LogError(number, json_problem(data) or code, _why(f"log.{code}", where=shorten(where, 60)))
    return data


def _why(code: str, **params: Any) -> dict:
    return {"code": code, "params": params}


def read_log(lines: Iterable[str],
             on_notice: Callable[[int, Notice], None] | None = None) -> Timeline:
    """A timeline from JSON lines: the first non-blank line is the start line. Raises
    LogError with the line number at the first bad line. `on_notice(line, notice)`
    hears every notice an action gave (asking for them costs time)."""
    game: Game | None = None
    spec: MatchSpec | None = None
    steps: Stepper | None = None
    kept: list[tuple[int, Any]] = []      # (depth, state), every KEEP_EVERY actions
    actions: list[Action] = []
    parsed: dict[str, Action] = {}
    notices = on_notice is not None
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        try:
            if game is None:
                spec = MatchSpec.from_json(parse_line(number, text))
                game = get_game(spec.game)
                steps = stepper(game, game.start(spec))
                kept = [(0, steps.state)]
                continue
            action = parsed.get(text)
            if action is None:
                action = parse_action(parse_line(number, text), game.actions)
                if len(parsed) < _PARSED_LINES:
                    parsed[text] = action
            if type(action) is Undo:
                if not actions:
                    raise IllegalAction("nothing_to_undo")
                undone = actions.pop()
                while kept[-1][0] > len(actions):
                    kept.pop()
                depth, state = kept[-1]
                steps = stepper(game, state)
                for depth, again in enumerate(actions[depth:], start=depth + 1):
                    steps.apply(again, False)
                    _keep(kept, depth, steps)
                said: tuple[Notice, ...] = (undone_notice(undone),)
            else:
                said = steps.apply(action, notices)
                actions.append(action)
                _keep(kept, len(actions), steps)
        except IllegalAction as exc:
            raise LogError(number, exc.reason, exc.to_json()) from None
        if notices:
            for notice in said:
                on_notice(number, notice)
    if game is None:
        raise LogError(0, "the log is empty: it must start with a start line", _why("log.empty"))
    return _ReadTimeline(game, spec, steps.state, len(actions), lambda: actions)


def _keep(kept: list[tuple[int, Any]], depth: int, steps: Stepper) -> None:
    """Keep the state every KEEP_EVERY actions, only the last KEEP_RECENT of them (and the
    start): a state late in a long match holds every round's scores, so keeping them
    all would grow as the square of the match. An undo further back refolds from the
    start, keeping states again on the way."""
    if depth % KEEP_EVERY == 0:
        kept.append((depth, steps.state))
        if len(kept) > KEEP_RECENT + 1:
            del kept[1]


class _ReadTimeline(Timeline):
    """read_log's timeline: its first state is the log's last, and `actions` are all the
    actions in effect (those under the first state too)."""

    @property
    def actions(self) -> tuple[Action, ...]:
        below = tuple(self._earlier()) if self._base_depth and self._earlier else ()
        return below + tuple(self._actions)
