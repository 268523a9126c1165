"""How a card looks on a screen: its face (label, colour, kind) from the game's deck
definition, the one source of card codes. Drawn by the `card` macro in HTML and CSS,
never with an image file.
"""
from __future__ import annotations

import importlib
from functools import lru_cache
from typing import Any

from engine.cards import Deck

# CSS colours for the colour names cards and seats use.
COLOURS = {
    "red": "#d62828", "green": "#2a9d3f", "blue": "#1d63d6", "yellow": "#f2c400",
    "purple": "#7b3fbf", "black": "#1b1b1b", "orange": "#f07c00", "pink": "#e0559a",
    "teal": "#129a94", "brown": "#8a5a2b", "grey": "#777777", "white": "#f4f4f4",
}
SEAT_PALETTE = ("#d62828", "#1d63d6", "#2a9d3f", "#e09a00", "#7b3fbf", "#129a94",
                "#e0559a", "#8a5a2b", "#555555", "#f07c00")
# A shape per seat, drawn beside its colour, so seats are told apart without colour.
SEAT_SYMBOLS = ("●", "▲", "■", "◆", "★", "✚", "♥", "♣", "⬟", "✱")
# Card colours a player tells apart (each gets its letter on the card, not only its hue).
LETTERED = ("red", "green", "blue", "yellow")


def seat_symbol(index: int | None) -> str:
    """The shape that marks seat `index` wherever its colour is shown."""
    return SEAT_SYMBOLS[index % len(SEAT_SYMBOLS)] if isinstance(index, int) and index >= 0 else "?"


def css_colour(name: str | None, index: int = 0) -> str:
    """A safe CSS colour for a seat or card colour name (a palette colour if unknown)."""
    if name:
        low = name.strip().lower()
        if low in COLOURS:
            return COLOURS[low]
        if low.startswith("#") and len(low) in (4, 7) and all(c in "0123456789abcdef" for c in low[1:]):
            return low
    return SEAT_PALETTE[index % len(SEAT_PALETTE)]


@lru_cache(maxsize=None)
def deck_of(game: str) -> Deck | None:
    try:
        return importlib.import_module(f"engine.{game}.deck").DECK
    except (ImportError, AttributeError):
        return None


def face(game: str | None, code: Any, lang: str = "en") -> dict[str, Any]:
    """What to draw for card `code` of `game`: {"code", "label" (its name in words in
    `lang`), "short", "colour" (CSS), "colour_name" (a lettered colour's English name,
    else ""), "kind", "known"}. An unknown code is drawn as "?"."""
    return dict(_face(game, "" if code is None else str(code), lang))


# A phone's region draws the same few cards at every change (35 faces a Flip 7 region,
# and the deck's every face for the pickers): worked out once per card and language.
@lru_cache(maxsize=4096)
def _face(game: str | None, code: str, lang: str) -> dict[str, Any]:
    from web.names import card_name  # names reads decks through this module

    deck = deck_of(game) if game else None
    if deck is None or code not in deck:
        return {"code": code, "label": card_name(game, code, lang), "short": "?", "colour": "",
                "colour_name": "", "kind": "unknown", "known": False}
    card = deck[code]
    colour = css_colour(card.colour) if card.colour and card.colour != "seat" else ""
    return {"code": code, "label": card_name(game, code, lang), "short": _short(game, card),
            "colour": colour, "colour_name": card.colour if card.colour in LETTERED else "",
            "kind": card.kind, "known": True}


def _short(game: str, card: Any) -> str:
    """The big mark in the middle of a drawn card."""
    if card.value is not None and card.kind in ("number", "bid"):
        return str(card.value)
    if game == "raj" and card.kind == "point":
        return f"{card.value:+d}"
    marks = {
        "cut": "CUT", "flip": "FLIP", "hit_number": f"HIT {card.value}", "hit_colour": "HIT",
        "hit_hand": "HAND", "miss": "⊘", "reverse": "⇄", "take2": "+2", "swap": "⇅",
        "choose": "◑", "take4": "+4", "rotate": "⟳", "freeze": "❄", "flip3": "3×",
        "chance": "♥", "modifier": card.label, "multiplier": "×2",
    }
    return marks.get(card.kind, card.label)


def deck_cards(game: str, lang: str = "en") -> list[dict[str, Any]]:
    """Every distinct face of `game`'s deck, in definition order (for pickers)."""
    deck = deck_of(game)
    return [] if deck is None else [face(game, c.code, lang) for c in deck]
