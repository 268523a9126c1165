"""The match layer every game shares: rounds, dealer rotation, per-round and running
scores, and who has won.

A game keeps a `MatchProgress` inside its state and calls `close_round` when a round
is scored, or `finish` when the match ends otherwise (Raj's fifteenth bid, the host's
EndMatch). The end-of-match rules differ only in parameters (`MatchRule`): the target,
whether high or low totals win, and what a tie at the top does. The host's corrections
(`engine.core.SetTotals`, `CorrectRound`) are `set_totals` and `correct_round`, so every
game treats them alike.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from engine.core import CorrectRound, IllegalAction, Notice, SetTotals, say


@dataclass(frozen=True)
class MatchRule:
    """When a match ends and who wins it.

    target: a match ends at the end of a round in which some total reaches it
        (None: the game ends the match itself, as Raj does).
    goal: "high" — most points wins (Flip 7, Solo, Raj); "low" — lowest wins (Hit the Deck).
    tie: "share" — equal best totals share the win; "play_on" — play another round
        (Flip 7).
    """

    target: int | None
    goal: Literal["high", "low"] = "high"
    tie: Literal["share", "play_on"] = "share"


@dataclass(frozen=True)
class MatchProgress:
    """Scores and rounds of one match. Seats are numbered clockwise from 0."""

    seats: int
    dealer: int = 0
    round_no: int = 1
    totals: tuple[int, ...] = ()
    history: tuple[tuple[int, ...], ...] = ()
    finished: bool = False
    winners: tuple[int, ...] = ()

    @classmethod
    def new(cls, seats: int, dealer: int = 0) -> "MatchProgress":
        return cls(seats=seats, dealer=dealer % seats, totals=(0,) * seats)

    def best(self, goal: str) -> tuple[int, ...]:
        """The seats holding the best total."""
        pick = max(self.totals) if goal == "high" else min(self.totals)
        return tuple(i for i, t in enumerate(self.totals) if t == pick)


def close_round(progress: MatchProgress, scores: tuple[int, ...], rule: MatchRule) -> MatchProgress:
    """Add a round's scores; end the match if the rule says so, else pass the deal on."""
    if progress.finished:
        raise ValueError("the match is already over")
    if len(scores) != progress.seats:
        raise ValueError(f"{len(scores)} scores for {progress.seats} seats")
    totals = tuple(t + s for t, s in zip(progress.totals, scores))
    after = replace(progress, totals=totals, history=progress.history + (tuple(scores),))
    if rule.target is not None and max(totals) >= rule.target:
        best = after.best(rule.goal)
        if len(best) == 1 or rule.tie == "share":
            return replace(after, finished=True, winners=best)
    return replace(after, round_no=progress.round_no + 1,
                   dealer=(progress.dealer + 1) % progress.seats)


def finish(progress: MatchProgress, goal: str) -> MatchProgress:
    """End the match now (last round played, or the host ended it): best totals win."""
    if progress.finished:
        return progress
    return replace(progress, finished=True, winners=progress.best(goal))


def _scores_ok(values: tuple[int, ...], seats: int, what: str) -> None:
    if len(values) != seats:
        raise IllegalAction("scores_per_seat", count=seats, given=len(values))


def set_totals(progress: MatchProgress, action: SetTotals,
               pending: tuple[int, ...] | None = None) -> MatchProgress:
    """The totals the host set. `pending`: points of the round under way that the game
    already shows inside its totals (Raj), so the stored totals are the rest. The match
    does not end here: a total at the target ends it when the next round is scored."""
    if progress.finished:
        raise IllegalAction("totals_after_end")
    _scores_ok(action.totals, progress.seats, "totals")
    totals = tuple(action.totals)
    if pending is not None:
        totals = tuple(t - p for t, p in zip(totals, pending))
    return replace(progress, totals=totals)


def correct_round(progress: MatchProgress, action: CorrectRound, goal: str) -> MatchProgress:
    """The round's scores replaced, the totals moved by the difference, and, when the match
    is over, the winners taken again from the corrected totals (a correction neither ends
    nor reopens a match)."""
    played = len(progress.history)
    if not played:
        raise IllegalAction("no_round_scored")
    if not 1 <= action.round <= played:
        raise IllegalAction("round_not_scored", round=action.round, played=played)
    _scores_ok(action.scores, progress.seats, "scores")
    old = progress.history[action.round - 1]
    history = list(progress.history)
    history[action.round - 1] = tuple(action.scores)
    totals = tuple(t + new - was for t, new, was in zip(progress.totals, action.scores, old))
    after = replace(progress, totals=totals, history=tuple(history))
    if after.finished:
        after = replace(after, winners=after.best(goal))
    return after


def corrected(progress: MatchProgress, action: SetTotals | CorrectRound, goal: str,
              pending: tuple[int, ...] | None = None) -> MatchProgress:
    """`set_totals` or `correct_round`, whichever `action` is (raises IllegalAction)."""
    if isinstance(action, SetTotals):
        return set_totals(progress, action, pending)
    return correct_round(progress, action, goal)


def correction_notice(action: SetTotals | CorrectRound, totals: tuple[int, ...],
                      names: tuple[str, ...]) -> Notice:
    """What the table is told after a host correction (`totals` as the screens show them)."""
    scores = [say("seat_score", seat=s, points=total) for s, total in enumerate(totals)]
    if isinstance(action, SetTotals):
        return Notice("totals_set", {"scores": scores})
    return Notice("round_corrected", {"round": action.round, "scores": scores})
