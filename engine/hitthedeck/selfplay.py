"""Hit the Deck self-play: a seeded virtual table (deck, hidden hands, both piles),
bots that play legal cards and slap with human-like reaction times, and statistics.

The simulator plays the physical table and talks to the engine the way the device does:
cards put on the discard pile and pad presses go through the table referee as
observations (`CardSeen`, `PadPressed`, `Tick`, `CardsLaidOut`); draws, passes and the
host's "forgot to call" mark are actions. After every action it makes the hidden table
agree with what the engine ruled (penalty draws, cards put back, reshuffles), so the
engine's counts can be checked against real cards.

Bots (each sees only its own hand and the table):

* "random": any card that may be played.
* "shed": gets rid of the costliest card first (word and HIT cards score 10).
* "saver": keeps its HIT cards (they go on anything) for when nothing else fits, and
  plays its costliest other card.

Every bot slaps after a reaction time drawn from the seed (log-normal around 350 ms);
now and then a pad chatters, a player never slaps, slaps when no HAND is in play
(a fake-out) or forgets to call a HAND it played (the host marks it).
"""
from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass, field
from statistics import mean
from typing import Callable, Iterator, Sequence

from engine.core import Action, IllegalAction, MatchSpec, Notice, Seat
from engine.hitthedeck.actions import Draw, ForgotCall, Pass
from engine.hitthedeck.cards import is_hit
from engine.hitthedeck.deck import DECK
from engine.hitthedeck.referee import interpret
from engine.hitthedeck.rules import GAME, why_not
from engine.hitthedeck.state import (COUNTING, DEAL, MUST_AFTER_DRAW, MUST_CUT, MUST_FLIP,
                                     MUST_UNBURY, OVER, PLAY, START, State)
from engine.observations import DISCARD, CardSeen, CardsLaidOut, PadPressed, Tick, seat_zone

Chooser = Callable[[list[str], random.Random], str]


class EndlessLoop(RuntimeError):
    """The simulated table has come back to a position it cannot leave."""


def _random(legal: list[str], rng: random.Random) -> str:
    return rng.choice(legal)


def _shed(legal: list[str], rng: random.Random) -> str:
    top = max(DECK.points(c) for c in legal)
    return rng.choice([c for c in legal if DECK.points(c) == top])


def _saver(legal: list[str], rng: random.Random) -> str:
    others = [c for c in legal if not is_hit(c)]
    return _shed(others or legal, rng)


STRATEGY_CHOOSERS: dict[str, Chooser] = {"random": _random, "shed": _shed, "saver": _saver}
STRATEGIES = tuple(STRATEGY_CHOOSERS)


@dataclass(frozen=True)
class Habits:
    """How human the bots are (chances per occasion; times in nanoseconds)."""

    reaction_median_ns: int = 350_000_000
    reaction_spread: float = 0.35          # sigma of the log-normal
    never_slaps: float = 0.03
    chatter: float = 0.15                  # a slap followed by 1–3 bounces of the pad
    held_pad: float = 0.03                 # a pad already down when the HAND is seen
    fake_out: float = 0.01                 # per turn, some player slaps for nothing
    forgets_call: float = 0.05
    arrival_jitter_ns: int = 2_000_000     # presses may reach the referee out of order
    camera_late: float = 0.3               # the camera reports a HAND after some slaps...
    camera_delay_ns: int = 400_000_000     # ...by up to this long


@dataclass
class Table:
    """The hidden physical table of the simulator (tops are the ends of the lists)."""

    draw: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    hands: list[list[str]] = field(default_factory=list)

    def cards(self) -> Counter:
        return Counter(self.draw) + Counter(self.discard) + sum((Counter(h) for h in self.hands),
                                                                Counter())


