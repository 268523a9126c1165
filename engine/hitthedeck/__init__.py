"""Hit the Deck (English and French editions): deck, rules, slap window, table referee,
bots. `GAME` is the engine.core.Game for Hit the Deck."""
from engine.hitthedeck.rules import GAME

__all__ = ["GAME"]
