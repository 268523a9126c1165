"""Self-play for Solo: bots, a seeded virtual pack and the hidden hands.

The simulator plays the part of the table: it holds the real cards (which the engine
never sees), lets the bots decide, turns what happens into observations (a card seen on
the discard pile, a pad press, hands laid out) and runs them through the table referee
(`engine.solo.referee`), exactly as the camera and pads would. It also plays the host:
it answers the referee's question about an unclaimed identical card.

Bots sometimes discard out of turn (with and without pressing their pad first), forget
SOLO! and catch others who forget, stack Take 2 / Take 4, so self-play exercises every
rule. Nothing here is used at a real table.

Public: `STRATEGIES`, `play_match(spec, strategies, seed, rounds=None)` (the actions of a
match, in order: applying them to `GAME.start(spec)` plays it), `simulate(players, rounds,
seed, strategies)` (statistics), and `Simulator` (for tests that look at the hidden table).
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Iterator, Sequence

from engine.core import Action, EndMatch, IllegalAction, MatchSpec, Seat
from engine.observations import DISCARD, SCORING, CardSeen, CardsLaidOut, PadPressed
from engine.solo import GAME, referee, rules
from engine.solo.actions import (CallSolo, CatchSolo, ChooseColour, Draw, Pass, Play,
                                 SettlePlay, Swap, TakePenalty)
from engine.solo.deck import DECK
from engine.solo.state import (BLACK_KINDS, COLOUR_LETTERS, NAMES_COLOUR, SoloState,
                               colour_of, kind_of)

DEFAULT_STRATEGIES = ("greedy", "random")  # seats alternate when none are asked for
MAX_STEPS_PER_ROUND = 4000  # a safety net: bots that cannot finish a round end the match

Picker = Callable[[random.Random, Sequence[str], Sequence[str]], str]


def _pick_random(rng: random.Random, legal: Sequence[str], hand: Sequence[str]) -> str:
    return rng.choice(sorted(legal))


def _pick_greedy(rng: random.Random, legal: Sequence[str], hand: Sequence[str]) -> str:
    """Shed the most points first; among equals, the card of the colour held most."""
    held = Counter(colour_of(c) for c in hand)
    return max(sorted(legal), key=lambda c: (DECK.points(c), held[colour_of(c)]))


@dataclass(frozen=True)
class Strategy:
    """How a bot plays. Probabilities are per chance to do the thing."""

    name: str
    pick: Picker
    call_solo: float        # calls SOLO! when it is due (else forgets)
    catch: float            # catches another player's forgotten SOLO!
    jump: float             # discards an identical card out of turn
    press_first: float      # presses the pad before an out-of-turn discard
    stack: float            # passes a Take 2 / Take 4 on when it can
    name_with_card: float   # names the colour together with the card (phone), not after


STRATEGIES: dict[str, Strategy] = {
    "random": Strategy("random", _pick_random, call_solo=0.6, catch=0.3, jump=0.5,
                       press_first=0.7, stack=0.5, name_with_card=0.3),
    "greedy": Strategy("greedy", _pick_greedy, call_solo=0.9, catch=0.6, jump=0.9,
                       press_first=0.9, stack=1.0, name_with_card=0.3),
}


def _strategies_for(players: int, strategies: Sequence[str] | str) -> list[Strategy]:
    names = [s.strip() for s in strategies.split(",")] if isinstance(strategies, str) else list(strategies)
    names = [n for n in names if n] or list(DEFAULT_STRATEGIES)
    unknown = [n for n in names if n not in STRATEGIES]
    if unknown:
        raise IllegalAction("solo.strategy_unknown", name=unknown[0], names=list(STRATEGIES))
    return [STRATEGIES[names[i % len(names)]] for i in range(players)]


class Simulator:
    """One match at a virtual table. `hands`, `pack` and `discard` are the real cards."""

    def __init__(self, spec: MatchSpec, strategies: Sequence[str] | str, seed: int):
        self.rng = random.Random(seed)
        self.state: SoloState = GAME.start(spec)
        self.bots = _strategies_for(self.state.players, strategies)
        self.hands: list[list[str]] = [[] for _ in range(self.state.players)]
        self.pack: list[str] = []
        self.discard: list[str] = []
        self.stats: Counter[str] = Counter()
        self.clock_ns = 0
        self.rounds_played = 0
        self.round_winners: list[int] = []
        self.max_penalty = 0

    # --- the table --------------------------------------------------------------------

    def _now(self) -> int:
        self.clock_ns += 1_000_000 + self.rng.randrange(1_000_000)
        return self.clock_ns

    def _take(self, seat: int, k: int) -> None:
        """`seat` draws `k` real cards; an empty pack is refilled from the discard pile
        under its top card."""
        for _ in range(k):
            if not self.pack:
                if len(self.discard) <= 1:
                    break
                self.pack = self.discard[:-1]
                self.rng.shuffle(self.pack)
                self.discard = self.discard[-1:]
                self.stats["reshuffles"] += 1
            self.hands[seat].append(self.pack.pop())

    def _apply(self, action: Action) -> Action:
        before = self.state
        self.state, _ = GAME.apply(before, action)
        # what the engine only counts, the table does with real cards
        if isinstance(action, Draw):
            self._take(action.seat, 1)
        elif isinstance(action, TakePenalty):
            self._take(action.seat, before.penalty)
            self.stats["penalties_taken"] += 1
            self.max_penalty = max(self.max_penalty, before.penalty)
        elif isinstance(action, CatchSolo):
            self._take(action.target, rules.SOLO_PENALTY)
            self.stats["solo_caught"] += 1
        elif isinstance(action, CallSolo):
            self.stats["solo_called"] += 1
        self.stats["actions"] += 1
        return action

    def _observe(self, observation) -> Iterator[Action]:
        for action in referee.interpret(self.state, observation):
            yield self._apply(action)

    def true_counts(self) -> tuple[int, ...]:
        return tuple(len(h) for h in self.hands)

    # --- a match ----------------------------------------------------------------------

    def actions(self, rounds: int | None = None) -> Iterator[Action]:
        while not self.state.match.finished:
            if rounds is not None and self.rounds_played >= rounds:
                return
            yield from self._round()
            if self.state.phase == "play":  # stuck: the safety net ended the round
                yield self._apply(EndMatch())
                self.stats["stalled"] += 1
                return
            self.rounds_played += 1

    def _round(self) -> Iterator[Action]:
        n = self.state.players
        cards = list(DECK.full())
        self.rng.shuffle(cards)
        self.hands = [[] for _ in range(n)]
        dealer = self.state.match.dealer
        for i in range(self.state.settings.hand_size * n):
            self.hands[(dealer + 1 + i) % n].append(cards.pop())
        self.discard = [cards.pop()]
        self.pack = cards
        yield from self._observe(CardSeen(DISCARD, self.discard[-1], self._now()))
        yield from self._choices(dealer)
        steps = 0
        while self.state.phase == "play" and steps < MAX_STEPS_PER_ROUND:
            steps += 1
            yield from self._step()
        if self.state.phase == "count":
            yield from self._lay_out()

    def _step(self) -> Iterator[Action]:
        yield from self._solo_calls()
        jumper = self._jumper()
        if jumper is not None:
            yield from self._jump(jumper)
            return
        yield from self._turn()

    def _solo_calls(self) -> Iterator[Action]:
        owed = self.state.solo_owed
        if owed is None:
            return
        if self.rng.random() < self.bots[owed].call_solo:
            yield from self._observe(PadPressed(owed, self._now()))
            return
        self.stats["solo_forgotten"] += 1
        others = [s for s in range(self.state.players) if s != owed]
        self.rng.shuffle(others)
        for seat in others:
            if self.rng.random() < self.bots[seat].catch:
                yield from self._observe(PadPressed(seat, self._now()))
                return

    def _jumper(self) -> int | None:
        s = self.state
        top = s.top
        if top is None or s.awaiting:
            return None
        if kind_of(top) in BLACK_KINDS and not s.settings.jump_black:
            return None
        holders = [seat for seat in range(s.players) if seat != s.turn and top in self.hands[seat]]
        self.rng.shuffle(holders)
        for seat in holders:
            if self.rng.random() < self.bots[seat].jump:
                return seat
        return None

    def _jump(self, seat: int) -> Iterator[Action]:
        self.stats["jumps"] += 1
        if self.rng.random() < self.bots[seat].press_first:
            yield from self._observe(PadPressed(seat, self._now()))
        yield from self._put_down(seat, self.state.top)

    def _turn(self) -> Iterator[Action]:
        s = self.state
        seat = s.turn
        assert seat is not None
        bot = self.bots[seat]
        hand = self.hands[seat]
        if s.penalty:
            passes = [c for c in hand if kind_of(c) == kind_of(s.top)]
            if passes and self.rng.random() < bot.stack:
                self.stats["stacked"] += 1
                yield from self._put_down(seat, bot.pick(self.rng, passes, hand))
            else:
                yield self._apply(TakePenalty(seat))
            return
        legal = self._legal(seat)
        if legal:
            yield from self._put_down(seat, bot.pick(self.rng, legal, hand))
            return
        held = len(hand)
        yield self._apply(Draw(seat))
        drawn = self.hands[seat][-1] if len(self.hands[seat]) > held else None
        if drawn is not None and drawn in self._legal(seat):
            yield from self._put_down(seat, drawn)
        else:
            yield self._apply(Pass(seat))

    def _legal(self, seat: int) -> list[str]:
        legal = []
        for card in set(self.hands[seat]):
            try:
                rules.check(self.state, Play(seat, card, "R" if kind_of(card) in NAMES_COLOUR else None))
            except IllegalAction:
                continue
            legal.append(card)
        return legal

    def _colour_for(self, seat: int) -> str:
        held = Counter(colour_of(c) for c in self.hands[seat] if colour_of(c))
        if not held:
            return self.rng.choice(COLOUR_LETTERS)
        return max(sorted(held), key=lambda c: held[c])

    def _put_down(self, seat: int, card: str) -> Iterator[Action]:
        """`seat` puts a real card on the pile; the camera sees it."""
        s = self.state
        direction = s.direction
        self.hands[seat].remove(card)
        self.discard.append(card)
        if kind_of(card) == "rotate" and self.hands[seat]:  # on the last card it does nothing
            self.stats["rotations"] += 1
            n = len(self.hands)
            self.hands = [self.hands[(i - direction) % n] for i in range(n)]
        if (seat == s.turn and kind_of(card) in NAMES_COLOUR and card != s.top
                and self.rng.random() < self.bots[seat].name_with_card):
            yield self._apply(Play(seat, card, self._colour_for(seat)))  # named on the phone
        else:
            yield from self._observe(CardSeen(DISCARD, card, self._now()))
        if self.state.held is not None:  # the host says whose it was
            self.stats["questions"] += 1
            if seat != self.state.turn:      # an illegal jump: the card goes back
                self.discard.pop()
                self.hands[seat].append(card)
            yield self._apply(SettlePlay(seat))
        q = self.state.question
        if q is not None:
            self.stats["questions"] += 1
            if q.seat != seat or self.rng.random() < 0.5:  # the host settles (or lets it lapse)
                yield self._apply(SettlePlay(seat))
        yield from self._choices(seat)

    def _choices(self, seat: int) -> Iterator[Action]:
        s = self.state
        if s.awaiting == "colour" and s.chooser == seat:
            yield self._apply(ChooseColour(seat, self._colour_for(seat)))
        elif s.awaiting == "swap" and s.chooser == seat:
            others = [o for o in range(s.players) if o != seat]
            fewest = min(len(self.hands[o]) for o in others)
            target = self.rng.choice([o for o in others if len(self.hands[o]) == fewest])
            self.hands[seat], self.hands[target] = self.hands[target], self.hands[seat]
            self.stats["swaps"] += 1
            yield self._apply(Swap(seat, target))

    def _lay_out(self) -> Iterator[Action]:
        assert self.state.out is not None
        self.round_winners.append(self.state.out)
        while self.state.phase == "count":
            seat = referee.next_to_lay_out(self.state)
            if seat is None:
                return
            yield from self._observe(CardsLaidOut(SCORING, tuple(self.hands[seat]), self._now()))
            self.hands[seat] = []
        self.stats["rounds"] += 1


def play_match(spec: MatchSpec, strategies: Sequence[str] | str, seed: int,
               rounds: int | None = None) -> Iterator[Action]:
    """The actions of a self-played match (stopping after `rounds` rounds if given)."""
    return Simulator(spec, strategies, seed).actions(rounds)


def simulate(players: int, rounds: int, seed: int, strategies: Sequence[str] | str) -> dict:
    """Play matches of `players` bots (seeds seed, seed+1, ...) until `rounds` rounds have
    been played; return statistics."""
    if not rules.MIN_SEATS <= players <= rules.MAX_SEATS:
        raise IllegalAction("players_count", game="solo", low=rules.MIN_SEATS,
                            high=rules.MAX_SEATS, count=players)
    if rounds < 1:
        raise IllegalAction("simulate_rounds")
    spec = MatchSpec("solo", tuple(Seat(f"Bot {i + 1}") for i in range(players)))
    bots = _strategies_for(players, strategies)
    totals: Counter[str] = Counter()
    max_penalty = 0
    round_wins = [0] * players
    match_wins = [0] * players
    points = [0] * players
    played = matches = 0
    while played < rounds:
        sim = Simulator(spec, strategies, seed + matches)
        for _ in sim.actions(rounds - played):
            pass
        matches += 1
        played += sim.rounds_played
        totals.update(sim.stats)
        max_penalty = max(max_penalty, sim.max_penalty)
        for r in sim.state.match.history:
            for i, score in enumerate(r):
                points[i] += score
        for w in sim.round_winners:
            round_wins[w] += 1
        if sim.state.match.finished:
            for w in sim.state.match.winners:
                match_wins[w] += 1
        if sim.stats["stalled"]:
            break
    return {
        "game": "solo",
        "players": players,
        "strategies": [b.name for b in bots],
        "seed": seed,
        "rounds": played,
        "matches": matches,
        "round_wins": round_wins,
        "match_wins": match_wins,
        "points": points,
        "actions_per_round": round(totals["actions"] / max(played, 1), 1),
        "events": {k: totals[k] for k in sorted(totals) if k != "actions"},
        "max_penalty": max_penalty,
    }
