"""Deck definitions: which cards a game has, how many of each, and what they are worth.

Each game's `deck.py` builds one `Deck`; it is the single source of card codes for the
engine, the renderer, the classifier and the tests (DESIGN.md, "Card codes").
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator


@dataclass(frozen=True)
class CardDef:
    """One distinct card face.

    code: the card's code in logs and the API ("R3", "FREEZE", "P-5", "purple:15").
    count: copies in the deck (for Raj player cards: copies per seat).
    colour: the colour a player reads off the card ("red", "blue", ...; "" for none,
        "black" for Solo's black cards, "seat" for Raj player cards).
    kind: what sort of card it is ("number", "cut", "flip", "hit", "action", ...).
    value: the number printed on it, if any.
    points: what it scores at the end of a round (game-specific meaning).
    label: a short human name ("Red 3", "Second Chance").
    """

    code: str
    count: int
    colour: str
    kind: str
    value: int | None
    points: int
    label: str


@dataclass(frozen=True)
class Deck:
    game: str
    cards: tuple[CardDef, ...]

    def __post_init__(self) -> None:
        codes = [c.code for c in self.cards]
        if len(codes) != len(set(codes)):
            raise ValueError(f"{self.game}: a card code is defined twice")

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(c.code for c in self.cards)

    @property
    def size(self) -> int:
        return sum(c.count for c in self.cards)

    def __contains__(self, code: object) -> bool:
        return code in self._index

    def __getitem__(self, code: str) -> CardDef:
        try:
            return self._index[code]
        except KeyError:
            raise KeyError(f"{code!r} is not a {self.game} card") from None

    def __iter__(self) -> Iterator[CardDef]:
        return iter(self.cards)

    @property
    def _index(self) -> dict[str, CardDef]:
        index = self.__dict__.get("_index_cache")
        if index is None:
            index = {c.code: c for c in self.cards}
            object.__setattr__(self, "_index_cache", index)
        return index

    def full(self) -> tuple[str, ...]:
        """Every physical card, as codes, in definition order (shuffle with a seeded
        random.Random for self-play)."""
        return tuple(c.code for c in self.cards for _ in range(c.count))

    def points(self, code: str) -> int:
        return self[code].points


COLOUR_NAMES = {"R": "red", "G": "green", "B": "blue", "Y": "yellow"}
