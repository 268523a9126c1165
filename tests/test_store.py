"""The event log (device/store.py): rows round-trip, undo is a row, refusals log nothing,
unfinished matches resume exactly, the global seq only grows, and bad files get clear
errors. Uses the test-only game Race (tests/test_store_toygame.py)."""
from __future__ import annotations

import json
import shutil
import sqlite3
import threading

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from device.store import (SCHEMA_VERSION, EventStore, OpenMatch, StoreCorrupt, StoreError,
                          StoreUnwritable,
                          StoreLocked, resume_unfinished)
from engine.core import EndMatch, IllegalAction, Undo
from engine.log import fold
from test_store_toygame import RACE, Add, Score, games, race_spec


@pytest.fixture
def db(tmp_path):
    return tmp_path / "deckhand.sqlite3"


def start(store, **kw):
    match, _ = OpenMatch.start(store, race_spec(**kw), "host", games)
    return match


def test_actions_round_trip_through_the_file(db):
    with EventStore(db, wall_clock=lambda: 1_700_000_000.25) as store:
        match = start(store)
        rows, _ = match.submit([Add(1, 2)], "pad")
        rows += match.submit([Add(2, 3), Score()], "host")[0]
        state = match.state
    assert [r.match_seq for r in rows] == [1, 2, 3]
    assert rows[0].seq < rows[1].seq < rows[2].seq
    with EventStore(db) as store:
        stored = store.rows(match.id)
        assert stored == rows
        assert [r.to_json() for r in stored][0] == {
            "seq": rows[0].seq, "match_seq": 1, "t": "2023-11-14T22:13:20.250+00:00",
            "source": "pad", "action": {"type": "add", "seat": 1, "n": 2}}
        again = OpenMatch.resume(store, match.id, games)
        assert again.state == state
        assert again.rows_logged == 3
        record = store.match(match.id)
    assert record.totals == (5, 0, 0) and record.ended_at is None
    assert record.spec == race_spec()


def test_undo_is_a_row_and_the_log_keeps_both(db):
    with EventStore(db) as store:
        match = start(store)
        before = match.state
        match.submit([Add(1, 1)], "pad")
        rows, notices = match.submit([Undo()], "host")
        assert match.state == before
        assert notices[0].code == "undo"
        assert rows[0].action == {"type": "undo"}
        assert [r.action["type"] for r in store.rows(match.id)] == ["add", "undo"]
        assert store.last_event().kind == "undo"
    with EventStore(db) as store:
        assert OpenMatch.resume(store, match.id, games).state == before


def test_nothing_to_undo_logs_nothing(db):
    with EventStore(db) as store:
        match = start(store)
        with pytest.raises(IllegalAction, match="nothing_to_undo"):
            match.submit([Undo()], "host")
        assert store.rows(match.id) == []


def test_a_refused_action_logs_nothing_and_changes_nothing(db):
    with EventStore(db) as store:
        match = start(store)
        match.submit([Add(1, 1)], "pad")
        state, last = match.state, store.last_event()
        with pytest.raises(IllegalAction, match="turn"):
            match.submit([Add(0, 1)], "pad")
        # All or nothing: the legal first action is not kept either.
        with pytest.raises(IllegalAction, match="1, 2 or 3"):
            match.submit([Add(2, 1), Add(0, 9)], "pad")
        assert match.state == state
        assert len(store.rows(match.id)) == 1
        assert store.last_event() == last
        with pytest.raises(IllegalAction, match="unknown source"):
            match.submit([Add(2, 1)], "telepathy")
        assert len(store.rows(match.id)) == 1


