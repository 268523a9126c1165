"""Raj's table referee: what camera and pad observations mean (pure, no memory).

* A point card seen in the reveal zone → `RevealPoint` when a new point card is due; the
  point cards already in the pot are simply still in view and mean nothing.
* A player card seen → `Bid`: in a seat's zone the zone tells whose bid it is (and a card
  of another colour there is a foul); elsewhere its colour tells. A seat that has fouled
  takes no further part in the round: its cards seen again mean nothing (until the next
  point card).
* A pad press while bids are being collected → `BidDown` ("my bid is down"); a second
  press means nothing. At any other time it is refused with a reason for the screen.
* Clock ticks mean nothing in Raj.
"""
from __future__ import annotations

from engine.core import Action, IllegalAction
from engine.observations import CardSeen, Observation, PadPressed
from engine.raj.deck import POINT_CARDS, parse_bid
from engine.raj.rules import Bid, BidDown, RajState, RevealPoint


def interpret(state: RajState, observation: Observation) -> tuple[Action, ...]:
    if isinstance(observation, CardSeen):
        card = observation.card
        if card in POINT_CARDS:
            if card in state.pot or (state.phase == "bidding" and card in state.revealed):
                return ()
            return (RevealPoint(card),)
        parsed = parse_bid(card)
        if parsed is not None:
            zone_seat = _zone_seat(observation.zone)
            if _still_in_view(state, parsed, zone_seat) or _fouled(state, parsed, zone_seat):
                return ()
            return (Bid(card, zone_seat),)
        raise IllegalAction("card_unknown")
    if isinstance(observation, PadPressed):
        if state.phase != "bidding":
            raise IllegalAction("raj.no_bidding")
        if not 0 <= observation.seat < state.players:
            raise IllegalAction("pad_no_seat", number=observation.seat + 1)
        if state.down[observation.seat]:
            return ()
        return (BidDown(observation.seat),)
    return ()


def _still_in_view(state: RajState, parsed: tuple[str, int], zone_seat: int | None) -> bool:
    """A bid already read (this round's, or the last round's before the next point card)."""
    colour, value = parsed
    if colour not in state.colours:
        return False
    owner = state.colours.index(colour)
    if zone_seat is not None and zone_seat != owner:
        return False
    if state.phase == "bidding":
        return state.bids[owner] == value
    return state.last is not None and state.last.bids[owner] == value


def _fouled(state: RajState, parsed: tuple[str, int], zone_seat: int | None) -> bool:
    """The card is laid by a seat that fouled this round (or the round just settled)."""
    seat = zone_seat
    if seat is None:
        seat = state.colours.index(parsed[0]) if parsed[0] in state.colours else None
    if seat is None or not 0 <= seat < state.players:
        return False
    if state.phase == "bidding":
        return state.fouled[seat]
    return state.last is not None and bool(state.last.fouls) and state.last.fouls[seat] is not None


def _zone_seat(zone: str) -> int | None:
    prefix, _, number = zone.partition(":")
    if prefix == "seat" and number.isdigit():
        return int(number)
    return None
