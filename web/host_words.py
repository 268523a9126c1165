"""Host actions in words: what Undo would take back ("Ann's Red 7"), and the banner the
table screen shows after each thing the host does ("The host undid Ann's Red 7").

Reads the snapshot's "last" (the last action in effect) and "change" (the latest
logged change and who made it), both from device.table.LiveTable. A person never sees
an action's type name or a card code: cards by their face label, actions by words.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from web.cards import face
from web.names import N_
from web.words import t as translate

CARD_FIELDS = ("card", "exposed_card", "starter")

# What each action (of any game) is, in words, when it has no card to name.
ACTION_WORDS = {
    "hit": N_("Hit"), "stay": N_("Stay"), "target": N_("gives the card away"), "draw": N_("draws a card"),
    "pass": N_("passes"), "slap": N_("slap"), "close_window": N_("the slap result"),
    "fake_out": N_("fake-out"), "forgot_call": N_("forgot to call"), "bid_down": N_("bid is down"),
    "choose_colour": N_("names a colour"), "swap": N_("swaps hands"), "take_penalty": N_("takes a penalty"),
    "claim": N_("claim"), "settle_play": N_("settles the play"), "call_solo": N_("calls Solo"),
    "catch_solo": N_("catches a missed Solo"), "set_hand_size": N_("hand size"),
    "hand_cards": N_("hand laid out"), "round_cards": N_("hand laid out"), "start_hand": N_("new hand"),
    "end_match": N_("the end of the match"), "start_round": N_("new round"),
    "correct_round": N_("a round's score corrected"), "set_totals": N_("the totals set"),
}


def _name(names: Sequence[str], seat: Any) -> str | None:
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names):
        return names[seat]
    return None


def describe(entry: Mapping[str, Any] | None, game: str | None, names: Sequence[str],
             lang: str) -> str:
    """One action in effect ({"action", "seat"}) in words: "Ann's Red 7", "Bob: Stay"."""
    if not entry or not isinstance(entry.get("action"), Mapping):
        return translate("the last action", lang)
    action = entry["action"]
    who = _name(names, entry.get("seat"))
    card = next((action[k] for k in CARD_FIELDS if isinstance(action.get(k), str)), None)
    if card is not None:
        label = face(game, card, lang)["label"]
        if who:
            return translate("{name}'s {card}", lang).format(name=who, card=label)
        return translate("the {card}", lang).format(card=label)
    kind = str(action.get("type", ""))
    words = translate(ACTION_WORDS.get(kind, N_("an action")), lang)
    return f"{who}: {words}" if who else words


def last_card(last: Mapping[str, Any] | None, game: str | None, names: Sequence[str],
              lang: str) -> str:
    """The last action in effect in words if it is a card (what "Correct the last card"
    would replace), else ""."""
    action = (last or {}).get("action") or {}
    if not any(isinstance(action.get(k), str) for k in CARD_FIELDS):
        return ""
    return describe(last, game, names, lang)


def undo_question(last: Mapping[str, Any] | None, game: str | None, names: Sequence[str],
                  lang: str) -> str:
    return translate("Undo {what}?", lang).format(what=describe(last, game, names, lang))


def banner(snapshot: Mapping[str, Any], game: str | None, names: Sequence[str],
           lang: str) -> str:
    """What the host just did, for the table screen; "" if the latest change was not the
    host's (the banner lasts until the next change)."""
    change = snapshot.get("change") or {}
    kind = change.get("type")
    if change.get("seq") != snapshot.get("seq") or (change.get("source") != "host"
                                                    and kind != "seat_taken"):
        return ""
    if kind == "undo":
        return translate("The host undid {what}.", lang).format(
            what=describe(change.get("undone"), game, names, lang))
    if kind == "correct":
        return translate("The host corrected {old} to {new}.", lang).format(
            old=describe(change.get("undone"), game, names, lang),
            new=describe(change.get("now"), game, names, lang))
    if kind == "start":
        return translate("The host started a new match.", lang)
    if kind == "end_match":
        return translate("The host ended the match.", lang)
    if kind == "seat_back":
        return translate("The host took back {name}'s seat.", lang).format(
            name=_name(names, change.get("seat")) or "?")
    if kind == "seat_taken":
        return translate("{name} joined from a phone.", lang).format(
            name=_name(names, change.get("seat")) or "?")
    if kind == "correct_round":
        done = (change.get("done") or {}).get("action") or {}
        return translate("The host corrected the scores of round {number}.", lang).format(
            number=done.get("round", "?"))
    if kind == "set_totals":
        return translate("The host set the totals.", lang)
    if change.get("done"):
        return translate("The host entered {what}.", lang).format(
            what=describe(change.get("done"), game, names, lang))
    return translate("The host changed the table.", lang)
