"""Solo's picture for the screens and `deckhand replay`: the Game protocol's common keys
plus a "table" section (top card, what must follow, penalty stack, direction, hand
counts, who owes SOLO!, the host's open question). Nothing here changes a state.
"""
from __future__ import annotations

from typing import Any

from engine.solo.state import SoloState, colour_name, kind_of, label


def _who(state: SoloState, seat: int | None) -> str:
    return state.seats[seat] if seat is not None else ""


def follow(state: SoloState) -> str:
    """What may go on the pile now, in words."""
    if state.top is None:
        return ""
    if state.penalty:
        name = "Take 2" if kind_of(state.top) == "take2" else "Take 4"
        return f"a {name} to pass on {state.penalty} cards"
    if state.colour:
        return f"a {colour_name(state.colour)} card or a black card"
    if kind_of(state.top) == "rotate":
        return "any card"
    return f"the same colour, number or symbol as {label(state.top)}, or a black card"


def prompt(state: SoloState) -> str:
    m = state.match
    if m.finished or state.phase == "over":
        return "The match is over: " + ", ".join(_who(state, w) for w in m.winners) + " won."
    if state.phase == "deal":
        return (f"{_who(state, m.dealer)} deals {state.settings.hand_size} cards each and "
                "turns the top card over onto the discard pile.")
    if state.phase == "count":
        waiting = [_who(state, i) for i, cards in enumerate(state.laid) if cards is None]
        return (f"{_who(state, state.out)} is out. Lay out the cards left in hand: "
                + ", ".join(waiting) + ".")
    if state.held is not None:
        ask = (f"Host: whose is the {label(state.held)}? {_who(state, state.turn)}'s play, "
               "or a claimer's jump (it goes back). ")
    elif state.question is not None:
        q = state.question
        ask = (f"Host: who played the identical {label(q.card)}? Taken as "
               f"{_who(state, q.seat)}'s play. ")
    else:
        ask = ""
    if state.solo_owed is not None:
        ask += f"{_who(state, state.solo_owed)} owes SOLO! "
    if state.awaiting == "colour":
        return ask + f"{_who(state, state.chooser)}: name a colour."
    if state.awaiting == "swap":
        return ask + f"{_who(state, state.chooser)}: choose a player to swap cards with."
    who = _who(state, state.turn)
    if state.penalty:
        return ask + f"{who}: pass on {follow(state)} or take {state.penalty} cards."
    if state.drawn:
        return ask + f"{who}: play the card you drew if it fits ({follow(state)}), or pass."
    return ask + f"{who}: play {follow(state)}, or draw a card."


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
                    "text": f"{label(state.held)} cannot be discarded out of turn and "
                            f"{', '.join(_who(state, c) for c in claimers)} claimed it: was it "
                            f"{_who(state, state.turn)}'s play?"}
    elif state.question is not None:
        question = {"card": state.question.card, "taken_as": state.question.seat,
                    "text": f"Nobody claimed the identical {label(state.question.card)}: "
                            f"was it {_who(state, state.question.seat)}'s play?"}
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
