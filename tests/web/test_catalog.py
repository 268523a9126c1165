"""The translation catalogs: every English msgid of the sources is in the template
(re-extraction finds nothing new), has a French translation that is neither missing
nor fuzzy, keeps the same {placeholders}, and the committed .mo says what the .po says;
every code the engines can say has its sentence (docs/translations.md)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from web import catalog, messages

ROOT = Path(__file__).resolve().parents[2]


def _ids(cat) -> set:
    return {(m.context, m.id if isinstance(m.id, str) else tuple(m.id)) for m in cat if m.id}


def test_the_template_is_up_to_date_with_the_sources():
    with open(catalog.POT, "rb") as f:
        pot = read_po(f)
    extracted = catalog.extract()
    new = _ids(extracted) - _ids(pot)
    gone = _ids(pot) - _ids(extracted)
    assert not new, f"msgids not in messages.pot (run python -m web.catalog update): {sorted(map(str, new))}"
    assert not gone, f"messages.pot has msgids no source uses: {sorted(map(str, gone))}"


def test_every_msgid_has_its_french():
    missing = catalog.missing("fr")
    assert missing == [], f"{len(missing)} French translation(s) missing or fuzzy: {missing}"


def test_french_keeps_every_placeholder():
    for message in catalog.read("fr"):
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        wanted = {p.split(":")[0] for i in ids for p in re.findall(r"{([^{}]+)}", i)}
        for string in strings:
            used = {p.split(":")[0] for p in re.findall(r"{([^{}]+)}", string)}
            # a French singular may leave out the count ("la carte"), never add a name
            assert used <= wanted | {"colour_f", "Colour", "colour"}, (message.id, string)


def test_the_compiled_catalog_matches_the_po():
    with open(catalog.po_path("fr").with_suffix(".mo"), "rb") as f:
        mo = read_mo(f)
    po = catalog.read("fr")
    def entries(cat, skip_fuzzy=False):
        plain = (lambda v: tuple(v) if isinstance(v, (list, tuple)) else v)
        context = (lambda c: c.decode() if isinstance(c, bytes) else c)  # read_mo gives bytes
        return {(context(m.context), plain(m.id)): plain(m.string) for m in cat
                if m.id and not (skip_fuzzy and m.fuzzy)}

    assert entries(mo) == entries(po, skip_fuzzy=True)


def _engine_codes() -> dict[str, set[str]]:
    """Every literal code the engine packages pass to Notice, IllegalAction or say."""
    found: dict[str, set[str]] = {}
    for path in (ROOT / "engine").rglob("*.py"):
        game = path.parent.name if path.parent.name != "engine" else "*"
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name in ("Notice", "IllegalAction", "say", "_note") and node.args:
                first = node.args[1] if name == "_note" else node.args[0]
                for const in ast.walk(first):
                    if isinstance(const, ast.Constant) and isinstance(const.value, str):
                        found.setdefault(game, set()).add(const.value)
            if name in ("_foul", "_end") and len(node.args) > 1:
                const = node.args[-1]
                if isinstance(const, ast.Constant) and isinstance(const.value, str):
                    found.setdefault(game, set()).add(const.value)
    return found


NOT_YET = {"solo"}  # converted next; its English sentences still reach the screens as they are


def test_every_code_the_engines_say_has_a_sentence():
    missing = []
    for game, codes in _engine_codes().items():
        if game in NOT_YET:
            continue
        for code in codes:
            if messages.lookup(None if game == "*" else game, code) is None:
                missing.append((game, code))
    assert not missing, f"codes with no sentence in web/messages.py: {sorted(missing)}"
