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
import threading
import time
from collections import deque
from typing import Any, Callable

from engine import observations as obs
from engine.core import Action, IllegalAction, MatchSpec, Notice, Undo
from engine.games import get_game
from engine.serial import from_jsonable

from device.store import EventStore, GameLookup, OpenMatch, StoreError

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


def observation_from_json(data: Any, t_ns: int) -> obs.Observation:
    """An engine observation from a web page's JSON, stamped with `t_ns`."""
    if not isinstance(data, dict):
        raise IllegalAction("an observation must be a JSON object")
    cls = WEB_OBSERVATIONS.get(data.get("type"))  # type: ignore[arg-type]
    if cls is None:
        raise IllegalAction(f"unknown observation type {data.get('type')!r} "
                            f"(known: {', '.join(WEB_OBSERVATIONS)})")
    if "t_ns" in data:
        raise IllegalAction("the table stamps the time of an observation itself")
    fields = {k: v for k, v in data.items() if k != "type"}
    fields["t_ns"] = t_ns
    try:
        return from_jsonable(cls, fields)
    except ValueError as exc:
        raise IllegalAction(f"bad {data['type']!r} observation: {exc}") from None


class LiveTable:
    """The running table on top of an `EventStore`. Thread-safe."""

    def __init__(self, store: EventStore, *, games: GameLookup = get_game,
                 referees: Callable[[str], Any] = import_referee,
                 monotonic_ns: Callable[[], int] = time.monotonic_ns,
                 keep_events: int = 256, status: dict[str, Any] | None = None):
        self._store = store
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
        self._match: OpenMatch | None = None
        matches = store.matches()
        if matches:
            try:
                self._match = OpenMatch.resume(store, matches[0].id, games)
            except (IllegalAction, StoreError) as exc:
                # Start anyway (the rows stay in the log); the screens say why.
                reason = exc.reason if isinstance(exc, IllegalAction) else str(exc)
                self._notices = (Notice("resume_failed", f"Match {matches[0].id} could not "
                                                         f"be resumed: {reason}"),)
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

    def new_match(self, spec: dict[str, Any], source: str) -> dict[str, Any]:
        parsed = MatchSpec.from_json(spec)
        with self._changed:
            match, seq = OpenMatch.start(self._store, parsed, source, self._games)
            self._match = match
            self._notices = (Notice("match_started", f"A new match of {match.game.title}"),)
            self._publish(seq, "match")
            return self._snapshot

    def resume_match(self, match_id: int) -> dict[str, Any]:
        """Put an earlier match back on the table (raises KeyError if there is none)."""
        with self._changed:
            match = OpenMatch.resume(self._store, match_id, self._games)
            seq = self._store.record_match_event(match_id)
            self._match = match
            self._notices = (Notice("match_resumed", f"Back to match {match_id}"),)
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
                raise IllegalAction("the camera is paused")
            match = self._require_match()
            seat = getattr(observation, "seat", None)
            if seat is not None and not 0 <= seat < len(match.record.spec.seats):
                raise IllegalAction(f"there is no seat {seat} at this table")
            actions = tuple(self._referee(match).interpret(match.state, observation))
            if not actions:
                return {"seq": self._seq, "notices": []}
            return self._submit(match, actions, source)

    def tick(self) -> dict[str, Any]:
        """Tell the referee the time now (closes slap windows and other timeouts)."""
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

    def set_camera_paused(self, paused: bool) -> None:
        with self._changed:
            self._camera_paused = bool(paused)
            self._change_status({"camera": "paused" if paused else self._camera_reported})

    # -- records -----------------------------------------------------------------------

    def history(self) -> list[dict[str, Any]]:
        return [m.to_json() for m in self._store.matches()]

    def match_rows(self, match_id: int) -> list[dict[str, Any]]:
        return [r.to_json() for r in self._store.rows(match_id)]

    def players(self) -> list[dict[str, Any]]:
        return self._store.players()

    def save_player(self, name: str, colour: str) -> None:
        self._store.save_player(name, colour)

    # -- inside ------------------------------------------------------------------------

    def _require_match(self) -> OpenMatch:
        if self._match is None:
            raise IllegalAction("no match is being played: start one first")
        return self._match

    def _referee(self, match: OpenMatch) -> Any:
        name = match.game.name
        if name not in self._referees:
            try:
                self._referees[name] = self._referee_lookup(name)
            except ImportError:
                raise IllegalAction(f"{match.game.title} has no table referee yet") from None
        return self._referees[name]

    def _submit(self, match: OpenMatch, actions: tuple[Action, ...], source: str) -> dict[str, Any]:
        rows, notices = match.submit(actions, source)
        self._notices = notices
        self._publish(rows[-1].seq, "undo" if isinstance(actions[-1], Undo) else "action")
        return {"seq": rows[-1].seq, "notices": [n.to_json() for n in notices]}

    def _change_status(self, fields: dict[str, Any]) -> None:
        changed = {k: v for k, v in fields.items() if self._status.get(k) != v}
        if not changed:
            return
        seq = self._store.record_status(changed)
        self._status = {**self._status, **changed}
        self._publish(seq, "status")

    def _publish(self, seq: int, kind: str) -> None:
        """Make a logged change visible: new snapshot, one event, wake the subscribers."""
        self._seq, self._kind = seq, kind
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
        }
