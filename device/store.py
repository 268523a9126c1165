"""The event log: an append-only SQLite store of players, matches and every action.

What lives here:

* `EventStore` — the SQLite file (stdlib `sqlite3`). Tables: `players` (saved
  profiles), `matches` (game, start line, start/end time, final totals and winners),
  `events` (the one global sequence: every action, undo, new match and table status
  change gets the next `seq`) and `actions` (one row per accepted action, undos
  included: global `seq`, match id, per-match `match_seq`, wall time, source, JSON),
  plus `checkpoints` (see `MatchTimeline`). No row of the log is ever updated or
  deleted; only a match's summary columns are rewritten, in the same transaction as
  each action row, so they always equal the fold of its actions.
* `OpenMatch` — one match's timeline bound to its rows: the state of a match is always
  the fold of its log. `OpenMatch.submit` validates before logging: the actions are
  applied in memory first, the rows are committed only if the engine accepted all of
  them, and a failed commit puts the timeline back. A refused action logs nothing and
  changes nothing. `OpenMatch.resume` folds the rows of a match again (after a restart
  every unfinished match resumes exactly where it was).
* `MatchTimeline` — `engine.log.Timeline`'s fold and undo, able to start from a
  checkpoint: every `OpenMatch.checkpoint_every` rows the folded state is saved beside
  the rows (a cache stamped with a fingerprint of the engine code, never the truth), so
  a resume folds at most that many rows; an undo below the checkpoint folds the earlier
  rows back in.

Durability: the store runs in WAL mode with `synchronous=FULL`. In WAL mode `NORMAL`
only syncs the WAL at checkpoints, so a power cut can lose the last transactions even
though `COMMIT` returned; `FULL` fsyncs the WAL at every commit, so an action that was
acknowledged to its caller survives kill -9 and power loss. The cost is one fsync per
accepted action, a few milliseconds on an SD card, which a card table never notices
(docs/store.md has the figures).

Threads: one connection shared by all threads, every use guarded by one lock (the web
server is threaded; SQLite would serialise the writers anyway).

What does not live here: the rules (engine), what the screens are told and when
(`device.table`), and the command line (`device.commands`).
"""
from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import engine.log  # noqa: F401  (its folder is part of every engine fingerprint)
from engine.core import Action, Game, IllegalAction, MatchSpec, Notice, Undo, parse_action
from engine.games import get_game
from engine.serial import from_jsonable, to_jsonable
from engine.untrusted import displayable_json, encodable, json_problem
from engine.log import Timeline, undone_notice
from engine.stats import match_statistics

SCHEMA_VERSION = 1
SOURCES = ("camera", "pad", "host", "bot", "web")
EVENT_KINDS = ("action", "undo", "match", "status")

_SCHEMA = f"""
CREATE TABLE players (
    name TEXT PRIMARY KEY,
    colour TEXT NOT NULL DEFAULT ''
);
CREATE TABLE matches (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    spec TEXT NOT NULL,
    source TEXT NOT NULL,
    started_at TEXT NOT NULL,
    ended_at TEXT,
    totals TEXT NOT NULL DEFAULT '[]',
    winners TEXT NOT NULL DEFAULT '[]'
);
CREATE TABLE events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL CHECK (kind IN ({", ".join(repr(k) for k in EVENT_KINDS)})),
    match_id INTEGER REFERENCES matches(id),
    t TEXT NOT NULL,
    data TEXT
);
CREATE TABLE actions (
    seq INTEGER PRIMARY KEY REFERENCES events(seq),
    match_id INTEGER NOT NULL REFERENCES matches(id),
    match_seq INTEGER NOT NULL,
    t TEXT NOT NULL,
    source TEXT NOT NULL CHECK (source IN ({", ".join(repr(s) for s in SOURCES)})),
    action TEXT NOT NULL,
    UNIQUE (match_id, match_seq)
);
CREATE TABLE checkpoints (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    match_seq INTEGER NOT NULL,
    depth INTEGER NOT NULL,
    engine TEXT NOT NULL,
    state TEXT NOT NULL,
    PRIMARY KEY (match_id, match_seq)
);
CREATE INDEX matches_unfinished ON matches(id) WHERE ended_at IS NULL;
"""
_TABLES = {"players", "matches", "events", "actions", "checkpoints"}


