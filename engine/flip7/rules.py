"""Flip 7's rules: the one place that says what may happen now (`check`) and what it
does (`step`), following `rules/flip7.txt` and RULINGS.md.

The rules work on a `Table`: a private, mutable working copy of a `Flip7State`.
`Game.apply` thaws the frozen state, steps the copy and freezes it again, so from the
outside stepping is a pure function of values; self-play (`engine.flip7.selfplay`) steps
one `Table` in place for thousands of rounds a second, through the very same `check` and
`step`. After every step the table is *settled*: everything that follows by itself has
happened (skipping players the deal passes over, forced targets, set-aside actions,
the end of a round, the next turn), and `wait`/`who` say whose input comes next:

* CARD: a card must be turned over for `who` (the deal, a Hit, a Flip Three);
* DECIDE: `who`, whose turn it is, must Hit or Stay;
* TARGET: `who` must choose who gets the `choice` card;
* OVER: the match is over.
"""
from __future__ import annotations

from engine.core import (Action, CorrectRound, EndMatch, IllegalAction, Notice, Seat, SetTotals,
                         say)
from engine.flip7.actions import Flip, Hit, Stay, Target
from engine.flip7.deck import DECK
from engine.flip7.state import (ACTIVE, BUSTED, CODES, FLIP7_COUNT, FROZEN, STAYED, Choice,
                                Forced,
                                Flip7Settings, Flip7State, FlipThree, Line, score_cards)
from engine.match import (MatchProgress, MatchRule, close_round, correction_notice, corrected,
                          finish)

CARD, DECIDE, TARGET, OVER = "card", "decide", "target", "over"

INDEX = {code: i for i, code in enumerate(CODES)}
NUMBER_CARDS = frozenset(i for i, c in enumerate(CODES) if DECK[c].kind == "number")
# A number card's index in the deck is its value: lines hold the index and the value at once.
assert all(DECK[CODES[i]].value == i for i in NUMBER_CARDS)
CHANCE, FREEZE, FLIP3 = "CHANCE", "FREEZE", "FLIP3"
CHANCE_INDEX = INDEX[CHANCE]
LABEL = {c.code: c.label for c in DECK}
COPIES = {c.code: c.count for c in DECK}


def match_rule(settings: Flip7Settings) -> MatchRule:
    return MatchRule(settings.target, "high", "play_on")


class Table:
    """The working copy the rules step (see the module docstring). Lists where the
    frozen state has tuples; `frames` are `[target, left, set_aside]` lists; `ended` is
    the previous round's line columns (numbers, modifiers, chance, actions, duplicate,
    status), kept as they were and turned into `Line`s only when frozen."""

    __slots__ = ("seats", "settings", "rule", "progress", "numbers", "modifiers", "chance",
                 "actions", "duplicate", "status", "deck", "deck_size", "set_aside",
                 "set_aside_size", "dealing", "turn", "hitting", "frames", "choice",
                 "ended", "turn_done", "flip7", "wait", "who", "notes", "forced")

    def name(self, seat: int) -> str:
        return self.seats[seat].name or f"seat {seat}"

    def has_card(self, seat: int) -> bool:
        return bool(self.numbers[seat] or self.modifiers[seat] or self.chance[seat]
                    or self.actions[seat])

    def line_score(self, seat: int) -> int:
        return score_cards(self.numbers[seat], self.modifiers[seat], self.status[seat] == BUSTED)

    def cards_left(self) -> int:
        return self.deck_size + self.set_aside_size

    def bust_chance(self, seat: int) -> float:
        """Float twin of `state.bust_probability` for the bots' hot loop."""
        if self.status[seat] != ACTIVE or self.chance[seat]:
            return 0.0
        pile, size = (self.deck, self.deck_size) if self.deck_size else (self.set_aside, self.set_aside_size)
        if not size:
            return 0.0
        return sum(pile[n] for n in self.numbers[seat]) / size

    def options(self) -> list[int]:
        """Who may get the pending choice's card."""
        chooser, card = self.choice
        return target_options(self, chooser, card)

    def frozen(self) -> Flip7State:
        return Flip7State(
            seats=self.seats, settings=self.settings, progress=self.progress,
            lines=_lines(self._columns()), deck=tuple(self.deck), set_aside=tuple(self.set_aside),
            dealing=tuple(self.dealing), turn=self.turn, hitting=self.hitting,
            turn_done=self.turn_done,
            flips=tuple(FlipThree(t, left, tuple(aside)) for t, left, aside in self.frames),
            choice=Choice(*self.choice) if self.choice else None,
            last_round=_lines(self.ended) if self.ended else (),
            forced=tuple(Forced(*f) for f in self.forced))

    def _columns(self) -> tuple:
        return (self.numbers, self.modifiers, self.chance, self.actions, self.duplicate,
                self.status)


