"""Hit the Deck's rules: the one place that says whether an action is legal now and
what it does (`step`), and the `Game` object built on it.

`step(state, action)` returns `(new_state, notices)` or raises `IllegalAction` with a
reason; `check` is `step` with the result thrown away, so legality lives only here.
Cards' matching lives in `cards.py`, the slap window in `slaps.py`, the screens'
picture in `view.py`.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.core import (Action, CorrectRound, EndMatch, IllegalAction, MatchSpec, Notice,
                         SetTotals, parse_action, parse_settings)
from engine.hitthedeck import slaps
from engine.hitthedeck.actions import (ACTIONS, CloseWindow, Cut, Draw, FakeOut, Flip,
                                       ForgotCall, HandCards, Pass, Play, SetHandSize, Slap,
                                       StartHand, TurnUp)
from engine.hitthedeck.cards import (CUT, FLIP, HIT_HAND, NUMBER, describe_demand, goes_on,
                                     is_hit, kind, label, meets)
from engine.hitthedeck.deck import DECK
from engine.hitthedeck.state import (COUNTING, DEAL, MUST_AFTER_DRAW, MUST_CUT, MUST_FLIP,
                                     MUST_PLAY, MUST_UNBURY, OVER, PLAY, START, Settings, State,
                                     new_state)
from engine.match import close_round, correction_notice, corrected, finish

Step = tuple[State, tuple[Notice, ...]]


# ---------------------------------------------------------------- helpers

def _card(code: str) -> str:
    if code not in DECK:
        raise IllegalAction(f"{code!r} is not a Hit the Deck card")
    return code


def _seat(state: State, seat: int) -> int:
    if not 0 <= seat < state.players:
        raise IllegalAction(f"there is no seat {seat} (this table has {state.players})")
    return seat


RESHUFFLED = Notice("reshuffle", "The draw pile is used up: keep the top card, shuffle the "
                                "rest of the discard pile into a new draw pile.")


def take(state: State, seat: int, n: int) -> tuple[State, int, tuple[Notice, ...]]:
    """`seat` draws `n` cards; the discard pile is reshuffled first if the draw pile is
    short (the top discard stays). Returns how many could actually be drawn."""
    notices: tuple[Notice, ...] = ()
    if state.draw_size < n and state.discard_size > 1:
        state, notices = replace(state, discard_size=1), (RESHUFFLED,)
    drawn = min(n, state.draw_size)
    counts = list(state.hand_counts)
    counts[seat] += drawn
    return replace(state, hand_counts=tuple(counts)), drawn, notices


def _reshuffle_if_empty(state: State) -> tuple[State, tuple[Notice, ...]]:
    """Before a CUT or FLIP: an empty draw pile is made again from the discard pile."""
    if state.draw_size == 0 and state.discard_size > 1:
        return replace(state, discard_size=1), (RESHUFFLED,)
    return state, ()


def _after_slap(state: State) -> State:
    """Once a hand slap is settled: the hand ends if its caller went out; otherwise the
    player after the caller may play any card."""
    caller = state.last_slap.caller
    if state.went_out is not None:
        return replace(state, phase=COUNTING, turn=None)
    return replace(state, turn=state.next(caller), must=MUST_PLAY, free=True, demand=None)


def _follow(state: State, actor: int, card: str, t_ns: int | None, caller: int) -> Step:
    """`card` is the new top: `actor` acts next and must follow it (a HAND is called by
    `caller`, who is its player or, for an exposed HAND, the actor)."""
    k = kind(card)
    state = replace(state, demand=None, free=False)
    if k == NUMBER:
        return replace(state, turn=actor, must=MUST_PLAY), ()
    if k == CUT:
        return _cut_due(state, actor)
    if k == FLIP:
        return _flip_due(state, actor)
    if k == HIT_HAND:
        state = replace(state, turn=caller, must=MUST_PLAY)
        return slaps.open_window(state, caller, t_ns, take, _after_slap)
    state = replace(state, turn=actor, must=MUST_PLAY, demand=card)
    return state, (Notice("demand", f"{state.name(actor)} must play {describe_demand(card)} "
                                    f"(HIT cards do not count).", (actor,)),)


def _cut_due(state: State, cutter: int) -> Step:
    state, notices = _reshuffle_if_empty(state)
    if state.draw_size == 0:
        return replace(state, turn=state.next(cutter), must=MUST_PLAY), notices + (
            Notice("cut_none", f"There is no draw pile to cut: {state.name(cutter)} is skipped."),)
    return replace(state, turn=cutter, must=MUST_CUT), notices + (
        Notice("cut_due", f"{state.name(cutter)} cuts the deck (and is skipped): "
                          f"put the exposed card on the discard pile.", (cutter,)),)


def _flip_due(state: State, flipper: int) -> Step:
    state, notices = _reshuffle_if_empty(state)
    if state.draw_size == 0:
        direction = -state.direction
        owner = state.next(flipper, direction=direction)
        return replace(state, direction=direction, turn=owner, must=MUST_PLAY), notices + (
            Notice("flip_none", f"There is no draw pile to flip: play reverses and "
                                f"{state.name(owner)} plays on the FLIP."),)
    return replace(state, turn=flipper, must=MUST_FLIP), notices + (
        Notice("flip_due", f"{state.name(flipper)} flips both piles over; play reverses.",
               (flipper,)),)


def _ruled(state: State, notices: tuple[Notice, ...]) -> Step:
    if notices:
        state = replace(state, last_ruling=" ".join(n.text for n in notices))
    return state, notices


# ---------------------------------------------------------------- actions

def _start_hand(state: State, action: StartHand) -> Step:
    if state.phase != DEAL:
        raise IllegalAction("a hand is already being played" if state.phase in (START, PLAY)
                            else "count the hands first")
    n, size = state.players, state.settings.hand_size
    if n * size >= DECK.size:
        raise IllegalAction(f"{n} hands of {size} cards do not fit in a deck of {DECK.size}")
    dealer = state.progress.dealer
    state = replace(state, phase=START, turn=None, must=MUST_PLAY, direction=1, top=None,
                    demand=None, free=False, hand_counts=(size,) * n, discard_size=0,
                    window=None, last_slap=None, went_out=None, laid_out=(None,) * n,
                    cards_played=0, fake_outs=())
    return state, (Notice("start_hand", f"Hand {state.progress.round_no}: {state.name(dealer)} "
                                        f"deals {size} cards each and turns up the first card."),)


def _buried_at_start(state: State, card: str) -> bool:
    if state.settings.edition == "fr":
        return is_hit(card)
    return kind(card) == HIT_HAND


def _turn_up(state: State, action: TurnUp) -> Step:
    if state.phase != START:
        raise IllegalAction("no first card is due now" if state.phase != DEAL
                            else "deal the hand first")
    card = _card(action.card)
    if _buried_at_start(state, card):
        return state, (Notice("start_buried", f"{label(card)} cannot start the pile: bury it "
                                              f"in the draw pile and turn up the next card."),)
    dealer = state.progress.dealer
    state = replace(state, phase=PLAY, top=card, discard_size=1)
    # The first card acts as if the dealer had played it (RULINGS, "Start card").
    first = state.next(dealer)
    state, said = _follow(state, first, card, action.t_ns, caller=first)
    return state, (Notice("start_card", f"{label(card)} starts the discard pile; "
                                        f"{state.name(first)} is first to act.", (first,)),) + said


def _in_play(state: State, seat: int) -> None:
    if state.phase != PLAY:
        raise IllegalAction({DEAL: "deal the hand first", START: "turn up the first card first",
                             COUNTING: "the hand is over: lay out the hands to count them"}
                            .get(state.phase, "no hand is being played"))
    if state.window is not None:
        raise IllegalAction("wait: the hand slap is not settled yet")
    if seat != state.turn:
        raise IllegalAction(f"it is {state.name(state.turn)}'s turn, not {state.name(seat)}'s")


def why_not(state: State, card: str) -> str | None:
    """Why `card` may not be played on the pile now (None: it may)."""
    if state.free:
        return None
    if state.demand is not None:
        if meets(state.demand, card):
            return None
        if is_hit(card):
            return f"a HIT card never meets a demand: {describe_demand(state.demand)} is due"
        return f"{label(card)} does not meet the demand: {describe_demand(state.demand)} is due"
    if goes_on(state.top, card):
        return None
    if kind(card) in (CUT, FLIP):
        return f"{label(card)} goes only on a card of its own colour, not on {label(state.top)}"
    return f"{label(card)} matches {label(state.top)} neither by colour nor by number"


def _play(state: State, action: Play) -> Step:
    seat = _seat(state, action.seat)
    card = _card(action.card)
    _in_play(state, seat)
    if state.must in (MUST_CUT, MUST_FLIP, MUST_UNBURY):
        what = {MUST_CUT: "cut the deck", MUST_FLIP: "flip the piles",
                MUST_UNBURY: "bury the FLIP and show the card under it"}[state.must]
        raise IllegalAction(f"{state.name(seat)} must {what}, not play a card")
    if state.hand_counts[seat] < 1:
        raise IllegalAction(f"{state.name(seat)} has no card to play (correct the hand size)")
    reason = why_not(state, card)
    if reason is not None:
        raise IllegalAction(reason)
    counts = list(state.hand_counts)
    counts[seat] -= 1
    last = state.last_slap
    state = replace(state, hand_counts=tuple(counts), top=card, discard_size=state.discard_size + 1,
                    cards_played=state.cards_played + 1,
                    last_slap=None if last is None else replace(last, markable=False))
    played = Notice("play", f"{state.name(seat)} played {label(card)}.", (seat,))
    if counts[seat] == 0:
        state = replace(state, went_out=seat, demand=None, free=False)
        out = Notice("went_out", f"{state.name(seat)} went out: the hand is over.", (seat,))
        if kind(card) == HIT_HAND:
            state, said = slaps.open_window(state, seat, action.t_ns, take, _after_slap)
            return state, (played, out) + said
        return replace(state, phase=COUNTING, turn=None), (played, out)
    state, said = _follow(state, state.next(seat), card, action.t_ns, caller=seat)
    return state, (played,) + said


def _draw(state: State, action: Draw) -> Step:
    seat = _seat(state, action.seat)
    _in_play(state, seat)
    if state.must != MUST_PLAY:
        raise IllegalAction({MUST_AFTER_DRAW: f"{state.name(seat)} has drawn already: play that "
                                              f"card or pass"}.get(state.must,
                                                                   "a cut or a flip is due first"))
    if state.free:
        raise IllegalAction("any card may be played now: play one")
    state, drawn, notices = take(state, seat, 1)
    state = replace(state, must=MUST_AFTER_DRAW)
    text = (f"{state.name(seat)} draws a card." if drawn
            else "There is no card left to draw.")
    return state, notices + (Notice("draw", text, (seat,)),)


def _pass(state: State, action: Pass) -> Step:
    seat = _seat(state, action.seat)
    _in_play(state, seat)
    if state.must != MUST_AFTER_DRAW:
        raise IllegalAction(f"{state.name(seat)} must draw a card before passing")
    nxt = state.next(seat)
    state = replace(state, turn=nxt, must=MUST_PLAY)
    return state, (Notice("pass", f"{state.name(seat)} cannot play; {state.name(nxt)}'s turn.",
                          (seat,)),)


def _cut(state: State, action: Cut) -> Step:
    seat = _seat(state, action.seat)
    card = _card(action.exposed_card)
    _in_play(state, seat)
    if state.must != MUST_CUT:
        raise IllegalAction("no cut is due now")
    state = replace(state, top=card, discard_size=state.discard_size + 1,
                    last_slap=None if state.last_slap is None
                    else replace(state.last_slap, markable=False))
    follower = state.next(seat)
    cut = Notice("cut", f"{state.name(seat)} cut the deck: {label(card)} is exposed; "
                        f"{state.name(follower)} follows it.", (seat,))
    state, said = _follow(state, follower, card, action.t_ns, caller=follower)
    return state, (cut,) + said


def _flip(state: State, action: Flip) -> Step:
    seat = _seat(state, action.seat)
    card = _card(action.exposed_card)
    _in_play(state, seat)
    if state.must not in (MUST_FLIP, MUST_UNBURY):
        raise IllegalAction("no flip is due now")
    notices: list[Notice] = []
    if state.must == MUST_FLIP:
        # The old draw pile, turned face up, is the new discard pile.
        state = replace(state, direction=-state.direction, discard_size=state.draw_size)
        notices.append(Notice("flip", f"{state.name(seat)} flipped the piles: play reverses; "
                                      f"{label(card)} is exposed.", (seat,)))
    else:
        notices.append(Notice("unburied", f"{label(card)} is the new top card.", (seat,)))
    state = replace(state, top=card, last_slap=None if state.last_slap is None
                    else replace(state.last_slap, markable=False))
    owner = state.next(seat)
    if kind(card) == FLIP:
        if state.discard_size > 1:
            notices.append(Notice("buried", "A FLIP exposed by a FLIP is buried in the pile: "
                                            "show the card under it.", (seat,)))
            return replace(state, must=MUST_UNBURY, demand=None, free=False), tuple(notices)
        state = replace(state, turn=owner, must=MUST_PLAY, demand=None, free=False)
        return state, tuple(notices)
    state, said = _follow(state, owner, card, action.t_ns, caller=owner)
    return state, tuple(notices) + said


def _slap(state: State, action: Slap) -> Step:
    seat = _seat(state, action.seat)
    if state.window is None:
        raise IllegalAction("no slap window is open (a slap now is a fake-out)")
    verdict, reason = slaps.classify_press(state, seat, action.t_ns)
    if verdict == slaps.CLOSE_FIRST:
        raise IllegalAction("the slap window had already closed: close it first")
    if verdict != slaps.SLAP:
        raise IllegalAction(reason)
    return slaps.add_slap(state, seat, action.t_ns, take, _after_slap)


def _close_window(state: State, action: CloseWindow) -> Step:
    if state.window is None:
        raise IllegalAction("no slap window is open")
    return slaps.close_window(state, action.t_ns, take, _after_slap)


def _forgot_call(state: State, action: ForgotCall) -> Step:
    seat = _seat(state, action.seat)
    if state.phase != PLAY:
        raise IllegalAction("no hand is being played")
    return slaps.forgot_call(state, seat, take, _after_slap)


def _fake_out(state: State, action: FakeOut) -> Step:
    seat = _seat(state, action.seat)
    if action.t_ns is not None:
        verdict, reason = slaps.classify_press(state, seat, action.t_ns)
        if verdict != slaps.FAKE_OUT:
            raise IllegalAction(reason or "that press was a slap in the open window")
    elif state.window is not None or state.phase not in (START, PLAY) or seat == state.went_out:
        raise IllegalAction("a fake-out is a slap when no HAND is in play during a hand")
    state, drawn, said = take(state, seat, slaps.FAKE_OUT_PENALTY)
    if action.t_ns is not None:
        state = replace(state, fake_outs=state.fake_outs + ((seat, action.t_ns, drawn),))
    return state, (Notice("fake_out", f"{state.name(seat)} was faked out and draws two; "
                                      f"nobody's turn changes.", (seat,)),) + said


def _set_hand_size(state: State, action: SetHandSize) -> Step:
    seat = _seat(state, action.seat)
    if state.phase not in (START, PLAY):
        raise IllegalAction("hand sizes can only be corrected during a hand")
    if action.count < 0 or action.count > DECK.size:
        raise IllegalAction(f"a hand holds 0 to {DECK.size} cards, not {action.count}")
    others = sum(c for s, c in enumerate(state.hand_counts) if s != seat)
    if others + action.count + state.discard_size > DECK.size:
        raise IllegalAction(f"{action.count} cards for {state.name(seat)} is more than the deck holds")
    counts = list(state.hand_counts)
    counts[seat] = action.count
    state = replace(state, hand_counts=tuple(counts))
    fixed = Notice("hand_size", f"{state.name(seat)} holds {action.count} "
                                f"card{'s' if action.count != 1 else ''}.", (seat,))
    if action.count == 0:
        if state.phase != PLAY or state.window is not None:
            raise IllegalAction("a player can only go out while the hand is being played")
        state = replace(state, went_out=seat, phase=COUNTING, turn=None)
        return state, (fixed, Notice("went_out", f"{state.name(seat)} went out: the hand is over.",
                                     (seat,)))
    return state, (fixed,)


def _hand_cards(state: State, action: HandCards) -> Step:
    seat = _seat(state, action.seat)
    if state.phase != COUNTING:
        raise IllegalAction("hands are counted only when a hand is over")
    if seat == state.went_out:
        raise IllegalAction(f"{state.name(seat)} went out and scores zero")
    if state.laid_out[seat] is not None:
        raise IllegalAction(f"{state.name(seat)}'s hand is counted already (undo to correct it)")
    cards = tuple(_card(c) for c in action.cards)
    counted = [c for hand in state.laid_out if hand for c in hand] + list(cards)
    for code in set(cards):
        if counted.count(code) > DECK[code].count:
            raise IllegalAction(f"the deck has only {DECK[code].count} {label(code)}")
    laid = list(state.laid_out)
    laid[seat] = cards
    counts = list(state.hand_counts)
    counts[seat] = len(cards)
    state = replace(state, laid_out=tuple(laid), hand_counts=tuple(counts))
    score = sum(DECK.points(c) for c in cards)
    notices = [Notice("hand_counted", f"{state.name(seat)} scores {score}.", (seat,))]
    waiting = [s for s in range(state.players) if s != state.went_out and laid[s] is None]
    if waiting:
        return state, tuple(notices)
    scores = tuple(0 if s == state.went_out else sum(DECK.points(c) for c in laid[s])
                   for s in range(state.players))
    progress = close_round(state.progress, scores, state.settings.rule())
    state = replace(state, progress=progress, phase=OVER if progress.finished else DEAL)
    if progress.finished:
        names = " and ".join(state.name(s) for s in progress.winners)
        notices.append(Notice("match_over", f"The match is over: {names} "
                                            f"win{'s' if len(progress.winners) == 1 else ''} "
                                            f"with the fewest points.", progress.winners))
    else:
        notices.append(Notice("hand_scored", f"Hand scored. {state.name(progress.dealer)} deals next."))
    return state, tuple(notices)


def _end_match(state: State, action: EndMatch) -> Step:
    progress = finish(state.progress, "low")
    names = " and ".join(state.name(s) for s in progress.winners)
    return replace(state, progress=progress, phase=OVER, window=None, turn=None), (
        Notice("match_over", f"The host ended the match: {names} "
                             f"win{'s' if len(progress.winners) == 1 else ''}.", progress.winners),)


def _correction(state: State, action: SetTotals | CorrectRound) -> Step:
    progress = corrected(state.progress, action, "low")
    return replace(state, progress=progress), (
        correction_notice(action, progress.totals, tuple(s.name for s in state.seats)),)


def _new_card(handler):
    """A card reached the discard pile: earlier fake-outs can no longer be a HAND's slaps."""
    def step_with_card(state: State, action: Action) -> Step:
        after, notices = handler(state, action)
        return (replace(after, fake_outs=()) if after.fake_outs else after), notices
    return step_with_card


