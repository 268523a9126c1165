"""The live table: the current match, what the screens see, and the stream of changes.

`LiveTable` implements `web.table.TableService` (structurally: `device` never needs
`web`, and `web` never imports `device`). It holds the current match's timeline in
memory (`device.store.OpenMatch`), turns observations into actions through the game's
table referee, logs every accepted action in the event store before anyone is told, and
wakes every waiting subscriber (an SSE stream per phone) with one `threading.Condition`.

Sequence numbers come from the store's `events` table: each accepted submission, new
match and status change is one durable row there, so a seq only grows, across matches
and restarts, and is never handed out twice. Events carry the seq of their last row
(an observation that becomes two actions is one event). The last `keep_events` events
are kept in memory, shared by all subscribers (50 phones cost no more than one); a
subscriber that asks for something older, or from before a restart, gets one event
with the latest snapshot, so no change is ever silently skipped.

Published snapshots, views and events are shared between threads: read them, never
change them. One `LiveTable` per store file, in one process (run the web server with
threads, not several worker processes): the timeline lives in its memory. A second
writer would be refused by the store (each match's row numbers are unique) rather than
fork the log.

What does not live here: the rules and referees (engine), persistence (device.store),
HTTP (web), the camera and pad drivers (they call `observe_event` and `set_status`).
"""
from __future__ import annotations

import importlib
import json
import logging
import threading
import time
from collections import deque
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from engine import observations as obs
import dataclasses

from engine.core import Action, EndMatch, IllegalAction, MatchSpec, Notice, Undo
from engine.games import get_game
from engine.serial import from_jsonable
from engine.stats import match_statistics

from device.store import (EventStore, GameLookup, OpenMatch, StoreError, StoreUnwritable,
                          player_records)

log = logging.getLogger("deckhand.table")

# The fields that name the card an action is about (a misread card is one of these).
CARD_FIELDS = ("card", "exposed_card", "starter")

# Observations a web page may send, by their JSON "type" (the service stamps t_ns).
WEB_OBSERVATIONS: dict[str, type] = {
    "pad": obs.PadPressed,
    "pad_release": obs.PadReleased,
    "card": obs.CardSeen,
    "cards": obs.CardsLaidOut,
    "zone_empty": obs.ZoneEmpty,
    "tick": obs.Tick,
}


def import_referee(game: str) -> Any:
    """The game's table referee module (`engine.<game>.referee`, with `interpret`)."""
    return importlib.import_module(f"engine.{game}.referee")


def card_field(action: Action) -> str | None:
    """The name of the field of `action` that holds a card, or None."""
    names = {f.name for f in dataclasses.fields(action)} if dataclasses.is_dataclass(action) else set()
    return next((n for n in CARD_FIELDS if n in names and isinstance(getattr(action, n), str)), None)


def observation_from_json(data: Any, t_ns: int) -> obs.Observation:
    """An engine observation from a web page's JSON, stamped with `t_ns`."""
    if not isinstance(data, dict):
        raise IllegalAction("observation_not_object")
    cls = WEB_OBSERVATIONS.get(data.get("type"))  # type: ignore[arg-type]
    if cls is None:
        raise IllegalAction("observation_unknown", name=str(data.get("type")))
    if "t_ns" in data:
        raise IllegalAction("observation_timed")
    fields = {k: v for k, v in data.items() if k != "type"}
    fields["t_ns"] = t_ns
    try:
        return from_jsonable(cls, fields)
    except ValueError as exc:
        raise IllegalAction("observation_bad", name=str(data["type"])) from None


