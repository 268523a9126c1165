"""The vocabulary every game shares: refusals, notices, seats, actions, the match spec,
and the `Game` interface each game package implements.

The contract (DESIGN.md, STYLE.md):

* A game state is a frozen dataclass. `game.apply(state, action)` returns
  `(new_state, notices)` or raises `IllegalAction`; the old state is never changed.
  Stepping a finished match raises `IllegalAction("match_over")`.
* The engine says what happened as data, never as a sentence: a notice, a refusal and a
  prompt are a stable `code` and its `params`; the screens put them in words in the
  device's language (web.words, catalogs in web/translations). Params are JSON values
  named by what they hold, so a renderer knows how to say them:
  `seat`/`*_seat` a seat index, `seats`/`*_seats` a list of them, `card`/`*_card` a card
  code, `cards`/`*_cards` a list of them, `colour`/`*_colour` a colour word of the deck
  ("red"), `action` an action's JSON type, `setting` a settings field, `game` a game name,
  an object with a "code" a nested message; anything else is a number (or a count).
* `game.check(state, action)` is the one place that says whether an action is legal
  now (it raises the same `IllegalAction` as `apply`); the screens use it for hints.
* An action is a small frozen dataclass with a `kind` (its JSON `type`) and
  `to_json()`; `game.parse_action(data)` reads it back. `Undo`, `EndMatch`, and the
  host's score corrections `SetTotals` and `CorrectRound` are shared by all games (each
  game applies the corrections with `engine.match`); `Undo` is folded by `engine.log`,
  never by a game. `CorrectRound` is the one action a finished match accepts.
* `MatchSpec` is the first line of every match log: game, seats, settings, seed, and
  who deals first (`dealer`, seat 0 when not given).
* Observations (camera, pads, clock) are turned into actions by the game's table
  referee (`engine.observations`); only actions enter the log.

What does not live here: any game's rules (see the game packages) and folding a log
(`engine.log`).
"""
from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping, Protocol, Sequence, runtime_checkable

from engine.serial import from_jsonable, to_jsonable


class IllegalAction(ValueError):
    """An action the rules refuse now: a stable `code` and its `params` (see the module
    docstring); the screens say why in words. `reason` is the code and params for logs."""

    def __init__(self, code: str, **params: Any):
        self.code = code
        self.params = params
        super().__init__(self.reason)

    @property
    def reason(self) -> str:
        if not self.params:
            return self.code
        return f"{self.code} {json.dumps(to_jsonable(self.params), sort_keys=True)}"

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "params": to_jsonable(self.params)}

    @classmethod
    def saying(cls, message: Mapping[str, Any]) -> "IllegalAction":
        """The refusal that says `message` ({"code", "params"}, as `say` makes)."""
        return cls(message["code"], **message.get("params", {}))


@dataclass(frozen=True)
class Notice:
    """Something the screens should say: a stable `code`, its `params` (see the module
    docstring) and the `seats` it concerns (for highlighting)."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)
    seats: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        if isinstance(self.params, str):  # not yet converted: an English sentence (going)
            return {"code": self.code, "params": {}, "seats": list(self.seats),
                    "text": self.params}
        return {"code": self.code, "params": to_jsonable(dict(self.params)),
                "seats": list(self.seats)}

    @property
    def text(self) -> str:
        """Transition only: the English sentence of a notice not yet converted."""
        return self.params if isinstance(self.params, str) else ""


def say(code: str, **params: Any) -> dict[str, Any]:
    """A message as JSON ({"code", "params"}): a view's prompt, a demand, a nested
    part of another message."""
    return {"code": code, "params": to_jsonable(params)}


@dataclass(frozen=True)
class Seat:
    """One place at the table: who sits there and the colour that marks them."""

    name: str
    colour: str = ""


class Action:
    """Base of every action dataclass. Subclasses set `kind` (the JSON `type`)."""

    kind: ClassVar[str] = ""

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, **to_jsonable(self)}

    def __str__(self) -> str:  # readable in logs and refusals
        args = ", ".join(f"{k}={v!r}" for k, v in to_jsonable(self).items())
        return f"{self.kind}({args})"


@dataclass(frozen=True)
class Undo(Action):
    """Take back the last action that is still in effect (the log keeps both rows)."""

    kind: ClassVar[str] = "undo"


@dataclass(frozen=True)
class EndMatch(Action):
    """The host ends the match now; the current totals decide the winners."""

    kind: ClassVar[str] = "end_match"


@dataclass(frozen=True)
class SetTotals(Action):
    """The host sets the match totals, one per seat (a paper game carried on, a store
    lost in a power cut). Play goes on from there; the match still ends only when a
    round is scored (`engine.match.set_totals`)."""

    kind: ClassVar[str] = "set_totals"
    totals: tuple[int, ...]


@dataclass(frozen=True)
class CorrectRound(Action):
    """The host corrects the scores of a round already scored (`round` counts from 1),
    one per seat; the totals follow, and the winners if the match is over
    (`engine.match.correct_round`)."""

    kind: ClassVar[str] = "correct_round"
    round: int
    scores: tuple[int, ...]


SHARED_ACTIONS: tuple[type[Action], ...] = (Undo, EndMatch, SetTotals, CorrectRound)
# Shared actions a game accepts after its match is over (a finished round's score fixed).
AFTER_THE_END: tuple[type[Action], ...] = (CorrectRound,)


def parse_action(data: Any, vocabulary: Mapping[str, type[Action]]) -> Action:
    """Read one action from its JSON object, using a game's vocabulary."""
    if not isinstance(data, dict):
        raise IllegalAction("action_not_object")
    kind = data.get("type")
    if not isinstance(kind, str):
        raise IllegalAction("action_no_type")
    cls = vocabulary.get(kind)
    if cls is None:
        raise IllegalAction("action_unknown", name=kind)
    fields = {k: v for k, v in data.items() if k != "type"}
    try:
        return from_jsonable(cls, fields)
    except ValueError as exc:
        if "missing field" in str(exc):
            raise IllegalAction("action_missing_field", action=kind, field=_field_of(exc)) from None
        raise IllegalAction("action_bad_field", action=kind, field=_field_of(exc)) from None


