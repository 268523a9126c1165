"""Putting the engine's data into words in the device's language.

The engine says what happened as a code and its params (engine.core); this module finds
the sentence for a code (web.messages), fills in names, card names, colours and numbers
(web.names) and translates it with the gettext catalog of the language
(web/translations/<lang>/LC_MESSAGES/messages.mo, docs/translations.md). English is the
msgid itself. A device's language is its `lang` cookie, else its browser's
Accept-Language, else English; a command's (`deckhand teach`, ...) is the shell's locale.

What does not live here: the sentences themselves (web.messages) and the names of cards,
colours, actions and settings (web.names).
"""
from __future__ import annotations

import gettext
import logging
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from collections.abc import Mapping, Sequence
from typing import Any

from babel.lists import format_list

from web.shell_language import LANGUAGES, locale_language  # noqa: F401 (locale_language: the commands' language)

TRANSLATIONS = Path(__file__).resolve().parent / "translations"
DOMAIN = "messages"

log = logging.getLogger(__name__)


@lru_cache(maxsize=None)
def catalog(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of `lang` (English: the msgids themselves)."""
    if lang not in LANGUAGES or lang == "en":
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, TRANSLATIONS, languages=[lang], fallback=True)


def t(text: str, lang: str, **params: Any) -> str:
    """`text` (an English msgid) in `lang`, with `{name}` params filled in."""
    out = catalog(lang).gettext(text)
    return out.format(**params) if params else out


def tn(singular: str, plural: str, n: int, lang: str, **params: Any) -> str:
    """The plural form for `n` in `lang`; `{n}` and the params are filled in."""
    return catalog(lang).ngettext(singular, plural, n).format(n=n, **params)


def tc(context: str, text: str, lang: str) -> str:
    """`text` in `lang` where English uses one word for two meanings (msgctxt)."""
    return catalog(lang).pgettext(context, text)


def choose_language(cookie: str | None, accept: Any) -> str:
    """The device's language: its cookie, else the browser's preference, else English."""
    if cookie in LANGUAGES:
        return cookie
    best = accept.best_match(LANGUAGES) if accept is not None else None
    return best or "en"


def join(items: Sequence[str], lang: str) -> str:
    """"Ann, Bob and Cat" / « Ann, Bob et Cat »."""
    items = [str(i) for i in items]
    return format_list(items, locale=lang) if items else ""


@dataclass(frozen=True)
class Speaker:
    """Says the engine's messages for one table on one device: its language, the game
    and the seat names."""

    lang: str
    game: str | None = None
    names: tuple[str, ...] = ()

    def seat(self, index: Any) -> str:
        if isinstance(index, int) and not isinstance(index, bool) and 0 <= index < len(self.names):
            return self.names[index]
        if isinstance(index, int) and not isinstance(index, bool):
            return t("Seat {number}", self.lang, number=index + 1)
        return ""

    def say(self, message: Any) -> str:
        """A message ({"code", "params"}, a notice, a refusal) in words."""
        if not isinstance(message, Mapping):
            return ""
        key = _Said.of(message)
        return _said(self, key) if key is not None else self._say(message)

    def _say(self, message: Mapping[str, Any]) -> str:
        from web import messages, names  # the tables import this module's t/tn

        code = str(message.get("code", ""))
        params = message.get("params")
        params = params if isinstance(params, Mapping) else {}
        entry = messages.lookup(self.game, code)
        if entry is None:
            # Not yet converted: an English sentence from the engine or a helper.
            legacy = message.get("text")
            if isinstance(legacy, str) and legacy:
                return legacy
            if code and " " in code and not params:
                return code
            log.warning("no words for message %r", code)
            return t("Something happened that this screen cannot put into words.", self.lang)
        values = {k: self._value(k, v, names) for k, v in params.items()}
        for key, value in params.items():
            if _kind(key) == "colour" and isinstance(value, str):
                values[f"{key}_f"] = names.colour_name(value, self.lang, feminine=True)
        try:
            if isinstance(entry, tuple):
                singular, plural, count = entry
                n = params.get(count, 0)
                values.pop("n", None)
                text = tn(singular, plural, n if isinstance(n, int) else 0, self.lang, **values)
            else:
                text = t(entry, self.lang, **values)
        except (KeyError, IndexError, ValueError) as exc:
            log.warning("message %r does not fit its params %r: %s", code, params, exc)
            return t("Something happened that this screen cannot put into words.", self.lang)
        return self._elide(text)

    def _value(self, key: str, value: Any, names: Any) -> Any:
        kind = _kind(key)
        if isinstance(value, Mapping) and "code" in value:
            return self.say(value)
        if isinstance(value, list) and value and all(
                isinstance(v, Mapping) and "code" in v for v in value):
            return join([self.say(v) for v in value], self.lang)
        if isinstance(value, Mapping) and "type" in value:
            return names.describe_action(self.game, value, self)
        if kind == "seat":
            return self.seat(value)
        if kind == "seats" and isinstance(value, list):
            return join([self.seat(v) for v in value], self.lang)
        if kind == "card":
            return names.card_name(self.game, value, self.lang)
        if kind == "cards" and isinstance(value, list):
            return join([names.card_name(self.game, v, self.lang) for v in value], self.lang)
        if kind == "colour" and isinstance(value, str):
            return names.colour_name(value, self.lang)
        if kind == "colours" and isinstance(value, list):
            return join([names.colour_name(str(v), self.lang) for v in value], self.lang)
        if kind == "action" and isinstance(value, str):
            return names.action_name(self.game, value, self.lang)
        if kind in ("setting", "field") and isinstance(value, str):
            return names.field_name(self.game, value, self.lang)
        if kind == "game" and isinstance(value, str):
            return names.game_title(value)
        if kind == "games" and isinstance(value, list):
            return join([names.game_title(g) for g in value], self.lang)
        if kind == "numbers" and isinstance(value, list):
            return join([str(v) for v in value], self.lang)
        if kind == "names" and isinstance(value, list):
            return join([str(v) for v in value], self.lang)
        return value

    def _elide(self, text: str) -> str:
        """French elision before a name that starts with a vowel: « d'Ann », « qu'Ann »."""
        if self.lang != "fr":
            return text
        for name in self.names:
            if name[:1].lower() in "aeiouyhâàéèêîôû":
                text = re.sub(rf"\b([dD]e|[qQ]ue|[lL]e|[lL]a) {re.escape(name)}\b",
                              lambda m: f"{m.group(1)[:-1]}'{name}", text)
        return text


class _Said:
    """A message as a cache key: equal when its content is (a value's type counts, so
    True is not 1 and a tuple is not a list); it carries the message to say on a miss."""

    __slots__ = ("message", "key", "_hash")

    def __init__(self, message: Mapping[str, Any], key: tuple) -> None:
        self.message, self.key, self._hash = message, key, hash(key)

    @classmethod
    def of(cls, message: Mapping[str, Any]) -> _Said | None:
        """None if the message holds something this key cannot stand for."""
        key = _frozen(message)
        return None if key is None else cls(message, key)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Said) and self.key == other.key


_SCALARS = (str, int, float, bool, type(None))


def _frozen(value: Any) -> Any:
    if type(value) in _SCALARS:
        return (type(value), value)
    if isinstance(value, Mapping):
        items = []
        for k, v in value.items():
            f = _frozen(v)
            if f is None or type(k) is not str:
                return None
            items.append((k, f))
        return (dict, tuple(sorted(items)))
    if type(value) in (list, tuple):
        out = tuple(_frozen(v) for v in value)
        return None if None in out else (type(value), out)
    return None


@lru_cache(maxsize=2048)
def _said(speaker: Speaker, message: _Said) -> str:
    """Speaker.say's words for a message seen before: the phone's recent plays are said
    again at every change. Keyed by the speaker (language, game, seat names) and the
    message's whole content."""
    return speaker._say(message.message)


def _kind(key: str) -> str:
    """What a param holds, from its name (engine.core's convention)."""
    for kind in ("seats", "seat", "cards", "card", "colours", "colour", "action", "setting", "field",
                 "games", "game", "numbers", "names"):
        if key == kind or key.endswith("_" + kind):
            return kind
    return ""


def say(message: Any, lang: str, game: str | None = None, names: Sequence[str] = ()) -> str:
    """One message in words (see Speaker.say)."""
    return Speaker(lang, game, tuple(names)).say(message)


def english(message: Any, game: str | None = None, names: Sequence[str] = ()) -> str:
    """A message in English words, for the command line and the logs."""
    return say(message, "en", game, names)
