"""The translation catalogs, kept the standard gettext way with Babel: extract the English
msgids from web/ (babel.cfg) into web/translations/messages.pot, update each language's
.po from it, compile the .po into the .mo the screens read (web.words), and check that
nothing is missing. `python -m web.catalog update` does the first three;
`python -m web.catalog check` lists what a translator still has to do (docs/translations.md).

The .mo files are committed (a clean clone runs with no build step); the checks in
tests/web/test_catalog.py fail if the .pot, a .po or a .mo is out of date.
"""
from __future__ import annotations

import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "web" / "translations"
POT = TRANSLATIONS / "messages.pot"
LANGS = ("fr",)
KEYWORDS = {
    "t": None, "translate": None, "refuse": None, "N_": None, "tn": (1, 2), "NP_": (1, 2), "tc": ((1, "c"), 2), "C_": ((1, "c"), 2),
}


def extract() -> Catalog:
    """Every msgid in the sources, as a template catalog."""
    with open(ROOT / "babel.cfg", encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f, str(ROOT / "babel.cfg"))
    pot = Catalog(project="Deckhand", version="1", msgid_bugs_address="", charset="utf-8",
                  fuzzy=False)
    for path, lineno, message, comments, context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=KEYWORDS, strip_comment_tags=True):
        pot.add(message, None, [(path, lineno)], auto_comments=comments, context=context)
    return pot


def _write_po(catalog: Catalog, path: Path, width: int = 100) -> None:
    buf = io.BytesIO()
    write_po(buf, catalog, width=width, omit_header=False, sort_output=False,
             include_lineno=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buf.getvalue())


def read(lang: str) -> Catalog:
    with open(po_path(lang), "rb") as f:
        return read_po(f, locale=lang)


def po_path(lang: str) -> Path:
    return TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po"


def compile_mo(catalog: Catalog) -> bytes:
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    return buf.getvalue()


def update() -> None:
    """Extract, merge into each language's .po (new msgids untranslated, gone ones
    dropped), compile each .mo."""
    pot = extract()
    _write_po(pot, POT)
    for lang in LANGS:
        path = po_path(lang)
        catalog = read(lang) if path.exists() else Catalog(locale=lang, project="Deckhand")
        catalog.update(pot, no_fuzzy_matching=True)
        catalog.fuzzy = False
        catalog.obsolete.clear()
        _write_po(catalog, path)
        path.with_suffix(".mo").write_bytes(compile_mo(read(lang)))


def missing(lang: str) -> list[str]:
    """The msgids of the template with no (or only a fuzzy) translation in `lang`."""
    catalog = read(lang)
    out = []
    for message in extract():
        if not message.id:
            continue
        found = catalog.get(message.id, context=message.context)
        strings = found.string if found is not None else None
        if isinstance(strings, (tuple, list)):
            ok = found is not None and all(strings) and not found.fuzzy
        else:
            ok = found is not None and bool(strings) and not found.fuzzy
        if not ok:
            out.append(message.id if isinstance(message.id, str) else message.id[0])
    return out


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "update":
        update()
        print(f"updated {POT.relative_to(ROOT)} and {', '.join(LANGS)}")
        return 0
    if command == "check":
        bad = 0
        for lang in LANGS:
            for msgid in missing(lang):
                print(f"{lang}: missing: {msgid}")
                bad += 1
        print(f"{bad} missing translation(s)")
        return 1 if bad else 0
    print("usage: python -m web.catalog [update|check]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