def test_a_failed_write_puts_the_timeline_back_and_the_store_comes_back_by_itself(tmp_path):
    db = tmp_path / "state" / "deckhand.sqlite3"
    with EventStore(db) as store:
        match = start(store)
        match.submit([Add(1, 1), Add(2, 1)], "pad")
        state = match.state
        shutil.rmtree(db.parent)   # the store's folder removed while it runs
        with pytest.raises(StoreUnwritable, match="missing: its folder is gone"):
            match.submit([Add(0, 1)], "pad")
        assert match.state == state
        with pytest.raises(StoreUnwritable):
            match.submit([Undo(), Undo()], "host")
        assert match.state == state
        assert "folder is gone" in store.writable()
        db.parent.mkdir()
        assert store.writable() is None   # written back to its path from the open copy
        match.submit([Undo()], "host")
        assert match.state == fold(RACE, race_spec(), [Add(1, 1)])
        assert OpenMatch.resume(store, match.id, games).state == match.state
    with EventStore(db) as again:   # everything is in the file at the configured path
        assert [r.action for r in again.rows(match.id)] == [
            Add(1, 1).to_json(), Add(2, 1).to_json(), Undo().to_json()]


def test_a_second_process_cannot_open_a_store_in_use(db):
    with EventStore(db) as store:
        start(store)
        with pytest.raises(StoreLocked, match="another process"):
            EventStore(db, busy_timeout=0.05)


def test_unfinished_matches_resume_exactly_and_finished_ones_are_summarised(db):
    with EventStore(db) as store:
        done = start(store, seats=2, target=3)
        done.submit([Add(1, 3), Score()], "host")
        assert done.summary.finished
        first = start(store)
        first.submit([Add(1, 2)], "pad")
        second = start(store, seats=4)
        second.submit([Add(1, 1), Add(2, 2), Undo(), Add(2, 3)], "pad")
        expected = {first.id: first.state, second.id: second.state}
    with EventStore(db) as store:
        resumed = resume_unfinished(store, games)
        assert {m.id: m.state for m in resumed} == expected
        record = store.match(done.id)
        assert record.ended_at is not None and record.totals == (3, 0)
        assert record.winners == (0,)
        history = store.matches()
        assert [m.id for m in history] == [second.id, first.id, done.id]
        assert history[2].to_json()["seats"] == [{"name": "P0", "colour": "c0"},
                                                 {"name": "P1", "colour": "c1"}]
        # Resumed matches carry on numbering their rows.
        rows, _ = resumed[0].submit([Add(2, 1)], "pad")
        assert rows[0].match_seq == 2


def test_undo_after_the_end_reopens_the_match(db):
    with EventStore(db) as store:
        match = start(store, seats=2, target=3)
        match.submit([Add(1, 3), Score()], "host")
        assert store.unfinished() == []
        match.submit([Undo()], "host")
        [record] = store.unfinished()
        assert record.ended_at is None and record.totals == (0, 0)
        match.submit([EndMatch()], "host")
        assert store.match(match.id).winners == (0, 1)


def test_a_bad_game_or_seat_count_writes_nothing(db):
    with EventStore(db) as store:
        with pytest.raises(IllegalAction, match="players_count") as refused:
            start(store, seats=5)
        assert refused.value.params == {"game": "race", "low": 2, "high": 4, "count": 5}
        with pytest.raises(IllegalAction, match="target"):
            start(store, target=0)
        with pytest.raises(IllegalAction, match="unknown game"):
            OpenMatch.start(store, race_spec().__class__("chess", race_spec().seats), "host", games)
        assert store.matches() == [] and store.last_event() is None


def test_seq_grows_across_matches_status_and_restarts(db):
    seqs = []
    with EventStore(db) as store:
        match, seq = OpenMatch.start(store, race_spec(), "host", games)
        seqs.append(seq)
        seqs.append(match.submit([Add(1, 1)], "pad")[0][0].seq)
        seqs.append(store.record_status({"camera": "lost"}))
    with EventStore(db) as store:
        seqs.append(store.record_status({"camera": "ok"}))
        seqs.append(OpenMatch.start(store, race_spec(), "web", games)[1])
        assert store.last_event().seq == seqs[-1] and store.last_event().kind == "match"
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)


def test_players_are_saved_and_updated(db):
    with EventStore(db) as store:
        store.save_player("Zoe", "red")
        store.save_player(" Ann ", "blue")
        store.save_player("Zoe", "green")
        with pytest.raises(IllegalAction, match="name"):
            store.save_player("  ", "red")
    with EventStore(db) as store:
        assert store.players() == [{"name": "Ann", "colour": "blue"},
                                   {"name": "Zoe", "colour": "green"}]


