"""Flip 7 (rules/flip7.txt + RULINGS.md): `GAME` is the engine.core.Game; the rules are
in `rules`, the state and scoring helpers in `state`, the actions in `actions`, the
table referee in `referee`, self-play in `selfplay`."""
from engine.flip7.actions import Flip, Hit, Stay, Target
from engine.flip7.game import GAME, Flip7Game
from engine.flip7.state import (Flip7Settings, Flip7State, Line, bust_probability, draw_pile,
                                round_score)

__all__ = ["GAME", "Flip7Game", "Flip", "Hit", "Stay", "Target", "Flip7Settings", "Flip7State",
           "Line", "bust_probability", "draw_pile", "round_score"]
