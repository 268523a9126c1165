"""What setup.sh says, in the shell's language: `python3 device/setup_words.py CODE
[name=value ...]` prints the sentence of CODE (its English msgid in SENTENCES, said from
the catalog in web/translations) with its params filled in. Standard library only:
setup.sh runs it with the machine's own python3, before .venv exists."""
import gettext
import os
import sys
from pathlib import Path


def N_(text):
    """Marks a msgid for extraction (babel.cfg reads this file)."""
    return text


SENTENCES = {
    "need_root": N_("need root for: {command}"),
    "no_apt": N_("no apt-get: install {packages} by hand"),
    "apt_install": N_("installing {packages} with apt-get"),
    "python_needed": N_("Python 3.11 or newer is needed"),
    "up_to_date": N_("environment up to date ({extras})"),
    "venv_system": N_("creating .venv with system site packages (picamera2, OpenCV, gpiozero from apt)"),
    "venv": N_("creating .venv"),
    "pip_install": N_("installing Deckhand and its Python packages ({spec})"),
    "installed": N_("installed deckhand into .venv ({extras})"),
    "failed": N_("failed: {command}"),
    "no_chromium": N_("Chromium unavailable: browser tests will be skipped"),
    "done": N_("done. Start Deckhand with ./setup.sh run, run the tests with ./setup.sh test"),
    "no_espeak": N_("espeak-ng unavailable: speech tests will be skipped"),
    "usage": N_("usage: ./setup.sh [run|test|install] [args...]"),
}

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "web" / "translations"


def sentence(code, params, lang):
    """CODE's sentence in `lang` with `params` ({name: value}) filled in."""
    text = SENTENCES[code]
    if lang != "en":
        text = gettext.translation("messages", str(TRANSLATIONS), languages=[lang], fallback=True).gettext(text)
    return text.format(**params)


def main(argv, environ):
    sys.path.insert(0, str(ROOT))
    from web.shell_language import locale_language
    code, pairs = argv[0], argv[1:]
    params = dict(pair.split("=", 1) for pair in pairs)
    print(sentence(code, params, locale_language(environ)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], os.environ))
