"""Solo's rules: `check` (is this action legal now, and if not, why) and `apply` (the
state after it, and what to tell the table). Legality lives only in `check`; `apply`
calls it first.

Rules follow /work/shared/rules/solo.txt as settled by RULINGS.md ("Solo"): matching by
colour, value or symbol; black cards on anything but a pending Take 2 / Take 4; a
named colour demanded until met; Change cards all round names no colour; Miss a turn;
Change direction (with two players it acts as Miss a turn); Take 2 / Take 4 stacking
only on their own kind; Swap; Change cards all round; out-of-turn discards of an
identical card; the SOLO! window; going out; the empty pack; scoring.
"""
from __future__ import annotations

from dataclasses import replace

from engine.core import (CorrectRound, EndMatch, IllegalAction, MatchSpec, Notice, SetTotals,
                         parse_settings, say)
from engine.match import MatchProgress, close_round, correction_notice, corrected, finish
from engine.solo.actions import (CallSolo, CatchSolo, ChooseColour, Claim, Draw, HoldCard,
                                 Pass, Play, RoundCards, SetHandSize, SettlePlay, StartRound,
                                 Swap, TakePenalty)
from engine.solo.deck import DECK
from engine.solo.state import (BLACK_KINDS, COLOUR_LETTERS, NAMES_COLOUR, PadClaim,
                               Question, SoloSettings, SoloState, card_points, colour_of,
                               kind_of)

MIN_SEATS, MAX_SEATS = 2, 10
SOLO_PENALTY = 2

Result = tuple[SoloState, tuple[Notice, ...]]


# --- starting -------------------------------------------------------------------------

def start(spec: MatchSpec) -> SoloState:
    settings = parse_settings(SoloSettings, spec.settings)
    n = len(spec.seats)
    if not MIN_SEATS <= n <= MAX_SEATS:
        raise IllegalAction("players_count", game="solo", low=MIN_SEATS, high=MAX_SEATS, count=n)
    if settings.target < 1:
        raise IllegalAction("target_too_low")
    if settings.choose_points < 0:
        raise IllegalAction("setting_not_negative", setting="choose_points")
    if settings.hand_size < 1 or n * settings.hand_size + 1 > DECK.size:
        raise IllegalAction("solo.cannot_deal", size=settings.hand_size, count=n, deck=DECK.size)
    return SoloState(settings=settings, seats=tuple(s.name for s in spec.seats),
                     match=MatchProgress.new(n, spec.first_dealer))


# --- legality -------------------------------------------------------------------------

def _seat_ok(state: SoloState, seat: int) -> None:
    if not 0 <= seat < state.players:
        raise IllegalAction("no_such_seat", number=seat + 1, count=state.players)


def _card_ok(card: str) -> None:
    if card not in DECK:
        raise IllegalAction("card_unknown")


def _colour_ok(colour: str) -> None:
    if colour not in COLOUR_LETTERS:
        raise IllegalAction("solo.not_a_colour", colours=list(COLOUR_LETTERS))


def fit_reason(state: SoloState, card: str) -> dict | None:
    """Why `card` may not be played on the pile as the current player's play, as a
    message (None: it may)."""
    top = state.top
    assert top is not None
    kind = kind_of(card)
    if state.penalty:
        top_kind = kind_of(top)
        if kind != top_kind:
            return say("solo.owes_pass_on" if top_kind == "take2" else "solo.owes_pass_on4",
                       seat=state.turn, count=state.penalty)
        return None
    if kind in BLACK_KINDS:
        return None
    if state.colour is not None:
        if colour_of(card) == state.colour:
            return None
        return say("solo.wrong_colour", colour=state.colour, card=card)
    if kind_of(top) == "rotate":
        return None
    if colour_of(card) == colour_of(top):
        return None
    if kind == "number" and kind_of(top) == "number" and DECK[card].value == DECK[top].value:
        return None
    if kind != "number" and kind == kind_of(top):
        return None
    return say("solo.does_not_go", card=card, top_card=top)


def _awaiting_reason(state: SoloState) -> IllegalAction:
    if state.awaiting == "colour":
        return IllegalAction("solo.first_colour", seat=state.chooser)
    return IllegalAction("solo.first_swap", seat=state.chooser)


