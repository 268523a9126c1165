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


def _codes_in(node: ast.AST) -> set[str]:
    """The codes an expression can be: a string, either branch of `a if c else b`, the
    values (and default) of `{...}[k]` / `{...}.get(k, d)`; an f-string is kept whole so
    that it fails (a sentence built in the engine)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.JoinedStr):
        return {ast.unparse(node)}
    if isinstance(node, ast.IfExp):
        return _codes_in(node.body) | _codes_in(node.orelse)
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Dict):
        return set().union(*(_codes_in(v) for v in node.value.values))
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get" and isinstance(node.func.value, ast.Dict)):
        out = set().union(*(_codes_in(v) for v in node.func.value.values))
        return out | (_codes_in(node.args[1]) if len(node.args) > 1 else set())
    return set()


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
                found.setdefault(game, set()).update(_codes_in(first))
            if name in ("_foul", "_end") and len(node.args) > 1:
                const = node.args[-1]
                if isinstance(const, ast.Constant) and isinstance(const.value, str):
                    found.setdefault(game, set()).add(const.value)
    return found


NOT_YET: set[str] = set()  # games whose engine still writes English (none)


def test_every_code_the_engines_say_has_a_sentence():
    missing = []
    for game, codes in _engine_codes().items():
        if game in NOT_YET:
            continue
        for code in codes:
            if messages.lookup(None if game == "*" else game, code) is None:
                missing.append((game, code))
    assert not missing, f"codes with no sentence in web/messages.py: {sorted(missing)}"
