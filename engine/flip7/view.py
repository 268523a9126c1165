"""The picture of a Flip 7 match for the screens and `deckhand replay`: a JSON-able dict
(engine.core.Game.view) with the shared keys and a "table" section of every line.
Nothing here decides a rule; it reads a settled `Table`."""
from __future__ import annotations

from typing import Any

from engine.core import say
from engine.flip7.coach import outlook
from engine.flip7.rules import CARD, DECIDE, OVER, TARGET, Table, target_options, winners
from engine.flip7.state import CODES, Line, bust_probability, round_score
from engine.serial import to_jsonable


def _coach(line: Line, remaining: dict[str, int]) -> dict[str, Any] | None:
    figures = outlook(line, remaining)
    if figures is None:
        return None
    return {"bust": float(figures.bust), "hit": float(figures.hit), "stay": figures.stay,
            "gain": float(figures.gain)}


def _line(seat: int, name: str, line: Line, remaining: dict[str, int],
          coach: bool = False) -> dict[str, Any]:
    return {
        "seat": seat, "name": name,
        "numbers": list(line.numbers), "modifiers": list(line.modifiers),
        "second_chance": line.chance, "actions": list(line.actions),
        "duplicate": line.duplicate, "status": line.status,
        "score": round_score(line), "flip7": len(line.numbers) == 7,
        "bust_probability": float(bust_probability(line, remaining)),
        "coach": _coach(line, remaining) if coach else None,
    }


def _prompt(t: Table) -> dict[str, Any]:
    if t.wait == OVER:
        return say("flip7.over", **winners(t))
    if t.wait == CARD:
        if t.frames and t.frames[-1][1]:
            return say("flip7.flip_for_three", seat=t.who, left=t.frames[-1][1])
        if t.dealing:
            return say("flip7.deal_to", seat=t.who)
        return say("flip7.flip_for_hit", seat=t.who)
    if t.wait == TARGET:
        return say("flip7.choose_target", seat=t.who, card=t.choice[1],
                   allowed_seats=target_options(t, *t.choice))
    assert t.wait == DECIDE
    if not t.has_card(t.who):
        return say("flip7.must_hit_prompt", seat=t.who)
    return say("flip7.hit_or_stay", seat=t.who)


def view(t: Table) -> dict[str, Any]:
    state = t.frozen()
    p = state.progress
    pile, known = (state.deck, "deck") if t.deck_size else (state.set_aside, "set_aside")
    remaining = {c: n for c, n in zip(CODES, pile) if n}
    names = [t.name(s) for s in range(len(t.seats))]
    coaching = state.settings.coach != "off" and not p.finished
    return {
        "game": "flip7", "title": "Flip 7",
        "seats": [to_jsonable(s) for s in state.seats],
        "round": p.round_no, "dealer": p.dealer,
        "turn": t.who,
        "waiting": {"for": t.wait, "seat": t.who},
        "totals": list(p.totals), "history": [list(r) for r in p.history],
        "finished": p.finished, "winners": list(p.winners),
        "prompt": _prompt(t),
        "table": {
            "lines": [_line(s, names[s], line, remaining, coaching)
                      for s, line in enumerate(state.lines)],
            "coach": state.settings.coach,
            "dealing": bool(state.dealing),
            "pending": None if not t.choice else {
                "chooser": t.choice[0], "card": t.choice[1],
                "options": target_options(t, *t.choice)},
            "flip_three": [{"target": f.target, "left": f.left, "set_aside": list(f.set_aside)}
                           for f in state.flips],
            "deck": {"left": t.deck_size, "set_aside": t.set_aside_size,
                     "set_aside_cards": {c: n for c, n in zip(CODES, state.set_aside) if n},
                     "next_from": known},
            "forced": [{"chooser": f.chooser, "card": f.card, "target": f.target}
                       for f in state.forced],
            "last_round": [_line(s, names[s], line, {}) for s, line in enumerate(state.last_round)],
        },
    }
