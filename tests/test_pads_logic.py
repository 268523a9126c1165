"""The debounce judgement of one contact (device.pads.on_edge / on_time), as pure
functions: chatter is one press, a resting hand is one press until it lifts, taps and
holds are told apart, a pad held down too long is stuck. Checked against a plain
model of what a press is, on random edge sequences."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from device.pads import (ContactRules, ContactState, Freed, Pressed, Released, Stuck, down_at_start,
                         next_deadline, on_edge, on_time)

MS = 1_000_000
RULES = ContactRules(debounce_ns=10 * MS, hold_ns=600 * MS, stuck_ns=20_000 * MS)
FAR = 10**15


def run(edges, rules=RULES, state=None, until=None):
    state = state or ContactState()
    out = []
    for t, active in edges:
        state, events = on_edge(state, rules, t, active)
        out += events
    state, events = on_time(state, rules, until if until is not None else (edges[-1][0] + FAR if edges else FAR))
    return state, out + list(events)


def chatter(t0, level, n=5, span=5 * MS):
    """A contact settling to `level` at t0 with a burst of bounces over `span`."""
    edges = []
    for i in range(n):
        t = t0 + i * span // n
        edges += [(t, level), (t + span // (2 * n), not level)]
    edges.append((t0 + span, level))
    return edges


def test_a_chattering_press_and_release_is_one_tap_timed_at_the_first_contact():
    edges = chatter(1000 * MS, True) + chatter(1100 * MS, False)
    state, out = run(edges)
    assert out == [Pressed(1000 * MS, held=False), Released(1105 * MS)]
    assert state == ContactState()


def test_a_hand_resting_on_the_pad_is_one_hold_until_it_lifts():
    state, out = run([(0, True)], until=5000 * MS)
    assert out == [Pressed(0, held=True)]
    state, more = on_edge(state, RULES, 6000 * MS, True)   # still down: nothing new
    assert more == ()
    state, more = on_edge(state, RULES, 7000 * MS, False)
    state, more2 = on_time(state, RULES, 7000 * MS + 10 * MS)
    assert more == () and more2 == (Released(7000 * MS),)


def test_tap_and_hold_are_told_apart_at_the_hold_time():
    _, tap = run([(0, True), (599 * MS, False)])
    _, hold = run([(0, True), (600 * MS, False)])
    assert tap[0] == Pressed(0, held=False) and hold[0] == Pressed(0, held=True)


def test_a_hold_is_handed_on_when_it_reaches_the_hold_time_not_at_release():
    state, out = on_edge(ContactState(), RULES, 0, True)
    assert out == ()
    assert next_deadline(state, RULES) == 600 * MS
    state, out = on_time(state, RULES, 599 * MS)
    assert out == ()
    state, out = on_time(state, RULES, 600 * MS)
    assert out == (Pressed(0, held=True),)


def test_without_holds_a_press_is_handed_on_at_its_first_edge():
    rules = ContactRules(debounce_ns=10 * MS, hold_ns=None)
    state, out = on_edge(ContactState(), rules, 5, True)
    assert out == (Pressed(5, held=False),)
    _, later = run(chatter(10 * MS, False), rules, state)
    assert later == [Released(15 * MS)]   # a release is timed when the contact last opened


def test_two_presses_further_apart_than_the_debounce_time_are_two():
    _, out = run([(0, True), (50 * MS, False), (61 * MS, True), (100 * MS, False)])
    assert out == [Pressed(0, False), Released(50 * MS), Pressed(61 * MS, False), Released(100 * MS)]
    _, out = run([(0, True), (50 * MS, False), (59 * MS, True), (100 * MS, False)])
    assert out == [Pressed(0, False), Released(100 * MS)]


def test_a_pad_down_too_long_is_stuck_then_freed():
    rules = ContactRules(debounce_ns=10 * MS, hold_ns=600 * MS, stuck_ns=2000 * MS)
    state, out = run([(0, True)], rules, until=2000 * MS)
    assert out == [Pressed(0, True), Stuck(0)]
    state, out = run([(3000 * MS, False)], rules, state)
    assert out == [Released(3000 * MS), Freed(3000 * MS)]


def test_a_pad_down_at_start_reports_no_press_until_it_has_lifted():
    state = down_at_start(0)
    state, out = run([(100 * MS, False), (200 * MS, True), (300 * MS, False)], state=state)
    assert out == [Pressed(200 * MS, False), Released(300 * MS)]


def model(edges, rules):
    """What a person means by presses: down-intervals merged where the contact was up
    for less than the debounce time."""
    intervals = []
    for i in range(0, len(edges), 2):
        start = edges[i][0]
        end = edges[i + 1][0] if i + 1 < len(edges) else None
        intervals.append([start, end])
    groups = []
    for start, end in intervals:
        if groups and groups[-1][1] is not None and start - groups[-1][1] < rules.debounce_ns:
            groups[-1][1] = end
        else:
            groups.append([start, end])
    out = []
    for start, end in groups:
        if end is None:
            out.append(Pressed(start, held=rules.hold_ns is not None))
        else:
            out.append(Pressed(start, held=rules.hold_ns is not None and end - start >= rules.hold_ns))
            out.append(Released(end))
    return out


@settings(max_examples=300, deadline=None)
@given(gaps=st.lists(st.integers(min_value=1, max_value=800 * MS), min_size=1, max_size=30),
       holds=st.booleans())
def test_presses_match_the_model_for_any_edge_sequence(gaps, holds):
    rules = ContactRules(debounce_ns=10 * MS, hold_ns=600 * MS if holds else None, stuck_ns=10**18)
    edges, t = [], 0
    for i, gap in enumerate(gaps):
        t += gap
        edges.append((t, i % 2 == 0))   # press, release, press, ...
    _, out = run(edges, rules)
    assert out == model(edges, rules)


@settings(max_examples=200, deadline=None)
@given(gaps=st.lists(st.integers(min_value=1, max_value=50 * MS), min_size=1, max_size=20))
def test_advancing_the_clock_between_edges_changes_nothing(gaps):
    """Whether the worker woke up between two edges or not, the outcome is the same."""
    rules = ContactRules(debounce_ns=10 * MS, hold_ns=30 * MS, stuck_ns=10**18)
    edges, t = [], 0
    for i, gap in enumerate(gaps):
        t += gap
        edges.append((t, i % 2 == 0))
    _, plain = run(edges, rules)
    state, woken = ContactState(), []
    previous = 0
    for t, active in edges:
        for probe in (previous + (t - previous) // 3, t - 1):
            if probe >= previous:
                state, events = on_time(state, rules, probe)
                woken += events
        state, events = on_edge(state, rules, t, active)
        woken += events
        previous = t
    state, events = on_time(state, rules, t + FAR)
    assert plain == woken + list(events)
