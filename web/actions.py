"""What the host's generic action form needs to know about a game's vocabulary
(engine.games.get_game(name).actions): each action's JSON type, its fields and how to
ask for them (a seat, a card, a list of cards, a colour, a number, yes/no, text)."""
from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any

from engine.games import get_game
from web.names import (action_help, action_name, choice_name, colour_name, field_help,
                       field_name)

COLOUR_FIELDS = ("colour", "color")


def _kind(name: str, tp: Any) -> tuple[str, bool, list[Any]]:
    """(input kind, optional, choices) for one field."""
    optional = False
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        optional = len(args) < len(typing.get_args(tp))
        tp = args[0] if len(args) == 1 else str
        origin = typing.get_origin(tp)
    if origin is typing.Literal:
        return "choice", optional, list(typing.get_args(tp))
    if origin is tuple:
        inner = typing.get_args(tp)[0] if typing.get_args(tp) else str
        if inner is int:
            return ("seats" if "seat" in name or name in ("players", "targets") else "ints"), optional, []
        return ("cards" if "card" in name or name in ("hand", "spread") else "texts"), optional, []
    if tp is bool:
        return "bool", optional, []
    if tp is int:
        if "seat" in name or name in ("player", "target", "caller", "catcher", "by", "to"):
            return "seat", optional, []
        return "int", optional, []
    if tp is str:
        if "card" in name or name in ("top", "starter"):
            return "card", optional, []
        if name in COLOUR_FIELDS:
            return "colour", optional, []
        return "text", optional, []
    if isinstance(tp, type) and hasattr(tp, "__members__"):
        return "choice", optional, [m.value for m in tp]  # type: ignore[attr-defined]
    return "json", optional, []


def action_schema(game_name: str, lang: str = "en") -> list[dict[str, Any]]:
    """[{"type", "label", "doc", "fields": [{"name", "label", "kind", "optional", "default",
    "choices", "choice_labels"}]}]: labels and help in `lang`, types and names for JSON."""
    game = get_game(game_name)
    out = []
    for kind, cls in game.actions.items():
        hints = typing.get_type_hints(cls)
        fields = []
        for f in dataclasses.fields(cls):
            if not f.init:
                continue
            input_kind, optional, choices = _kind(f.name, hints[f.name])
            default = None if f.default is dataclasses.MISSING else f.default
            if isinstance(default, tuple):
                default = list(default)
            fields.append({"name": f.name, "label": field_name(game_name, f.name, lang),
                           "kind": input_kind, "choices": choices,
                           "choice_labels": [_choice(f.name, c, lang) for c in choices],
                           "optional": optional or f.default is not dataclasses.MISSING
                           or f.default_factory is not dataclasses.MISSING,
                           "default": default})
        out.append({"type": kind, "label": action_name(game_name, kind, lang),
                    "doc": action_help(game_name, kind, lang), "fields": fields})
    return out


def _choice(field: str, value: Any, lang: str) -> str:
    if field in COLOUR_FIELDS and isinstance(value, str):
        return colour_name(value, lang)
    return choice_name(field, value, lang)


def settings_schema(game_name: str, lang: str = "en") -> list[dict[str, Any]]:
    """The new-match form's settings for a game: [{"name", "label", "help", "kind",
    "default", "choices", "choice_labels"}], labels in `lang`."""
    game = get_game(game_name)
    hints = typing.get_type_hints(game.settings_type)
    out = []
    for f in dataclasses.fields(game.settings_type):
        kind, optional, choices = _kind(f.name, hints[f.name])
        if kind in ("seat",):
            kind = "int"
        default = f.default if f.default is not dataclasses.MISSING else None
        out.append({"name": f.name, "label": field_name(game_name, f.name, lang, settings=True),
                    "help": field_help(game_name, f.name, lang, settings=True),
                    "kind": kind, "choices": choices,
                    "choice_labels": [_choice(f.name, c, lang) for c in choices],
                    "default": default, "optional": optional})
    return out
