"""Placeholder: the game package is being built."""
