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
                         SetTotals, parse_action, parse_settings, say)
from engine.hitthedeck import slaps
from engine.hitthedeck.actions import (ACTIONS, CloseWindow, Cut, Draw, FakeOut, Flip,
                                       ForgotCall, HandCards, Pass, Play, SetHandSize, Slap,
                                       StartHand, TurnUp)
from engine.hitthedeck.cards import (CUT, FLIP, HIT_HAND, NUMBER, describe_demand, goes_on,
                                     is_hit, kind, meets)
from engine.hitthedeck.deck import DECK
from engine.hitthedeck.state import (COUNTING, DEAL, MUST_AFTER_DRAW, MUST_CUT, MUST_FLIP,
                                     MUST_PLAY, MUST_UNBURY, OVER, PLAY, START, Settings, State,
                                     new_state)
from engine.match import close_round, correction_notice, corrected, finish

Step = tuple[State, tuple[Notice, ...]]


# ---------------------------------------------------------------- helpers

def _card(code: str) -> str:
    if code not in DECK:
        raise IllegalAction("card_unknown")
    return code


def _seat(state: State, seat: int) -> int:
    if not 0 <= seat < state.players:
        raise IllegalAction("no_such_seat", number=seat + 1, count=state.players)
    return seat


RESHUFFLED = Notice("reshuffle")


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
    return state, (Notice("demand", {"seat": actor, "demand": describe_demand(card)}, (actor,)),)


def _cut_due(state: State, cutter: int) -> Step:
    state, notices = _reshuffle_if_empty(state)
    if state.draw_size == 0:
        return replace(state, turn=state.next(cutter), must=MUST_PLAY), notices + (
            Notice("cut_none", {"seat": cutter}),)
    return replace(state, turn=cutter, must=MUST_CUT), notices + (
        Notice("cut_due", {"seat": cutter}, (cutter,)),)


def _flip_due(state: State, flipper: int) -> Step:
    state, notices = _reshuffle_if_empty(state)
    if state.draw_size == 0:
        direction = -state.direction
        owner = state.next(flipper, direction=direction)
        return replace(state, direction=direction, turn=owner, must=MUST_PLAY), notices + (
            Notice("flip_none", {"seat": owner}),)
    return replace(state, turn=flipper, must=MUST_FLIP), notices + (
        Notice("flip_due", {"seat": flipper}, (flipper,)),)


def _ruled(state: State, notices: tuple[Notice, ...]) -> Step:
    if notices:
        state = replace(state, last_ruling=notices)
    return state, notices


# ---------------------------------------------------------------- actions

def _start_hand(state: State, action: StartHand) -> Step:
    if state.phase != DEAL:
        raise IllegalAction("htd.hand_under_way" if state.phase in (START, PLAY)
                            else "htd.count_first")
    n, size = state.players, state.settings.hand_size
    if n * size >= DECK.size:
        raise IllegalAction("htd.hands_do_not_fit", count=n, size=size, deck=DECK.size)
    dealer = state.progress.dealer
    state = replace(state, phase=START, turn=None, must=MUST_PLAY, direction=1, top=None,
                    demand=None, free=False, hand_counts=(size,) * n, discard_size=0,
                    window=None, last_slap=None, went_out=None, laid_out=(None,) * n,
                    cards_played=0, fake_outs=())
    return state, (Notice("start_hand", {"round": state.progress.round_no, "seat": dealer,
                                         "size": size}),)


def _buried_at_start(state: State, card: str) -> bool:
    if state.settings.edition == "fr":
        return is_hit(card)
    return kind(card) == HIT_HAND


def _turn_up(state: State, action: TurnUp) -> Step:
    if state.phase != START:
        raise IllegalAction("htd.no_first_card" if state.phase != DEAL
                            else "htd.deal_first")
    card = _card(action.card)
    if _buried_at_start(state, card):
        return state, (Notice("start_buried", {"card": card}),)
    dealer = state.progress.dealer
    state = replace(state, phase=PLAY, top=card, discard_size=1)
    # The first card acts as if the dealer had played it (RULINGS, "Start card").
    first = state.next(dealer)
    state, said = _follow(state, first, card, action.t_ns, caller=first)
    return state, (Notice("start_card", {"card": card, "seat": first}, (first,)),) + said


def _in_play(state: State, seat: int) -> None:
    if state.phase != PLAY:
        raise IllegalAction({DEAL: "htd.deal_first", START: "htd.turn_up_first",
                             COUNTING: "htd.hand_over"}.get(state.phase, "htd.no_hand"))
    if state.window is not None:
        raise IllegalAction("htd.slap_not_settled")
    if seat != state.turn:
        raise IllegalAction("not_your_turn", seat=state.turn, other_seat=seat)