def test_rows_of_an_unknown_match_is_a_key_error(db):
    with EventStore(db) as store:
        with pytest.raises(KeyError):
            store.rows(42)
        with pytest.raises(KeyError):
            store.match(42)


def test_schema_version_and_crash_safe_settings(db):
    with EventStore(db) as store:
        conn = store._conn
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_a_store_from_a_newer_deckhand_is_refused(db):
    EventStore(db).close()
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(StoreError, match="newer Deckhand"):
        EventStore(db)


def test_garbage_and_foreign_files_are_refused_in_words(tmp_path):
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"this is not a database at all" * 200)
    with pytest.raises(StoreCorrupt, match="not a Deckhand store or is damaged"):
        EventStore(garbage)
    with pytest.raises(StoreCorrupt, match="not a Deckhand store or is damaged"):
        EventStore(garbage, check=False)          # found out on the first read anyway
    foreign = tmp_path / "foreign.sqlite3"
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE t(x)")
    conn.commit()
    conn.close()
    with pytest.raises(StoreCorrupt, match="not a Deckhand store"):
        EventStore(foreign)


def test_a_damaged_page_is_reported_as_damage(db):
    with EventStore(db) as store:
        match = start(store)
        for _ in range(200):
            match.submit([Add(match.state.turn, 1)], "pad")
        store._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(db.read_bytes())
    page = 4096
    for i in range(2 * page, min(len(data), 6 * page)):  # scribble over some b-tree pages
        data[i] = 0x5A
    db.write_bytes(bytes(data))
    with pytest.raises(StoreCorrupt, match="damaged"):
        EventStore(db)


def test_a_row_the_engine_no_longer_accepts_stops_the_resume(db):
    with EventStore(db) as store:
        match = start(store)
        match.submit([Add(1, 1)], "pad")
        store._conn.execute("UPDATE actions SET action = ? WHERE match_id = ?",
                            (json.dumps({"type": "add", "seat": 0, "n": 1}), match.id))
        with pytest.raises(StoreError, match=r"match \d+, row 1 no longer applies: it is seat 1"):
            OpenMatch.resume(store, match.id, games)


def test_threads_share_one_store(db):
    with EventStore(db) as store:
        seqs: list[int] = []
        errors: list[BaseException] = []

        def writer(i: int) -> None:
            try:
                for j in range(5):
                    seqs.append(store.record_status({"camera": f"{i}-{j}"}))
                    store.save_player(f"p{i}", f"{j}")
                    store.players()
            except BaseException as exc:  # pragma: no cover - reported below
                errors.append(exc)

        threads = [threading.Thread(target=writer, args=(i,)) for i in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        assert len(set(seqs)) == 30 and store.last_event().seq == max(seqs)
        assert len(store.players()) == 6


moves = st.lists(st.one_of(
    st.tuples(st.just("add"), st.integers(0, 3), st.integers(0, 4)),
    st.just(("score",)), st.just(("undo",)), st.just(("end",))), max_size=25)


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(moves=moves)
def test_replaying_the_stored_log_gives_the_same_state(tmp_path_factory, moves):
    db = tmp_path_factory.mktemp("prop") / "store.sqlite3"
    accepted = 0
    with EventStore(db) as store:
        match = start(store, seats=3, target=6)
        for move in moves:
            action = {"add": lambda: Add(move[1], move[2]), "score": Score, "undo": Undo,
                      "end": EndMatch}[move[0]]()
            before = match.state
            try:
                match.submit([action], "host")
                accepted += 1
            except IllegalAction:
                assert match.state == before
        state, summary = match.state, match.summary
    with EventStore(db) as store:
        assert len(store.rows(match.id)) == accepted
        again = OpenMatch.resume(store, match.id, games)
        assert again.state == state
        record = store.match(match.id)
        assert (record.totals, record.winners, record.finished) == \
            (summary.totals, summary.winners, summary.finished)
        assert sum(record.totals) == sum(sum(h) for h in state.progress.history)