class StoreError(Exception):
    """The store cannot be used: the message says why in English (for logs); `said` is
    why as a message ({"code", "params"}, web.messages "store.*") that a screen or a
    command says in its reader's language, where it was given."""

    def __init__(self, *args: Any, said: dict[str, Any] | None = None, **params: Any):
        super().__init__(*args, **params)
        self.said = said


class StoreLocked(StoreError):
    """Another process holds the database."""


class StoreCorrupt(StoreError):
    """The file is not a Deckhand store, or it is damaged."""


class StoreUnwritable(StoreError, IllegalAction):
    """The store cannot take a change now (its file is gone or replaced, read-only, the
    disk is full or failing): nothing was recorded. It is also an IllegalAction, so the
    camera and pad loops refuse the change and go on; the web answers 503."""

    http_status = 503

    def to_json(self) -> dict[str, Any]:
        """Why, as the screens say it: its message where it was given."""
        return self.said or super().to_json()


def _said(code: str, **params: Any) -> dict[str, Any]:
    return {"code": code, "params": params}


def _unwritable(path: str, text: str) -> dict[str, Any]:
    """Why SQLite could not write, as a message: the usual causes by name."""
    low = text.lower()
    if "readonly" in low or "read-only" in low:
        return _said("store.read_only", path=path)
    if "disk is full" in low:
        return _said("store.disk_full", path=path)
    if "disk i/o" in low:
        return _said("store.disk_failing", path=path)
    return _said("store.unwritable", path=path, why=text)


def _identity(path: str) -> tuple[int, int] | None:
    """(device, inode) of the file at `path`, None if there is none."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


_UNWRITABLE = ("readonly", "read-only", "disk i/o", "disk is full", "database or disk is full",
               "unable to open", "no such file", "attempt to write")


def iso_time(seconds: float) -> str:
    """Wall time as ISO 8601 in UTC with milliseconds (what the rows and screens show)."""
    return datetime.fromtimestamp(seconds, tz=timezone.utc).isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class ActionRow:
    """One row of a match's log."""

    seq: int
    match_id: int
    match_seq: int
    t: str
    source: str
    action: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "match_seq": self.match_seq, "t": self.t,
                "source": self.source, "action": self.action}


@dataclass(frozen=True)
class MatchRecord:
    """A match as the `matches` table has it."""

    id: int
    game: str
    spec: MatchSpec
    started_at: str
    ended_at: str | None
    totals: tuple[int, ...]
    winners: tuple[int, ...]

    @property
    def finished(self) -> bool:
        return self.ended_at is not None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "game": self.game,
                "seats": [{"name": s.name, "colour": s.colour} for s in self.spec.seats],
                "settings": dict(self.spec.settings), "started_at": self.started_at,
                "ended_at": self.ended_at, "totals": list(self.totals),
                "winners": list(self.winners)}


@dataclass(frozen=True)
class Event:
    """One entry of the global sequence."""

    seq: int
    kind: str
    match_id: int | None
    t: str
    data: dict[str, Any] | None


@dataclass(frozen=True)
class Summary:
    """What the `matches` row records of a match's current fold."""

    totals: tuple[int, ...]
    winners: tuple[int, ...]
    finished: bool


@dataclass(frozen=True)
class Checkpoint:
    """A match's state after `match_seq` rows, when `depth` actions were in effect, as
    JSON, stamped with the fingerprint of the engine code that folded it."""

    match_seq: int
    depth: int
    engine: str
    state: str