def _in_play(state: SoloState) -> None:
    if state.phase == "deal":
        raise IllegalAction("solo.not_started")
    if state.phase == "count":
        raise IllegalAction("solo.round_over")
    if state.phase != "play":
        raise IllegalAction("match_over")


def _not_held(state: SoloState) -> None:
    if state.held is not None:
        raise IllegalAction("solo.held_first", card=state.held)


def may_jump(state: SoloState, card: str) -> bool:
    """Whether `card` may ever be discarded out of turn (black cards only by setting)."""
    return kind_of(card) not in BLACK_KINDS or state.settings.jump_black


def _on_turn(state: SoloState, seat: int, what: str) -> None:
    _in_play(state)
    _seat_ok(state, seat)
    _not_held(state)
    if state.awaiting:
        raise _awaiting_reason(state)
    if seat != state.turn:
        raise IllegalAction("solo.not_your_turn_to", seat=state.turn, other_seat=seat, action=what)


def check(state: SoloState, action) -> None:
    if (state.match.finished or state.phase == "over") and not isinstance(action, (SetTotals, CorrectRound)):
        raise IllegalAction("match_over")
    handler = _CHECKS.get(type(action))
    if handler is None:
        raise IllegalAction("action_unknown", name=str(getattr(action, "kind", action)))
    handler(state, action)


def _check_start(state: SoloState, a: StartRound) -> None:
    if state.phase != "deal":
        raise IllegalAction("solo.round_under_way")
    _card_ok(a.starter)
    if a.colour is not None:
        _colour_ok(a.colour)
        if kind_of(a.starter) not in NAMES_COLOUR:
            raise IllegalAction("solo.names_no_colour", card=a.starter)


def _check_play(state: SoloState, a: Play) -> None:
    _in_play(state)
    _seat_ok(state, a.seat)
    _card_ok(a.card)
    _not_held(state)
    if state.awaiting:
        raise _awaiting_reason(state)
    if a.colour is not None:
        _colour_ok(a.colour)
        if kind_of(a.card) not in NAMES_COLOUR:
            raise IllegalAction("solo.names_no_colour", card=a.card)
    if state.hands[a.seat] < 1:
        raise IllegalAction("solo.no_cards", seat=a.seat)
    if a.seat == state.turn:
        reason = fit_reason(state, a.card)
        if reason:
            raise IllegalAction.saying(reason)
        return
    if a.card != state.top:
        raise IllegalAction("solo.only_identical", seat=state.turn, other_seat=a.seat,
                            card=state.top)
    if not may_jump(state, a.card):
        raise IllegalAction("solo.no_black_jump")


def _check_hold(state: SoloState, a: HoldCard) -> None:
    _in_play(state)
    _card_ok(a.card)
    _not_held(state)
    if state.awaiting:
        raise _awaiting_reason(state)
    if a.card != state.top or may_jump(state, a.card):
        raise IllegalAction("solo.hold_only", card=state.top)
    if not any(c.seat != state.turn for c in state.claims):
        raise IllegalAction("solo.no_claim_open", card=a.card, seat=state.turn)


def _check_colour(state: SoloState, a: ChooseColour) -> None:
    _in_play(state)
    _seat_ok(state, a.seat)
    _colour_ok(a.colour)
    if state.awaiting != "colour":
        raise IllegalAction("solo.no_colour_now")
    if a.seat != state.chooser:
        raise IllegalAction("solo.not_colour_chooser", seat=state.chooser, other_seat=a.seat)


def _check_swap(state: SoloState, a: Swap) -> None:
    _in_play(state)
    _seat_ok(state, a.seat)
    _seat_ok(state, a.with_seat)
    if state.awaiting != "swap":
        raise IllegalAction("solo.no_swap_now")
    if a.seat != state.chooser:
        raise IllegalAction("solo.not_swap_chooser", seat=state.chooser, other_seat=a.seat)
    if a.with_seat == a.seat:
        raise IllegalAction("solo.swap_other")


