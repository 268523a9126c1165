"""What the screens show of a Raj game (engine.core.Game.view)."""
from __future__ import annotations

from typing import Any

from engine.core import say
from engine.raj.deck import POINT_CARDS
from engine.raj.rules import RajState, RoundResult, pot_value


def _result(r: RoundResult) -> dict[str, Any]:
    return {"pot": list(r.pot), "pot_value": pot_value(r.pot), "bids": list(r.bids),
            "cancelled": list(r.cancelled), "taker": r.taker, "carried": r.carried,
            "fouls": list(r.fouls) if r.fouls else [None] * len(r.bids)}


def prompt(state: RajState) -> dict[str, Any]:
    """What who may do now, as a message."""
    if state.progress.finished:
        return say("raj.over")
    if state.phase == "point":
        return say("raj.turn_point")
    waiting = [s for s in state.waiting_for() if not state.down[s]]
    if waiting:
        return say("raj.lay_bids", seats=waiting)
    return say("raj.reveal_bids")


def view(state: RajState) -> dict[str, Any]:
    n = state.players
    last = state.last
    return {
        "game": "raj",
        "seats": [{"name": s.name, "colour": c} for s, c in zip(state.seats, state.colours)],
        "round": state.point_round,
        "rounds": len(POINT_CARDS),
        "dealer": state.progress.dealer,
        "turn": None,
        "totals": list(state.totals()),
        "history": [list(h) for h in state.progress.history],
        "finished": state.progress.finished,
        "winners": list(state.progress.winners),
        "prompt": prompt(state),
        "table": {
            "phase": state.phase,
            "pot": list(state.pot),
            "pot_value": pot_value(state.pot),
            "point_cards_left": len(POINT_CARDS) - len(state.revealed),
            "down": list(state.down),
            "bids": list(state.bids),
            "void": list(state.fouled),
            "cards_left": [len(state.unused(s)) for s in range(n)],
            "used": [sorted(u) for u in state.used] if state.settings.show_used else None,
            "collected": [list(c) for c in state.collected],
            "fouls": list(state.fouls or (None,) * n),
            "last": None if last is None else _result(last),
            "results": [_result(r) for r in state.results],
        },
    }

