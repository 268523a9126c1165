"""Which deck the camera reads, game by game: Deckhand's printed deck or one the host taught.

A taught deck (live at the table, `deckhand teach`, or a file named with `deckhand run
--profile` / `[camera] profile`) labels its cards as the host named them. The referee
takes the game's card codes, so a taught deck is read for a game only when every one of
its labels is a card of that game: its code ("R7") or its name as the screens say it, in
English or French ("Red 7", « Rouge 7 »), in any case and word order (`fit_to_game`). A
deck with other cards is refused in words, naming them.

`TaughtDecks` keeps, per game, the taught deck (files `taught-<game>.npz` beside the event
store; a named file comes first for the games it fits) and the host's choice between it
and the printed deck (`decks.json`, so both survive a restart). A file that cannot be read
or does not fit is said in one log line and the printed deck is read: never a crash.

`DeckSwitch` ties it to the running table: the deck of the match being played, the host's
switch, and what happens when live training finishes (during a match, only the shots of
that game's cards are trained and the deck is read at once; with no match it is kept for
the game whose deck it covers best). The camera loop builds its recognizer from
`TaughtDecks.profile` between two frames (`VisionLoop.reload_recognizer`).
"""
from __future__ import annotations

import dataclasses
import json
import logging
import os
import threading
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

log = logging.getLogger("deckhand.decks")

PRINTED, TAUGHT = "printed", "taught"
CHOICES_FILE = "decks.json"
SHOWN_MISFITS = 8       # labels named in a refusal at most


def message(code: str, **params: Any) -> dict[str, Any]:
    """A message for the screens (web.words.say) and the log (web.words.english)."""
    return {"code": code, "params": params}


class DeckError(ValueError):
    """A deck that cannot be read for a game, or a choice that cannot be made; `said` is
    the message (code and params) the screens put into words."""

    def __init__(self, said: dict[str, Any], game: str | None = None):
        from web.words import english
        super().__init__(english(said, game))
        self.said = said
        self.game = game


# --- labels to card codes -------------------------------------------------------------

def _key(text: str) -> str:
    """A label as compared: case, spacing and word order ignored ("7 rouge" is « Rouge 7 »;
    no two cards of a game share their words)."""
    text = unicodedata.normalize("NFKC", str(text)).casefold().replace("×", "x").replace("’", "'")
    return " ".join(sorted(text.split()))


@lru_cache(maxsize=None)
def card_keys(game: str) -> dict[str, str]:
    """Every way a label may name a card of `game` (its code, its English and French
    names; case and spacing ignored) -> the card's code."""
    from web.cards import deck_of
    from web.names import card_name
    deck = deck_of(game)
    keys: dict[str, str] = {}
    for card in deck or ():
        for said in (card.code, card_name(game, card.code, "en"), card_name(game, card.code, "fr")):
            keys.setdefault(_key(said), card.code)
    return keys


def card_code(game: str, label: str) -> str | None:
    """The code of the card of `game` that `label` names, or None."""
    return card_keys(game).get(_key(label))


def deck_size(game: str) -> int:
    return len(set(card_keys(game).values()))


def fit_to_game(profile: Any, game: str) -> Any:
    """The profile with its labels turned into `game`'s card codes (the reader's classes
    are label indices, so nothing else changes); DeckError naming the labels that are no
    card of the game."""
    codes = [card_code(game, label) for label in profile.labels]
    misfits = [label for label, code in zip(profile.labels, codes) if code is None]
    if misfits:
        raise DeckError(message("deck_not_for_game", name=profile.name, game=game,
                                names=misfits[:SHOWN_MISFITS], count=len(misfits)), game)
    return dataclasses.replace(profile, labels=tuple(codes))


def games_fitting(profile: Any) -> list[str]:
    """The games whose deck has every card of the profile."""
    from vision.profile import GAMES
    return [game for game in GAMES if all(card_code(game, label) for label in profile.labels)]


def best_games(profile: Any) -> list[str]:
    """Of the games the profile fits, those whose deck it covers the most of (a part of
    a deck may fit several games: "Red 1" to "Red 9" are Solo's and Raj's too)."""
    share = {game: len({card_code(game, label) for label in profile.labels}) / deck_size(game)
             for game in games_fitting(profile)}
    return [game for game in share if share[game] == max(share.values())]