def _check_draw(state: SoloState, a: Draw) -> None:
    _on_turn(state, a.seat, "draw")
    if state.penalty:
        raise IllegalAction("solo.owes", seat=a.seat, count=state.penalty)
    if state.drawn:
        raise IllegalAction("solo.drawn_already", seat=a.seat)


def _check_pass(state: SoloState, a: Pass) -> None:
    _on_turn(state, a.seat, "pass")
    if not state.drawn:
        raise IllegalAction("solo.draw_before_pass", seat=a.seat)


def _check_penalty(state: SoloState, a: TakePenalty) -> None:
    _on_turn(state, a.seat, "take_penalty")
    if not state.penalty:
        raise IllegalAction("solo.no_penalty")


def _check_claim(state: SoloState, a: Claim) -> None:
    _in_play(state)
    _seat_ok(state, a.seat)
    if state.hands[a.seat] < 1:
        raise IllegalAction("solo.no_cards_to_discard", seat=a.seat)


def _check_settle(state: SoloState, a: SettlePlay) -> None:
    _seat_ok(state, a.seat)
    if state.held is not None:
        if a.seat == state.turn:
            _check_play(replace(state, held=None), Play(a.seat, state.held))
        elif state.hands[a.seat] < 1:
            raise IllegalAction("solo.no_cards", seat=a.seat)
        return
    q = state.question
    if q is None:
        raise IllegalAction("solo.no_question")
    if a.seat != q.seat:
        _check_play(q.before, Play(a.seat, q.card))


def _check_call(state: SoloState, a: CallSolo) -> None:
    _in_play(state)
    _seat_ok(state, a.seat)
    if state.solo_owed != a.seat:
        raise IllegalAction("solo.no_solo_due", seat=a.seat)


def _check_catch(state: SoloState, a: CatchSolo) -> None:
    _in_play(state)
    _seat_ok(state, a.catcher)
    _seat_ok(state, a.target)
    if state.solo_owed != a.target:
        raise IllegalAction("solo.owes_no_solo", seat=a.target)
    if a.catcher == a.target:
        raise IllegalAction("solo.catch_self")


def _check_hand_size(state: SoloState, a: SetHandSize) -> None:
    if state.phase not in ("play", "count"):
        _in_play(state)
    _seat_ok(state, a.seat)
    if state.phase == "play" and a.n < 1:
        raise IllegalAction("solo.hand_not_empty")
    if state.phase == "count":
        if a.seat == state.out:
            raise IllegalAction("solo.out_holds_none", seat=a.seat)
        if state.laid[a.seat] is not None:
            raise IllegalAction("solo.laid_already", seat=a.seat)
    if a.n < 0:
        raise IllegalAction("solo.negative_hand")
    if state.pack + state.hands[a.seat] - a.n < 0:
        raise IllegalAction("solo.not_enough_cards", seat=a.seat, count=a.n)


def _check_round_cards(state: SoloState, a: RoundCards) -> None:
    if state.phase != "count":
        raise IllegalAction("solo.lay_out_when_over")
    _seat_ok(state, a.seat)
    if a.seat == state.out:
        raise IllegalAction("solo.out_holds_none", seat=a.seat)
    if state.laid[a.seat] is not None:
        raise IllegalAction("solo.laid_already", seat=a.seat)
    for card in a.cards:
        _card_ok(card)
    if len(a.cards) != state.hands[a.seat]:
        raise IllegalAction("solo.laid_count", seat=a.seat, count=state.hands[a.seat],
                            laid=len(a.cards))
    laid = [c for cards in state.laid if cards for c in cards] + list(a.cards)
    for card in set(a.cards):
        if laid.count(card) > DECK[card].count:
            raise IllegalAction("deck_has_only", count=DECK[card].count, card=card)


def _check_end(state: SoloState, a: EndMatch) -> None:
    return None


def _check_correction(state: SoloState, a: SetTotals | CorrectRound) -> None:
    corrected(state.match, a, "high")


_CHECKS = {StartRound: _check_start, Play: _check_play, ChooseColour: _check_colour,
           Swap: _check_swap, Draw: _check_draw, Pass: _check_pass,
           TakePenalty: _check_penalty, Claim: _check_claim, SettlePlay: _check_settle,
           HoldCard: _check_hold, CallSolo: _check_call, CatchSolo: _check_catch, SetHandSize: _check_hand_size,
           RoundCards: _check_round_cards, EndMatch: _check_end,
           SetTotals: _check_correction, CorrectRound: _check_correction}


