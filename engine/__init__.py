"""Deckhand's rules engine: pure, deterministic game rules for the four games.

Nothing here reads a clock, touches a file or draws an unseeded random number; time
arrives inside observations and randomness only through an explicit seed (self-play).
The shared vocabulary lives in `engine.core`; each game is a package
(`engine.flip7`, `engine.solo`, `engine.raj`, `engine.hitthedeck`) with its deck, its
rules, its table referee and its bots. `engine.games` finds a game by name.
"""