def _lines(columns: tuple) -> tuple[Line, ...]:
    numbers, modifiers, chance, actions, duplicate, status = columns
    return tuple(Line(tuple(numbers[s]), tuple(modifiers[s]), chance[s], tuple(actions[s]),
                      duplicate[s], status[s]) for s in range(len(numbers)))


def thaw(state: Flip7State) -> Table:
    t = Table()
    t.seats, t.settings, t.progress = state.seats, state.settings, state.progress
    t.rule = match_rule(state.settings)
    t.numbers = [list(line.numbers) for line in state.lines]
    t.modifiers = [list(line.modifiers) for line in state.lines]
    t.chance = [line.chance for line in state.lines]
    t.actions = [list(line.actions) for line in state.lines]
    t.duplicate = [line.duplicate for line in state.lines]
    t.status = [line.status for line in state.lines]
    t.deck, t.deck_size = list(state.deck), sum(state.deck)
    t.set_aside, t.set_aside_size = list(state.set_aside), sum(state.set_aside)
    t.dealing, t.turn, t.hitting = list(state.dealing), state.turn, state.hitting
    t.frames = [[f.target, f.left, list(f.set_aside)] for f in state.flips]
    t.choice = (state.choice.chooser, state.choice.card) if state.choice else None
    t.ended = tuple(zip(*((line.numbers, line.modifiers, line.chance, line.actions,
                           line.duplicate, line.status) for line in state.last_round))) or None
    t.turn_done = state.turn_done
    t.flip7, t.notes = None, None
    t.forced = [(f.chooser, f.card, f.target) for f in state.forced]
    _settle(t)
    return t


def new_table(seats: tuple[Seat, ...], settings: Flip7Settings, dealer: int = 0) -> Table:
    """The first round of a match, ready for the deal (`dealer` deals first)."""
    n = len(seats)
    t = Table()
    t.seats, t.settings, t.rule = seats, settings, match_rule(settings)
    t.progress = MatchProgress.new(n, dealer=dealer)
    t.deck = [COPIES[c] for c in CODES]
    t.deck_size = sum(t.deck)
    t.set_aside, t.set_aside_size = [0] * len(CODES), 0
    t.ended, t.notes, t.forced = None, None, []
    _new_round(t)
    _settle(t)
    return t


def _new_round(t: Table) -> None:
    n = len(t.seats)
    t.numbers = [[] for _ in range(n)]
    t.modifiers = [[] for _ in range(n)]
    t.chance = [False] * n
    t.actions = [[] for _ in range(n)]
    t.duplicate = [None] * n
    t.status = [ACTIVE] * n
    dealer = t.progress.dealer
    t.dealing = [(dealer + k) % n for k in range(1, n + 1)]
    t.turn, t.hitting, t.frames, t.choice = None, False, [], None
    t.turn_done, t.flip7 = False, None


def _note(t: Table, code: str, params: dict, *seats: int) -> None:
    t.notes.append(Notice(code, params, seats))


def _set_aside(t: Table, code: str) -> None:
    t.set_aside[INDEX[code]] += 1
    t.set_aside_size += 1


def target_options(t: Table, chooser: int, card: str) -> list[int]:
    """Who may get `card` from `chooser`: any active player for Freeze and Flip Three
    (so the last active player targets themselves); another active player without a
    Second Chance for a spare one."""
    if card == CHANCE:
        return [s for s, st in enumerate(t.status)
                if st == ACTIVE and s != chooser and not t.chance[s]]
    return [s for s, st in enumerate(t.status) if st == ACTIVE]


# --- what is legal now -------------------------------------------------------------

