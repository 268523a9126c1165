"""Invariants of the live table under any mix of actions, refusals, undos, status
changes, new matches and restarts: seqs only grow and are never reused, a subscriber
that follows the stream from any point ends on the current snapshot, and a restart
shows exactly what was shown before it."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st

from device.store import EventStore
from device.table import LiveTable
from engine.core import IllegalAction
from test_store_toygame import games, race_spec, referees

steps = st.lists(st.one_of(
    st.tuples(st.just("add"), st.integers(0, 2), st.integers(0, 3)),
    st.tuples(st.just("pad"), st.integers(0, 3), st.booleans()),
    st.just(("score",)), st.just(("undo",)), st.just(("new",)), st.just(("restart",)),
    st.tuples(st.just("camera"), st.sampled_from(["ok", "lost"])),
    st.tuples(st.just("pause"), st.booleans())), min_size=1, max_size=25)


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=steps, keep=st.integers(1, 8))
def test_the_stream_never_skips_and_never_reuses(tmp_path_factory, steps, keep):
    db = tmp_path_factory.mktemp("prop") / "table.sqlite3"
    store = EventStore(db)
    table = LiveTable(store, games=games, referees=referees, keep_events=keep)
    table.new_match(race_spec().to_json(), "host")
    given_out = [table.snapshot()["seq"]]
    followers = {0: 0}            # a subscriber joining at each point: its last seq
    try:
        for step in steps:
            before = table.snapshot()
            try:
                if step[0] == "add":
                    table.submit({"type": "add", "seat": step[1], "n": step[2]}, "host")
                elif step[0] == "pad":
                    table.observe({"type": "pad", "seat": step[1], "held": step[2]}, "web")
                elif step[0] in ("score", "undo"):
                    table.submit({"type": step[0]}, "host")
                elif step[0] == "new":
                    table.new_match(race_spec().to_json(), "web")
                elif step[0] == "camera":
                    table.set_status(camera=step[1])
                elif step[0] == "pause":
                    table.set_camera_paused(step[1])
                else:
                    store.close()
                    store = EventStore(db)
                    table = LiveTable(store, games=games, referees=referees, keep_events=keep)
                    after = table.snapshot()
                    assert (after["seq"], after["match"], after["view"]) == \
                        (before["seq"], before["match"], before["view"])
                    continue
            except IllegalAction:
                assert table.snapshot() is before          # a refusal publishes nothing
                continue
            now = table.snapshot()["seq"]
            if now != before["seq"]:
                assert now > max(given_out)
                given_out.append(now)
            followers[len(followers)] = before["seq"]
            for who, last in list(followers.items()):     # everyone catches up
                events = table.events_since(last, 0)
                seqs = [e["seq"] for e in events]
                assert seqs == sorted(set(seqs)) and all(s > last for s in seqs)
                if now > last:
                    assert events and events[-1]["snapshot"] is table.snapshot()
                    followers[who] = seqs[-1]
                else:
                    assert events == []
    finally:
        store.close()