# --- what the camera reads ------------------------------------------------------------

@dataclass(frozen=True)
class DeckInUse:
    """What the camera reads for a game, for the screens."""

    game: str
    taught: bool                      # reading the taught deck (else the printed one)
    name: str = ""                    # the taught deck's name
    known: int = 0                    # cards of the game the taught deck knows
    total: int = 0                    # cards of the game
    available: bool = False           # a taught deck for this game is there to read
    problem: dict[str, Any] | None = None   # why a taught deck is not read, if it is not

    def said(self) -> dict[str, Any]:
        if self.taught:
            return message("deck_taught", name=self.name, known=self.known, total=self.total, game=self.game)
        return message("deck_printed", game=self.game)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "reading": TAUGHT if self.taught else PRINTED,
                "taught_available": self.available, "name": self.name,
                "known": self.known, "total": self.total, "problem": self.problem}


@dataclass(frozen=True)
class _Taught:
    profile: Any | None               # fitted to the game, or None
    source: str = ""                  # where it came from (a file), for the log
    problem: dict[str, Any] | None = None


class TaughtDecks:
    """Per game, the taught deck and the host's choice; see the module docstring.
    Thread-safe: the camera loop asks for profiles while the pages ask and change."""

    def __init__(self, folder: str | os.PathLike, named: str | None = None,
                 printed: Callable[[str], Any] | None = None):
        self.folder = Path(folder)
        self.named = named
        self._printed = printed or _builtin
        self._lock = threading.Lock()
        self._taught: dict[str, _Taught] = {}
        self._choices = self._read_choices()

    def path(self, game: str) -> Path:
        return self.folder / f"taught-{game}.npz"

    def profile(self, game: str) -> Any:
        """The profile the camera reads `game` with."""
        with self._lock:
            taught = self._load(game)
            chosen = self._choices.get(game, TAUGHT) == TAUGHT
        if chosen and taught.profile is not None:
            return taught.profile
        return self._printed(game)

    def in_use(self, game: str) -> DeckInUse:
        with self._lock:
            taught = self._load(game)
            chosen = self._choices.get(game, TAUGHT) == TAUGHT
        if taught.profile is None:
            return DeckInUse(game, False, problem=taught.problem)
        profile = taught.profile
        return DeckInUse(game, chosen, profile.name, len(set(profile.labels)), deck_size(game), True)

    def install(self, profile: Any, game: str) -> DeckInUse:
        """Keep a freshly taught profile as `game`'s taught deck (saved, and chosen);
        DeckError if its cards are not the game's."""
        from vision.profile import save_profile
        fitted = fit_to_game(profile, game)
        save_profile(profile, self.path(game))   # as taught: labels in the host's words
        with self._lock:
            self._taught[game] = _Taught(fitted, str(self.path(game)))
            self._choices[game] = TAUGHT
            self._write_choices()
        log.info("camera: %s is read with the taught deck %r (%s)", game, profile.name, self.path(game))
        return self.in_use(game)

    def choose(self, game: str, which: str) -> DeckInUse:
        """Read `game` with the printed deck or the taught one; DeckError if there is no
        taught deck to read."""
        if which not in (PRINTED, TAUGHT):
            raise DeckError(message("deck_bad_choice"), game)
        with self._lock:
            taught = self._load(game)
            if which == TAUGHT and taught.profile is None:
                raise DeckError(taught.problem or message("deck_none_taught", game=game), game)
            self._choices[game] = which
            self._write_choices()
        log.info("camera: %s is read with the %s deck (the host's choice)", game, which)
        return self.in_use(game)

    # -- files ---------------------------------------------------------------------------

    def _load(self, game: str) -> _Taught:
        """The taught deck of `game`, read once (under the lock)."""
        if game in self._taught:
            return self._taught[game]
        found = _Taught(None)
        candidates = ([self.named] if self.named else []) + \
            ([str(self.path(game))] if self.path(game).exists() else [])
        for source in candidates:
            found = self._read(source, game)
            if found.profile is not None:
                log.info("camera: %s can be read with the taught deck %r (%s)", game, found.profile.name, source)
                break
        self._taught[game] = found
        return found

    def _read(self, source: str, game: str) -> _Taught:
        from vision.profile import ProfileError, load_profile
        try:
            fitted = fit_to_game(load_profile(source), game)
        except ProfileError as exc:
            said = message("deck_unreadable", why=exc.why.message())
        except DeckError as exc:
            said = exc.said
        except Exception as exc:  # a damaged file must never stop the camera
            log.warning("camera: the taught deck %s cannot be loaded: %s: %s", source, type(exc).__name__, exc)
            said = message("deck_unreadable", why=message("profile.damaged"))
        else:
            return _Taught(fitted, source)
        from web.words import english
        log.warning("camera: the taught deck %s is not read for %s: %s; the printed deck is read",
                    source, game, english(said, game))
        return _Taught(None, source, said)

    def _read_choices(self) -> dict[str, str]:
        path = self.folder / CHOICES_FILE
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            log.warning("camera: %s could not be read (%s): every game reads its taught deck if "
                        "it has one", path, exc)
            return {}
        if not isinstance(data, dict):
            return {}
        return {str(k): v for k, v in data.items() if v in (PRINTED, TAUGHT)}

    def _write_choices(self) -> None:
        path = self.folder / CHOICES_FILE
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(path.name + ".tmp")
            tmp.write_text(json.dumps(self._choices, sort_keys=True), encoding="utf-8")
            os.replace(tmp, path)
        except OSError as exc:   # the choice still holds until the next start
            log.warning("camera: the deck choice could not be saved to %s (%s)", path, exc)