@contextmanager
def _translated(path: str) -> Iterator[None]:
    """sqlite3's errors as StoreErrors that say what to do."""
    try:
        yield
    except sqlite3.OperationalError as exc:
        text = str(exc)
        if any(word in text.lower() for word in _UNWRITABLE):
            error = StoreUnwritable(f"the store {path} cannot be written ({text})")
            error.said = _unwritable(path, text)
            raise error from exc
        if "locked" in text or "busy" in text:
            raise StoreLocked(f"the store {path} is locked by another process "
                              f"(is another Deckhand running?): {text}", said=_said("store.locked", path=path)) from exc
        if "malformed" in text or "not a database" in text:
            raise StoreCorrupt(f"the store {path} is damaged ({text}); move it aside "
                               f"to start a new one", said=_said("store.damaged", path=path)) from exc
        raise StoreError(f"the store {path} failed: {text}", said=_said("store.failed", path=path, why=text)) from exc
    except sqlite3.DatabaseError as exc:
        if isinstance(exc, sqlite3.IntegrityError):
            raise StoreError(f"the store {path} refused a row ({exc}); was it changed "
                             f"by another process?", said=_said("store.row_refused", path=path)) from exc
        raise StoreCorrupt(f"the store {path} is not a Deckhand store or is damaged "
                           f"({exc}); move it aside to start a new one",
                           said=_said("store.not_store", path=path)) from exc


