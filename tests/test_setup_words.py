"""What setup.sh says comes from the catalog in the shell's language: every `say` in
setup.sh names a sentence of device/setup_words.py and fills its params, each sentence
has its French, and setup.sh's own `say`, run by bash with the machine's python3, says
it in French under a French locale and in English otherwise."""
from __future__ import annotations

import os
import re
import string
import subprocess
from pathlib import Path

import pytest

from device.setup_words import SENTENCES, sentence
from web.words import catalog

ROOT = Path(__file__).resolve().parent.parent
SETUP = ROOT / "setup.sh"
SAYS = re.compile(r"\bsay (\w+)((?: \w+=\"[^\"]*\")*)")


def _script() -> str:
    """setup.sh without its comment lines."""
    return "\n".join(line for line in SETUP.read_text().splitlines() if not line.lstrip().startswith("#"))


def _say_function() -> str:
    found = re.search(r"^say\(\) \{\n.*?^\}\n", SETUP.read_text(), re.S | re.M)
    assert found, "setup.sh has no say function"
    return found.group(0)


def test_every_say_in_setup_names_a_sentence_and_fills_it():
    said = SAYS.findall(_script())
    assert len(said) >= 12
    for code, pairs in said:
        assert code in SENTENCES, code
        given = set(re.findall(r"(\w+)=", pairs))
        wanted = {name for _, name, _, _ in string.Formatter().parse(SENTENCES[code]) if name}
        assert given == wanted, code
    assert not re.search(r"\bsay \"", _script()), "setup.sh says English written in the script"
    assert not re.search(r"\becho \"[A-Za-z]", _script())


def test_every_setup_sentence_has_its_french():
    french = catalog("fr")
    assert [text for text in SENTENCES.values() if french.gettext(text) == text] == []


def _shell(lang: str) -> dict[str, str]:
    """This environment with its locale set to `lang` alone."""
    return {**{k: v for k, v in os.environ.items() if not k.startswith(("LANG", "LC_"))}, "LANG": lang}


@pytest.mark.parametrize("lang, expected", [
    ("fr_FR.UTF-8", "setup: échec : pip install\n"),
    ("C.UTF-8", "setup: failed: pip install\n"),
])
def test_setup_says_its_lines_in_the_shells_language(lang, expected):
    script = f'ROOT="{ROOT}"\n' + _say_function() + 'say failed command="pip install"\n'
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True,
                          env=_shell(lang), timeout=60)
    assert done.stdout == expected


def test_a_sentence_is_filled_in():
    assert sentence("up_to_date", {"extras": "pc,test"}, "fr") == "environnement à jour (pc,test)"
