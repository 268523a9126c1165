"""Invariants of the web layer's pure parts, over many generated inputs: the PIN limit
never lets a client past its quota of wrong entries in any window, the chart's totals
add up, notices and cards always render to text, and any JSON body the API is sent
either changes the table through the engine or is refused without a trace."""
from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import FLIP7, PIN, post_json
from web.app import create_app
from web.cards import face
from web.chart import running_totals
from web.words import say
from web.security import PinGate

FAST = settings(max_examples=60, deadline=None)


@FAST
@given(st.lists(st.tuples(st.sampled_from("abc"), st.floats(0, 200), st.booleans()), max_size=60))
def test_pin_gate_never_allows_more_than_its_quota(steps):
    now = [0.0]
    gate = PinGate("1234", max_failures=3, window=300, clock=lambda: now[0])
    wrong_at: dict[str, list[float]] = {}
    for client, wait, right in steps:
        now[0] += wait
        if gate.retry_after(client) > 0:
            recent = [t for t in wrong_at.get(client, []) if t > now[0] - 300]
            assert len(recent) >= 3
            continue
        ok = gate.check(client, "1234" if right else "0000")
        assert ok == right
        if not right:
            wrong_at.setdefault(client, []).append(now[0])
        recent = [t for t in wrong_at.get(client, []) if t > now[0] - 300]
        assert len(recent) <= 3


@FAST
@given(st.integers(1, 6).flatmap(
    lambda n: st.lists(st.lists(st.integers(-50, 200), min_size=n, max_size=n), max_size=20)
    .map(lambda h: (n, h))))
def test_running_totals_add_up(case):
    n, history = case
    lines = running_totals(history, n)
    assert all(len(line) == len(history) + 1 and line[0] == 0 for line in lines)
    for seat in range(n):
        assert lines[seat][-1] == sum(r[seat] for r in history)


@FAST
@given(st.dictionaries(st.sampled_from(["code", "params", "seats"]),
                       st.one_of(st.text(max_size=20), st.lists(st.integers(-3, 8), max_size=3),
                                 st.none(), st.integers())),
       st.lists(st.text(max_size=8), max_size=4), st.sampled_from(["en", "fr"]),
       st.sampled_from(["flip7", "raj", "solo", "hitthedeck", None]))
def test_notices_always_render_as_text(notice, names, lang, game):
    assert isinstance(say(notice, lang, game, names), str)


@FAST
@given(st.sampled_from(["flip7", "raj", "solo", "hitthedeck", "nope", None]), st.text(max_size=12))
def test_any_card_code_draws(game, code):
    f = face(game, code)
    assert f["code"] == code and isinstance(f["short"], str)


JSONISH = st.recursive(st.none() | st.booleans() | st.integers(-5, 20) | st.text(max_size=6),
                       lambda inner: st.lists(inner, max_size=3)
                       | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=8)
ACTION = st.one_of(
    st.fixed_dictionaries({"type": st.sampled_from(["flip", "hit", "stay", "target", "undo",
                                                    "end_match", "bogus"])},
                          optional={"card": st.sampled_from(["0", "7", "12", "+4", "x2", "FREEZE",
                                                             "FLIP3", "CHANCE", "99", ""]),
                                    "seat": st.integers(-1, 4) | st.text(max_size=2),
                                    "target": st.integers(-1, 4)}),
    JSONISH)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(ACTION, min_size=1, max_size=12))
def test_any_body_changes_the_table_or_nothing(table, bodies):
    app = create_app(table, host_pin=PIN)
    c = app.test_client()
    post_json(c, "/api/login", {"pin": PIN})
    if table.snapshot()["match"] is None or table.snapshot()["view"]["finished"]:
        post_json(c, "/api/match", FLIP7)
    for body in bodies:
        before = table.snapshot()
        r = c.post("/api/action", data=json.dumps(body), content_type="application/json",
                   headers={"X-CSRF-Token": c.get("/api/session").get_json()["csrf_token"]})
        if r.status_code == 200:
            assert table.snapshot()["seq"] == r.get_json()["seq"] > before["seq"]
        else:
            assert r.status_code in (400, 422) and r.get_json()["error"]
            assert table.snapshot() is before or table.snapshot() == before