class EventStore:
    """The SQLite file. Thread-safe; open it once per process."""

    def __init__(self, path: str | Path, *, wall_clock: Callable[[], float] = time.time,
                 busy_timeout: float = 5.0, check: bool = True, create: bool = True):
        """Open (or create) the store. `check` runs SQLite's `quick_check` first, which
        reads the whole file (about 25 ms for 1.5 MB here): damage is then reported at
        start, not in the middle of a match. `create=False` refuses a path where there
        is no file yet (a reader's mistyped path creates nothing)."""
        self.path = str(path)
        self._wall_clock = wall_clock
        self._lock = threading.RLock()
        if self.path != ":memory:" and not create and not Path(self.path).is_file():
            raise StoreError(f"there is no store at {self.path}", said=_said("store.none", path=self.path))
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        with _translated(self.path):
            self._conn = sqlite3.connect(self.path, timeout=busy_timeout,
                                         isolation_level=None, check_same_thread=False)
            try:
                self._setup(check)
            except BaseException:
                self._conn.close()
                raise
        self._identity = _identity(self.path) if self.path != ":memory:" else None

    def _setup(self, check: bool) -> None:
        conn = self._conn
        # Exclusive locking before WAL: the WAL index lives in this process's memory, not
        # in a shared -shm file mapped into it (a -shm file that is truncated or cannot be
        # written kills the process with SIGBUS), and no other process can write the file.
        conn.execute("PRAGMA locking_mode=EXCLUSIVE")
        verdict = conn.execute("PRAGMA quick_check").fetchone()[0] if check else "ok"
        if verdict != "ok":
            raise StoreCorrupt(f"the store {self.path} is damaged ({verdict}); move it aside "
                               f"to start a new one", said=_said("store.damaged", path=self.path))
        # Everything that can refuse the file is asked before the first write (the
        # switch to WAL rewrites the header): a foreign file is left byte for byte.
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = {name for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")} - {"sqlite_sequence"}
        if (version == 0 and tables) or (version and not _TABLES <= tables):
            raise StoreCorrupt(f"{self.path} is an SQLite file but not a Deckhand store",
                               said=_said("store.not_deckhand", path=self.path))
        if version > SCHEMA_VERSION:
            raise StoreError(f"the store {self.path} was written by a newer Deckhand "
                             f"(schema {version}, this one knows {SCHEMA_VERSION})",
                             said=_said("store.newer", path=self.path))
        mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if mode != "wal" and self.path != ":memory:":
            raise StoreError(f"the store {self.path} cannot use write-ahead logging "
                             f"(journal mode {mode!r}); put it on a local disk",
                             said=_said("store.no_wal", path=self.path))
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")
        if version == 0:
            # Statement by statement: executescript() would commit on its own.
            conn.execute("BEGIN IMMEDIATE")
            try:
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        conn.execute(statement)
                conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise

    # -- plumbing ------------------------------------------------------------------

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> "EventStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def now(self) -> str:
        return iso_time(self._wall_clock())

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One IMMEDIATE transaction; durable (fsynced) once the block returns, and in
        the file at the store's path: if that file is gone or another one (its folder
        was removed, the file replaced), the change is refused (StoreUnwritable) rather
        than acknowledged from a file nobody will open again."""
        with self._lock:
            self._check_identity()
            with _translated(self.path):
                self._conn.execute("BEGIN IMMEDIATE")
                try:
                    yield self._conn
                    self._check_identity()
                    self._conn.execute("COMMIT")
                except BaseException:
                    if self._conn.in_transaction:
                        self._conn.execute("ROLLBACK")
                    raise
            # the file may have gone between the check and the commit
            self._check_identity(committed=True)

    def _check_identity(self, committed: bool = False) -> None:
        if self._identity is None:
            return
        now = _identity(self.path)
        if now == self._identity:
            return
        lost = " (the change went to the removed file and is not kept)" if committed else ""
        if now is None:
            gone = not Path(self.path).parent.exists()
            where = "its folder is gone" if gone else "the file was removed"
            error = StoreUnwritable(f"the store {self.path} is missing: {where}{lost}")
            said = _said("store.folder_gone" if gone else "store.file_removed", path=self.path)
        else:
            error = StoreUnwritable(f"the store {self.path} was replaced by another file{lost}")
            said = _said("store.replaced", path=self.path)
        error.said = _said("store.change_lost", why=said) if committed else said
        raise error

    def writable(self) -> str | None:
        """None if the store at its path takes writes now, else why not, in English
        (writable_why says it as a message too)."""
        why = self.writable_why()
        return why[0] if why else None

    def writable_why(self) -> tuple[str, dict[str, Any] | None] | None:
        """None if the store at its path takes writes now, else why not: in English and
        as a message (StoreError.said). A store whose file was removed while open (its
        folder still there) is written back to its path from the open copy, and used
        again."""
        with self._lock:
            if self._identity is not None and _identity(self.path) is None \
                    and Path(self.path).parent.is_dir():
                try:
                    self._restore_file()
                except (OSError, sqlite3.Error) as exc:
                    return (f"the store {self.path} is missing and cannot be written back ({exc})",
                            _said("store.not_restored", path=self.path))
            try:
                with self._write() as conn:
                    conn.execute("UPDATE players SET colour = colour WHERE 0")
                    conn.execute("PRAGMA user_version=%d" % SCHEMA_VERSION)
            except StoreError as exc:
                return str(exc), exc.said
            return None

    def _restore_file(self) -> None:
        """Write the open (unlinked) database back to the store's path and use it."""
        tmp = f"{self.path}.restoring"
        copy = sqlite3.connect(tmp, isolation_level=None)
        try:
            self._conn.backup(copy)
            copy.execute("PRAGMA journal_mode=WAL")
        finally:
            copy.close()
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp, self.path)
        for suffix in ("-wal", "-shm"):
            try:
                os.remove(tmp + suffix)
            except OSError:
                pass
        old = self._conn
        self._conn = sqlite3.connect(self.path, timeout=old.execute("PRAGMA busy_timeout").fetchone()[0] / 1000,
                                     isolation_level=None, check_same_thread=False)
        self._setup(check=False)
        self._identity = _identity(self.path)
        old.close()

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        with self._lock, _translated(self.path):
            return self._conn.execute(sql, params).fetchall()

    # -- players ---------------------------------------------------------------------

    def players(self) -> list[dict[str, str]]:
        return [{"name": n, "colour": c}
                for n, c in self._read("SELECT name, colour FROM players ORDER BY name")]

    def save_player(self, name: str, colour: str) -> None:
        name = name.strip()
        if not name:
            raise IllegalAction("player_no_name")
        if not (encodable(name) and encodable(colour)):
            raise IllegalAction("player_bad_text")
        with self._write() as conn:
            conn.execute("INSERT INTO players(name, colour) VALUES (?, ?) "
                         "ON CONFLICT(name) DO UPDATE SET colour = excluded.colour",
                         (name, colour))

    # -- matches ---------------------------------------------------------------------

    def create_match(self, spec: MatchSpec, source: str,
                     summary: Summary) -> tuple[MatchRecord, int]:
        """Record a new match; returns it and the seq of its "match" event."""
        _check_source(source)
        problem = json_problem(spec.to_json())
        if problem:
            raise IllegalAction(f"the match cannot start: {problem}")
        t = self.now()
        with self._write() as conn:
            cur = conn.execute(
                "INSERT INTO matches(game, spec, source, started_at, totals, winners) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (spec.game, json.dumps(spec.to_json()), source, t,
                 json.dumps(list(summary.totals)), json.dumps(list(summary.winners))))
            match_id = cur.lastrowid
            seq = conn.execute("INSERT INTO events(kind, match_id, t) VALUES ('match', ?, ?)",
                               (match_id, t)).lastrowid
            if summary.finished:
                conn.execute("UPDATE matches SET ended_at = ? WHERE id = ?", (t, match_id))
        return self.match(match_id), seq

    def append(self, match_id: int, next_match_seq: int,
               entries: Sequence[tuple[dict[str, Any], str]], summary: Summary,
               checkpoint: Checkpoint | None = None) -> list[ActionRow]:
        """Commit action rows (JSON, source) numbered from `next_match_seq`, the match's
        new summary and, if given, a checkpoint of the state after them, in one durable
        transaction."""
        for _, source in entries:
            _check_source(source)
        t = self.now()
        rows = []
        with self._write() as conn:
            ended = conn.execute("SELECT ended_at FROM matches WHERE id = ?",
                                 (match_id,)).fetchone()
            if ended is None:
                raise KeyError(f"no match {match_id}")
            for i, (action, source) in enumerate(entries):
                kind = "undo" if action.get("type") == Undo.kind else "action"
                seq = conn.execute("INSERT INTO events(kind, match_id, t) VALUES (?, ?, ?)",
                                   (kind, match_id, t)).lastrowid
                conn.execute("INSERT INTO actions(seq, match_id, match_seq, t, source, action) "
                             "VALUES (?, ?, ?, ?, ?, ?)",
                             (seq, match_id, next_match_seq + i, t, source,
                              json.dumps(action, separators=(",", ":"))))
                rows.append(ActionRow(seq, match_id, next_match_seq + i, t, source, action))
            ended_at = (ended[0] or t) if summary.finished else None
            conn.execute("UPDATE matches SET totals = ?, winners = ?, ended_at = ? WHERE id = ?",
                         (json.dumps(list(summary.totals)), json.dumps(list(summary.winners)),
                          ended_at, match_id))
            if checkpoint is not None:
                self._insert_checkpoint(conn, match_id, checkpoint)
        return rows

    def action_texts(self, match_id: int, after: int = 0) -> list[tuple[int, str]]:
        """(match_seq, action JSON text) of a match's rows after `after`, oldest first."""
        return self._read("SELECT match_seq, action FROM actions WHERE match_id = ? AND "
                          "match_seq > ? ORDER BY match_seq", (match_id, after))

    # -- checkpoints: a cache of folded states, never the truth ----------------------

    def save_checkpoint(self, match_id: int, checkpoint: Checkpoint) -> None:
        with self._write() as conn:
            self._insert_checkpoint(conn, match_id, checkpoint)

    @staticmethod
    def _insert_checkpoint(conn: sqlite3.Connection, match_id: int, cp: Checkpoint) -> None:
        conn.execute("INSERT OR REPLACE INTO checkpoints(match_id, match_seq, depth, engine, state) "
                     "VALUES (?, ?, ?, ?, ?)", (match_id, cp.match_seq, cp.depth, cp.engine, cp.state))

    def latest_checkpoint(self, match_id: int, engine: str) -> Checkpoint | None:
        """The newest checkpoint of a match made by this very engine code."""
        found = self._read("SELECT match_seq, depth, engine, state FROM checkpoints "
                           "WHERE match_id = ? AND engine = ? ORDER BY match_seq DESC LIMIT 1",
                           (match_id, engine))
        return Checkpoint(*found[0]) if found else None

    def match(self, match_id: int) -> MatchRecord:
        found = self._read("SELECT id, game, spec, started_at, ended_at, totals, winners "
                           "FROM matches WHERE id = ?", (match_id,))
        if not found:
            raise KeyError(f"no match {match_id}")
        return _record(found[0])

    def matches(self) -> list[MatchRecord]:
        """Every match, newest first."""
        return [_record(r) for r in self._read(
            "SELECT id, game, spec, started_at, ended_at, totals, winners "
            "FROM matches ORDER BY id DESC")]

    def unfinished(self) -> list[MatchRecord]:
        """The matches that have not ended, oldest first."""
        return [_record(r) for r in self._read(
            "SELECT id, game, spec, started_at, ended_at, totals, winners "
            "FROM matches WHERE ended_at IS NULL ORDER BY id")]

    def rows(self, match_id: int, after: int = 0) -> list[ActionRow]:
        """Every row of a match (undone ones and undos too) after its first `after`,
        oldest first."""
        with self._lock:
            self.match(match_id)
            found = self._read("SELECT seq, match_id, match_seq, t, source, action FROM actions "
                               "WHERE match_id = ? AND match_seq > ? ORDER BY match_seq", (match_id, after))
        return [ActionRow(s, m, ms, t, src, _loads(a)) for s, m, ms, t, src, a in found]

    # -- the global sequence ------------------------------------------------------

    def record_status(self, fields: dict[str, Any], at_least: int = 0) -> int:
        """Log a change of the table's status (camera, pads); returns its seq, which is
        `at_least` or more (seqs the screens were shown while the store was down)."""
        with self._write() as conn:
            seq = max(at_least, conn.execute("SELECT coalesce(max(seq), 0) + 1 FROM events").fetchone()[0])
            return conn.execute("INSERT INTO events(seq, kind, t, data) VALUES (?, 'status', ?, ?)",
                                (seq, self.now(), json.dumps(fields))).lastrowid

    def record_match_event(self, match_id: int) -> int:
        """Log that the table turned to another (existing) match; returns its seq."""
        self.match(match_id)
        with self._write() as conn:
            return conn.execute("INSERT INTO events(kind, match_id, t) VALUES ('match', ?, ?)",
                                (match_id, self.now())).lastrowid

    def last_event(self) -> Event | None:
        found = self._read("SELECT seq, kind, match_id, t, data FROM events "
                           "ORDER BY seq DESC LIMIT 1")
        if not found:
            return None
        seq, kind, match_id, t, data = found[0]
        return Event(seq, kind, match_id, t, _loads(data) if data else None)


