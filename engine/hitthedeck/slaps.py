"""The HIT WITH A HAND slap: judging a pad press by its timestamp, collecting slaps in
the open window, breaking ties, and settling who draws four (RULINGS.md, "HIT WITH A
HAND", "Fake-out").

Order is decided by the presses' timestamps (nanoseconds), never by the order they
arrive in. A seat's earliest press in a window counts; later ones from the same pad are
repeats. A press stamped before the window opened (a pad already held down) is not a
slap in it. Drawing cards and what happens after the slap live in `rules.py`, which
passes its `take` function in.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

from engine.core import IllegalAction, Notice, say
from engine.hitthedeck.state import PLAY, START, SlapOutcome, SlapWindow, State

SLAP, FAKE_OUT, IGNORE, CLOSE_FIRST = "slap", "fake_out", "ignore", "close_first"
PENALTY = 4
FAKE_OUT_PENALTY = 2

Take = Callable[[State, int, int], tuple[State, int, tuple[Notice, ...]]]


def classify_press(state: State, seat: int, t_ns: int) -> tuple[str, dict | None]:
    """What a press of `seat`'s pad at `t_ns` is now: a slap in the open window, a
    fake-out, nothing (with the reason), or a press after the window's deadline (the
    window must be closed first)."""
    if not 0 <= seat < state.players:
        raise IllegalAction("pad_no_seat", number=seat + 1)
    window = state.window
    if window is not None:
        if seat not in window.eligible:
            return IGNORE, say("htd.not_in_slap", seat=seat)
        if window.opened_ns is not None and t_ns < window.opened_ns:
            return IGNORE, say("htd.pressed_before", seat=seat)
        deadline = window.deadline_ns(state.settings.slap_timeout_ms)
        if deadline is not None and t_ns > deadline:
            return CLOSE_FIRST, say("htd.window_closed")
        before = dict(window.previous).get(seat)
        if before is not None and t_ns - before < state.settings.repeat_guard_ns:
            return IGNORE, say("htd.bouncing", seat=seat)
        own = window.slap_time(seat)
        if own is not None and t_ns >= own:
            return IGNORE, say("htd.slapped_already", seat=seat)
        return SLAP, None
    if state.phase not in (START, PLAY):
        return IGNORE, say("htd.no_hand")
    if seat == state.went_out:
        return IGNORE, say("htd.gone_out", seat=seat)
    last = state.last_slap
    if last is not None:
        if last.closed_ns is not None and t_ns <= last.closed_ns:
            return IGNORE, say("htd.press_of_last_slap", seat=seat)
        own = dict(last.order).get(seat)
        if own is not None and t_ns - own < state.settings.repeat_guard_ns:
            return IGNORE, say("htd.bouncing", seat=seat)
    if any(s == seat and abs(t_ns - t) < state.settings.repeat_guard_ns
           for s, t, _ in state.fake_outs):
        return IGNORE, say("htd.bouncing", seat=seat)
    return FAKE_OUT, None


def open_window(state: State, caller: int, t_ns: int | None, take: Take,
                after: Callable[[State], State]) -> tuple[State, tuple[Notice, ...]]:
    """A HAND was seen at `t_ns`: every player but one who went out slaps. Presses
    stamped at or after `t_ns` that were judged fake-outs because they reached the
    referee before the camera's report are slaps in this window (their two cards go back)."""
    eligible = tuple(s for s in range(state.players) if s != state.went_out)
    window = SlapWindow(caller=caller, eligible=eligible, opened_ns=t_ns)
    notices = [Notice("slap_open", {"seat": caller}, eligible)]
    early = sorted(((t, s, drawn) for s, t, drawn in state.fake_outs
                    if t_ns is not None and t >= t_ns and s in eligible), key=lambda x: (x[0], x[1]))
    counts = list(state.hand_counts)
    for t, seat, drawn in early:
        counts[seat] = max(0, counts[seat] - drawn)
        notices.append(Notice("fake_out_undone", {"seat": seat}, (seat,)))
    state = replace(state, window=window, fake_outs=(), hand_counts=tuple(counts))
    for t, seat, _ in early:
        if state.window is None or state.window.reslap or seat in state.window.slapped():
            continue
        state, said = add_slap(state, seat, t, take, after)
        notices.extend(said)
    return state, tuple(notices)