def why_not(state: State, card: str) -> dict | None:
    """Why `card` may not be played on the pile now, as a message (None: it may)."""
    if state.free:
        return None
    if state.demand is not None:
        if meets(state.demand, card):
            return None
        if is_hit(card):
            return say("htd.hit_never_meets", demand=describe_demand(state.demand))
        return say("htd.misses_demand", card=card, demand=describe_demand(state.demand))
    if goes_on(state.top, card):
        return None
    if kind(card) in (CUT, FLIP):
        return say("htd.own_colour_only", card=card, top_card=state.top)
    return say("htd.no_match", card=card, top_card=state.top)


def _play(state: State, action: Play) -> Step:
    seat = _seat(state, action.seat)
    card = _card(action.card)
    _in_play(state, seat)
    if state.must in (MUST_CUT, MUST_FLIP, MUST_UNBURY):
        raise IllegalAction({MUST_CUT: "htd.must_cut", MUST_FLIP: "htd.must_flip",
                             MUST_UNBURY: "htd.must_unbury"}[state.must], seat=seat)
    if state.hand_counts[seat] < 1:
        raise IllegalAction("htd.no_card_to_play", seat=seat)
    reason = why_not(state, card)
    if reason is not None:
        raise IllegalAction.saying(reason)
    counts = list(state.hand_counts)
    counts[seat] -= 1
    last = state.last_slap
    state = replace(state, hand_counts=tuple(counts), top=card, discard_size=state.discard_size + 1,
                    cards_played=state.cards_played + 1,
                    last_slap=None if last is None else replace(last, markable=False))
    played = Notice("play", {"seat": seat, "card": card}, (seat,))
    if counts[seat] == 0:
        state = replace(state, went_out=seat, demand=None, free=False)
        out = Notice("went_out", {"seat": seat}, (seat,))
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
        if state.must == MUST_AFTER_DRAW:
            raise IllegalAction("htd.drawn_already", seat=seat)
        raise IllegalAction("htd.cut_or_flip_first")
    if state.free:
        raise IllegalAction("htd.play_any")
    state, drawn, notices = take(state, seat, 1)
    state = replace(state, must=MUST_AFTER_DRAW)
    said = Notice("draw", {"seat": seat}, (seat,)) if drawn else Notice("draw_none", {}, (seat,))
    return state, notices + (said,)


def _pass(state: State, action: Pass) -> Step:
    seat = _seat(state, action.seat)
    _in_play(state, seat)
    if state.must != MUST_AFTER_DRAW:
        raise IllegalAction("htd.draw_before_pass", seat=seat)
    nxt = state.next(seat)
    state = replace(state, turn=nxt, must=MUST_PLAY)
    return state, (Notice("pass", {"seat": seat, "next_seat": nxt}, (seat,)),)


def _cut(state: State, action: Cut) -> Step:
    seat = _seat(state, action.seat)
    card = _card(action.exposed_card)
    _in_play(state, seat)
    if state.must != MUST_CUT:
        raise IllegalAction("htd.no_cut_due")
    state = replace(state, top=card, discard_size=state.discard_size + 1,
                    last_slap=None if state.last_slap is None
                    else replace(state.last_slap, markable=False))
    follower = state.next(seat)
    cut = Notice("cut", {"seat": seat, "card": card, "next_seat": follower}, (seat,))
    state, said = _follow(state, follower, card, action.t_ns, caller=follower)
    return state, (cut,) + said


def _flip(state: State, action: Flip) -> Step:
    seat = _seat(state, action.seat)
    card = _card(action.exposed_card)
    _in_play(state, seat)
    if state.must not in (MUST_FLIP, MUST_UNBURY):
        raise IllegalAction("htd.no_flip_due")
    notices: list[Notice] = []
    if state.must == MUST_FLIP:
        # The old draw pile, turned face up, is the new discard pile.
        state = replace(state, direction=-state.direction, discard_size=state.draw_size)
        notices.append(Notice("flip", {"seat": seat, "card": card}, (seat,)))
    else:
        notices.append(Notice("unburied", {"card": card}, (seat,)))
    state = replace(state, top=card, last_slap=None if state.last_slap is None
                    else replace(state.last_slap, markable=False))
    owner = state.next(seat)
    if kind(card) == FLIP:
        if state.discard_size > 1:
            notices.append(Notice("buried", {}, (seat,)))
            return replace(state, must=MUST_UNBURY, demand=None, free=False), tuple(notices)
        state = replace(state, turn=owner, must=MUST_PLAY, demand=None, free=False)
        return state, tuple(notices)
    state, said = _follow(state, owner, card, action.t_ns, caller=owner)
    return state, tuple(notices) + said


def _slap(state: State, action: Slap) -> Step:
    seat = _seat(state, action.seat)
    if state.window is None:
        raise IllegalAction("htd.no_window_slap")
    verdict, reason = slaps.classify_press(state, seat, action.t_ns)
    if verdict == slaps.CLOSE_FIRST:
        raise IllegalAction("htd.window_closed_first")
    if verdict != slaps.SLAP:
        raise IllegalAction.saying(reason)
    return slaps.add_slap(state, seat, action.t_ns, take, _after_slap)


def _close_window(state: State, action: CloseWindow) -> Step:
    if state.window is None:
        raise IllegalAction("htd.no_window")
    return slaps.close_window(state, action.t_ns, take, _after_slap)


