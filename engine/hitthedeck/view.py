"""What the screens show of a Hit the Deck match (engine.core.Game.view): the shared
keys plus a "table" section with the top card, the demand in force, the direction, the
hand counts, the slap window and the last ruling in words."""
from __future__ import annotations

from typing import Any

from engine.core import say
from engine.hitthedeck.cards import describe_demand, label
from engine.hitthedeck.state import (COUNTING, DEAL, MUST_AFTER_DRAW, MUST_CUT, MUST_FLIP,
                                     MUST_UNBURY, OVER, START, State)


def prompt(state: State) -> dict[str, Any]:
    """What who may do now, as a message."""
    if state.phase == OVER:
        return say("match_over")
    if state.phase == DEAL:
        return say("htd.deals", seat=state.progress.dealer, size=state.settings.hand_size)
    if state.phase == START:
        return say("htd.turn_up")
    if state.phase == COUNTING:
        waiting = [s for s in range(state.players)
                   if s != state.went_out and state.laid_out[s] is None]
        return say("htd.lay_out", seats=waiting)
    if state.window is not None:
        waiting = [s for s in state.window.eligible if s not in state.window.slapped()]
        return say("htd.slap_again" if state.window.reslap else "htd.slap_now", seats=waiting)
    who = state.turn
    if state.must == MUST_CUT:
        return say("htd.cut_now", seat=who)
    if state.must == MUST_FLIP:
        return say("htd.flip_now", seat=who)
    if state.must == MUST_UNBURY:
        return say("htd.unbury_now", seat=who)
    if state.must == MUST_AFTER_DRAW:
        return say("htd.after_draw", seat=who)
    if state.free:
        return say("htd.play_any_now", seat=who)
    if state.demand is not None:
        return say("htd.play_demand", seat=who, demand=describe_demand(state.demand))
    return say("htd.play_on", seat=who, card=state.top)


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
                "card": state.demand, "says": describe_demand(state.demand)},
            "any_card": state.free,
            "direction": "clockwise" if state.direction == 1 else "anticlockwise",
            "hand_counts": list(state.hand_counts),
            "draw_pile": state.draw_size,
            "discard_pile": state.discard_size,
            "slap_window": _window(state),
            "went_out": state.went_out,
            "fake_outs": [{"seat": s, "t_ns": t, "drew": n} for s, t, n in state.fake_outs],
            "laid_out": [None if h is None else list(h) for h in state.laid_out],
            "last_ruling": [n.to_json() for n in state.last_ruling],
        },
    }