def add_slap(state: State, seat: int, t_ns: int, take: Take,
             after: Callable[[State], State]) -> tuple[State, tuple[Notice, ...]]:
    window = state.window
    assert window is not None
    slaps = sorted([(s, t) for s, t in window.slaps if s != seat] + [(seat, t_ns)],
                   key=lambda st: (st[1], st[0]))
    window = replace(window, slaps=tuple(slaps))
    state = replace(state, window=window)
    if set(window.slapped()) < set(window.eligible):
        return state, (Notice("slap", {"seat": seat, "done": len(slaps),
                                       "of": len(window.eligible)}, (seat,)),)
    last_seat, last_t = slaps[-1]
    tolerance = state.settings.tie_tolerance_ns
    tied = tuple(sorted(s for s, t in slaps if last_t - t < tolerance))
    if len(tied) > 1:
        again = SlapWindow(caller=window.caller, eligible=tied, opened_ns=last_t,
                           reslap=window.reslap + 1, previous=window.slaps)
        return replace(state, window=again), (
            Notice("slap_tie", {"seats": list(tied), "count": len(tied), "ms": tolerance / 1e6}, tied),)
    return settle(state, (last_seat,), last_t, take, after)


def close_window(state: State, t_ns: int | None, take: Take,
                 after: Callable[[State], State]) -> tuple[State, tuple[Notice, ...]]:
    window = state.window
    assert window is not None
    deadline = window.deadline_ns(state.settings.slap_timeout_ms)
    if t_ns is not None and deadline is not None:
        if t_ns < deadline:
            raise IllegalAction("htd.window_still_open", ms=state.settings.slap_timeout_ms)
        t_ns = deadline
    losers = tuple(s for s in window.eligible if s not in window.slapped())
    return settle(state, losers, t_ns, take, after)


def settle(state: State, losers: tuple[int, ...], closed_ns: int | None, take: Take,
           after: Callable[[State], State]) -> tuple[State, tuple[Notice, ...]]:
    """The losers draw four (in turn order from the caller), the window closes, and play
    goes on (`after`)."""
    window = state.window
    assert window is not None
    notices: list[Notice] = []
    penalised = []
    for seat in turn_order(state, window.caller):
        if seat in losers:
            state, drawn, said = take(state, seat, PENALTY)
            notices.extend(said)
            penalised.append((seat, drawn))
    if len(losers) == 1 and window.slapped() and set(window.slapped()) == set(window.eligible):
        said = Notice("slap_lost", {"seat": losers[0]}, losers)
    elif losers:
        said = Notice("slap_missed", {"seats": list(losers), "count": len(losers)}, losers)
    else:
        said = Notice("slap_nobody", {}, losers)
    notices.insert(0, said)
    outcome = SlapOutcome(caller=window.caller, opened_ns=window.opened_ns, closed_ns=closed_ns,
                          order=window.slaps, penalised=tuple(penalised))
    state = replace(state, window=None, last_slap=outcome)
    return after(state), tuple(notices)


def forgot_call(state: State, seat: int, take: Take,
                after: Callable[[State], State]) -> tuple[State, tuple[Notice, ...]]:
    """The caller forgot to call: the caller draws four and nobody else does (any
    penalty already given for this slap is taken back)."""
    window, last = state.window, state.last_slap
    caller = window.caller if window is not None else (last.caller if last else None)
    if caller is None or (window is None and (not last.markable or last.forgot)):
        raise IllegalAction("htd.nothing_to_mark")
    if seat != caller:
        raise IllegalAction("htd.caller_not", seat=caller, other_seat=seat)
    if seat == state.went_out:
        raise IllegalAction("htd.went_out_with_hand", seat=seat)
    notices: list[Notice] = []
    if window is not None:
        # The window counts as open until its deadline: a press stamped inside it,
        # reported before or after this mark, is no fake-out (RULINGS "HIT WITH A HAND").
        opened, order = window.opened_ns, window.slaps
        closed = window.deadline_ns(state.settings.slap_timeout_ms)
        state = replace(state, window=None)
        moved_on = False
    else:
        counts = list(state.hand_counts)
        for s, drawn in last.penalised:
            counts[s] = max(0, counts[s] - drawn)
            if drawn:
                notices.append(Notice("penalty_back", {"seat": s, "count": drawn}, (s,)))
        state = replace(state, hand_counts=tuple(counts))
        opened, order, closed = last.opened_ns, last.order, last.closed_ns
        moved_on = True
    state, drawn, said = take(state, seat, PENALTY)
    notices.insert(0, Notice("forgot_call", {"seat": seat}, (seat,)))
    notices.extend(said)
    state = replace(state, last_slap=SlapOutcome(caller=seat, opened_ns=opened, closed_ns=closed,
                                                 order=order, penalised=((seat, drawn),),
                                                 forgot=True))
    return (state if moved_on else after(state)), tuple(notices)


def turn_order(state: State, seat: int) -> tuple[int, ...]:
    """Every seat, starting after `seat` in the current direction, `seat` last."""
    return tuple(state.next(seat, k) for k in range(1, state.players + 1))

