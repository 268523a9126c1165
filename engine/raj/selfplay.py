"""Raj self-play: bots, a seeded shuffle of the point cards, and statistics.

Strategies (each sees only what a player at the table sees: the pot, the point cards
still to come, every seat's used cards):

* "random": any unused card.
* "match": match-the-value — ranks the pot's absolute value among the point values
  still in play and bids the card of the same rank among its own unused cards.
* "shade": a best response to match-the-value. It predicts every opponent's
  match-the-value bid (their unused cards are public), settles the pot with each of its
  own unused cards against those predictions, and plays the card that wins the most
  minus what spending it costs (its value times the mean remaining point value / 15).
  It dodges ties and wins pots by one card rather than by a lot. Measured with
  `deckhand simulate --game raj --players 3 --rounds 300 --seed 1 --strategy
  shade,match,random`: shade wins 64% of games, match 35%, random 1%.
"""
from __future__ import annotations

import random
from statistics import mean
from typing import Iterator, Sequence

from engine.core import Action, IllegalAction, MatchSpec, Seat
from engine.raj.deck import DECK, POINT_CARDS, bid_code
from engine.raj.rules import GAME, Bid, BidDown, RajState, RevealPoint, pot_value, settle

STRATEGIES = ("random", "match", "shade")
COST_WEIGHT = 1.0  # how dearly "shade" holds its high cards (tuned by self-play)


def _match_bid(state: RajState, seat: int) -> int:
    unused = state.unused(seat)
    remaining = sorted({abs(DECK[c].value) for c in POINT_CARDS if c not in state.revealed}
                       | {abs(pot_value(state.pot))})
    rank = remaining.index(abs(pot_value(state.pot))) / max(1, len(remaining) - 1)
    return unused[round(rank * (len(unused) - 1))]


def _best_response(state: RajState, seat: int) -> int:
    """The card that does best against opponents predicted to play match-the-value:
    settle the pot with each of our unused cards against those predictions, and weigh
    what the card would win against what spending it costs."""
    predicted = [(_match_bid(state, s) if s != seat and state.unused(s) else None)
                 for s in range(state.players)]
    value = pot_value(state.pot)
    remaining = [abs(DECK[c].value) for c in POINT_CARDS if c not in state.revealed]
    strength_cost = (mean(remaining) if remaining else 0) * COST_WEIGHT / 15
    best, best_score = None, None
    for card in state.unused(seat):
        bids = tuple(card if s == seat else predicted[s] for s in range(state.players))
        taker, _ = settle(state.pot, bids)
        score = (value if taker == seat else 0) - strength_cost * card
        if best_score is None or score > best_score:
            best, best_score = card, score
    return best


def choose_bid(state: RajState, seat: int, strategy: str, rng: random.Random) -> int:
    unused = state.unused(seat)
    if strategy == "random":
        return rng.choice(unused)
    if strategy == "match":
        return _match_bid(state, seat)
    if strategy == "shade":
        return _best_response(state, seat)
    raise IllegalAction("raj.strategy_unknown", name=strategy, names=list(STRATEGIES))


def play_match(spec: MatchSpec, strategies: Sequence[str], seed: int,
               rounds: int | None = None) -> Iterator[Action]:
    """Every action of one bot game, in order. `rounds` caps the point cards played."""
    rng = random.Random(seed)
    points = list(POINT_CARDS)
    rng.shuffle(points)
    state = GAME.start(spec)
    for number, card in enumerate(points, start=1):
        if rounds is not None and number > rounds:
            return
        for action in _round(state, card, strategies, rng):
            state, _ = GAME.apply(state, action)
            yield action


def _round(state: RajState, card: str, strategies: Sequence[str], rng: random.Random) -> list[Action]:
    after, _ = GAME.apply(state, RevealPoint(card))
    players = range(after.players)
    bids = {s: choose_bid(after, s, strategies[s % len(strategies)], rng)
            for s in players if after.unused(s)}
    order = list(bids)
    rng.shuffle(order)
    return [RevealPoint(card), *(BidDown(s) for s in order),
            *(Bid(bid_code(after.colours[s], bids[s])) for s in order)]


def simulate(players: int, rounds: int, seed: int, strategies: Sequence[str]) -> dict:
    """Play `rounds` whole games of Raj and report who wins how often."""
    # Two copies of one deterministic bot bid alike and cancel each other every round:
    # the default line-up has one of each, and random bots for the other seats.
    strategies = list(strategies) or (["shade", "match"] + ["random"] * players)[:max(players, 1)]
    for s in strategies:
        if s not in STRATEGIES:
            raise IllegalAction("raj.strategy_unknown", name=s, names=list(STRATEGIES))
    seat_strategy = [strategies[i % len(strategies)] for i in range(players)]
    wins = {s: 0.0 for s in set(seat_strategy)}
    scores: dict[str, list[int]] = {s: [] for s in set(seat_strategy)}
    carried = cancelled = settled = 0
    for game in range(max(1, rounds)):
        spec = MatchSpec("raj", tuple(Seat(f"{seat_strategy[i]}-{i}") for i in range(players)))
        state = GAME.start(spec)
        for action in play_match(spec, seat_strategy, seed * 100_003 + game):
            state, _ = GAME.apply(state, action)
            if isinstance(action, Bid) and state.phase == "point" and state.last is not None:
                settled += 1
                carried += state.last.carried
                cancelled += bool(state.last.cancelled)
        for s in state.progress.winners:
            wins[seat_strategy[s]] += 1 / len(state.progress.winners)
        for s in range(players):
            scores[seat_strategy[s]].append(state.progress.totals[s])
    games = max(1, rounds)
    return {
        "game": "raj", "players": players, "games": games, "seed": seed,
        "strategies": seat_strategy,
        "win_share": {s: round(w / games, 4) for s, w in sorted(wins.items())},
        "average_score": {s: round(mean(v), 2) for s, v in sorted(scores.items())},
        "rounds_with_ties": round(cancelled / settled, 4) if settled else 0.0,
        "pots_carried": round(carried / settled, 4) if settled else 0.0,
    }
