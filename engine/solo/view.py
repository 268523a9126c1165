"""Solo's picture for the screens and `deckhand replay`: the Game protocol's common keys
plus a "table" section (top card, what must follow, penalty stack, direction, hand
counts, who owes SOLO!, the host's open question). Nothing here changes a state.
"""
from __future__ import annotations

from typing import Any

from engine.core import say
from engine.solo.state import SoloState, colour_name, kind_of, label


def follow(state: SoloState) -> dict[str, Any] | None:
    """What may go on the pile now, as a message."""
    if state.top is None:
        return None
    if state.penalty:
        return say("solo.follow_take2" if kind_of(state.top) == "take2" else "solo.follow_take4",
                   count=state.penalty)
    if state.colour:
        return say("solo.follow_colour", colour=state.colour)
    if kind_of(state.top) == "rotate":
        return say("solo.follow_any")
    return say("solo.follow_match", card=state.top)


def prompt(state: SoloState) -> dict[str, Any]:
    """What who may do now, as a message (a question for the host and an owed SOLO!
    come first, as `before`)."""
    m = state.match
    if m.finished or state.phase == "over":
        return say("solo.over", winner_seats=list(m.winners), winners=len(m.winners))
    if state.phase == "deal":
        return say("solo.deal", seat=m.dealer, size=state.settings.hand_size)
    if state.phase == "count":
        waiting = [i for i, cards in enumerate(state.laid) if cards is None]
        return say("solo.lay_out", seat=state.out, seats=waiting)
    before = []
    if state.held is not None:
        before.append(say("solo.ask_held", card=state.held, seat=state.turn))
    elif state.question is not None:
        before.append(say("solo.ask_host", card=state.question.card, seat=state.question.seat))
    if state.solo_owed is not None:
        before.append(say("solo.owes_solo", seat=state.solo_owed))
    if state.awaiting == "colour":
        now = say("solo.name_colour", seat=state.chooser)
    elif state.awaiting == "swap":
        now = say("solo.choose_swap", seat=state.chooser)
    elif state.penalty:
        now = say("solo.pass_on_or_take", seat=state.turn, follow=follow(state), count=state.penalty)
    elif state.drawn:
        now = say("solo.play_drawn", seat=state.turn, follow=follow(state))
    else:
        now = say("solo.play_or_draw", seat=state.turn, follow=follow(state))
    for first in reversed(before):
        now = say("solo.then", before=first, now=now)
    return now


def view(state: SoloState) -> dict[str, Any]:
    m = state.match
    penalty = None
    if state.penalty:
        penalty = {"cards": state.penalty, "kind": kind_of(state.top) if state.top else None,
                   "owed_by": state.turn}
    question = None
    if state.held is not None:
        claimers = sorted({c.seat for c in state.claims if c.seat != state.turn})
        question = {"card": state.held, "taken_as": None, "choices": [state.turn] + claimers,
                    "says": say("solo.held_question", card=state.held, claimer_seats=claimers,
                                seat=state.turn)}
    elif state.question is not None:
        question = {"card": state.question.card, "taken_as": state.question.seat,
                    "says": say("solo.question", card=state.question.card,
                                seat=state.question.seat)}
    return {
        "game": "solo",
        "seats": list(state.seats),
        "round": m.round_no,
        "dealer": m.dealer,
        "turn": state.turn,
        "totals": list(m.totals),
        "history": [list(r) for r in m.history],
        "finished": m.finished,
        "winners": list(m.winners),
        "prompt": prompt(state),
        "table": {
            "phase": state.phase,
            "top": state.top,
            "top_label": label(state.top) if state.top else None,
            "colour": colour_name(state.colour) if state.colour else None,
            "follow": follow(state),
            "penalty": penalty,
            "direction": "clockwise" if state.direction == 1 else "counter-clockwise",
            "hand_counts": list(state.hands),
            "pack": state.pack if state.phase in ("play", "count") else None,
            "discard": state.discard,
            "drawn": state.drawn,
            "awaiting": ({"what": state.awaiting, "seat": state.chooser}
                         if state.awaiting else None),
            "solo_owed": state.solo_owed,
            "claims": [{"seat": c.seat, "t_ns": c.t_ns} for c in state.claims],
            "taken_by_claim": (None if state.taken_by is None else
                               {"seat": state.taken_by.seat, "t_ns": state.taken_by.t_ns}),
            "question": question,
            "out": state.out,
            "laid_out": [list(c) if c is not None else None for c in state.laid],
            "target": state.settings.target,
        },
    }