# --- effects --------------------------------------------------------------------------

def apply(state: SoloState, action) -> Result:
    check(state, action)
    if not isinstance(action, (Claim, SettlePlay)) and state.question is not None:
        # any other action takes the open question as answered: it was the current player
        state = replace(state, question=None)
    return _EFFECTS[type(action)](state, action)


def _next(state: SoloState, seat: int, steps: int = 1, direction: int | None = None) -> int:
    d = state.direction if direction is None else direction
    return (seat + d * steps) % state.players


def draw_cards(state: SoloState, seat: int, k: int) -> Result:
    """`seat` takes `k` cards; an empty pack is refilled from the discard pile (its top
    card stays); if even that is not enough, only what there is is taken."""
    notices: list[Notice] = []
    pack, discard = state.pack, state.discard
    if pack < k and discard > 1:
        pack += discard - 1
        discard = 1
        notices.append(Notice("reshuffle"))
    given = min(k, pack)
    if given < k:
        notices.append(Notice("pack_short", {"seat": seat, "count": given, "owed": k}, (seat,)))
    hands = list(state.hands)
    hands[seat] += given
    return replace(state, hands=tuple(hands), discard=discard), tuple(notices)


def _card_effect(state: SoloState, seat: int, card: str, colour: str | None, starter: bool) -> Result:
    """The card `seat` just put on the pile takes effect (the starter: as the dealer's)."""
    kind = kind_of(card)
    n = state.players
    notices: list[Notice] = []
    s = replace(state, colour=None)
    turn = _next(s, seat)
    if kind == "miss":
        turn = _next(s, seat, 2)
        notices.append(Notice("miss", {"seat": _next(s, seat)}, (_next(s, seat),)))
    elif kind == "reverse":
        if n == 2:
            turn = _next(s, seat, 2)
            notices.append(Notice("miss_two", {"seat": _next(s, seat)}, (_next(s, seat),)))
        else:
            s = replace(s, direction=-s.direction)
            turn = _next(s, seat)
            notices.append(Notice("reverse"))
    elif kind in ("take2", "take4"):
        s = replace(s, penalty=s.penalty + (2 if kind == "take2" else 4))
        notices.append(Notice("penalty", {"seat": turn, "count": s.penalty}, (turn,)))
    elif kind == "swap" and not starter:
        s = replace(s, awaiting="swap", chooser=seat)
    elif kind == "rotate" and not starter:
        hands = [0] * n
        for i, count in enumerate(s.hands):
            hands[(i + s.direction) % n] = count
        s = replace(s, hands=tuple(hands))
        notices.append(Notice("rotate"))
    if kind in NAMES_COLOUR:
        if colour is None:
            s = replace(s, awaiting="colour", chooser=seat)
        else:
            s = replace(s, colour=colour)
            notices.append(Notice("colour_set", {"colour": colour}))
    return replace(s, turn=turn, drawn=False), tuple(notices)


def _apply_start(state: SoloState, a: StartRound) -> Result:
    n = state.players
    dealer = state.match.dealer
    s = replace(state, phase="play", hands=(state.settings.hand_size,) * n, discard=1,
                top=a.starter, colour=None, direction=1, penalty=0, drawn=False,
                awaiting=None, chooser=None, solo_owed=None, claims=(), question=None,
                held=None, taken_by=None, out=None, laid=())
    s, notices = _card_effect(s, dealer, a.starter, a.colour, starter=True)
    return s, (Notice("round", {"round": state.match.round_no, "card": a.starter, "seat": s.turn},
                      (s.turn,)),) + notices