def _builtin(game: str) -> Any:
    from vision.profile import builtin_profile
    return builtin_profile(game)


class DeckSwitch:
    """The deck of the match being played: what the pages show and the host changes, and
    what live training's end does. `reload()` makes the camera loop build its recognizer
    again from the next frame on."""

    def __init__(self, decks: TaughtDecks, table: Any, reload: Callable[[], None]):
        self.decks = decks
        self._table = table
        self._reload = reload

    def game(self) -> str | None:
        match = self._table.current_match
        return match.record.spec.game if match is not None else None

    def in_use(self) -> DeckInUse | None:
        game = self.game()
        return self.decks.in_use(game) if game is not None else None

    def choose(self, which: str) -> DeckInUse:
        game = self.game()
        if game is None:
            raise DeckError(message("no_match"))
        chosen = self.decks.choose(game, which)
        self._reload()
        return chosen

    def trained(self, profile: Any) -> dict[str, Any]:
        """Live training finished: read the deck now if it fits the game being played;
        with no match, keep it for the game(s) whose deck it covers best of those it fits.
        Returns what to say."""
        game = self.game()
        if game is not None:
            try:
                self.decks.install(profile, game)
            except DeckError as exc:
                return exc.said
            except OSError as exc:
                return message("deck_not_saved", why=str(exc))
            self._reload()
            return message("deck_now_read", name=profile.name, game=game)
        games = best_games(profile)
        if not games:
            return message("deck_fits_no_game", name=profile.name,
                           names=list(profile.labels[:SHOWN_MISFITS]))
        try:
            for each in games:
                self.decks.install(profile, each)
        except OSError as exc:
            return message("deck_not_saved", why=str(exc))
        return message("deck_kept_for", name=profile.name, games=games)

    def for_game(self, label: str) -> bool:
        """Whether `label` names a card of the game being played (any label, with no
        match): live teaching trains the shots of this game's cards only."""
        game = self.game()
        return game is None or card_code(game, label) is not None

    def colour_of(self, label: str) -> str:
        """The colour of the card `label` names in the game being played, or with no match
        in every game that has it ("" if none, or if games differ): live teaching tells
        the reader the ink to expect."""
        from vision.profile import GAMES, deck_colour
        game = self.game()
        colours = {deck_colour(g, code) for g in ([game] if game else GAMES)
                   for code in [card_code(g, label)] if code is not None}
        return colours.pop() if len(colours) == 1 else ""