def waiting_reason(t: Table) -> dict:
    """Why only one kind of input is accepted now, as a message."""
    if t.wait == OVER:
        return say("match_over")
    if t.wait == CARD:
        if t.frames and t.frames[-1][1]:
            return say("flip7.wait_flip_three", seat=t.who)
        if t.dealing:
            return say("flip7.wait_deal", seat=t.who)
        return say("flip7.wait_hit", seat=t.who)
    if t.wait == TARGET:
        return say("flip7.wait_target", seat=t.who, card=t.choice[1])
    return say("flip7.wait_decide", seat=t.who)


def _seat_ok(t: Table, seat: object) -> None:
    if type(seat) is not int or not 0 <= seat < len(t.seats):
        raise IllegalAction("no_such_seat", number=seat + 1 if type(seat) is int else 0,
                            count=len(t.seats))


def check(t: Table, action: Action) -> None:
    """Raise IllegalAction (with the reason) unless `action` may happen now."""
    kind = type(action)
    if kind is SetTotals or kind is CorrectRound:
        corrected(t.progress, action, "high")
        return
    if t.wait == OVER:
        if kind is Target and t.forced:    # the choice that ended the match, named
            _check_forced(t, action)
            return
        raise IllegalAction("match_over")
    if kind is Flip:
        i = INDEX.get(action.card)
        if i is None:
            raise IllegalAction("card_unknown")
        if t.wait != CARD:
            raise IllegalAction("flip7.no_card_due", why=waiting_reason(t))
        pile = t.deck if t.deck_size else t.set_aside
        if not pile[i]:
            why, params = _all_out(action.card, bool(t.deck_size))
            raise IllegalAction(why, **params)
        if action.seat is not None:
            _seat_ok(t, action.seat)
            if action.seat != t.who:
                raise IllegalAction("flip7.card_for_other", seat=t.who, other_seat=action.seat)
    elif kind is Hit or kind is Stay:
        _seat_ok(t, action.seat)
        if t.wait != DECIDE:
            raise IllegalAction("flip7.waiting", why=waiting_reason(t))
        if action.seat != t.who:
            raise IllegalAction("not_your_turn", seat=t.who, other_seat=action.seat)
        if kind is Hit and not t.cards_left():
            raise IllegalAction("flip7.no_card_left")
        if kind is Stay and not t.has_card(action.seat) and t.cards_left():
            raise IllegalAction("flip7.must_hit", seat=action.seat)
    elif kind is Target:
        _seat_ok(t, action.seat)
        _seat_ok(t, action.target)
        if t.wait != TARGET:
            _check_forced(t, action)
            return
        chooser, card = t.choice
        if action.seat != chooser:
            raise IllegalAction("flip7.not_chooser", seat=chooser, card=card,
                                other_seat=action.seat)
        options = target_options(t, chooser, card)
        if action.target not in options:
            raise IllegalAction("flip7.bad_target", card=card, seat=action.target,
                                why=why_not_target(t, chooser, card, action.target),
                                allowed_seats=options)
    elif kind is not EndMatch:
        raise IllegalAction("action_unknown", name=action.kind or type(action).__name__)


def why_not_target(t: Table, chooser: int, card: str, target: int) -> dict:
    """Why `target` may not get `card` from `chooser`, as a message."""
    if t.status[target] != ACTIVE:
        return say({STAYED: "flip7.target_stayed", BUSTED: "flip7.target_busted",
                    FROZEN: "flip7.target_frozen"}[t.status[target]], seat=target)
    if card == CHANCE:
        if target == chooser:
            return say("flip7.target_keeps_chance", seat=target)
        if t.chance[target]:
            return say("flip7.target_has_chance", seat=target)
    return say("flip7.target_not", seat=target)


def _check_forced(t: Table, action: Target) -> None:
    """A `target` when no choice is pending: accepted if it names the choice the engine
    just made by itself (the only possible taker); else refused with the true reason."""
    made = [f for f in t.forced if f[0] == action.seat]
    if not made:
        raise IllegalAction("flip7.nothing_to_give", why=waiting_reason(t))
    if any(target == action.target for _, _, target in made):
        return
    chooser, card, target = made[-1]
    if target is None:
        raise IllegalAction("flip7.spare_discarded", seat=chooser, card=card,
                            why=why_not_target(t, chooser, card, action.target))
    if card != CHANCE:
        raise IllegalAction("flip7.only_active", seat=target, card=card)
    raise IllegalAction("flip7.only_to", card=card, seat=target,
                        why=why_not_target(t, chooser, card, action.target))