def _apply_play(state: SoloState, a: Play) -> Result:
    before = replace(state, question=None)
    out_of_turn = a.seat != state.turn
    unclaimed_identical = (not out_of_turn and a.card == state.top
                           and not any(c.seat != a.seat for c in state.claims))
    hands = list(state.hands)
    hands[a.seat] -= 1
    taken_by = None
    if out_of_turn:
        taken_by = min((c for c in state.claims if c.seat == a.seat),
                       key=lambda c: c.t_ns, default=None)
    s = replace(state, hands=tuple(hands), discard=state.discard + 1, top=a.card, claims=(),
                solo_owed=None, drawn=False, question=None, taken_by=taken_by)
    notices: list[Notice] = []
    if out_of_turn:
        notices.append(Notice("jump", {"seat": a.seat, "card": a.card}, (a.seat,)))
    else:
        notices.append(Notice("play", {"seat": a.seat, "card": a.card}, (a.seat,)))
    if hands[a.seat] == 0:
        laid: list[tuple[str, ...] | None] = [None] * s.players
        laid[a.seat] = ()
        s = replace(s, phase="count", out=a.seat, turn=None, penalty=0, colour=None,
                    laid=tuple(laid))
        notices.append(Notice("out", {"seat": a.seat}, (a.seat,)))
        s = _maybe_score_ready(s)
    else:
        s, effect = _card_effect(s, a.seat, a.card, a.colour, starter=False)
        notices.extend(effect)
        if hands[a.seat] == 1 and kind_of(a.card) not in ("swap", "rotate"):
            s = replace(s, solo_owed=a.seat)
            notices.append(Notice("solo_due", {"seat": a.seat}, (a.seat,)))
    if unclaimed_identical:
        s = replace(s, question=Question(a.card, a.seat, before))
        notices.append(Notice("question", {"card": a.card, "seat": a.seat}, (a.seat,)))
    if s.phase == "count":
        s, more = _score_if_complete(s)
        notices.extend(more)
    return s, tuple(notices)


def _apply_colour(state: SoloState, a: ChooseColour) -> Result:
    s = replace(state, colour=a.colour, awaiting=None, chooser=None)
    return s, (Notice("colour", {"seat": a.seat, "colour": a.colour}, (a.seat,)),)


def _apply_swap(state: SoloState, a: Swap) -> Result:
    hands = list(state.hands)
    hands[a.seat], hands[a.with_seat] = hands[a.with_seat], hands[a.seat]
    s = replace(state, hands=tuple(hands), awaiting=None, chooser=None)
    return s, (Notice("swap", {"seat": a.seat, "other_seat": a.with_seat}, (a.seat, a.with_seat)),)


def _apply_draw(state: SoloState, a: Draw) -> Result:
    s, notices = draw_cards(state, a.seat, 1)
    return replace(s, drawn=True, solo_owed=None), notices


def _apply_pass(state: SoloState, a: Pass) -> Result:
    return replace(state, turn=_next(state, a.seat), drawn=False), ()


def _apply_penalty(state: SoloState, a: TakePenalty) -> Result:
    owed = state.penalty
    s, notices = draw_cards(state, a.seat, owed)
    s = replace(s, penalty=0, turn=_next(s, a.seat), drawn=False, solo_owed=None)
    return s, (Notice("penalty_taken", {"seat": a.seat, "count": owed}, (a.seat,)),) + notices


def _apply_claim(state: SoloState, a: Claim) -> Result:
    return replace(state, claims=state.claims + (PadClaim(a.seat, a.t_ns),)), ()


def _apply_hold(state: SoloState, a: HoldCard) -> Result:
    claimers = tuple(sorted({c.seat for c in state.claims if c.seat != state.turn}))
    return replace(state, held=a.card), (
        Notice("held", {"card": a.card, "seat": state.turn}, (state.turn,) + claimers),)


def _settle_held(state: SoloState, a: SettlePlay) -> Result:
    card = state.held
    assert card is not None
    if a.seat == state.turn:
        s, notices = _apply_play(replace(state, held=None), Play(a.seat, card))
        return s, (Notice("settled", {"card": card, "seat": a.seat}, (a.seat,)),) + notices
    s = replace(state, held=None, claims=tuple(c for c in state.claims if c.seat != a.seat))
    return s, (Notice("jump_refused", {"card": card, "seat": a.seat, "other_seat": state.turn},
                      (a.seat,)),)


