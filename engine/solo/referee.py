"""Solo's table referee: what a camera sighting or a pad press means now.

* A card seen on the discard pile: the starter when a round is being dealt; during play,
  the out-of-turn discard of the earliest pad claim if it is identical to the top card
  and someone claimed it, otherwise the current player's play. A card that may not be
  played is refused (IllegalAction with the reason the screen shows). An identical card
  nobody claimed is taken as the current player's play and the engine opens a question
  for the host (rules: SettlePlay). An identical card that may not be discarded out of
  turn (a black card) while another player's claim is open is nobody's play: it is held
  (HoldCard) until the host says whose it is.
* A pad press during play: "SOLO!" from the player who owes it; from anyone else while a
  SOLO! is owed, a catch; otherwise a claim of the next identical card.
* Hands laid out in the scoring zone: the next seat's cards, in seat order after the
  player who went out.

Pure: everything to remember (claims) is an action in the log.
"""
from __future__ import annotations

from engine.core import Action, IllegalAction
from engine.observations import DISCARD, SCORING, CardSeen, CardsLaidOut, Observation, PadPressed
from engine.solo import rules
from engine.solo.actions import (CallSolo, CatchSolo, Claim, HoldCard, Play, RoundCards,
                                 StartRound)
from engine.solo.state import SoloState


def interpret(state: SoloState, observation: Observation) -> tuple[Action, ...]:
    if isinstance(observation, CardSeen) and observation.zone == DISCARD:
        action = _card_action(state, observation.card)
        rules.check(state, action)
        return (action,)
    if isinstance(observation, PadPressed):
        return _pad_actions(state, observation)
    if isinstance(observation, CardsLaidOut) and observation.zone == SCORING:
        seat = next_to_lay_out(state)
        if seat is None:
            raise IllegalAction("solo.no_hand_waiting")
        action = RoundCards(seat, tuple(observation.cards))
        rules.check(state, action)
        return (action,)
    return ()


def _card_action(state: SoloState, card: str) -> Action:
    if state.phase == "deal":
        return StartRound(card)
    if state.phase != "play":
        raise IllegalAction("solo.no_card_now")
    if card == state.top:
        # the earliest claim that may discard this card out of turn gets it
        for claim in sorted(state.claims, key=lambda c: c.t_ns):
            try:
                rules.check(state, Play(claim.seat, card))
            except IllegalAction:
                continue
            return Play(claim.seat, card)
        if not rules.may_jump(state, card) and any(c.seat != state.turn for c in state.claims):
            return HoldCard(card)
    assert state.turn is not None
    return Play(state.turn, card)


def _pad_actions(state: SoloState, press: PadPressed) -> tuple[Action, ...]:
    if state.phase != "play" or not 0 <= press.seat < state.players:
        return ()
    if state.solo_owed == press.seat:
        return (CallSolo(press.seat),)
    if state.solo_owed is not None:
        return (CatchSolo(press.seat, state.solo_owed),)
    if state.hands[press.seat] < 1:
        return ()
    return (Claim(press.seat, press.t_ns),)


def next_to_lay_out(state: SoloState) -> int | None:
    """The next seat (after the one who went out) whose cards are still to be laid out."""
    if state.phase != "count" or state.out is None:
        return None
    n = state.players
    for step in range(1, n):
        seat = (state.out + step) % n
        if state.laid[seat] is None:
            return seat
    return None