def _all_out(code: str, deck_known: bool) -> tuple[str, dict]:
    """The refusal of a card whose copies are all out (code, params)."""
    why = "flip7.all_out" if deck_known else "flip7.all_out_set_aside"
    return why, {"card": code, "copies": COPIES[code]}


# --- what it does ------------------------------------------------------------------

def step(t: Table, action: Action) -> None:
    """Check and apply one action to `t` in place, then settle. Notices go to
    `t.notes` when it is a list (None: say nothing, for self-play)."""
    check(t, action)
    kind = type(action)
    if kind is Target and t.wait != TARGET:      # names a choice the engine made itself
        t.forced = [f for f in t.forced if not (f[0] == action.seat and f[2] == action.target)]
        return
    if t.forced:
        t.forced = []
    if kind is Flip:
        _flip(t, action.card)
    elif kind is Hit:
        t.hitting = True
        if t.notes is not None:
            _note(t, "hit", {"seat": action.seat}, action.seat)
    elif kind is Stay:
        t.status[action.seat] = STAYED
        t.turn_done = True
        if t.notes is not None:
            _note(t, "stay", {"seat": action.seat, "points": t.line_score(action.seat)},
                  action.seat)
    elif kind is Target:
        card = t.choice[1]
        t.choice = None
        _play(t, action.seat, card, action.target)
    elif kind is SetTotals or kind is CorrectRound:
        t.progress = corrected(t.progress, action, "high")
        if t.notes is not None:
            t.notes.append(correction_notice(action, t.progress.totals,
                                             tuple(t.name(s) for s in range(len(t.seats)))))
    else:  # EndMatch
        t.progress = finish(t.progress, "high")
        if t.notes is not None:
            _note(t, "match_ended", winners(t))
    _settle(t)


def _flip(t: Table, code: str) -> None:
    i = INDEX[code]
    if not t.deck_size:
        t.deck, t.set_aside = t.set_aside, [0] * len(CODES)
        t.deck_size, t.set_aside_size = t.set_aside_size, 0
        if t.notes is not None:
            _note(t, "reshuffle", {"count": t.deck_size})
    t.deck[i] -= 1
    t.deck_size -= 1
    if t.frames and t.frames[-1][1]:
        frame = t.frames[-1]
        frame[1] -= 1
        if t.notes is not None:
            _note(t, "card_flip_three", {"seat": frame[0], "card": code, "left": frame[1]}, frame[0])
        _receive(t, frame[0], i, frame)
    elif t.dealing:
        seat = t.dealing.pop(0)
        if t.notes is not None:
            _note(t, "card_dealt", {"seat": seat, "card": code}, seat)
        _receive(t, seat, i, None)
    else:
        t.hitting = False
        t.turn_done = True
        if t.notes is not None:
            _note(t, "card_hit", {"seat": t.turn, "card": code}, t.turn)
        _receive(t, t.turn, i, None)


def _receive(t: Table, seat: int, i: int, frame: list | None) -> None:
    """`seat` gets card `i` (from the deal, a Hit, or inside the Flip Three `frame`)."""
    if i in NUMBER_CARDS:
        line = t.numbers[seat]
        if i in line:
            if t.chance[seat]:
                t.chance[seat] = False
                t.set_aside[i] += 1
                t.set_aside[INDEX[CHANCE]] += 1
                t.set_aside_size += 2
                if t.notes is not None:
                    _note(t, "second_chance", {"seat": seat, "number": i}, seat)
            else:
                t.status[seat] = BUSTED
                t.duplicate[seat] = i
                if t.notes is not None:
                    _note(t, "bust", {"seat": seat, "number": i}, seat)
        else:
            line.append(i)
            if len(line) == FLIP7_COUNT:
                t.flip7 = seat
        return
    code = CODES[i]
    if code == CHANCE:
        if not t.chance[seat]:
            t.chance[seat] = True
        else:
            _action_card(t, seat, CHANCE)
    elif code == FREEZE or code == FLIP3:
        if frame is not None:
            frame[2].append(code)
            if t.notes is not None:
                _note(t, "set_aside", {"card": code, "seat": seat}, seat)
        else:
            _action_card(t, seat, code)
    else:
        t.modifiers[seat].append(code)


