"""Speaker.say keeps the words of a message it said before (web.words._said): the phone's
recent plays are said again at every change. The kept words must be exactly what saying
it afresh gives, and anything the words depend on (the language, a seat's name, the game,
the message's content, down to a value's type) must give new words."""
from __future__ import annotations

from engine.core import MatchSpec, Seat
from engine.flip7.selfplay import play_match
from engine.games import get_game
from engine.log import Timeline
from web.words import Speaker

NAMES = ("Ann", "Bob", "Éloïse")


def _notices() -> list[dict]:
    spec = MatchSpec("flip7", tuple(Seat(n) for n in NAMES))
    timeline = Timeline(get_game("flip7"), spec)
    out = []
    for action in play_match(spec, None, 3, rounds=2):
        out.extend(n.to_json() for n in timeline.apply(action))
    return out


def test_words_said_again_are_the_words_said_afresh():
    notices = _notices()
    assert len(notices) > 20
    for lang in ("en", "fr"):
        speaker = Speaker(lang, "flip7", NAMES)
        for message in notices:
            first, again = speaker.say(message), speaker.say(dict(message))
            assert first == again == speaker._say(message), (lang, message)


def test_another_language_a_renamed_seat_or_a_changed_message_gives_new_words():
    message = {"code": "not_your_turn", "params": {"seat": 0, "other_seat": 2}}
    en = Speaker("en", "flip7", NAMES)
    assert en.say(message) == "It is Ann's turn, not Éloïse's."
    assert Speaker("fr", "flip7", NAMES).say(message) not in ("", en.say(message))
    renamed = Speaker("en", "flip7", ("Zoe", "Bob", "Éloïse"))
    assert renamed.say(message) == "It is Zoe's turn, not Éloïse's."
    assert en.say({"code": "not_your_turn", "params": {"seat": 1, "other_seat": 2}}) \
        == "It is Bob's turn, not Éloïse's."
    # True is not seat 1 (a bool is never a seat), though True == 1 as a key would be
    assert en.say({"code": "not_your_turn", "params": {"seat": 1, "other_seat": 0}}) \
        == "It is Bob's turn, not Ann's."
    assert "Bob" not in en.say({"code": "not_your_turn", "params": {"seat": True, "other_seat": 0}})
    # a message holding something no key stands for is still said
    assert en.say({"code": "not_your_turn", "params": {"seat": 0, "other_seat": 2}, "x": object()}) \
        == "It is Ann's turn, not Éloïse's."
