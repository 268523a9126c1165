"""Hit the Deck's table referee: what camera, pad and clock observations mean now
(pure; whatever must be remembered is in the state, so a replay reproduces it).

* A card seen on the discard pile is, as the state expects: the first card turned up
  (after the deal, which it implies), the card cut or flipped into view, the card under
  a buried FLIP, or the play of the seat whose turn it is. A card that may not be played
  is refused with the reason. While a slap is open the HAND card reappearing from under
  the hands means nothing.
* A pad press is judged by its timestamp: a slap while a window is open, a fake-out
  when none is, or nothing (a repeat, a bouncing pad, a pad held down from before the
  window, a player who went out). A press after the window's deadline first closes it.
* A clock tick `late_report_ms` past the window's deadline closes it (pads hand a press
  on when it lifts or becomes a hold, stamped with the moment it closed, so a slap made in
  time may arrive after the deadline).
* A hand laid out in the scoring zone (or a seat's zone) once the hand is over is that
  seat's count; in the shared scoring zone hands are taken in turn order from the
  player who went out.
"""
from __future__ import annotations

from engine.core import Action, IllegalAction
from engine.hitthedeck import slaps
from engine.hitthedeck.actions import (CloseWindow, Cut, FakeOut, Flip, HandCards, Play, Slap,
                                       StartHand, TurnUp)
from engine.hitthedeck.rules import GAME, step
from engine.hitthedeck.state import (COUNTING, DEAL, MUST_CUT, MUST_FLIP, MUST_UNBURY, OVER, START,
                                     State)
from engine.observations import DISCARD, CardSeen, CardsLaidOut, Observation, PadPressed, Tick


def interpret(state: State, observation: Observation) -> tuple[Action, ...]:
    if isinstance(observation, CardSeen):
        return _card_seen(state, observation)
    if isinstance(observation, PadPressed):
        return _pad(state, observation)
    if isinstance(observation, Tick):
        return _tick(state, observation.t_ns)
    if isinstance(observation, CardsLaidOut):
        return _laid_out(state, observation)
    return ()


def _card_seen(state: State, seen: CardSeen) -> tuple[Action, ...]:
    if seen.zone != DISCARD:
        return ()
    card, t = seen.card, seen.t_ns
    if card not in GAME.deck:
        raise IllegalAction("card_unknown")
    if state.phase == OVER:
        raise IllegalAction("match_over")
    if state.phase == DEAL:
        return _checked(state, StartHand(), TurnUp(card, t))
    if state.phase == START:
        return _checked(state, TurnUp(card, t))
    if state.phase == COUNTING:
        raise IllegalAction("htd.hand_over")
    if state.window is not None:
        if card == state.top:
            return ()
        raise IllegalAction("htd.slap_not_settled")
    seat = state.turn
    if state.must == MUST_CUT:
        return _checked(state, Cut(seat, card, t))
    if state.must in (MUST_FLIP, MUST_UNBURY):
        return _checked(state, Flip(seat, card, t))
    return _checked(state, Play(seat, card, t))


def _pad(state: State, press: PadPressed) -> tuple[Action, ...]:
    verdict, _ = slaps.classify_press(state, press.seat, press.t_ns)
    if verdict == slaps.CLOSE_FIRST:
        deadline = state.window.deadline_ns(state.settings.slap_timeout_ms)
        close = CloseWindow(deadline)
        after, _ = step(state, close)
        return (close,) + _pad(after, press)
    if verdict == slaps.SLAP:
        return (Slap(press.seat, press.t_ns),)
    if verdict == slaps.FAKE_OUT:
        return (FakeOut(press.seat, press.t_ns),)
    return ()


def _tick(state: State, t_ns: int) -> tuple[Action, ...]:
    window = state.window
    if window is None:
        return ()
    deadline = window.deadline_ns(state.settings.slap_timeout_ms)
    if deadline is None or t_ns < deadline + state.settings.late_report_ms * 1_000_000:
        return ()
    return (CloseWindow(t_ns),)


def _laid_out(state: State, spread: CardsLaidOut) -> tuple[Action, ...]:
    if state.phase != COUNTING:
        raise IllegalAction("htd.count_when_over")
    prefix, _, number = spread.zone.partition(":")
    if prefix == "seat" and number.isdigit():
        seat = int(number)
    else:
        waiting = [s for s in slaps.turn_order(state, state.went_out)
                   if s != state.went_out and state.laid_out[s] is None]
        if not waiting:
            return ()
        seat = waiting[0]
    return _checked(state, HandCards(seat, tuple(spread.cards)))


def _checked(state: State, *actions: Action) -> tuple[Action, ...]:
    """The actions, if each is legal after the ones before it (else the refusal)."""
    for action in actions:
        state, _ = step(state, action)
    return actions
