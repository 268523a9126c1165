"""Finding a game by name. Each game package exposes a `GAME` object (engine.core.Game)."""
from __future__ import annotations

import importlib

from engine.core import Game, IllegalAction

GAME_MODULES = {
    "flip7": "engine.flip7",
    "solo": "engine.solo",
    "raj": "engine.raj",
    "hitthedeck": "engine.hitthedeck",
}


def get_game(name: str) -> Game:
    module = GAME_MODULES.get(name)
    if module is None:
        raise IllegalAction("unknown_game", name=name, games=list(GAME_MODULES))
    return importlib.import_module(module).GAME


def available_games() -> list[str]:
    """The games whose package is present and importable."""
    names = []
    for name in GAME_MODULES:
        try:
            get_game(name)
        except (ImportError, AttributeError):
            continue
        names.append(name)
    return names
