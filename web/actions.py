"""What the host's generic action form needs to know about a game's vocabulary
(engine.games.get_game(name).actions): each action's JSON type, its fields and how to
ask for them (a seat, a card, a list of cards, a colour, a number, yes/no, text)."""
from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any

from engine.games import get_game

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


def action_schema(game_name: str) -> list[dict[str, Any]]:
    """[{"type", "doc", "fields": [{"name", "kind", "optional", "default", "choices"}]}]."""
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
            fields.append({"name": f.name, "kind": input_kind, "choices": choices,
                           "optional": optional or f.default is not dataclasses.MISSING
                           or f.default_factory is not dataclasses.MISSING,
                           "default": default})
        doc = (cls.__doc__ or "").strip().split("\n\n")[0].replace("\n", " ")
        if doc.startswith(f"{cls.__name__}("):  # the dataclass's generated signature
            doc = ""
        out.append({"type": kind, "doc": doc, "fields": fields})
    return out


def settings_schema(game_name: str) -> list[dict[str, Any]]:
    """The new-match form's settings for a game: [{"name", "kind", "default", "choices"}]."""
    game = get_game(game_name)
    hints = typing.get_type_hints(game.settings_type)
    out = []
    for f in dataclasses.fields(game.settings_type):
        kind, optional, choices = _kind(f.name, hints[f.name])
        if kind in ("seat",):
            kind = "int"
        default = f.default if f.default is not dataclasses.MISSING else None
        out.append({"name": f.name, "kind": kind, "choices": choices, "default": default,
                    "optional": optional})
    return out