def _loads(text: str) -> Any:
    """A JSON column's value. Text a version before the edge checks let in as a lone
    surrogate (json.dumps keeps it as a \\udxxx escape) comes back as U+FFFD, so
    every screen and `deckhand replay` can show it."""
    value = json.loads(text)
    return displayable_json(value) if "\\ud" in text else value


def _check_source(source: str) -> None:
    if source not in SOURCES:
        raise IllegalAction(f"unknown source {source!r} (one of: {', '.join(SOURCES)})")


def _record(row: tuple) -> MatchRecord:
    match_id, game, spec, started_at, ended_at, totals, winners = row
    return MatchRecord(match_id, game, MatchSpec.from_json(_loads(spec)), started_at,
                       ended_at, tuple(json.loads(totals)), tuple(json.loads(winners)))


def summarize(view: dict[str, Any]) -> Summary:
    """Totals, winners and whether it is over, from a game's view of a state."""
    return Summary(tuple(view.get("totals", ())), tuple(view.get("winners", ())),
                   bool(view.get("finished", False)))



GameLookup = Callable[[str], Game]


@lru_cache(maxsize=None)
def engine_fingerprint(module_name: str) -> str:
    """A hash of the code that folds a game: the files of the game's package and of the
    shared engine. A checkpoint is only trusted by the very code that wrote it."""
    folder = Path(sys.modules[module_name].__file__).parent
    shared = Path(sys.modules["engine.log"].__file__).parent
    digest = hashlib.sha256()
    for path in sorted(set(folder.glob("*.py")) | set(shared.glob("*.py"))):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


