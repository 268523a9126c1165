"""The live table (device/table.py) as the web layer uses it (web/table.py's
TableService): snapshots, the event stream and its resume, blocking wake-ups, matches,
actions, undo, refusals, observations through the referee, status and records."""
from __future__ import annotations

import inspect
import threading
import time

import pytest

from device.store import EventStore
from device.table import LiveTable
from engine.core import IllegalAction
from engine.observations import CardSeen, PadPressed
from test_store_toygame import games, race_spec, referees
from web.table import TableService


class Clock:
    def __init__(self) -> None:
        self.now = 1_000

    def __call__(self) -> int:
        return self.now


@pytest.fixture
def db(tmp_path):
    return tmp_path / "table.sqlite3"


def open_table(db, **kw) -> tuple[LiveTable, EventStore]:
    store = EventStore(db)
    return LiveTable(store, games=games, referees=referees, **kw), store


@pytest.fixture
def table(db):
    table, store = open_table(db)
    yield table
    store.close()


SPEC = race_spec().to_json()


def test_it_has_every_method_of_the_table_service():
    for name, member in inspect.getmembers(TableService, inspect.isfunction):
        if name.startswith("_"):
            continue
        mine = getattr(LiveTable, name)
        assert list(inspect.signature(mine).parameters) == \
            list(inspect.signature(member).parameters), name


def test_an_empty_table_has_no_match(table):
    snap = table.snapshot()
    assert snap == {"seq": 0, "match": None, "view": None, "notices": [],
                    "status": {"camera": "none", "pads": "none"}, "last": None, "change": None, "stats": None}
    with pytest.raises(IllegalAction, match="no_match"):
        table.submit({"type": "add", "seat": 1, "n": 1}, "host")
    assert table.events_since(0, 0) == []


def test_a_match_starts_is_played_and_undone(table):
    snap = table.new_match(SPEC, "web")
    assert snap["match"]["game"] == "race" and snap["match"]["seats"][2] == {"name": "P2", "colour": "c2"}
    assert snap["view"]["turn"] == 1 and snap["notices"][0]["code"] == "match_started"
    start_seq = snap["seq"]
    out = table.submit({"type": "add", "seat": 1, "n": 3}, "host")
    assert out == {"seq": start_seq + 1, "notices": []}
    table.submit({"type": "add", "seat": 2, "n": 1}, "pad")
    out = table.submit({"type": "score"}, "host")
    assert out["notices"] == [{"code": "scored", "params": {}, "text": "Seat 0 scores 4", "seats": [0]}]
    assert table.snapshot()["view"]["totals"] == [4, 0, 0]
    out = table.submit({"type": "undo"}, "host")
    assert out["notices"][0]["code"] == "undo"
    assert table.snapshot()["view"]["totals"] == [0, 0, 0]
    events = table.events_since(start_seq, 0)
    assert [e["kind"] for e in events] == ["action", "action", "action", "undo"]
    assert [e["seq"] for e in events] == list(range(start_seq + 1, start_seq + 5))
    assert all(e["snapshot"]["seq"] == e["seq"] for e in events)
    assert events[2]["snapshot"]["view"]["table"]["pot"] == 0
    assert events[1]["snapshot"]["view"]["table"]["pot"] == 4


def test_refusals_log_nothing_and_publish_nothing(table):
    table.new_match(SPEC, "host")
    before = table.snapshot()
    for bad, reason in [({"type": "add", "seat": 0, "n": 1}, "turn"),
                        ({"type": "jump"}, "action_unknown"),
                        ({"type": "add", "seat": 1}, "action_missing_field"),
                        ({"type": "undo"}, "nothing_to_undo")]:
        with pytest.raises(IllegalAction, match=reason):
            table.submit(bad, "host")
    with pytest.raises(IllegalAction, match="unknown source"):
        table.submit({"type": "add", "seat": 1, "n": 1}, "ghost")
    assert table.snapshot() is before
    assert table.events_since(before["seq"], 0) == []
    assert table.match_rows(before["match"]["id"]) == []
    with pytest.raises(IllegalAction, match="players"):
        table.new_match(race_spec(seats=7).to_json(), "host")
    with pytest.raises(IllegalAction, match="start_not_start"):
        table.new_match({"game": "race"}, "host")
    assert table.snapshot() is before


