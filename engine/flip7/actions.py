"""Flip 7's actions: what can happen at the table, as small JSON values.

* `Flip(card)`: a card turned over, for whoever must receive it now (the deal, a Hit, a
  Flip Three). The engine decides who that is; `seat`, when given (a card read in a
  seat's zone), must agree.
* `Hit(seat)` / `Stay(seat)`: the player whose turn it is asks for a card / stops.
* `Target(seat, target)`: `seat` chooses who gets the Freeze, the Flip Three or the spare
  Second Chance it must give away.

The shared `Undo` and `EndMatch` live in `engine.core`. Nothing else lives here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.core import Action


@dataclass(frozen=True)
class Flip(Action):
    kind: ClassVar[str] = "flip"
    card: str
    seat: int | None = None


@dataclass(frozen=True)
class Hit(Action):
    kind: ClassVar[str] = "hit"
    seat: int


@dataclass(frozen=True)
class Stay(Action):
    kind: ClassVar[str] = "stay"
    seat: int


@dataclass(frozen=True)
class Target(Action):
    kind: ClassVar[str] = "target"
    seat: int
    target: int


FLIP7_ACTIONS = (Flip, Hit, Stay, Target)