def _action_card(t: Table, holder: int, card: str) -> None:
    """`holder` must give `card` to someone: at once when there is only one choice (or
    none, for a spare Second Chance), else by a Target action."""
    options = target_options(t, holder, card)
    if len(options) > 1:
        t.choice = (holder, card)
    elif options:
        t.forced.append((holder, card, options[0]))
        _play(t, holder, card, options[0])
    else:
        t.forced.append((holder, card, None))
        _set_aside(t, card)
        if t.notes is not None:
            _note(t, "chance_discarded", {"seat": holder}, holder)


def _play(t: Table, chooser: int, card: str, target: int) -> None:
    notes = t.notes is not None
    if card == FREEZE:
        t.actions[target].append(FREEZE)
        t.status[target] = FROZEN
        if t.chance[target]:
            t.chance[target] = False
            _set_aside(t, CHANCE)
        if notes:
            _note(t, "freeze", {"seat": target, "points": t.line_score(target)},
                  chooser, target)
    elif card == FLIP3:
        t.actions[target].append(FLIP3)
        t.frames.append([target, 3, []])
        if notes:
            _note(t, "flip_three", {"seat": target}, chooser, target)
    else:
        t.chance[target] = True
        if notes:
            _note(t, "chance_given", {"seat": chooser, "other_seat": target}, chooser, target)


def _next_active(t: Table, seat: int) -> int:
    n = len(t.seats)
    for k in range(1, n + 1):
        s = (seat + k) % n
        if t.status[s] == ACTIVE:
            return s
    raise AssertionError("no active player")  # _settle ends the round first


def _settle(t: Table) -> None:
    status = t.status
    while True:
        if t.progress.finished:
            t.wait, t.who = OVER, None
            return
        if t.flip7 is not None or ACTIVE not in status:
            _end_round(t)
            status = t.status
            continue
        if t.choice:
            t.wait, t.who = TARGET, t.choice[0]
            return
        if t.frames:
            target, left, aside = frame = t.frames[-1]
            if status[target] != ACTIVE:
                for card in aside:
                    _set_aside(t, card)
                t.frames.pop()
            elif left:
                if t.cards_left():
                    t.wait, t.who = CARD, target
                    return
                frame[1] = 0
            elif aside:
                _action_card(t, target, aside.pop(0))
            else:
                t.frames.pop()
            continue
        if t.dealing:
            s = t.dealing[0]
            if status[s] != ACTIVE or not t.cards_left() or (
                    t.has_card(s) and not t.settings.deal_to_holders):
                t.dealing.pop(0)
                continue
            t.wait, t.who = CARD, s
            return
        if t.turn is None:
            t.turn = _next_active(t, t.progress.dealer)
        elif t.turn_done:
            t.turn = _next_active(t, t.turn)
        t.turn_done = False
        t.wait, t.who = (CARD if t.hitting else DECIDE), t.turn
        return


def _end_round(t: Table) -> None:
    n = len(t.seats)
    scores = tuple(t.line_score(s) for s in range(n))
    t.ended = t._columns()      # _new_round makes new lists: these stay as they are
    pile, moved = t.set_aside, 0
    for s in range(n):
        for i in t.numbers[s]:
            pile[i] += 1
        for group in (t.modifiers[s], t.actions[s]):
            for code in group:
                pile[INDEX[code]] += 1
        moved += len(t.numbers[s]) + len(t.modifiers[s]) + len(t.actions[s])
        if t.chance[s]:
            pile[CHANCE_INDEX] += 1
            moved += 1
        if t.duplicate[s] is not None:
            pile[t.duplicate[s]] += 1
            moved += 1
    t.set_aside_size += moved
    for _, _, aside in t.frames:
        for code in aside:
            _set_aside(t, code)
    if t.notes is not None:
        if t.flip7 is not None:
            _note(t, "flip7", {"seat": t.flip7}, t.flip7)
        _note(t, "round_over", {"round": t.progress.round_no,
                                "scores": [say("seat_score", seat=s, points=scores[s])
                                           for s in range(n)]})
    t.progress = close_round(t.progress, scores, t.rule)
    if t.progress.finished and t.notes is not None:
        _note(t, "match_won", winners(t), *t.progress.winners)
    _new_round(t)


def winners(t: Table) -> dict:
    """Who won and with how many points, as a notice's params."""
    p = t.progress
    return {"winner_seats": list(p.winners), "winners": len(p.winners),
            "points": p.totals[p.winners[0]]}