def _apply_settle(state: SoloState, a: SettlePlay) -> Result:
    if state.held is not None:
        return _settle_held(state, a)
    q = state.question
    assert q is not None
    if a.seat == q.seat:
        return replace(state, question=None), (
            Notice("settled", {"card": q.card, "seat": a.seat}, (a.seat,)),)
    s, notices = _apply_play(q.before, Play(a.seat, q.card))
    return s, (Notice("settled_jump", {"card": q.card, "seat": a.seat, "other_seat": q.seat},
                      (a.seat, q.seat)),) + notices


def _apply_call(state: SoloState, a: CallSolo) -> Result:
    return replace(state, solo_owed=None), (Notice("solo", {"seat": a.seat}, (a.seat,)),)


def _apply_catch(state: SoloState, a: CatchSolo) -> Result:
    s, notices = draw_cards(state, a.target, SOLO_PENALTY)
    s = replace(s, solo_owed=None)
    return s, (Notice("solo_caught", {"seat": a.catcher, "other_seat": a.target,
                                      "count": SOLO_PENALTY}, (a.catcher, a.target)),) + notices


def _apply_hand_size(state: SoloState, a: SetHandSize) -> Result:
    hands = list(state.hands)
    hands[a.seat] = a.n
    s = replace(state, hands=tuple(hands))
    notices = (Notice("hand_size", {"seat": a.seat, "count": a.n}, (a.seat,)),)
    if s.phase == "count":
        s = _maybe_score_ready(s)
        s, more = _score_if_complete(s)
        notices += more
    return s, notices


def _apply_round_cards(state: SoloState, a: RoundCards) -> Result:
    laid = list(state.laid)
    laid[a.seat] = tuple(a.cards)
    s = replace(state, laid=tuple(laid))
    return _score_if_complete(s)


def _apply_end(state: SoloState, a: EndMatch) -> Result:
    match = finish(state.match, "high")
    s = replace(state, match=match, phase="over", turn=None, awaiting=None, solo_owed=None,
                claims=(), question=None, held=None)
    return s, (Notice("match_won", {"winner_seats": list(match.winners),
                                    "winners": len(match.winners)}, match.winners),)


def _apply_correction(state: SoloState, a: SetTotals | CorrectRound) -> Result:
    match = corrected(state.match, a, "high")
    return replace(state, match=match), (correction_notice(a, match.totals, state.seats),)


def _maybe_score_ready(state: SoloState) -> SoloState:
    """Hands of no cards need no laying out."""
    laid = tuple(() if cards is None and state.hands[i] == 0 else cards
                 for i, cards in enumerate(state.laid))
    return replace(state, laid=laid)


def _score_if_complete(state: SoloState) -> Result:
    if any(cards is None for cards in state.laid):
        return state, ()
    assert state.out is not None
    total = sum(card_points(c, state.settings) for cards in state.laid if cards for c in cards)
    scores = tuple(total if i == state.out else 0 for i in range(state.players))
    match = close_round(state.match, scores, state.settings.rule())
    notices = [Notice("round_scored", {"seat": state.out, "points": total}, (state.out,))]
    if match.finished:
        s = replace(state, match=match, phase="over")
        notices.append(Notice("match_won", {"winner_seats": list(match.winners),
                                            "winners": len(match.winners)}, match.winners))
    else:
        s = replace(state, match=match, phase="deal", hands=(0,) * state.players, discard=0,
                    top=None, colour=None, turn=None, direction=1, penalty=0, drawn=False,
                    awaiting=None, chooser=None, solo_owed=None, claims=(), question=None,
                    held=None, taken_by=None)
        notices.append(Notice("next_round", {"seat": match.dealer, "round": match.round_no},
                              (match.dealer,)))
    return s, tuple(notices)


_EFFECTS = {StartRound: _apply_start, Play: _apply_play, ChooseColour: _apply_colour,
            Swap: _apply_swap, Draw: _apply_draw, Pass: _apply_pass,
            TakePenalty: _apply_penalty, Claim: _apply_claim, SettlePlay: _apply_settle,
            HoldCard: _apply_hold, CallSolo: _apply_call, CatchSolo: _apply_catch, SetHandSize: _apply_hand_size,
            RoundCards: _apply_round_cards, EndMatch: _apply_end,
            SetTotals: _apply_correction, CorrectRound: _apply_correction}
