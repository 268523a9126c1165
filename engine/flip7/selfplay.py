"""Flip 7 self-play: bots, a seeded virtual deck, whole matches as action streams, and
statistics over many rounds.

The virtual deck (`VirtualDeck`, driven only by an explicit `random.Random(seed)`)
turns cards over through the same `Flip` actions the camera produces, and reshuffles
only the set-aside cards when it runs out, exactly as the rules' deck count says. The
bots read the rules' working `Table` (what a card-counting player at the table knows:
every card seen) and answer with `Hit`, `Stay` and `Target` actions. Everything goes
through `engine.flip7.rules.step`, so self-play plays by the same rules as the table.

Strategies (`make_strategy`): "stay:N" stays once the line scores N or more; "odds:P"
stays once the exact chance that the next card busts it is above P. Both must Hit with
no card in front of them, and choose targets the same way: Freeze the leader among the
others (or bank their own line with it when "odds" finds its own risk too high), give a
Flip Three to the opponent most likely to bust, a spare Second Chance to the opponent
with the lowest total.
"""
from __future__ import annotations

import random
from typing import Iterator, Sequence

from engine.core import Action, IllegalAction, MatchSpec, Seat
from engine.flip7.actions import Flip, Hit, Stay, Target
from engine.flip7.deck import DECK
from engine.flip7.game import GAME
from engine.flip7.rules import CARD, DECIDE, FLIP3, FREEZE, OVER, Table, step
from engine.flip7.state import BUSTED, CODES, FROZEN, STAYED

STRATEGIES: tuple[str, ...] = ("stay:25", "odds:0.3")
DEFAULT_STRATEGY = "stay:25"


class Bot:
    """Targeting shared by the strategies; `hit` is each strategy's own."""

    name = "bot"

    def hit(self, t: Table, seat: int) -> bool:
        raise NotImplementedError

    def target(self, t: Table, chooser: int, card: str, options: list[int]) -> int:
        others = [s for s in options if s != chooser] or options
        totals = t.progress.totals
        if card == FREEZE:
            if chooser in options and self.banks_with_freeze(t, chooser):
                return chooser
            return max(others, key=lambda s: (totals[s] + t.line_score(s), -s))
        if card == FLIP3:
            return max(others, key=lambda s: (t.bust_chance(s), totals[s], -s))
        return min(others, key=lambda s: (totals[s], s))

    def banks_with_freeze(self, t: Table, seat: int) -> bool:
        return False


class StayAt(Bot):
    def __init__(self, points: int):
        self.points = points
        self.name = f"stay:{points}"

    def hit(self, t: Table, seat: int) -> bool:
        return t.line_score(seat) < self.points


class Odds(Bot):
    def __init__(self, threshold: float):
        self.threshold = threshold
        self.name = f"odds:{threshold:g}"

    def hit(self, t: Table, seat: int) -> bool:
        return t.bust_chance(seat) <= self.threshold

    def banks_with_freeze(self, t: Table, seat: int) -> bool:
        return t.bust_chance(seat) > self.threshold and t.line_score(seat) > 0


def make_strategy(spec: str) -> Bot:
    """A bot from its name: "stay:N" (N whole points) or "odds:P" (0 <= P <= 1);
    "stay" and "odds" alone take 25 and 0.3."""
    name, _, arg = spec.strip().partition(":")
    try:
        if name in ("stay", "stay_at"):
            points = int(arg) if arg else 25
            if points < 0:
                raise ValueError
            return StayAt(points)
        if name == "odds":
            threshold = float(arg) if arg else 0.3
            if not 0 <= threshold <= 1:
                raise ValueError
            return Odds(threshold)
    except ValueError:
        pass
    raise IllegalAction("flip7.strategy_unknown", name=spec)