class MatchTimeline(Timeline):
    """`engine.log.Timeline` that may start from a checkpoint: the actions folded into it
    are read back from the log only if an undo reaches below it (`earlier` returns them);
    a checkpoint that disagrees with them is a StoreError."""

    @property
    def before_last(self) -> Any:
        """The state before the last action in effect (None if that lies below the base)."""
        return self._states[-2] if len(self._states) > 1 else None

    def _base_disagrees(self) -> None:
        raise StoreError("a checkpoint disagrees with the log it was taken from")


def effective_actions(actions: Sequence[Action]) -> list[Action]:
    """The actions still in effect after the undos among `actions`."""
    kept: list[Action] = []
    for action in actions:
        if isinstance(action, Undo):
            kept.pop()
        else:
            kept.append(action)
    return kept


class OpenMatch:
    """One match being played: its timeline in memory, its rows in the store.

    Every `checkpoint_every` rows the folded state is saved beside them (a cache,
    checked against the engine code that wrote it), so resuming a long match folds at
    most that many rows. Not thread-safe by itself: `device.table.LiveTable`
    serialises its callers.
    """

    checkpoint_every = 500

    def __init__(self, store: EventStore, record: MatchRecord, timeline: MatchTimeline,
                 rows_logged: int):
        self.store = store
        self.record = record              # as the match started (id, game, spec, started_at)
        self.timeline = timeline
        self.rows_logged = rows_logged
        self.view = timeline.game.view(timeline.state)   # read-only: shared with screens
        self.summary = summarize(self.view)
        self._engine = engine_fingerprint(type(timeline.game).__module__)
        self._checkpoints = True

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def game(self) -> Game:
        return self.timeline.game

    @property
    def state(self) -> Any:
        return self.timeline.state

    @classmethod
    def start(cls, store: EventStore, spec: MatchSpec, source: str,
              games: GameLookup = get_game) -> tuple["OpenMatch", int]:
        """A new match (refused with IllegalAction before anything is written if the
        game or the spec is bad); returns it and the seq of its "match" event."""
        game = _lookup(games, spec.game)
        if not game.min_seats <= len(spec.seats) <= game.max_seats:
            raise IllegalAction("players_count", game=game.name, low=game.min_seats,
                                high=game.max_seats, count=len(spec.seats))
        timeline = MatchTimeline(game, spec)
        record, seq = store.create_match(spec, source, summarize(game.view(timeline.state)))
        return cls(store, record, timeline, 0), seq

    @classmethod
    def resume(cls, store: EventStore, match_id: int, games: GameLookup = get_game,
               use_checkpoints: bool = True) -> "OpenMatch":
        """Fold a match's rows again (from its latest checkpoint if there is a good one).
        Raises StoreError if a row no longer applies."""
        record = store.match(match_id)
        game = _lookup(games, record.game)
        engine = engine_fingerprint(type(game).__module__)
        parse = _Parser(game)
        checkpoint = store.latest_checkpoint(match_id, engine) if use_checkpoints else None
        timeline = None
        if checkpoint is not None:
            try:
                base = from_jsonable(game.state_type, _loads(checkpoint.state))
            except (ValueError, TypeError):
                checkpoint = None
            else:
                def earlier(upto: int = checkpoint.match_seq) -> list[Action]:
                    rows = store.action_texts(match_id)[:upto]
                    return effective_actions([parse(text) for _, text in rows])
                timeline = MatchTimeline(game, record.spec, base, checkpoint.depth, earlier)
        if timeline is None:
            timeline = MatchTimeline(game, record.spec)
        after = checkpoint.match_seq if checkpoint else 0
        rows = store.action_texts(match_id, after)
        for match_seq, text in rows:
            try:
                timeline.apply(parse(text))
            except IllegalAction as exc:
                raise StoreError(f"match {match_id}, row {match_seq} no longer applies: "
                                 f"{exc.reason}") from None
        match = cls(store, record, timeline, after + len(rows))
        if use_checkpoints and len(rows) >= cls.checkpoint_every:
            match._save_checkpoint()      # the next resume starts here
        return match

    def parse(self, data: Any) -> Action:
        return parse_action(data, self.game.actions)

    def submit(self, actions: Sequence[Action], source: str) -> tuple[list[ActionRow], tuple[Notice, ...]]:
        """Apply `actions` in order and log them; all or nothing.

        Raises IllegalAction (nothing logged, state unchanged) if the engine refuses
        any of them, or StoreError (state unchanged) if the rows cannot be committed.
        """
        _check_source(source)
        reverts: list[Action | None] = []   # None: undo it; an action: apply it again
        notices: list[Notice] = []
        try:
            for action in actions:
                if isinstance(action, Undo):
                    undone = self.timeline.undo()
                    notices.append(undone_notice(undone))
                    reverts.append(undone)
                else:
                    notices.extend(self.timeline.apply(action))
                    reverts.append(None)
            view = self.game.view(self.state)
            summary = summarize(view)
            logged = self.rows_logged + len(actions)
            checkpoint = None
            if logged // self.checkpoint_every > self.rows_logged // self.checkpoint_every:
                checkpoint = self._checkpoint(logged)
            rows = self.store.append(self.id, self.rows_logged + 1,
                                     [(a.to_json(), source) for a in actions], summary, checkpoint)
        except BaseException:
            for revert in reversed(reverts):
                if revert is None:
                    self.timeline.undo()
                else:
                    self.timeline.apply(revert)
            raise
        self.rows_logged = logged
        self.view, self.summary = view, summary
        return rows, tuple(notices)

    def _checkpoint(self, match_seq: int) -> Checkpoint | None:
        """The current state as a checkpoint, if it survives JSON exactly."""
        if not self._checkpoints:
            return None
        try:
            text = json.dumps(to_jsonable(self.state), separators=(",", ":"))
            exact = from_jsonable(self.game.state_type, json.loads(text)) == self.state
        except (ValueError, TypeError):
            exact = False
        if not exact:
            self._checkpoints = False   # this game's state cannot be checkpointed
            return None
        return Checkpoint(match_seq, self.timeline.depth, self._engine, text)

    def _save_checkpoint(self) -> None:
        checkpoint = self._checkpoint(self.rows_logged)
        if checkpoint is not None:
            self.store.save_checkpoint(self.id, checkpoint)


