"""Flip 7's table referee: what a camera sighting or a pad press means now.

| observation | when | actions |
|---|---|---|
| `CardSeen` in the flip spot (`discard`) or a seat's zone (`seat:N`) | a card is due (deal, Hit, Flip Three) | `Flip(card)` (with `seat=N` from a seat zone, which must be the receiver) |
| the same | it is someone's turn to Hit or Stay | `Hit(turn)`, `Flip(card)`: turning a card over for the player is their Hit |
| `PadPressed(held=False)` (a tap) | by the player whose turn it is | `Hit(seat)` |
| `PadPressed(held=True)` (a hold) | by the player whose turn it is | `Stay(seat)` |
| `PadPressed` (tap or hold) | a target is to be chosen | `Target(chooser, seat)`: the chooser presses the pad of the player they pick |
| `PadPressed` | any other time, or by another player | refused (`IllegalAction` with the reason) |
| `PadReleased`, `Tick`, `ZoneEmpty`, `CardsLaidOut`, cards in other zones | always | nothing |

A card that cannot be flipped now, or whose copies are all out, is refused with the
reason. The referee is pure and remembers nothing: it reads the state and checks what it
returns with the rules' own `check`.
"""
from __future__ import annotations

from engine.core import Action, IllegalAction
from engine.flip7.actions import Flip, Hit, Stay, Target
from engine.flip7.rules import DECIDE, OVER, TARGET, check, step, thaw, waiting_reason
from engine.flip7.state import Flip7State
from engine.observations import DISCARD, CardSeen, Observation, PadPressed

SEAT_ZONE_PREFIX = "seat:"


def interpret(state: Flip7State, observation: Observation) -> tuple[Action, ...]:
    """The actions `observation` means in `state`; IllegalAction if it is refused."""
    if isinstance(observation, CardSeen):
        actions = _card(state, observation)
    elif isinstance(observation, PadPressed):
        actions = _pad(state, observation)
    else:
        return ()
    if not actions:
        return ()
    t = thaw(state)
    for action in actions[:-1]:  # the rules decide; the last one is only checked
        step(t, action)
    check(t, actions[-1])
    return actions


def _card(state: Flip7State, seen: CardSeen) -> tuple[Action, ...]:
    if seen.zone == DISCARD:
        seat = None
    elif seen.zone.startswith(SEAT_ZONE_PREFIX):
        try:
            seat = int(seen.zone[len(SEAT_ZONE_PREFIX):])
        except ValueError:
            return ()
    else:
        return ()
    flip = Flip(seen.card, seat)
    t = thaw(state)
    if t.wait == DECIDE:
        return (Hit(t.who), flip)
    return (flip,)


def _pad(state: Flip7State, press: PadPressed) -> tuple[Action, ...]:
    t = thaw(state)
    if t.wait == OVER:
        raise IllegalAction("match_over")
    if t.wait == TARGET:
        return (Target(t.who, press.seat),)
    if t.wait != DECIDE:
        raise IllegalAction("flip7.pad_ignored", why=waiting_reason(t))
    if press.seat != t.who:
        raise IllegalAction("not_your_turn", seat=t.who, other_seat=press.seat)
    return (Stay(press.seat),) if press.held else (Hit(press.seat),)