def _field_of(exc: ValueError) -> str:
    """The top-level field a serial error names ("$.seat: expected ..." -> "seat")."""
    path = str(exc).split(":", 1)[0]
    head = path.removeprefix("$.").split(".", 1)[0].split("[", 1)[0]
    if head.startswith("$"):  # a problem with the object itself: name the unknown field
        found = re.search(r"(?:unknown field\(s\) \[|missing field )'([^']+)'", str(exc))
        return found.group(1) if found else ""
    return head


@dataclass(frozen=True)
class MatchSpec:
    """The first line of a match log: which game, who sits where, the settings
    (a game's settings dataclass as JSON; missing keys take defaults), for self-play
    only the seed of the virtual deck, and the seat that deals first (None: seat 0)."""

    game: str
    seats: tuple[Seat, ...]
    settings: Mapping[str, Any] = field(default_factory=dict)
    seed: int | None = None
    dealer: int | None = None

    @property
    def first_dealer(self) -> int:
        return self.dealer or 0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "start", "game": self.game,
                               "seats": [to_jsonable(s) for s in self.seats],
                               "settings": dict(self.settings)}
        if self.seed is not None:
            out["seed"] = self.seed
        if self.dealer is not None:
            out["dealer"] = self.dealer
        return out

    @classmethod
    def from_json(cls, data: Any) -> "MatchSpec":
        if not isinstance(data, dict) or data.get("type") != "start":
            raise IllegalAction("start_not_start")
        game = data.get("game")
        if not isinstance(game, str):
            raise IllegalAction("start_no_game")
        raw_seats = data.get("seats")
        if not isinstance(raw_seats, list) or not raw_seats:
            raise IllegalAction("start_no_seats")
        seats = []
        for i, s in enumerate(raw_seats):
            if isinstance(s, str):
                seats.append(Seat(s))
            elif isinstance(s, dict) and isinstance(s.get("name"), str):
                seats.append(Seat(s["name"], str(s.get("colour", ""))))
            else:
                raise IllegalAction("start_bad_seat", number=i + 1)
        settings = data.get("settings", {}) or {}
        if not isinstance(settings, dict):
            raise IllegalAction("start_bad_settings")
        seed = data.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise IllegalAction("start_bad_seed")
        dealer = data.get("dealer")
        if dealer is not None and (isinstance(dealer, bool) or not isinstance(dealer, int)
                                   or not 0 <= dealer < len(seats)):
            raise IllegalAction("start_bad_dealer", count=len(seats))
        unknown = set(data) - {"type", "game", "seats", "settings", "seed", "dealer"}
        if unknown:
            raise IllegalAction("start_unknown_keys", names=sorted(unknown))
        return cls(game, tuple(seats), settings, seed, dealer)


def parse_settings(settings_type: type, raw: Mapping[str, Any]) -> Any:
    """A game's settings dataclass from the spec's dict, with a clear refusal."""
    try:
        return from_jsonable(settings_type, dict(raw))
    except ValueError as exc:
        if "unknown field" in str(exc):
            raise IllegalAction("unknown_setting", name=_field_of(exc)) from None
        raise IllegalAction("bad_setting", setting=_field_of(exc)) from None


@runtime_checkable
class Game(Protocol):
    """What every game package exposes as its `GAME` object."""

    name: str                      # "flip7", "solo", "raj", "hitthedeck"
    title: str                     # "Flip 7"
    min_seats: int
    max_seats: int
    settings_type: type            # frozen dataclass with defaults
    state_type: type               # frozen dataclass of the whole match state
    actions: Mapping[str, type[Action]]   # JSON type -> action class, shared ones included

    def start(self, spec: MatchSpec) -> Any:
        """The state at the start of the match (first round ready to begin)."""

    def check(self, state: Any, action: Action) -> None:
        """Raise IllegalAction if `action` is not legal in `state`."""

    def apply(self, state: Any, action: Action) -> tuple[Any, tuple[Notice, ...]]:
        """The state after `action`, and what to tell the table."""

    def view(self, state: Any) -> dict[str, Any]:
        """A JSON-able picture for screens and `deckhand replay`: at least
        game, seats, round, dealer, turn (seat or None), totals, history (per-round
        scores), finished, winners, prompt (what who may do now, in words), and a
        game-specific "table" section."""


def state_to_json(state: Any) -> dict[str, Any]:
    return to_jsonable(state)


def state_from_json(game: Game, data: Any) -> Any:
    return from_jsonable(game.state_type, data)


def vocabulary(*action_types: type[Action]) -> dict[str, type[Action]]:
    """A game's action vocabulary: its own actions plus the shared ones."""
    vocab: dict[str, type[Action]] = {}
    for cls in (*action_types, *SHARED_ACTIONS):
        if not cls.kind or cls.kind in vocab:
            raise ValueError(f"action kind {cls.kind!r} missing or repeated")
        if not dataclasses.is_dataclass(cls):
            raise ValueError(f"{cls.__name__} must be a dataclass")
        vocab[cls.kind] = cls
    return vocab


def next_seat(seat: int, n: int, direction: int = 1, steps: int = 1) -> int:
    """The seat `steps` places on in `direction` (+1 clockwise / to the left, -1 back)."""
    return (seat + direction * steps) % n


def seat_list(seq: Sequence[Any]) -> tuple[int, ...]:
    return tuple(range(len(seq)))
