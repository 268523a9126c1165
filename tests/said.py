"""What people read of the engine's data, for tests that check the words: a refusal, a
notice or a prompt rendered in English (or French) the way the screens render it
(web.words), with the seat names of the state it came from. Not a test module."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Sequence

import pytest

from engine.core import IllegalAction, Notice
from engine.games import get_game
from web.words import say


def names_of(game: str, state: Any) -> list[str]:
    seats = get_game(game).view(state)["seats"]
    return [s["name"] if isinstance(s, dict) else str(s) for s in seats]


def said(what: Any, game: str, state: Any = None, lang: str = "en",
         names: list[str] | None = None) -> str:
    """`what` (an IllegalAction, a Notice, or a {"code", "params"} message) in words."""
    if names is None:
        names = names_of(game, state) if state is not None else []
    if isinstance(what, (IllegalAction, Notice)):
        what = what.to_json()
    return say(what, lang, game, names)


def said_all(notices: Any, game: str, state: Any = None, lang: str = "en") -> str:
    """Several notices in words, one after another."""
    return " ".join(said(n, game, state, lang) for n in notices)


@contextmanager
def refused_in_words(game: str, *words: str, names: Sequence[str] = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")):
    """Like pytest.raises(IllegalAction), then checks that the refusal, in English words
    with these seat names, contains every one of `words` (case aside)."""
    with pytest.raises(IllegalAction) as info:
        yield info
    text = said(info.value, game, names=list(names))
    for word in words:
        assert word.lower() in text.lower(), text