def test_a_waiting_subscriber_wakes_when_something_happens(table):
    table.new_match(SPEC, "host")
    seq = table.snapshot()["seq"]
    got: list = []
    started = threading.Event()

    def phone() -> None:
        started.set()
        got.extend(table.events_since(seq, timeout=10))

    thread = threading.Thread(target=phone)
    t0 = time.monotonic()
    thread.start()
    started.wait()
    time.sleep(0.05)
    table.submit({"type": "add", "seat": 1, "n": 2}, "pad")
    thread.join(5)
    assert not thread.is_alive() and time.monotonic() - t0 < 5
    assert [e["seq"] for e in got] == [seq + 1]


def test_waiting_with_nothing_new_times_out_empty(table):
    t0 = time.monotonic()
    assert table.events_since(table.snapshot()["seq"], timeout=0.1) == []
    assert time.monotonic() - t0 >= 0.09


def test_many_subscribers_all_see_every_event(table):
    table.new_match(SPEC, "host")
    seq = table.snapshot()["seq"]
    results: dict[int, list[int]] = {}
    barrier = threading.Barrier(51)

    def phone(i: int) -> None:
        seen, last = [], seq
        barrier.wait()
        while len(seen) < 6:
            events = table.events_since(last, timeout=5)
            if not events:
                break
            seen += [e["seq"] for e in events]
            last = events[-1]["seq"]
        results[i] = seen

    threads = [threading.Thread(target=phone, args=(i,)) for i in range(50)]
    for t in threads:
        t.start()
    barrier.wait()
    for i in range(6):
        table.submit({"type": "add", "seat": (1 + i) % 3, "n": 1}, "pad")
    for t in threads:
        t.join(10)
    assert all(results[i] == list(range(seq + 1, seq + 7)) for i in range(50))


def test_old_events_fold_into_one_latest_snapshot(db):
    table, store = open_table(db, keep_events=3)
    with store:
        first = table.new_match(SPEC, "host")["seq"]
        for i in range(6):
            table.submit({"type": "add", "seat": (1 + i) % 3, "n": 1}, "pad")
        latest = table.snapshot()["seq"]
        assert [e["seq"] for e in table.events_since(latest - 3, 0)] == [latest - 2, latest - 1, latest]
        [folded] = table.events_since(first, 0)
        assert folded["seq"] == latest and folded["snapshot"] is table.snapshot()
        assert folded["snapshot"]["view"]["table"]["pot"] == 6


def test_a_phone_resumes_across_a_restart_with_last_event_id(db):
    table, store = open_table(db)
    table.new_match(SPEC, "host")
    table.submit({"type": "add", "seat": 1, "n": 2}, "pad")
    seen = table.snapshot()["seq"]          # the phone's Last-Event-ID
    table.submit({"type": "add", "seat": 2, "n": 3}, "pad")
    missed = table.snapshot()["seq"]
    view = table.snapshot()["view"]
    store.close()

    table, store = open_table(db)
    with store:
        snap = table.snapshot()
        assert snap["seq"] == missed and snap["view"] == view
        assert snap["match"]["game"] == "race"
        [event] = table.events_since(seen, 0)          # missed one change: told at once
        assert event["seq"] == missed and event["snapshot"]["view"]["table"]["pot"] == 5
        assert table.events_since(missed, 0) == []     # up to date: nothing
        out = table.submit({"type": "add", "seat": 0, "n": 1}, "pad")
        assert out["seq"] > missed
        assert [e["seq"] for e in table.events_since(missed, 0)] == [out["seq"]]


def test_an_id_from_another_store_gets_the_latest_snapshot(table):
    table.new_match(SPEC, "host")
    [event] = table.events_since(10_000, timeout=5)
    assert event["seq"] == table.snapshot()["seq"]


def test_pad_observations_go_through_the_referee_with_the_injected_clock(db):
    clock = Clock()
    calls = []

    class SpyReferee:
        @staticmethod
        def interpret(state, observation):
            calls.append(observation)
            return referees("race").interpret(state, observation)

    store = EventStore(db)
    table = LiveTable(store, games=games, referees=lambda name: SpyReferee,
                      monotonic_ns=clock)
    with store:
        table.new_match(SPEC, "host")
        clock.now = 123_456
        out = table.observe({"type": "pad", "seat": 1, "held": True}, "web")
        assert calls == [PadPressed(1, 123_456, True)]
        assert table.snapshot()["view"]["table"]["pot"] == 2
        [row] = table.match_rows(table.snapshot()["match"]["id"])
        assert row["seq"] == out["seq"] and row["source"] == "web"
        assert row["action"] == {"type": "add", "seat": 1, "n": 2}
        nothing = table.observe({"type": "tick"}, "host")
        assert nothing == {"seq": out["seq"], "notices": []}
        with pytest.raises(IllegalAction, match="without cards"):
            table.observe({"type": "card", "zone": "discard", "card": "R1"}, "web")
        with pytest.raises(IllegalAction, match="turn"):   # referee's action refused by the rules
            table.observe({"type": "pad", "seat": 0}, "web")
        with pytest.raises(IllegalAction, match="no_such_seat"):
            table.observe({"type": "pad", "seat": 9}, "web")
        with pytest.raises(IllegalAction, match="observation_timed"):
            table.observe({"type": "pad", "seat": 2, "t_ns": 5}, "web")
        with pytest.raises(IllegalAction, match="observation_unknown"):
            table.observe({"type": "wave"}, "web")
        assert len(table.match_rows(table.snapshot()["match"]["id"])) == 1


