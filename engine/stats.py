"""End-of-match statistics per player, for any of the four games, computed from the match
log alone (pure: no store, no clock).

How to call it:

    from engine.stats import match_statistics
    stats = match_statistics(spec, actions)

`spec` is the match's `engine.core.MatchSpec` (the start line); `actions` are the log's
actions after it, in order, undos included, either as `Action` objects or as their JSON
dicts (as stored). A log the rules refuse raises `engine.core.IllegalAction`.

It returns a JSON-able dict:

    {"game": "flip7",
     "figures": ["points", "rounds_won", "busts", "flip7s", ...],   # this game's keys, in order
     "players": [{"seat": 0, "name": "Ann", "points": 212, "rounds_won": 3, ...}, ...],
     "rounds": [[12, 0, 30], ...],     # every round's scores, per seat (as the view's history)
     "winners": [0], "finished": true}

Figures (every player has every key of its game's `figures`; all are whole numbers):

* every game: `points` (the match total), `rounds_won` (Flip 7: rounds with the best
  score; Solo and Hit the Deck: rounds the player went out; Raj: pots taken).
* Flip 7: `busts`, `flip7s`, `second_chances_used` (busts saved), `frozen` (times a
  Freeze was played on the player).
* Hit the Deck: `slaps_lost` (hand slaps after which the player drew four, a penalty taken
  back by a forgotten call not counted), `fake_outs` (fake-outs that stood), `forgot_calls`.
* Solo: `out_of_turn` (cards discarded out of turn), `solo_caught` (times caught without
  SOLO!), `catches` (times they caught someone), `penalties_taken` (Take 2 / Take 4 stacks
  taken).
* Raj: `cards_collected` (point cards taken), `fouls`.
"""
from __future__ import annotations

from typing import Any, Iterable

from engine.core import Action, MatchSpec, Notice, Undo, parse_action
from engine.games import get_game

FIGURES: dict[str, tuple[str, ...]] = {
    "flip7": ("points", "rounds_won", "busts", "flip7s", "second_chances_used", "frozen"),
    "hitthedeck": ("points", "rounds_won", "slaps_lost", "fake_outs", "forgot_calls"),
    "solo": ("points", "rounds_won", "out_of_turn", "solo_caught", "catches", "penalties_taken"),
    "raj": ("points", "rounds_won", "cards_collected", "fouls"),
}


def match_statistics(spec: MatchSpec, actions: Iterable[Action | dict]) -> dict[str, Any]:
    """Per-player figures of the match `spec` + `actions` (see the module docstring)."""
    game = get_game(spec.game)
    states = [game.start(spec)]
    said: list[tuple[Notice, ...]] = []
    for action in actions:
        if isinstance(action, dict):
            action = parse_action(action, game.actions)
        if isinstance(action, Undo):
            if said:
                states.pop()
                said.pop()
            continue
        state, notices = game.apply(states[-1], action)
        states.append(state)
        said.append(notices)
    final = states[-1]
    view = game.view(final)
    n = len(spec.seats)
    figures = FIGURES[spec.game]
    counts = [dict.fromkeys(figures, 0) for _ in range(n)]
    notices = [notice for group in _standing(said) for notice in group]
    _COUNTERS[spec.game](counts, notices, final, view)
    for seat in range(n):
        counts[seat]["points"] = view["totals"][seat]
    return {
        "game": spec.game,
        "figures": list(figures),
        "players": [{"seat": s, "name": spec.seats[s].name, **counts[s]} for s in range(n)],
        "rounds": [list(r) for r in view["history"]],
        "winners": list(view["winners"]),
        "finished": bool(view["finished"]),
    }


def _standing(said: list[tuple[Notice, ...]]) -> list[tuple[Notice, ...]]:
    """The notices that still stand: a Solo play the host settled as another seat's
    out-of-turn discard is redone (its redo says so again), so the first reading's
    notices are dropped."""
    groups = list(said)
    for i, group in enumerate(groups):
        if group and group[0].code == "settled" and len(group[0].seats) == 2:
            for j in range(i - 1, -1, -1):
                if any(n.code == "question" for n in groups[j]):
                    groups[j] = ()
                    break
    return groups


def _add(counts: list[dict[str, int]], seat: int, key: str, k: int = 1) -> None:
    counts[seat][key] += k


def _flip7(counts, notices, state, view) -> None:
    for notice in notices:
        if notice.code == "bust":
            _add(counts, notice.seats[0], "busts")
        elif notice.code == "flip7":
            _add(counts, notice.seats[0], "flip7s")
        elif notice.code == "second_chance":
            _add(counts, notice.seats[0], "second_chances_used")
        elif notice.code == "freeze":
            _add(counts, notice.seats[-1], "frozen")
    for scores in view["history"]:
        best = max(scores)
        for seat, score in enumerate(scores):
            if score == best and best > 0:
                _add(counts, seat, "rounds_won")


def _hitthedeck(counts, notices, state, view) -> None:
    settled: tuple[int, ...] = ()   # losers of the last settled slap (a forgotten call undoes it)
    for notice in notices:
        code = notice.code
        if code == "went_out":
            _add(counts, notice.seats[0], "rounds_won")
        elif code == "slap_open":
            settled = ()
        elif code in ("slap_lost", "slap_missed"):
            settled = tuple(notice.seats)
            for seat in settled:
                _add(counts, seat, "slaps_lost")
        elif code == "forgot_call":
            for seat in settled:
                _add(counts, seat, "slaps_lost", -1)
            settled = ()
            _add(counts, notice.seats[0], "forgot_calls")
        elif code == "fake_out":
            _add(counts, notice.seats[0], "fake_outs")
        elif code == "fake_out_undone":
            _add(counts, notice.seats[0], "fake_outs", -1)


def _solo(counts, notices, state, view) -> None:
    for notice in notices:
        code = notice.code
        if code == "out":
            _add(counts, notice.seats[0], "rounds_won")
        elif code == "jump":
            _add(counts, notice.seats[0], "out_of_turn")
        elif code == "solo_caught":
            _add(counts, notice.seats[0], "catches")
            _add(counts, notice.seats[1], "solo_caught")
        elif code == "penalty_taken":
            _add(counts, notice.seats[0], "penalties_taken")


def _raj(counts, notices, state, view) -> None:
    for result in state.results:
        if result.taker is not None:
            _add(counts, result.taker, "rounds_won")
        for seat, foul in enumerate(result.fouls):
            if foul is not None:
                _add(counts, seat, "fouls")
    for seat, cards in enumerate(state.collected):
        _add(counts, seat, "cards_collected", len(cards))


_COUNTERS = {"flip7": _flip7, "hitthedeck": _hitthedeck, "solo": _solo, "raj": _raj}
