"""Raj (the Point Card / Player Card bidding game): deck, rules, table referee, bots.
`GAME` is the engine.core.Game for Raj."""
from engine.raj.rules import GAME

__all__ = ["GAME"]
