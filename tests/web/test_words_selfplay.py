"""Self-play of every game, said in English and in French the way the screens say it:
every notice, every prompt, every message in the table section and the undo notices.
Nothing may fall back ("cannot put into words"), leave a {placeholder}, or show a code,
a card code or a Python repr to a person."""
from __future__ import annotations

import re
from typing import Any, Iterator

import pytest

from engine.core import MatchSpec, Seat, Undo
from engine.games import get_game
from engine.log import Timeline
from web.cards import deck_of
from web.words import Speaker

NAMES = ("Ann", "Bob", "Cat", "Dan")
FALLBACK = "cannot put into words"
REPR = re.compile(r"\w\(\w+=|\w+=\w|[{}]|\b[a-z]+_[a-z_]+\b|\b(?:None|True|False)\b")


def _actions(game: str, spec: MatchSpec) -> Iterator[Any]:
    if game == "flip7":
        from engine.flip7.selfplay import play_match
        return play_match(spec, None, 3, rounds=3)
    if game == "raj":
        from engine.raj.selfplay import play_match
        return play_match(spec, ("random", "match", "shade"), 3)
    if game == "solo":
        from engine.solo.selfplay import play_match
        return play_match(spec, "greedy,random", 3, rounds=2)
    from engine.hitthedeck.selfplay import play_match
    return play_match(spec, None, 3, rounds=2)


def _card_codes(game: str) -> set[str]:
    """Codes a person must never read: every card code with a letter in it."""
    return {c.code for c in deck_of(game) if re.search(r"[A-Za-z]", c.code) and c.code not in ("x2",)}


def _messages(game: str, players: int) -> Iterator[Any]:
    spec = MatchSpec(game, tuple(Seat(n) for n in NAMES[:players]))
    timeline = Timeline(get_game(game), spec)
    for action in _actions(game, spec):
        yield from (n.to_json() for n in timeline.apply(action))
        view = timeline.game.view(timeline.state)
        yield view["prompt"]
        yield from _table_messages(view["table"])
    for _ in range(3):
        yield from (n.to_json() for n in timeline.apply(Undo()))


def _table_messages(table: dict) -> Iterator[Any]:
    for value in table.values():
        if isinstance(value, dict) and isinstance(value.get("says"), dict):
            yield value["says"]
        elif isinstance(value, dict) and "code" in value:
            yield value
        elif isinstance(value, list) and value and all(isinstance(v, dict) and "code" in v for v in value):
            yield from value


@pytest.mark.parametrize("game, players", [("flip7", 3), ("raj", 3), ("solo", 3), ("hitthedeck", 3)])
def test_self_play_is_said_in_words_in_both_languages(game, players):
    codes = _card_codes(game)
    said = {"en": set(), "fr": set()}
    for message in _messages(game, players):
        for lang in ("en", "fr"):
            text = Speaker(lang, game, NAMES[:players]).say(message)
            assert text, (lang, message)
            assert FALLBACK not in text and "ne sait pas dire" not in text, (lang, message)
            assert not REPR.search(text), (lang, text, message)
            shown = set(re.findall(r"[A-Za-z0-9:+\-]+", text)) & codes
            assert not shown, (lang, text, shown)
            said[lang].add(text)
    assert len(said["en"]) > 10
    # the French is French: most sentences differ from the English ones
    assert len(said["fr"] - said["en"]) > 0.8 * len(said["fr"])
