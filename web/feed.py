"""What happened so far in the match, in words: the engine's notices for every action
still in effect, newest first (the phone's "recent plays").

The log rows (TableService.match_rows) are folded through the engine's own Timeline
once, incrementally: only the rows after those already applied are read from the log
(each change's phone page is rendered on the way to the phones: reading the whole log
again cost 0.5 ms at 40 rows, 0.8 ms at 170, and grew with the match), each new row is
applied, an undo takes back the notices of the action it undoes. One `NoticeFeed` per
app; it is rebuilt when the match changes.
"""
from __future__ import annotations

import threading
from typing import Any, Mapping

from engine.core import IllegalAction, MatchSpec, Undo, parse_action
from engine.games import get_game
from engine.log import Timeline


class NoticeFeed:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._match_id: Any = None
        self._timeline: Timeline | None = None
        self._groups: list[tuple[int, str, list[dict[str, Any]]]] = []  # (seq, source, notices)
        self._applied = 0

    def recent(self, table: Any, snapshot: Mapping[str, Any], limit: int = 12) -> list[dict[str, Any]]:
        """Up to `limit` notices of actions in effect up to the snapshot's seq, newest
        first: {"code", "text", "seats", "source"}. Empty if the log cannot be read."""
        match = snapshot.get("match")
        if not match:
            return []
        upto = int(snapshot.get("seq", 0))
        with self._lock:
            try:
                self._catch_up(table, match, upto)
            except (IllegalAction, KeyError, ImportError, AttributeError, ValueError):
                self._match_id = None  # start again next time
                return []
            out: list[dict[str, Any]] = []
            for seq, source, notices in reversed(self._groups):
                if seq > upto:
                    continue
                out.extend({**n, "source": source} for n in reversed(notices))
                if len(out) >= limit:
                    break
            return out[:limit]

    def _catch_up(self, table: Any, match: Mapping[str, Any], upto: int) -> None:
        if match.get("id") != self._match_id or self._timeline is None:
            game = get_game(match["game"])
            spec = MatchSpec.from_json({"type": "start", "game": match["game"],
                                        "seats": match.get("seats") or [],
                                        "settings": match.get("settings") or {}})
            self._timeline = Timeline(game, spec)
            self._match_id = match.get("id")
            self._groups, self._applied = [], 0
        rows = table.match_rows(match["id"], self._applied)
        for row in rows:
            if int(row["seq"]) > upto:
                break   # a later change's (read next time): its undo would take back what this one shows
            action = parse_action(row["action"], self._timeline.game.actions)
            notices = self._timeline.apply(action)
            if isinstance(action, Undo):
                if self._groups:
                    self._groups.pop()
            else:
                self._groups.append((int(row["seq"]), str(row.get("source", "")),
                                     [n.to_json() for n in notices]))
            self._applied = int(row["match_seq"])