class Simulator:
    """One bot match. `steps()` yields (action, state after it, notices) in order."""

    def __init__(self, spec: MatchSpec, strategies: Sequence[str] | str | None, seed: int,
                 rounds: int | None = None, habits: Habits = Habits()):
        n = len(spec.seats)
        if strategies is None or isinstance(strategies, str):
            strategies = [strategies or "shed"]
        strategies = list(strategies) or ["shed"]
        for s in strategies:
            if s not in STRATEGY_CHOOSERS:
                raise IllegalAction("htd.strategy_unknown", name=s, names=list(STRATEGIES))
        self.choosers = [STRATEGY_CHOOSERS[strategies[i % len(strategies)]] for i in range(n)]
        self.spec, self.rounds, self.habits = spec, rounds, habits
        self.rng = random.Random(seed)
        self.state: State = GAME.start(spec)
        self.table = Table(hands=[[] for _ in range(n)])
        self.clock = 1_000_000_000
        self.drawn: str | None = None   # the card the player whose turn it is just drew

    # ------------------------------------------------------------ driving the engine

    def _apply(self, action: Action) -> Iterator[tuple[Action, State, tuple[Notice, ...]]]:
        self.state, notices = GAME.apply(self.state, action)
        self._sync(notices)
        yield action, self.state, notices

    def _observe(self, observation) -> Iterator[tuple[Action, State, tuple[Notice, ...]]]:
        for action in interpret(self.state, observation):
            yield from self._apply(action)

    def _sync(self, notices: tuple[Notice, ...]) -> None:
        """Make the hidden table agree with the engine's ruling."""
        table, state = self.table, self.state
        if any(n.code == "reshuffle" for n in notices):
            rest = table.discard[:-1] + table.draw
            self.rng.shuffle(rest)
            table.discard, table.draw = table.discard[-1:], rest
        if any(n.code == "start_buried" for n in notices):
            card = table.discard.pop()
            table.draw.insert(self.rng.randrange(len(table.draw) + 1), card)
        if state.phase in (START, PLAY, COUNTING):
            for seat, count in enumerate(state.hand_counts):
                hand = table.hands[seat]
                while len(hand) > count:  # a penalty taken back goes back on the draw pile
                    table.draw.append(hand.pop())
            for seat, count in enumerate(state.hand_counts):
                hand = table.hands[seat]
                while len(hand) < count and table.draw:
                    hand.append(table.draw.pop())

    def _tick(self, low: float = 1.0, high: float = 4.0) -> int:
        self.clock += int(self.rng.uniform(low, high) * 1e9)
        return self.clock

    # ------------------------------------------------------------ the match

    def steps(self) -> Iterator[tuple[Action, State, tuple[Notice, ...]]]:
        hands = 0
        while self.state.phase != OVER:
            if self.state.phase == DEAL:
                if self.rounds is not None and hands >= self.rounds:
                    return
                hands += 1
                self._deal()
                yield from self._card_seen(self._expose())  # the referee infers the deal
            guard = 0
            loop: set[tuple] = set()
            while self.state.phase in (START, PLAY):
                guard += 1
                if guard > 20_000:
                    raise RuntimeError("a simulated hand did not end")
                self._check_endless(loop)
                yield from self._next_event()
            if self.state.phase == COUNTING:
                yield from self._count()

    def _check_endless(self, seen: set[tuple]) -> None:
        """A CUT and a FLIP that expose each other with one card in each pile swap the
        piles for ever: the rule books have no way out, at a real table either. Raise
        `EndlessLoop` when the same position comes back while cutting and flipping."""
        s = self.state
        if s.must not in (MUST_CUT, MUST_FLIP):
            seen.clear()
            return
        position = (s.must, s.turn, s.direction, s.top, tuple(self.table.draw), tuple(self.table.discard),
                    tuple(tuple(h) for h in self.table.hands))
        if position in seen:
            raise EndlessLoop(f"the piles swap for ever: {s.draw_size} card(s) to draw, "
                              f"{s.discard_size} on the discard pile, each CUT exposing a FLIP "
                              "and each FLIP a CUT")
        seen.add(position)

    def _deal(self) -> None:
        cards = list(DECK.full())
        self.rng.shuffle(cards)
        n, size = self.state.players, self.state.settings.hand_size
        first = (self.state.progress.dealer + 1) % n
        hands = [[] for _ in range(n)]
        for k in range(n * size):
            hands[(first + k) % n].append(cards.pop())
        self.table = Table(draw=cards, discard=[], hands=hands)

    def _next_event(self) -> Iterator[tuple[Action, State, tuple[Notice, ...]]]:
        state, table, rng = self.state, self.table, self.rng
        if state.phase == START or (state.phase == PLAY and state.must in (MUST_CUT, MUST_FLIP,
                                                                          MUST_UNBURY)):
            card = self._expose()
            yield from self._card_seen(card)
            return
        if rng.random() < self.habits.fake_out:
            seat = rng.choice([s for s in range(state.players) if s != state.went_out])
            yield from self._observe(PadPressed(seat, self._tick(0.2, 1.0)))
            return
        seat = state.turn
        hand = table.hands[seat]
        if state.must == MUST_AFTER_DRAW:
            drawn = self.drawn
            if drawn is not None and drawn in hand and why_not(state, drawn) is None:
                yield from self._card_seen(drawn, seat)
            else:
                yield from self._apply(Pass(seat))
            return
        legal = [c for c in hand if why_not(state, c) is None]
        if not legal:
            before = len(hand)
            yield from self._apply(Draw(seat))
            self.drawn = hand[-1] if len(hand) > before else None
            return
        card = self.choosers[seat](legal, rng)
        yield from self._card_seen(card, seat)

    def _expose(self) -> str:
        """Turn up, cut, flip or unbury: the card that comes into view on the discard pile."""
        state, table, rng = self.state, self.table, self.rng
        if state.phase in (DEAL, START):
            table.discard.append(table.draw.pop())
        elif state.must == MUST_CUT:  # about half way down
            k = min(max(len(table.draw) // 2 + rng.randint(-3, 3), 0), len(table.draw) - 1)
            table.discard.append(table.draw.pop(k))
        elif state.must == MUST_FLIP:
            table.draw, table.discard = table.discard[::-1], table.draw[::-1]
        else:  # bury the FLIP somewhere below the top
            flip = table.discard.pop()
            table.discard.insert(rng.randrange(len(table.discard)), flip)
        return table.discard[-1]

    def _card_seen(self, card: str, player: int | None = None
                   ) -> Iterator[tuple[Action, State, tuple[Notice, ...]]]:
        """`card` reaches the discard pile (from `player`'s hand, or already exposed there)
        and the camera reports it; for a HAND, the players slap."""
        rng, habits = self.rng, self.habits

        def place() -> None:
            if player is not None:
                self.table.hands[player].remove(card)
                self.table.discard.append(card)

        t = self._tick()
        seen = CardSeen(DISCARD, card, t)
        trial = self.state
        for action in interpret(trial, seen):
            trial, _ = GAME.apply(trial, action)
        if trial.window is None:
            place()
            yield from self._observe(seen)
            return
        caller = trial.window.caller
        forgot = caller != trial.went_out and rng.random() < habits.forgets_call
        presses = self._presses(trial.window)
        if player is not None and rng.random() < habits.camera_late:
            # Fast slaps reach the referee before the camera reports the card (the
            # simulated table lays the card down only when it is reported, so that the
            # hidden table and the engine agree at every step).
            reported = t + rng.randint(0, habits.camera_delay_ns)
            for press_t, seat in [p for p in presses if p[0] < reported]:
                yield from self._observe(PadPressed(seat, press_t))
            presses = [p for p in presses if p[0] >= reported]
        place()
        yield from self._observe(seen)
        yield from self._slaps(presses)
        if forgot and self.state.phase == PLAY and self.state.last_slap is not None \
                and self.state.last_slap.markable and not self.state.last_slap.forgot:
            yield from self._apply(ForgotCall(caller))

    def _presses(self, window) -> list[tuple[int, int]]:
        """(t_ns, seat) of every press the players make for this window, in arrival order."""
        rng, habits = self.rng, self.habits
        opened = window.opened_ns
        presses: list[tuple[int, int]] = []
        for seat in window.eligible:
            if rng.random() < habits.held_pad:
                presses.append((opened - rng.randint(1, 10**8), seat))
            if rng.random() < habits.never_slaps:
                continue
            reaction = rng.lognormvariate(math.log(habits.reaction_median_ns), habits.reaction_spread)
            t = opened + max(120_000_000, min(int(reaction), 2_500_000_000))
            presses.append((t, seat))
            if rng.random() < habits.chatter:
                for _ in range(rng.randint(1, 3)):
                    presses.append((t + rng.randint(200_000, 8_000_000), seat))
        return sorted(presses, key=lambda p: p[0] + rng.randint(0, habits.arrival_jitter_ns))

    def _slaps(self, presses: list[tuple[int, int]]) -> Iterator[tuple[Action, State, tuple[Notice, ...]]]:
        """Feed the presses until the window is settled; a tie opens a new round of presses."""
        while self.state.window is not None:
            round_no = self.state.window.reslap
            for t, seat in presses:
                if self.state.window is None or self.state.window.reslap != round_no:
                    break
                yield from self._observe(PadPressed(seat, t))
            if self.state.window is not None and self.state.window.reslap == round_no:
                deadline = self.state.window.deadline_ns(self.state.settings.slap_timeout_ms)
                yield from self._observe(Tick(deadline + self.state.settings.late_report_ms * 1_000_000))
            if self.state.window is not None:
                presses = self._presses(self.state.window)
        last = self.state.last_slap
        if last is not None:
            self.clock = max([self.clock, last.closed_ns or 0] + [t for _, t in last.order])

    def _count(self) -> Iterator[tuple[Action, State, tuple[Notice, ...]]]:
        state = self.state
        for seat in range(state.players):
            if seat != state.went_out and state.laid_out[seat] is None:
                yield from self._observe(CardsLaidOut(seat_zone(seat), tuple(self.table.hands[seat]),
                                                      self._tick()))


def play_match(spec: MatchSpec, strategies: Sequence[str] | str | None, seed: int,
               rounds: int | None = None) -> Iterator[Action]:
    """Every action of one bot match, in order. `rounds` caps the hands played."""
    for action, _, _ in Simulator(spec, strategies, seed, rounds).steps():
        yield action


def simulate(players: int, rounds: int, seed: int, strategies: Sequence[str]) -> dict:
    """Play `rounds` whole matches and report who wins how often and what happened."""
    strategies = list(strategies) or ["shed", "saver", "random"]
    for s in strategies:
        if s not in STRATEGY_CHOOSERS:
            raise IllegalAction("htd.strategy_unknown", name=s, names=list(STRATEGIES))
    if not GAME.min_seats <= players <= GAME.max_seats:
        raise IllegalAction("players_count", game="hitthedeck", low=GAME.min_seats, high=GAME.max_seats,
                            count=players)
    seat_strategy = [strategies[i % len(strategies)] for i in range(players)]
    wins = {s: 0.0 for s in set(seat_strategy)}
    scores: dict[str, list[int]] = {s: [] for s in set(seat_strategy)}
    events: Counter = Counter()
    hands_per_match, plays_per_hand = [], []
    games = max(1, rounds)
    for game in range(games):
        spec = MatchSpec("hitthedeck", tuple(Seat(f"{seat_strategy[i]}-{i}") for i in range(players)))
        state = None
        for action, state, notices in Simulator(spec, seat_strategy, seed * 100_003 + game).steps():
            for notice in notices:
                events[notice.code] += 1
            if notice_ends_hand(notices):
                plays_per_hand.append(state.cards_played)
        for s in state.progress.winners:
            wins[seat_strategy[s]] += 1 / len(state.progress.winners)
        for s in range(players):
            scores[seat_strategy[s]].append(state.progress.totals[s])
        hands_per_match.append(len(state.progress.history))
    hands = sum(hands_per_match)
    per_hand = {code: round(events[code] / hands, 3) for code in
                ("cut", "flip", "buried", "demand", "slap_open", "slap_tie", "slap_missed",
                 "fake_out", "forgot_call", "reshuffle", "start_buried")}
    return {
        "game": "hitthedeck", "players": players, "games": games, "seed": seed,
        "strategies": seat_strategy,
        "seats_per_strategy": dict(sorted(Counter(seat_strategy).items())),
        "win_share": {s: round(w / games, 4) for s, w in sorted(wins.items())},
        "average_score": {s: round(mean(v), 2) for s, v in sorted(scores.items())},
        "hands_per_match": round(mean(hands_per_match), 2),
        "cards_played_per_hand": round(mean(plays_per_hand), 2) if plays_per_hand else 0.0,
        "per_hand": per_hand,
    }


def notice_ends_hand(notices: tuple[Notice, ...]) -> bool:
    return any(n.code == "went_out" for n in notices)

