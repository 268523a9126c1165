"""Checkpoints of the event log: a resume that starts from a saved state gives exactly
the state of a full fold, undo still reaches below the checkpoint, and a checkpoint is
only trusted by the engine code that wrote it."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from device.store import EventStore, MatchTimeline, OpenMatch, StoreError
from engine.core import EndMatch, IllegalAction, Undo
from engine.log import Timeline
from test_store_toygame import RACE, Add, Race, Score, games, race_spec


@pytest.fixture
def every_3(monkeypatch):
    monkeypatch.setattr(OpenMatch, "checkpoint_every", 3)


def checkpoints(store, match_id):
    return store._read("SELECT match_seq, depth FROM checkpoints WHERE match_id = ? "
                       "ORDER BY match_seq", (match_id,))


def play(match, n):
    for _ in range(n):
        match.submit([Add(match.state.turn, 1)], "pad")


def test_a_checkpoint_is_written_every_n_rows_with_the_depth(tmp_path, every_3):
    with EventStore(tmp_path / "s.sqlite3") as store:
        match, _ = OpenMatch.start(store, race_spec(), "host", games)
        play(match, 2)
        match.submit([Undo(), Add(2, 2)], "pad")                     # rows 3 and 4
        play(match, 3)                                               # rows 5..7
        assert checkpoints(store, match.id) == [(4, 2), (6, 4)]


def test_resume_from_a_checkpoint_equals_the_full_fold_and_can_undo_to_the_start(tmp_path, every_3):
    db = tmp_path / "s.sqlite3"
    with EventStore(db) as store:
        match, _ = OpenMatch.start(store, race_spec(), "host", games)
        play(match, 8)
        states = [RACE.start(race_spec())]
        tl = Timeline(RACE, race_spec())
        for row in store.rows(match.id):
            tl.apply(match.parse(row.action))
            states.append(tl.state)
    with EventStore(db) as store:
        fast = OpenMatch.resume(store, match.id, games)
        full = OpenMatch.resume(store, match.id, games, use_checkpoints=False)
        assert fast.state == full.state == states[-1]
        assert fast.timeline._base_depth == 6          # started from the checkpoint at row 6
        for expected in reversed(states[:-1]):         # undo all the way back, below it
            fast.submit([Undo()], "host")
            assert fast.state == expected
        with pytest.raises(IllegalAction, match="nothing_to_undo"):
            fast.submit([Undo()], "host")


def test_a_checkpoint_from_other_engine_code_is_ignored(tmp_path, every_3):
    db = tmp_path / "s.sqlite3"
    with EventStore(db) as store:
        match, _ = OpenMatch.start(store, race_spec(), "host", games)
        play(match, 4)
        state = match.state
        store._conn.execute("UPDATE checkpoints SET engine = 'older', state = '{}'")
    with EventStore(db) as store:
        again = OpenMatch.resume(store, match.id, games)
        assert again.state == state and again.timeline._base_depth == 0


def test_a_checkpoint_that_disagrees_with_its_log_is_found_out_by_undo(tmp_path, every_3):
    db = tmp_path / "s.sqlite3"
    with EventStore(db) as store:
        match, _ = OpenMatch.start(store, race_spec(), "host", games)
        play(match, 3)
        store._conn.execute("UPDATE actions SET action = '{\"type\":\"add\",\"seat\":1,\"n\":3}' "
                            "WHERE match_seq = 1")
        again = OpenMatch.resume(store, match.id, games)
        with pytest.raises(StoreError, match="disagrees"):
            again.submit([Undo()], "host")


def test_a_state_that_does_not_survive_json_is_not_checkpointed(tmp_path, every_3):
    class Opaque(Race):
        state_type = dict          # rebuilding gives a dict, not the state: not exact

    opaque = Opaque()
    with EventStore(tmp_path / "s.sqlite3") as store:
        match, _ = OpenMatch.start(store, race_spec(), "host", lambda name: opaque)
        play(match, 7)
        assert checkpoints(store, match.id) == []
        assert OpenMatch.resume(store, match.id, lambda name: opaque).state == match.state


def test_a_long_resume_writes_a_checkpoint_for_the_next_one(tmp_path, every_3, monkeypatch):
    db = tmp_path / "s.sqlite3"
    with EventStore(db) as store:
        monkeypatch.setattr(OpenMatch, "checkpoint_every", 1000)
        match, _ = OpenMatch.start(store, race_spec(), "host", games)
        play(match, 5)
        assert checkpoints(store, match.id) == []
        monkeypatch.setattr(OpenMatch, "checkpoint_every", 3)
        OpenMatch.resume(store, match.id, games)
        assert checkpoints(store, match.id) == [(5, 5)]


def test_match_timeline_folds_like_the_engine_timeline():
    mine, theirs = MatchTimeline(RACE, race_spec()), Timeline(RACE, race_spec())
    for action in [Add(1, 2), Add(2, 1), Undo(), Add(2, 3), Score(), EndMatch(), Undo()]:
        assert mine.apply(action) == theirs.apply(action)
        assert mine.state == theirs.state and mine.depth == len(theirs.actions)


moves = st.lists(st.one_of(st.tuples(st.integers(0, 2), st.integers(1, 3)),
                           st.just("score"), st.just("undo")), max_size=30)


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(moves=moves, every=st.integers(1, 6), undos_after=st.integers(0, 12))
def test_checkpointed_resume_is_always_the_fold(tmp_path_factory, moves, every, undos_after):
    db = tmp_path_factory.mktemp("cp") / "s.sqlite3"
    reference = Timeline(RACE, race_spec(3, target=1000))
    original, OpenMatch.checkpoint_every = OpenMatch.checkpoint_every, every
    try:
        with EventStore(db) as store:
            match, _ = OpenMatch.start(store, race_spec(3, target=1000), "host", games)
            for move in moves:
                action = Undo() if move == "undo" else Score() if move == "score" else Add(*move)
                try:
                    match.submit([action], "pad")
                except IllegalAction:
                    continue
                reference.apply(action)
        with EventStore(db) as store:
            again = OpenMatch.resume(store, match.id, games)
            assert again.state == reference.state
            for _ in range(undos_after):
                try:
                    reference.apply(Undo())
                except IllegalAction:
                    with pytest.raises(IllegalAction):
                        again.submit([Undo()], "host")
                    break
                again.submit([Undo()], "host")
                assert again.state == reference.state
    finally:
        OpenMatch.checkpoint_every = original