HANDLERS = {StartHand: _start_hand, TurnUp: _new_card(_turn_up), Play: _new_card(_play),
            Draw: _draw, Pass: _pass, Cut: _new_card(_cut), Flip: _new_card(_flip), Slap: _slap, CloseWindow: _close_window,
            ForgotCall: _forgot_call, FakeOut: _fake_out, SetHandSize: _set_hand_size,
            HandCards: _hand_cards, EndMatch: _end_match,
            SetTotals: _correction, CorrectRound: _correction}


def step(state: State, action: Action) -> Step:
    if (state.phase == OVER or state.progress.finished) and not isinstance(action, (SetTotals, CorrectRound)):
        raise IllegalAction("the match is over")
    handler = HANDLERS.get(type(action))
    if handler is None:
        raise IllegalAction(f"Hit the Deck has no action {action.kind!r}")
    return _ruled(*handler(state, action))


# ---------------------------------------------------------------- the Game

class HitTheDeck:
    name = "hitthedeck"
    title = "Hit the Deck"
    min_seats = 2
    max_seats = 6
    settings_type = Settings
    state_type = State
    actions = ACTIONS
    deck = DECK

    def start(self, spec: MatchSpec) -> State:
        n = len(spec.seats)
        if not self.min_seats <= n <= self.max_seats:
            raise IllegalAction(f"Hit the Deck is for 2 to 6 players, not {n}")
        settings = parse_settings(Settings, spec.settings)
        if settings.edition not in ("en", "fr"):
            raise IllegalAction(f"bad settings: edition must be \"en\" or \"fr\", "
                                f"not {settings.edition!r}")
        for key in ("target", "hand_size", "slap_timeout_ms"):
            if getattr(settings, key) < 1:
                raise IllegalAction(f"bad settings: {key} must be at least 1")
        if min(settings.tie_tolerance_ns, settings.repeat_guard_ns, settings.late_report_ms) < 0:
            raise IllegalAction("bad settings: tolerances cannot be negative")
        return new_state(settings, tuple(spec.seats), spec.first_dealer)

    def check(self, state: State, action: Action) -> None:
        step(state, action)

    def apply(self, state: State, action: Action) -> Step:
        return step(state, action)

    def parse_action(self, data: Any) -> Action:
        return parse_action(data, ACTIONS)

    def view(self, state: State) -> dict[str, Any]:
        from engine.hitthedeck.view import view
        return view(state)


GAME = HitTheDeck()
