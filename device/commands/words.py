"""The host's words at the shell commands (`deckhand teach`, `recognize`, `calibrate`):
each sentence is a code of web.messages said in the shell's language, which is its
locale as for any Unix program (LANGUAGE, LC_ALL, LC_MESSAGES, LANG: `fr_FR.UTF-8`
-> French; anything Deckhand does not speak -> English; web.words.locale_language).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Mapping

from web.messages import N_

# The line every command's --help ends with, so that a host knows how to choose.
LANGUAGE_HELP = N_("It speaks the shell's language (its locale: LANGUAGE, LC_ALL, LC_MESSAGES or LANG; "
                 "e.g. LANG=fr_FR.UTF-8 for French), English otherwise.")


@dataclass(frozen=True)
class Words:
    lang: str

    @classmethod
    def of_shell(cls, environ: Mapping[str, str] | None = None) -> "Words":
        from web.words import locale_language
        return cls(locale_language(os.environ if environ is None else environ))

    def __call__(self, code: str, **params: Any) -> str:
        """The sentence of `code` (web.messages) with its params."""
        return self.say({"code": code, "params": params})

    def say(self, message: Mapping[str, Any]) -> str:
        """A message ({"code", "params"}, e.g. a vision.why.Why's `message()`) in words."""
        from web.words import Speaker
        return Speaker(self.lang).say(message)