class _Parser:
    """parse_action with a memory: a long log repeats the same few hundred actions."""

    def __init__(self, game: Game):
        self._vocabulary = game.actions
        self._seen: dict[str, Action] = {}

    def __call__(self, text: str) -> Action:
        action = self._seen.get(text)
        if action is None:
            action = self._seen[text] = parse_action(_loads(text), self._vocabulary)
        return action


def _lookup(games: GameLookup, name: str) -> Game:
    try:
        return games(name)
    except (ImportError, AttributeError):
        raise IllegalAction("game_not_built", name=name) from None


def resume_unfinished(store: EventStore, games: GameLookup = get_game) -> list[OpenMatch]:
    """Every unfinished match, folded again, oldest first."""
    return [OpenMatch.resume(store, r.id, games) for r in store.unfinished()]


def player_records(store: EventStore) -> list[dict[str, Any]]:
    """Each player's record over the finished matches, from their logs: {"name",
    "matches", "wins", "games": {game: {"matches", "wins", "best", "figures": {figure:
    sum}}}}, most wins first. A player is a seat name; a log the rules now refuse is left
    out rather than guessed at."""
    records: dict[str, dict[str, Any]] = {}
    for match in store.matches():
        if not match.finished:
            continue
        try:
            stats = match_statistics(match.spec, [json.loads(t) for _, t in store.action_texts(match.id)])
        except (IllegalAction, KeyError, ValueError):
            continue
        for player in stats["players"]:
            rec = records.setdefault(player["name"], {"name": player["name"], "matches": 0,
                                                      "wins": 0, "games": {}})
            won = player["seat"] in stats["winners"]
            game = rec["games"].setdefault(match.game, {"matches": 0, "wins": 0, "best": None,
                                                         "figures": {}})
            rec["matches"] += 1
            rec["wins"] += won
            game["matches"] += 1
            game["wins"] += won
            points = player.get("points", 0)
            better = max if match.game != "hitthedeck" else min   # lowest wins Hit the Deck
            game["best"] = points if game["best"] is None else better(game["best"], points)
            for figure in stats["figures"]:
                if figure != "points":
                    game["figures"][figure] = game["figures"].get(figure, 0) + player.get(figure, 0)
    return sorted(records.values(), key=lambda r: (-r["wins"], -r["matches"], r["name"]))
