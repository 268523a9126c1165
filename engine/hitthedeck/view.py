"""What the screens show of a Hit the Deck match (engine.core.Game.view): the shared
keys plus a "table" section with the top card, the demand in force, the direction, the
hand counts, the slap window and the last ruling in words."""
from __future__ import annotations

from typing import Any

from engine.hitthedeck.cards import describe_demand, label
from engine.hitthedeck.state import (COUNTING, DEAL, MUST_AFTER_DRAW, MUST_CUT, MUST_FLIP,
                                     MUST_UNBURY, OVER, START, State)


def prompt(state: State) -> str:
    """What who may do now, in words."""
    if state.phase == OVER:
        return "The match is over."
    if state.phase == DEAL:
        return f"{state.name(state.progress.dealer)} deals {state.settings.hand_size} cards each."
    if state.phase == START:
        return "Turn up the top card of the draw pile to start the discard pile."
    if state.phase == COUNTING:
        waiting = [state.name(s) for s in range(state.players)
                   if s != state.went_out and state.laid_out[s] is None]
        return "Lay out your cards to be counted: " + ", ".join(waiting) + "."
    if state.window is not None:
        waiting = [state.name(s) for s in state.window.eligible
                   if s not in state.window.slapped()]
        head = "Slap again" if state.window.reslap else "Hit the deck with a hand"
        return f"{head}! Waiting for {', '.join(waiting)}."
    who = state.name(state.turn)
    if state.must == MUST_CUT:
        return f"{who}: cut the deck and put the exposed card on the discard pile."
    if state.must == MUST_FLIP:
        return f"{who}: flip both piles over."
    if state.must == MUST_UNBURY:
        return f"{who}: bury the FLIP in the pile and show the card under it."
    if state.must == MUST_AFTER_DRAW:
        return f"{who}: play the card you drew if you can, or pass."
    if state.free:
        return f"{who}: play any card."
    if state.demand is not None:
        return f"{who}: play {describe_demand(state.demand)}, or draw one."
    return f"{who}: play on {label(state.top)} (same colour or number), or draw one."


def _window(state: State) -> dict[str, Any]:
    w = state.window
    last = state.last_slap
    if w is not None:
        return {"open": True, "caller": w.caller, "eligible": list(w.eligible),
                "slapped": list(w.slapped()), "order": [{"seat": s, "t_ns": t} for s, t in w.slaps],
                "reslap": w.reslap, "opened_ns": w.opened_ns,
                "closes_ns": w.deadline_ns(state.settings.slap_timeout_ms)}
    out: dict[str, Any] = {"open": False}
    if last is not None:
        out["last"] = {"caller": last.caller, "opened_ns": last.opened_ns,
                       "order": [{"seat": s, "t_ns": t} for s, t in last.order],
                       "penalised": [{"seat": s, "drew": n} for s, n in last.penalised],
                       "forgot_call": last.forgot, "opened_ns": last.opened_ns,
                       "closed_ns": last.closed_ns}
    return out


def view(state: State) -> dict[str, Any]:
    progress = state.progress
    return {
        "game": "hitthedeck",
        "seats": [{"name": s.name, "colour": s.colour} for s in state.seats],
        "round": progress.round_no,
        "dealer": progress.dealer,
        "turn": state.turn if state.window is None else None,
        "totals": list(progress.totals),
        "history": [list(h) for h in progress.history],
        "finished": progress.finished,
        "winners": list(progress.winners),
        "prompt": prompt(state),
        "table": {
            "edition": state.settings.edition,
            "phase": state.phase,
            "must": state.must,
            "top": state.top,
            "top_label": None if state.top is None else label(state.top),
            "demand": None if state.demand is None else {
                "card": state.demand, "text": describe_demand(state.demand)},
            "any_card": state.free,
            "direction": "clockwise" if state.direction == 1 else "anticlockwise",
            "hand_counts": list(state.hand_counts),
            "draw_pile": state.draw_size,
            "discard_pile": state.discard_size,
            "slap_window": _window(state),
            "went_out": state.went_out,
            "fake_outs": [{"seat": s, "t_ns": t, "drew": n} for s, t, n in state.fake_outs],
            "laid_out": [None if h is None else list(h) for h in state.laid_out],
            "last_ruling": state.last_ruling,
        },
    }
