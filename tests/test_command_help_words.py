"""`deckhand --help` and the command line's own errors in the shell's language: every
command's help, argparse's headings and argparse's refusals (a missing argument, a
number that is not one, an unknown command) come from the catalog, and a help text
written in a command's source without the N_ mark fails the scan."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from device.cli import COMMANDS, build_parser, main as deckhand
from device.commands.spoken import say_error
from web.words import catalog

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [ROOT / "device" / "cli.py", *sorted((ROOT / "device" / "commands").glob("*.py"))]
SAID_KEYWORDS = ("help", "description", "epilog")
SAME_IN_FRENCH = {"options", "SOURCE", "PHOTO", "PORT"}


def _flat(text: str) -> str:
    return " ".join(text.split())


def _said_texts() -> list[str]:
    """Every help, description and epilog written in the commands' sources."""
    found = []
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "N_":
                found.append(node.args[0].value)
    return found


def _helps(lang: str) -> dict[str, str]:
    parser = build_parser(None, lang)
    sub = next(a for a in parser._actions if a.dest == "command")
    return {"": parser.format_help(), **{name: sub.choices[name].format_help() for name in COMMANDS}}


def _unmarked(source: str, name: str) -> list[str]:
    """The help, description and epilog texts written in `source` without the N_ mark."""
    return [f"{name}:{kw.value.lineno} {kw.arg}="
            for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Call)
            for kw in node.keywords
            if kw.arg in SAID_KEYWORDS and isinstance(kw.value, (ast.Constant, ast.JoinedStr))]


def test_every_help_text_is_marked_for_the_catalog():
    assert [line for path in SOURCES
            for line in _unmarked(path.read_text(encoding="utf-8"), path.name)] == []


def test_the_scan_finds_an_unmarked_help():
    assert _unmarked('p.add_argument("--x", help="an English sentence")\n'
                     'p.add_argument("--y", help=f"one of {games}")\n'
                     'p.add_argument("--z", help=N_("marked"))\n', "x.py") == ["x.py:1 help=", "x.py:2 help="]


def test_every_help_text_has_its_french():
    french = catalog("fr")
    missing = [text for text in _said_texts() if french.gettext(text) == text and text not in SAME_IN_FRENCH]
    assert missing == []


def test_help_in_french_says_no_english_sentence_of_ours():
    english = _helps("en")
    french = _helps("fr")
    for name, said in french.items():
        flat = _flat(said)
        assert flat.startswith("usage : deckhand"), name
        for text in _said_texts():
            if _flat(text) in _flat(english[name]) and len(text) > 12:
                assert _flat(text) not in flat, (name, text)
    assert "affiche cette aide et quitte" in _flat(french["run"])
    assert "le PIN qui déverrouille les commandes de l'hôte" in _flat(french["run"])
    assert "apprendre un jeu à partir de photos étiquetées" in _flat(french[""])


def test_help_in_english_is_argparse_as_usual():
    said = _flat(_helps("en")["run"])
    assert said.startswith("usage: deckhand run")
    assert "show this help message and exit" in said
    assert "the PIN that unlocks host controls" in said


def test_help_runs_in_french_from_the_shell(capsys, monkeypatch):
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    with pytest.raises(SystemExit) as done:
        deckhand(["teach", "--help"])
    assert done.value.code == 0
    said = _flat(capsys.readouterr().out)
    assert said.startswith("usage : deckhand teach")
    assert "le dossier des photos" in said
    assert "la langue du shell" in said


@pytest.mark.parametrize("argv, french", [
    (["run", "--players", "trois"], "deckhand run : erreur : --players : « trois » n'est pas un nombre entier"),
    (["run", "--speed", "vite"], "deckhand run : erreur : --speed : « vite » n'est pas un nombre"),
    (["teach", "--images", "photos"], "deckhand teach : erreur : il manque : --labels, --out"),
    (["replay", "--bogus"], "deckhand : erreur : Deckhand ne connaît pas : --bogus"),
    (["frobnicate"], "deckhand : erreur : COMMANDE : « frobnicate » n'est pas l'un des choix possibles"),
    (["run", "--port"], "deckhand run : erreur : --port : il faut une valeur"),
])
def test_the_command_lines_errors_are_said_in_french(capsys, monkeypatch, argv, french):
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    with pytest.raises(SystemExit) as done:
        deckhand(argv)
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage : deckhand")
    assert french in _flat(err)
    assert not re.search(r"invalid|required|unrecognized|expected|choose from", err)


def test_the_command_lines_errors_stay_plain_english(capsys, monkeypatch):
    monkeypatch.setenv("LANG", "C.UTF-8")
    with pytest.raises(SystemExit):
        deckhand(["run", "--players", "three"])
    err = _flat(capsys.readouterr().err)
    assert "deckhand run: error: --players: “three” is not a whole number" in err


def test_an_error_argparse_words_otherwise_is_shown_as_it_is():
    assert say_error("something argparse may say one day", "fr") == "something argparse may say one day"


def _value_options(lang: str):
    """(command, action) for every argument that takes a typed value with no fixed choices."""
    parser = build_parser(None, lang)
    sub = next(a for a in parser._actions if a.dest == "command")
    return [(name, action) for name in COMMANDS for action in sub.choices[name]._actions
            if action.nargs != 0 and action.choices is None]


def test_every_typed_value_has_a_placeholder_in_french():
    """A value's placeholder is declared (argparse's default is the option's English name
    in capitals) and said in French: "--images DOSSIER", not "--images IMAGES". The
    games' names ({flip7,raj,...}) are typed as they are, in either language."""
    english = {(name, action.dest): action.metavar for name, action in _value_options("en")}
    french = {(name, action.dest): action.metavar for name, action in _value_options("fr")}
    assert [key for key, placeholder in english.items() if placeholder is None] == []
    assert [key for key, placeholder in english.items() if french[key] == placeholder
            and placeholder not in SAME_IN_FRENCH and not placeholder.startswith("{")] == []


def test_placeholders_are_said_in_the_help_and_the_errors(capsys, monkeypatch):
    french = _flat(_helps("fr")["teach"])
    assert "--images DOSSIER" in french and "--out FICHIER" in french
    assert "--images FOLDER" in _flat(_helps("en")["teach"])
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    with pytest.raises(SystemExit):
        deckhand(["recognize"])
    assert "il manque : --profile, PHOTO" in _flat(capsys.readouterr().err)
