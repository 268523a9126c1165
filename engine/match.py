"""The match layer every game shares: rounds, dealer rotation, per-round and running
scores, and who has won.

A game keeps a `MatchProgress` inside its state and calls `close_round` when a round
is scored, or `finish` when the match ends otherwise (Raj's fifteenth bid, the host's
EndMatch). The end-of-match rules differ only in parameters (`MatchRule`): the target,
whether high or low totals win, and what a tie at the top does.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal


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
