"""Why vision could not do something (teach a photo, load a profile), said as a code and
its params, the way the engine says what happened: the words a person reads are found
for the code by whoever shows it (web.messages, in the reader's language). The English
kept here (`str()`) is for logs, benches and tests only.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Why:
    code: str                                   # e.g. "teach.no_card" (web.messages)
    params: dict[str, Any] = field(default_factory=dict, hash=False)
    english: str = ""

    def __str__(self) -> str:
        return self.english or self.code

    def message(self) -> dict[str, Any]:
        """{"code", "params"}, as web.words.say takes it (and the English as "text",
        which it says only for a code with no sentence)."""
        return {"code": self.code, "params": dict(self.params), "text": self.english}


def why(code: str, english: str, **params: Any) -> Why:
    """A reason with its English template filled in from the params."""
    return Why(code, params, english.format(**params))


class WhyError(ValueError):
    """An error that says why as a `Why` (`.why`), naming what it is about
    (`.source`, e.g. a photo's file name; str() puts it first, in English)."""

    def __init__(self, reason: Why | str, source: str = ""):
        if isinstance(reason, str):   # English only: said as it is
            reason = Why("", {}, reason)
        super().__init__(f"{source}: {reason}" if source else str(reason))
        self.why = reason
        self.source = source