def _forgot_call(state: State, action: ForgotCall) -> Step:
    seat = _seat(state, action.seat)
    if state.phase != PLAY:
        raise IllegalAction("htd.no_hand")
    return slaps.forgot_call(state, seat, take, _after_slap)


def _fake_out(state: State, action: FakeOut) -> Step:
    seat = _seat(state, action.seat)
    if action.t_ns is not None:
        verdict, reason = slaps.classify_press(state, seat, action.t_ns)
        if verdict != slaps.FAKE_OUT:
            raise IllegalAction.saying(reason or say("htd.press_was_slap"))
    elif state.window is not None or state.phase not in (START, PLAY) or seat == state.went_out:
        raise IllegalAction("htd.fake_out_when")
    state, drawn, said = take(state, seat, slaps.FAKE_OUT_PENALTY)
    if action.t_ns is not None:
        state = replace(state, fake_outs=state.fake_outs + ((seat, action.t_ns, drawn),))
    return state, (Notice("fake_out", {"seat": seat}, (seat,)),) + said


def _set_hand_size(state: State, action: SetHandSize) -> Step:
    seat = _seat(state, action.seat)
    if state.phase not in (START, PLAY):
        raise IllegalAction("htd.sizes_during_hand")
    if action.count < 0 or action.count > DECK.size:
        raise IllegalAction("hand_size_range", high=DECK.size, count=action.count)
    others = sum(c for s, c in enumerate(state.hand_counts) if s != seat)
    if others + action.count + state.discard_size > DECK.size:
        raise IllegalAction("hand_size_too_many", seat=seat, count=action.count)
    counts = list(state.hand_counts)
    counts[seat] = action.count
    state = replace(state, hand_counts=tuple(counts))
    fixed = Notice("hand_size", {"seat": seat, "count": action.count}, (seat,))
    if action.count == 0:
        if state.phase != PLAY or state.window is not None:
            raise IllegalAction("htd.out_only_in_play")
        state = replace(state, went_out=seat, phase=COUNTING, turn=None)
        return state, (fixed, Notice("went_out", {"seat": seat}, (seat,)))
    return state, (fixed,)


def _hand_cards(state: State, action: HandCards) -> Step:
    seat = _seat(state, action.seat)
    if state.phase != COUNTING:
        raise IllegalAction("htd.count_when_over")
    if seat == state.went_out:
        raise IllegalAction("htd.out_scores_zero", seat=seat)
    if state.laid_out[seat] is not None:
        raise IllegalAction("htd.counted_already", seat=seat)
    cards = tuple(_card(c) for c in action.cards)
    counted = [c for hand in state.laid_out if hand for c in hand] + list(cards)
    for code in set(cards):
        if counted.count(code) > DECK[code].count:
            raise IllegalAction("deck_has_only", count=DECK[code].count, card=code)
    laid = list(state.laid_out)
    laid[seat] = cards
    counts = list(state.hand_counts)
    counts[seat] = len(cards)
    state = replace(state, laid_out=tuple(laid), hand_counts=tuple(counts))
    score = sum(DECK.points(c) for c in cards)
    notices = [Notice("hand_counted", {"seat": seat, "points": score}, (seat,))]
    waiting = [s for s in range(state.players) if s != state.went_out and laid[s] is None]
    if waiting:
        return state, tuple(notices)
    scores = tuple(0 if s == state.went_out else sum(DECK.points(c) for c in laid[s])
                   for s in range(state.players))
    progress = close_round(state.progress, scores, state.settings.rule())
    state = replace(state, progress=progress, phase=OVER if progress.finished else DEAL)
    if progress.finished:
        notices.append(Notice("match_won", {"winner_seats": list(progress.winners),
                                            "winners": len(progress.winners)}, progress.winners))
    else:
        notices.append(Notice("hand_scored", {"seat": progress.dealer}))
    return state, tuple(notices)


def _end_match(state: State, action: EndMatch) -> Step:
    progress = finish(state.progress, "low")
    return replace(state, progress=progress, phase=OVER, window=None, turn=None), (
        Notice("match_ended", {"winner_seats": list(progress.winners),
                               "winners": len(progress.winners)}, progress.winners),)


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
        raise IllegalAction("match_over")
    handler = HANDLERS.get(type(action))
    if handler is None:
        raise IllegalAction("action_unknown", name=action.kind)
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
            raise IllegalAction("players_count", game="hitthedeck", low=self.min_seats,
                                high=self.max_seats, count=n)
        settings = parse_settings(Settings, spec.settings)
        if settings.edition not in ("en", "fr"):
            raise IllegalAction("bad_setting", setting="edition")
        for key in ("target", "hand_size", "slap_timeout_ms"):
            if getattr(settings, key) < 1:
                raise IllegalAction("setting_at_least_1", setting=key)
        for key in ("tie_tolerance_ns", "repeat_guard_ns", "late_report_ms"):
            if getattr(settings, key) < 0:
                raise IllegalAction("setting_not_negative", setting=key)
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