class LiveTable:
    """The running table on top of an `EventStore`. Thread-safe.

    When the store cannot be written (StoreUnwritable: its file gone or replaced,
    read-only, disk full or failing) every change is refused in words, the status field
    "store" says why on every screen, the screens go on, and the table checks the store
    again (at most every `store_retry` seconds, from `tick` or the next change) and
    resumes by itself once a write goes through. Status changes meanwhile are shown
    with seqs not in the log; the first status row after the store is back takes a seq
    above them."""

    def __init__(self, store: EventStore, *, games: GameLookup = get_game,
                 referees: Callable[[str], Any] = import_referee,
                 monotonic_ns: Callable[[], int] = time.monotonic_ns,
                 keep_events: int = 256, status: dict[str, Any] | None = None,
                 store_retry: float = 2.0):
        self._store = store
        self._store_down: str | None = None
        self._store_why: dict[str, Any] | None = None   # the same, as a message for the screens
        self._store_retry = store_retry
        self._store_checked = 0.0
        self._games = games
        self._referee_lookup = referees
        self._referees: dict[str, Any] = {}
        self._monotonic_ns = monotonic_ns
        self._changed = threading.Condition(threading.RLock())
        self._events: deque[dict[str, Any]] = deque(maxlen=max(1, keep_events))
        self._status: dict[str, Any] = {"camera": "none", "pads": "none", **(status or {})}
        self._camera_reported = self._status["camera"]
        self._camera_paused = False
        self._notices: tuple[Notice, ...] = ()
        self._change: dict[str, Any] | None = None
        self._stats: tuple[tuple[int, int], dict[str, Any] | None] | None = None
        self._last: tuple[tuple[int, int], dict[str, Any] | None] | None = None
        self._match: OpenMatch | None = None
        matches = store.matches()
        if matches:
            try:
                self._match = OpenMatch.resume(store, matches[0].id, games)
            except (IllegalAction, StoreError) as exc:
                # Start anyway (the rows stay in the log); the screens say why.
                why = exc.to_json() if isinstance(exc, IllegalAction) else {
                    "code": "store_error", "params": {}}
                self._notices = (Notice("resume_failed", {"match": matches[0].id, "why": why}),)
        last = store.last_event()
        self._seq = last.seq if last else 0
        self._kind = last.kind if last else "match"
        self._horizon = self._seq   # events up to here are not in memory
        self._snapshot = self._build_snapshot()

    # -- what the screens read -------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        return self._snapshot

    def events_since(self, seq: int, timeout: float) -> list[dict[str, Any]]:
        with self._changed:
            if seq > self._seq:   # an id this table never gave out (another store)
                return [self._latest_event()]
            self._changed.wait_for(lambda: self._seq > seq, timeout=max(0.0, timeout))
            if self._seq <= seq:
                return []
            if seq < self._horizon:
                return [self._latest_event()]
            return [e for e in self._events if e["seq"] > seq]

    def _latest_event(self) -> dict[str, Any]:
        return {"seq": self._seq, "kind": self._kind, "snapshot": self._snapshot}

    @property
    def seq(self) -> int:
        return self._seq

    @property
    def current_match(self) -> OpenMatch | None:
        """The match on the table (for the device layer and bots; do not submit to it
        directly, use `submit_action`)."""
        return self._match

    @property
    def camera_paused(self) -> bool:
        return self._camera_paused

    # -- changes -----------------------------------------------------------------------

    def new_match(self, spec: dict[str, Any], source: str,
                  end_running: bool = False) -> dict[str, Any]:
        """Start a match; with `end_running`, first end the match on the table (logged
        as the host's EndMatch, so History shows it finished, not abandoned)."""
        parsed = MatchSpec.from_json(spec)
        with self._changed, self._writing():
            running = self._match
            if end_running and running is not None and not running.summary.finished:
                self._submit(running, (EndMatch(),), source)
            match, seq = OpenMatch.start(self._store, parsed, source, self._games)
            self._match = match
            self._notices = (Notice("match_started", {"game": match.game.name}),)
            self._publish(seq, "match", source, {"type": "start", "game": match.game.name})
            return self._snapshot

    def rematch(self, source: str) -> dict[str, Any]:
        """The same game, seats and settings again (the next dealer, where the start line
        names one). Refused while the match on the table is still being played."""
        with self._changed:
            match = self._require_match()
            if not match.summary.finished:
                raise IllegalAction("rematch_running")
            spec = match.record.spec.to_json()
            spec.pop("seed", None)
            dealer = getattr(match.record.spec, "dealer", None)
            if "dealer" in {f.name for f in dataclasses.fields(MatchSpec)}:
                spec["dealer"] = ((dealer or 0) + 1) % len(match.record.spec.seats)
            return self.new_match(spec, source)

    def enter_card(self, card: str, seat: int | None, source: str) -> dict[str, Any]:
        """A card named by hand, as if the camera saw it: in the flip spot (the referee
        gives it to whoever it expects), or in `seat`'s zone. Where the game reads cards
        only from the flip spot, a card for a chosen seat is that seat's "play"."""
        with self._changed:
            match = self._require_match()
            zone = obs.DISCARD if seat is None else f"seat:{seat}"
            before = self._seq
            result = self.observe_event(obs.CardSeen(zone, card, self._monotonic_ns()), source)
            if seat is None or result["seq"] != before:
                return result
            if "play" not in match.game.actions:
                raise IllegalAction("no_card_for_seat")
            return self._submit(match, (match.parse({"type": "play", "seat": seat, "card": card}),),
                                source)

    def correct_card(self, card: str, source: str) -> dict[str, Any]:
        """Replace the card of the last action in effect: logged as an undo and the same
        action with `card`, all or nothing (so a replay of the log reaches this state)."""
        with self._changed:
            match = self._require_match()
            actions = match.timeline.actions
            last = actions[-1] if actions else None
            name = card_field(last) if last is not None else None
            if name is None:
                raise IllegalAction("last_not_card")
            fixed = dataclasses.replace(last, **{name: card})
            return self._submit(match, (Undo(), fixed), source)

    def resume_match(self, match_id: int) -> dict[str, Any]:
        """Put an earlier match back on the table (raises KeyError if there is none)."""
        with self._changed, self._writing():
            match = OpenMatch.resume(self._store, match_id, self._games)
            seq = self._store.record_match_event(match_id)
            self._match = match
            self._notices = (Notice("match_resumed", {"match": match_id}),)
            self._publish(seq, "match")
            return self._snapshot

    def submit(self, action: dict[str, Any], source: str) -> dict[str, Any]:
        with self._changed:
            match = self._require_match()
            return self._submit(match, (match.parse(action),), source)

    def submit_action(self, action: Action, source: str) -> dict[str, Any]:
        """`submit` for Python callers (bots, the device layer) holding an action."""
        with self._changed:
            return self._submit(self._require_match(), (action,), source)

    def observe(self, observation: dict[str, Any], source: str) -> dict[str, Any]:
        return self.observe_event(observation_from_json(observation, self._monotonic_ns()),
                                  source)

    def observe_event(self, observation: obs.Observation, source: str) -> dict[str, Any]:
        """Run an observation (time already stamped) through the current game's referee
        and log what it means. Camera observations are refused while it is paused."""
        with self._changed:
            if source == "camera" and self._camera_paused:
                raise IllegalAction("camera_paused")
            match = self._require_match()
            seat = getattr(observation, "seat", None)
            if seat is not None and not 0 <= seat < len(match.record.spec.seats):
                raise IllegalAction("no_such_seat", number=seat + 1,
                                    count=len(match.record.spec.seats))
            actions = tuple(self._referee(match).interpret(match.state, observation))
            if not actions:
                return {"seq": self._seq, "notices": []}
            return self._submit(match, actions, source)

    def tick(self) -> dict[str, Any]:
        """Tell the referee the time now (closes slap windows and other timeouts); while
        the store cannot be written, look at it again instead."""
        if self._store_down is not None:
            with self._changed:
                self._recheck_store(force=False)
                if self._store_down is not None:
                    return {"seq": self._seq, "notices": []}
        if self._match is None:
            return {"seq": self._seq, "notices": []}
        return self.observe_event(obs.Tick(self._monotonic_ns()), "host")

    def set_status(self, **fields: Any) -> None:
        """The device layer reports the camera ("ok", "lost", "none") and pads ("gpio",
        "mock", "none"), or any other status field the screens show."""
        with self._changed:
            if "camera" in fields:
                self._camera_reported = fields["camera"]
                if self._camera_paused:
                    fields["camera"] = "paused"
            self._change_status(fields)

    def report(self, fields: dict[str, Any], source: str, what: dict[str, Any]) -> None:
        """A status change someone made (the host taking a seat back, a phone joining a
        seat): logged and shown like any status change, with who made it and what."""
        with self._changed, self._writing():
            seq = self._store.record_status(fields)
            self._status = {**self._status, **fields}
            self._publish(seq, "status", source, what)

    def set_camera_paused(self, paused: bool) -> None:
        with self._changed:
            self._camera_paused = bool(paused)
            self._change_status({"camera": "paused" if paused else self._camera_reported})

    # -- records -----------------------------------------------------------------------

    def history(self) -> list[dict[str, Any]]:
        return [m.to_json() for m in self._store.matches()]

    def match_rows(self, match_id: int, after: int = 0) -> list[dict[str, Any]]:
        return [r.to_json() for r in self._store.rows(match_id, after)]

    def players(self) -> list[dict[str, Any]]:
        return self._store.players()

    def save_player(self, name: str, colour: str) -> None:
        with self._changed, self._writing():
            self._store.save_player(name, colour)

    def player_records(self) -> list[dict[str, Any]]:
        return player_records(self._store)

    # -- inside ------------------------------------------------------------------------

    def _require_match(self) -> OpenMatch:
        if self._match is None:
            raise IllegalAction("no_match")
        return self._match

    def _referee(self, match: OpenMatch) -> Any:
        name = match.game.name
        if name not in self._referees:
            try:
                self._referees[name] = self._referee_lookup(name)
            except ImportError:
                raise IllegalAction("no_referee", game=name) from None
        return self._referees[name]

    def _submit(self, match: OpenMatch, actions: tuple[Action, ...], source: str) -> dict[str, Any]:
        undone = self._last_in_effect(match) if isinstance(actions[0], Undo) else None
        with self._writing():
            rows, notices = match.submit(actions, source)
        self._notices = notices
        kind = "undo" if isinstance(actions[-1], Undo) else "action"
        what: dict[str, Any] = {"type": actions[-1].kind}
        if kind == "undo":
            what["undone"] = undone
        elif isinstance(actions[0], Undo):
            what = {"type": "correct", "undone": undone, "now": self._last_in_effect(match)}
        else:
            what["done"] = self._last_in_effect(match)
        self._publish(rows[-1].seq, kind, source, what)
        return {"seq": rows[-1].seq, "notices": [n.to_json() for n in notices]}

    def _last_in_effect(self, match: OpenMatch) -> dict[str, Any] | None:
        """The last action still in effect, as the screens name it: {"action": JSON,
        "seat": whose it is (or None), "row": the match's row count when it was read}.
        Read once per row (a Flip 7 flip names its receiver from the state before it)."""
        key = (match.id, match.rows_logged)
        if self._last is None or self._last[0] != key:
            self._last = (key, self._read_last(match))
        return self._last[1]

    @staticmethod
    def _read_last(match: OpenMatch) -> dict[str, Any] | None:
        actions = match.timeline.actions
        if not actions:
            return None
        last = actions[-1]
        seat = getattr(last, "seat", None)
        if not isinstance(seat, int) or isinstance(seat, bool):
            seat = None
            before = match.timeline.before_last
            if before is not None:
                waiting = match.game.view(before).get("waiting") or {}
                seat = waiting.get("seat") if isinstance(waiting, dict) else None
        return {"action": last.to_json(), "seat": seat if isinstance(seat, int) else None,
                "row": match.rows_logged}

    def _change_status(self, fields: dict[str, Any]) -> None:
        changed = {k: v for k, v in fields.items() if self._status.get(k) != v}
        if not changed:
            return
        if self._store_down is None:
            try:
                seq = self._store.record_status(changed)
            except StoreUnwritable as exc:
                self._went_down(exc.reason, exc.said)
                seq = None
        else:
            seq = None
        self._status = {**self._status, **changed}
        # not in the log: the next seq is shown, and the store's next status row skips it
        self._publish(self._seq + 1 if seq is None else seq, "status")

    @property
    def store_problem(self) -> str | None:
        """Why the store cannot be written now (None while it can)."""
        return self._store_down

    @contextmanager
    def _writing(self) -> Iterator[None]:
        """Around every write: refuse at once while the store is down (after one more
        look at it), and go down when a write finds it unwritable."""
        if self._store_down is not None:
            self._recheck_store(force=True)
            if self._store_down is not None:
                raise StoreUnwritable("store_down", reason=self._store_why or self._store_down)
        try:
            yield
        except StoreUnwritable as exc:
            if getattr(exc, "told", False):   # from a nested write: already said
                raise
            self._went_down(exc.reason, exc.said)
            refusal = StoreUnwritable("store_down", reason=exc.said or exc.reason)
            refusal.told = True
            raise refusal from exc

    def _went_down(self, reason: str, why: dict[str, Any] | None = None) -> None:
        """The store cannot be written: `reason` in English (the log, the status "store"),
        `why` as a message (the status "store_why", said on the screens)."""
        log.error("the store cannot be written: %s; changes are refused until it can", reason)
        first = self._store_down is None
        self._store_down, self._store_why = reason, why
        self._store_checked = time.monotonic()
        if first or self._status.get("store") != reason:
            self._status = {**self._status, "store": reason, "store_why": why}
            self._publish(self._seq + 1, "status")

    def _recheck_store(self, force: bool) -> None:
        now = time.monotonic()
        if not force and now - self._store_checked < self._store_retry:
            return
        self._store_checked = now
        problem = self._store.writable_why()
        if problem is not None:
            if problem[0] != self._store_down:
                self._went_down(*problem)
            return
        try:
            seq = self._store.record_status({"store": "ok"}, at_least=self._seq + 1)
        except StoreUnwritable as exc:
            self._went_down(exc.reason, exc.said)
            return
        log.warning("the store can be written again; changes are taken again")
        self._store_down, self._store_why = None, None
        self._status = {**self._status, "store": "ok", "store_why": None}
        self._publish(seq, "status")

    def _publish(self, seq: int, kind: str, source: str | None = None,
                 what: dict[str, Any] | None = None) -> None:
        """Make a logged change visible: new snapshot, one event, wake the subscribers."""
        self._seq, self._kind = seq, kind
        if source is not None:
            self._change = {"seq": seq, "kind": kind, "source": source, **(what or {})}
        self._snapshot = self._build_snapshot()
        if len(self._events) == self._events.maxlen:
            self._horizon = self._events[0]["seq"]
        self._events.append({"seq": seq, "kind": kind, "snapshot": self._snapshot})
        self._changed.notify_all()

    def _build_snapshot(self) -> dict[str, Any]:
        match = self._match
        return {
            "seq": self._seq,
            "match": None if match is None else {
                "id": match.id, "game": match.game.name,
                "seats": [{"name": s.name, "colour": s.colour} for s in match.record.spec.seats],
                "settings": dict(match.record.spec.settings),
                "started_at": match.record.started_at},
            "view": None if match is None else match.view,
            "notices": [n.to_json() for n in self._notices],
            "status": dict(self._status),
            "last": None if match is None else self._last_in_effect(match),
            "change": self._change,
            "stats": self._match_stats(match),
        }

    def _match_stats(self, match: OpenMatch | None) -> dict[str, Any] | None:
        """The finished match's own figures (engine.stats, from its log), once per row."""
        if match is None or not match.summary.finished:
            return None
        key = (match.id, match.rows_logged)
        if self._stats is None or self._stats[0] != key:
            rows = [json.loads(text) for _, text in self._store.action_texts(match.id)]
            try:
                figures = match_statistics(match.record.spec, rows)
            except IllegalAction:
                figures = None
            self._stats = (key, figures)
        return self._stats[1]
