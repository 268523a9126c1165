"""`deckhand`'s command line in the shell's language: an argparse parser whose help and
errors are said from the catalog (web/translations) — the commands' own help (marked
`N_` where each command declares its arguments), argparse's headings, and argparse's
error messages, which argparse composes in English and which are recognised here and
said again in the shell's language (an unknown one is shown as argparse wrote it).
"""
from __future__ import annotations

import argparse
import ast
import re
import sys
from functools import partial
from typing import Callable, NoReturn

from web.messages import N_
from web.words import t

# argparse's own words: its sentences are English msgids of its own gettext domain,
# for which no catalog ships; ours has them.
USAGE = N_("usage: ")
HEADINGS = (N_("positional arguments"), N_("options"), N_("show this help message and exit"))
ERROR = N_("{prog}: error: {message}")

# A type's name in "invalid <type> value": the words for a value that is not one.
NOT_A = {"int": N_("“{value}” is not a whole number"), "float": N_("“{value}” is not a number")}
DOES_NOT_FIT = N_("“{value}” does not fit here")


def _rule(pattern: str, sentence: str | Callable[[dict[str, str], str], str]):
    return re.compile(pattern + r"\Z", re.S), sentence


def _invalid_value(groups: dict[str, str], lang: str) -> str:
    return t(NOT_A.get(groups["type"], DOES_NOT_FIT), lang, value=groups["value"])


def _unquoted(text: str) -> str:
    """argparse's repr of what was typed, as typed: 'three' -> three."""
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text
    return value if isinstance(value, str) else text


def _plain(groups: dict[str, str]) -> dict[str, str]:
    plain = dict(groups)
    if "value" in plain:
        plain["value"] = _unquoted(plain["value"])
    for key in ("choices", "matches"):
        if key in plain:
            plain[key] = ", ".join(_unquoted(part) for part in plain[key].split(", "))
    return plain


# argparse's error messages (Python 3.11's wording), as patterns, with our sentence.
ERRORS = (
    _rule(r"the following arguments are required: (?P<names>.+)",
          N_("these are missing: {names}")),
    _rule(r"unrecognized arguments: (?P<names>.+)", N_("Deckhand does not know: {names}")),
    _rule(r"invalid choice: (?P<value>.+) \(choose from (?P<choices>.+)\)",
          N_("“{value}” is not one of the choices ({choices})")),
    _rule(r"invalid (?P<type>\w+) value: (?P<value>.+)", _invalid_value),
    _rule(r"expected one argument", N_("it needs a value")),
    _rule(r"expected at most one argument", N_("it takes at most one value")),
    _rule(r"expected at least one argument", N_("it needs at least one value")),
    _rule(r"expected (?P<count>\d+) arguments?", N_("it needs {count} values")),
    _rule(r"ambiguous option: (?P<option>\S+) could match (?P<matches>.+)",
          N_("{option} could be any of: {matches}")),
    _rule(r"ignored explicit argument (?P<value>.+)", N_("it takes no value, not “{value}”")),
    _rule(r"not allowed with argument (?P<name>.+)", N_("it cannot go with {name}")),
    _rule(r"one of the arguments (?P<names>.+) is required", N_("one of these is needed: {names}")),
)
ARGUMENT = re.compile(r"argument (?P<argument>[^:]+): (?P<message>.+)\Z", re.S)
ABOUT_ARGUMENT = N_("{argument}: {message}")


def say_error(message: str, lang: str) -> str:
    """argparse's English error `message` in `lang` (as it is when not recognised)."""
    about = ARGUMENT.match(message)
    if about:
        return t(ABOUT_ARGUMENT, lang, argument=about["argument"],
                 message=say_error(about["message"], lang))
    for pattern, sentence in ERRORS:
        found = pattern.match(message)
        if found:
            groups = _plain(found.groupdict())
            return sentence(groups, lang) if callable(sentence) else t(sentence, lang, **groups)
    return message


class SpokenFormatter(argparse.HelpFormatter):
    """argparse's help layout, every sentence in `lang`."""

    def __init__(self, prog: str, lang: str, **kwargs) -> None:
        super().__init__(prog, **kwargs)
        self.lang = lang

    def _say(self, text):
        return t(text, self.lang) if isinstance(text, str) and text else text

    def add_usage(self, usage, actions, groups, prefix=None):
        super().add_usage(usage, actions, groups, self._say(USAGE) if prefix is None else prefix)

    def start_section(self, heading):
        super().start_section(self._say(heading))

    def add_text(self, text):
        super().add_text(text if text is argparse.SUPPRESS else self._say(text))

    def _get_help_string(self, action):
        return self._say(action.help)


class SpokenParser(argparse.ArgumentParser):
    """An ArgumentParser that speaks `lang`; its sub-command parsers speak it too. A
    value's placeholder (`metavar`, marked N_) is said in `lang` where it is declared, so
    the help and the errors that name it ("these are missing: PHOTO") both say it."""

    def __init__(self, *args, lang: str = "en", **kwargs) -> None:
        self.lang = lang
        super().__init__(*args, **kwargs)

    def _get_formatter(self):
        return SpokenFormatter(prog=self.prog, lang=self.lang)

    def _said_metavar(self, kwargs: dict) -> dict:
        placeholder = kwargs.get("metavar")
        if isinstance(placeholder, str):
            kwargs["metavar"] = t(placeholder, self.lang)
        return kwargs

    def add_argument(self, *args, **kwargs):
        return super().add_argument(*args, **self._said_metavar(kwargs))

    def add_subparsers(self, **kwargs):
        kwargs.setdefault("parser_class", partial(SpokenParser, lang=self.lang))
        return super().add_subparsers(**self._said_metavar(kwargs))

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, t(ERROR, self.lang, prog=self.prog, message=say_error(message, self.lang)) + "\n")
