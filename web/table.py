"""The interface the web layer needs from the running table (the seam between `web`
and `device`). `device.table.LiveTable` implements it on the SQLite event store; the web
app only ever talks to this interface, so it imports nothing from `device`.

Sequence numbers: every change the screens must see (an accepted action, an undo, a new
match, a status change of the camera or pads) gets the next `seq`, a whole number that
only grows, across matches and restarts. Server-Sent Events use it as the event id, so a
phone that reconnects with Last-Event-ID gets exactly what it missed.
"""
from __future__ import annotations

from typing import Any, Protocol


class TableService(Protocol):
    def snapshot(self) -> dict[str, Any]:
        """The whole picture now:
        {"seq": int,
         "match": {"id", "game", "seats": [{"name", "colour"}], "settings", "started_at"} | None,
         "view": the game's view (engine.core.Game.view) | None,
         "notices": [{"code", "text", "seats"}] (what the last change said),
         "status": {"camera": "ok" | "lost" | "paused" | "none", "pads": "gpio" | "mock" | "none", ...},
         "last": {"action": JSON, "seat": whose (or None), "row": the match's row count}
                 | None (the last action in effect: what Undo would take back),
         "change": {"seq", "kind", "source", "type", ...} | None (the latest change
                   someone made: "undone"/"now"/"done" entries like "last")}
        """

    def events_since(self, seq: int, timeout: float) -> list[dict[str, Any]]:
        """Changes with a seq greater than `seq`, oldest first, each
        {"seq": int, "kind": "action" | "undo" | "match" | "status", "snapshot": snapshot()}
        — waiting up to `timeout` seconds for one if there is none yet (then []).
        Events older than what is kept may be folded into one event with the latest
        snapshot; no change is ever silently skipped."""

    def new_match(self, spec: dict[str, Any], source: str,
                  end_running: bool = False) -> dict[str, Any]:
        """Start a match from a start line (engine.core.MatchSpec JSON); returns snapshot().
        With `end_running` the match on the table is ended first (logged EndMatch).
        Raises engine.core.IllegalAction with a reason in words."""

    def rematch(self, source: str) -> dict[str, Any]:
        """The finished match again: same game, seats and settings, the next dealer."""

    def enter_card(self, card: str, seat: int | None, source: str) -> dict[str, Any]:
        """A card named by hand: where the referee expects it (seat None) or at `seat`.
        Returns like submit."""

    def correct_card(self, card: str, source: str) -> dict[str, Any]:
        """Replace the card of the last action in effect (logged: undo, then the same
        action with `card`). Returns like submit; IllegalAction if the last is no card."""

    def report(self, fields: dict[str, Any], source: str, what: dict[str, Any]) -> None:
        """A status change someone made (a seat taken or taken back), shown as one."""

    def submit(self, action: dict[str, Any], source: str) -> dict[str, Any]:
        """Apply one action (JSON, including {"type": "undo"}) to the current match and log
        it with its source ("host", "pad", "camera", "bot"); returns
        {"seq": int, "notices": [...]}. Raises IllegalAction and logs nothing if refused."""

    def observe(self, observation: dict[str, Any], source: str) -> dict[str, Any]:
        """A table observation from a web page (virtual pad: {"type": "pad", "seat": n,
        "held": bool}); the service stamps the time and runs it through the game's table
        referee. Returns {"seq": int, "notices": [...]}; raises IllegalAction."""

    def history(self) -> list[dict[str, Any]]:
        """Finished and unfinished matches, newest first: {"id", "game", "seats",
        "started_at", "ended_at" | None, "totals", "winners"}."""

    def match_rows(self, match_id: int, after: int = 0) -> list[dict[str, Any]]:
        """Every log row of one match (undone ones too) whose match_seq is above `after`
        (rows are numbered 1, 2, 3, ... within a match), oldest first:
        {"seq", "match_seq", "t" (ISO time), "source", "action" (JSON)}. Raises KeyError."""

    def players(self) -> list[dict[str, Any]]:
        """Saved player profiles: {"name", "colour"}."""

    def save_player(self, name: str, colour: str) -> None: ...

    def player_records(self) -> list[dict[str, Any]]:
        """Wins, matches and each game's figures per player, from the finished matches'
        logs: {"name", "matches", "wins", "games": {game: {"matches", "wins", "best",
        "figures": {figure: sum}}}}."""

    def set_camera_paused(self, paused: bool) -> None: ...