def test_a_game_without_a_referee_refuses_observations(db):
    store = EventStore(db)
    with store:
        table = LiveTable(store, games=games, referees=lambda name: __import__("no_such_referee"))
        table.new_match(SPEC, "host")
        with pytest.raises(IllegalAction, match="no_referee"):
            table.observe({"type": "pad", "seat": 1}, "web")


def test_status_changes_are_events_and_the_camera_can_be_paused(table):
    table.new_match(SPEC, "host")
    seq = table.snapshot()["seq"]
    table.set_status(camera="ok", pads="mock")
    table.set_status(camera="ok")                        # no change, no event
    table.set_camera_paused(True)
    assert table.snapshot()["status"] == {"camera": "paused", "pads": "mock"}
    table.set_status(camera="lost")                      # remembered, still shown paused
    assert table.snapshot()["status"]["camera"] == "paused"
    with pytest.raises(IllegalAction, match="paused"):
        table.observe_event(CardSeen("discard", "R1", 5), "camera")
    table.set_camera_paused(False)
    assert table.snapshot()["status"]["camera"] == "lost"
    assert [e["kind"] for e in table.events_since(seq, 0)] == ["status"] * 3
    assert table.snapshot()["view"]["turn"] == 1         # the match is still there


def test_history_rows_and_players(table):
    done = table.new_match(race_spec(seats=2, target=2).to_json(), "host")["match"]["id"]
    table.submit({"type": "add", "seat": 1, "n": 2}, "host")
    table.submit({"type": "score"}, "host")
    current = table.new_match(SPEC, "host")["match"]["id"]
    table.submit({"type": "add", "seat": 1, "n": 1}, "bot")
    table.submit({"type": "undo"}, "host")
    history = table.history()
    assert [h["id"] for h in history] == [current, done]
    assert history[1]["ended_at"] is not None and history[1]["winners"] == [0]
    assert history[1]["totals"] == [2, 0]
    assert history[0]["ended_at"] is None
    rows = table.match_rows(current)
    assert [(r["match_seq"], r["source"], r["action"]["type"]) for r in rows] == \
        [(1, "bot", "add"), (2, "host", "undo")]
    assert rows[0]["t"].endswith("+00:00")
    with pytest.raises(KeyError):
        table.match_rows(999)
    table.save_player("Ann", "purple")
    assert table.players() == [{"name": "Ann", "colour": "purple"}]


def test_an_earlier_match_can_be_put_back_on_the_table(table):
    first = table.new_match(SPEC, "host")["match"]["id"]
    table.submit({"type": "add", "seat": 1, "n": 3}, "pad")
    table.new_match(SPEC, "host")
    snap = table.resume_match(first)
    assert snap["match"]["id"] == first and snap["view"]["table"]["pot"] == 3
    assert table.events_since(snap["seq"] - 1, 0)[0]["kind"] == "match"


def test_a_match_that_cannot_be_resumed_does_not_stop_the_table(db):
    table, store = open_table(db)
    table.new_match(SPEC, "host")
    table.submit({"type": "add", "seat": 1, "n": 1}, "pad")
    store._conn.execute("UPDATE actions SET action = '{\"type\":\"add\",\"seat\":0,\"n\":1}'")
    store.close()
    table, store = open_table(db)
    with store:
        snap = table.snapshot()
        assert snap["match"] is None
        assert snap["notices"][0]["code"] == "resume_failed"
        assert snap["notices"][0]["params"]["why"]["code"] == "store_error"
        assert len(table.history()) == 1                 # nothing was lost
        assert table.new_match(SPEC, "host")["match"]["id"] == 2
