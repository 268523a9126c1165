"""A command's language, the Unix way (as gettext reads a locale): which of Deckhand's
languages the shell's environment names. Standard library only, so that setup.sh can
ask it with the machine's own python3 before .venv exists."""

LANGUAGES = ("en", "fr")


def locale_language(environ) -> str:
    """The first of LANGUAGE, LC_ALL, LC_MESSAGES and LANG that is set ("fr_FR.UTF-8" ->
    "fr"; LANGUAGE may list several, "de:fr"); English if it names no language Deckhand
    speaks, or the C locale."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(var, "")
        if not value:
            continue
        for item in value.split(":"):
            code = item.split(".")[0].split("@")[0].split("_")[0].strip().lower()
            if code in ("c", "posix"):
                return "en"
            if code in LANGUAGES:
                return code
        return "en"
    return "en"
