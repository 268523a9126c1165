"""The stores this machine has run with (a "known stores" note), so that a store that
existed and is missing at start is said loudly instead of silently begun anew.

The note is a text file, one line per store: its absolute path, a tab, when it was
first used. It lives outside the stores' folders (by default
`$XDG_STATE_HOME/deckhand/known-stores`, `~/.local/state/...`; the appliance's unit sets
`DECKHAND_KNOWN_STORES` to a state folder of its own), so removing a store's folder
does not remove what is known of it.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

ENV = "DECKHAND_KNOWN_STORES"


def default_note() -> Path:
    if os.environ.get(ENV):
        return Path(os.environ[ENV])
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "deckhand" / "known-stores"


@dataclass(frozen=True)
class KnownStores:
    note: Path

    def _entries(self) -> dict[str, str]:
        try:
            text = self.note.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return {}
        entries = {}
        for line in text.splitlines():
            path, _, since = line.partition("\t")
            if path:
                entries[path] = since
        return entries

    def missing(self, store: Path) -> dict | None:
        """What to say on the screens and in the log ({"code": "store_missing", "params"})
        if `store` was used here before and is not there now; None if it is there or was
        never used."""
        key = str(Path(store).absolute())
        if Path(store).exists():
            return None
        since = self._entries().get(key)
        if since is None:
            return None
        return {"code": "store_missing", "params": {"store": key, "since": since}}

    def remember(self, store: Path) -> str | None:
        """Note `store` as used; None, or why the note cannot be written (in words)."""
        key = str(Path(store).absolute())
        entries = self._entries()
        if key in entries:
            return None
        entries[key] = time.strftime("%Y-%m-%d %H:%M", time.localtime())
        try:
            self.note.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.note.with_name(self.note.name + ".tmp")
            tmp.write_text("".join(f"{p}\t{s}\n" for p, s in entries.items()), encoding="utf-8")
            os.replace(tmp, self.note)
        except OSError as exc:
            return f"the known-stores note {self.note} cannot be written ({exc})"
        return None