class VirtualDeck:
    """A shuffled deck for self-play; refills from the table's set-aside cards."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.pile = list(DECK.full())
        rng.shuffle(self.pile)

    def draw(self, t: Table) -> str:
        if not self.pile:
            self.pile = [code for code, n in zip(CODES, t.set_aside) for _ in range(n)]
            if not self.pile:
                raise RuntimeError("no card left: every card is on the table")
            self.rng.shuffle(self.pile)
        return self.pile.pop()


# When nearly every card is on the table, two players holding Second Chances can pass
# the same few cards round for ever (a spare Second Chance goes to the other, who is
# saved by it from the next duplicate, ...). Past this many actions in one round the
# bots stay as soon as they have a card, so every self-played round ends.
ROUND_ACTION_LIMIT = 1000


class _Driver:
    """Chooses the next action for a table: the deck's card, or a bot's answer. The
    action objects are values, made once per table size."""

    def __init__(self, t: Table, bots: Sequence[Bot], deck: VirtualDeck):
        n = len(t.seats)
        self.bots, self.deck = bots, deck
        self.round, self.round_actions = t.progress, 0
        self.flips = {code: Flip(code) for code in CODES}
        self.hits = [Hit(s) for s in range(n)]
        self.stays = [Stay(s) for s in range(n)]
        self.targets = [[Target(s, u) for u in range(n)] for s in range(n)]

    def next_action(self, t: Table) -> Action:
        wait, who = t.wait, t.who
        if wait == CARD:
            return self.flips[self.deck.draw(t)]
        if wait == DECIDE:
            if t.progress is not self.round:
                self.round, self.round_actions = t.progress, 0
            self.round_actions += 1
            if not t.cards_left():
                return self.stays[who]
            if not t.has_card(who):
                return self.hits[who]
            if self.round_actions < ROUND_ACTION_LIMIT and self.bots[who].hit(t, who):
                return self.hits[who]
            return self.stays[who]
        chooser, card = t.choice
        return self.targets[chooser][self.bots[chooser].target(t, chooser, card, t.options())]


def _bots(strategies: Sequence[str] | str | None, n: int) -> list[Bot]:
    """One bot per seat; a shorter list repeats."""
    if strategies is None or strategies == "" or strategies == ():
        strategies = (DEFAULT_STRATEGY,)
    if isinstance(strategies, str):
        strategies = strategies.split(",")
    names = list(strategies)
    return [make_strategy(names[s % len(names)]) for s in range(n)]


def play_match(spec: MatchSpec, strategies: Sequence[str] | str | None = None,
               seed: int | None = None, rounds: int | None = None) -> Iterator[Action]:
    """Every action of a self-played match, in order (folding them from
    `GAME.start(spec)` plays the match). `seed` defaults to the spec's; `rounds` stops
    after that many rounds even if the match goes on."""
    t = GAME.table(spec)
    seed = spec.seed if seed is None else seed
    driver = _Driver(t, _bots(strategies, len(t.seats)), VirtualDeck(random.Random(seed)))
    while t.wait != OVER and (rounds is None or len(t.progress.history) < rounds):
        action = driver.next_action(t)
        step(t, action)
        yield action


def simulate(players: int, rounds: int, seed: int,
             strategies: Sequence[str] | str | None = None) -> dict:
    """Play `rounds` full rounds (matches back to back, one seeded deck per match) and
    return statistics: scores, busts, Flip 7s, freezes, rounds per match, wins."""
    if rounds < 1:
        raise IllegalAction("simulate_rounds")
    spec = MatchSpec("flip7", tuple(Seat(f"P{s + 1}") for s in range(players)))
    t = GAME.table(spec)
    bots = _bots(strategies, players)
    rng = random.Random(seed)
    driver = _Driver(t, bots, VirtualDeck(rng))
    n = players
    points, busts, freezes, stays, wins = [0] * n, [0] * n, [0] * n, [0] * n, [0] * n
    flip7_rounds = matches = match_rounds = 0
    played = 0
    next_action, history_len, progress, actions = driver.next_action, 0, t.progress, 0
    while played < rounds:
        step(t, next_action(t))
        actions += 1
        if t.progress is progress:
            continue
        progress = t.progress
        history_len += 1
        played += 1
        scores = progress.history[-1]
        numbers, status = t.ended[0], t.ended[5]
        for s in range(n):
            points[s] += scores[s]
            st = status[s]
            if st == BUSTED:
                busts[s] += 1
            elif st == FROZEN:
                freezes[s] += 1
            elif st == STAYED:
                stays[s] += 1
            if len(numbers[s]) == 7:
                flip7_rounds += 1
        if t.progress.finished:
            matches += 1
            match_rounds += history_len
            for s in t.progress.winners:
                wins[s] += 1
            t = GAME.table(spec)
            driver.deck = VirtualDeck(rng)
            history_len, progress = 0, t.progress
    seat_rounds = rounds * n
    return {
        "game": "flip7", "players": n, "rounds": rounds, "seed": seed,
        "strategies": [b.name for b in bots],
        "average_round_score": sum(points) / seat_rounds,
        "bust_rate": sum(busts) / seat_rounds,
        "freeze_rate": sum(freezes) / seat_rounds,
        "stay_rate": sum(stays) / seat_rounds,
        "flip7_rate": flip7_rounds / rounds,
        "actions_per_round": actions / rounds,
        "matches_finished": matches,
        "rounds_per_match": match_rounds / matches if matches else None,
        "per_seat": [{"seat": s, "strategy": bots[s].name,
                      "average_round_score": points[s] / rounds,
                      "bust_rate": busts[s] / rounds, "wins": wins[s]} for s in range(n)],
    }
