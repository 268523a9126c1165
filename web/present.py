"""From a table snapshot (web.table.TableService.snapshot) to what a screen shows:
seats with names, colours, totals and flags, whose turn, notices in the device's
language, the round history and the score chart. Generic over games: it reads only the
keys every game's view has; each game's own "table" section is left to its partial
template (templates/games/<game>.html).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.games import get_game
from web.cards import css_colour, deck_cards
from web.chart import score_chart
from web.host_words import banner, last_card, undo_question
from web.names import GAME_TITLES, N_
from web.words import Speaker, t


def _seat_names(snapshot: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    view = snapshot.get("view") or {}
    match = snapshot.get("match") or {}
    seats = view.get("seats") or match.get("seats") or []
    names, colours = [], []
    for i, seat in enumerate(seats):
        if isinstance(seat, Mapping):
            names.append(str(seat.get("name", f"Seat {i + 1}")))
            colours.append(css_colour(seat.get("colour"), i))
        else:
            names.append(str(seat))
            colours.append(css_colour(None, i))
    # The match's own colours win over the game's (Raj's seat colours are the same).
    for i, seat in enumerate(match.get("seats") or []):
        if i < len(colours) and isinstance(seat, Mapping) and seat.get("colour"):
            colours[i] = css_colour(seat.get("colour"), i)
    return names, colours


def present(snapshot: Mapping[str, Any], lang: str,
            recent: list[Mapping[str, Any]] | None = None) -> dict[str, Any]:
    """Everything the generic parts of the screens need, in plain values. `recent`:
    the match's latest notices, newest first (web.feed), shown as words."""
    view = snapshot.get("view") or None
    match = snapshot.get("match") or None
    names, colours = _seat_names(snapshot)
    game_name = (view or {}).get("game") or (match or {}).get("game")
    speaker = Speaker(lang, game_name if isinstance(game_name, str) else None, tuple(names))
    notices = [speaker.say(n) for n in snapshot.get("notices") or []]
    status = snapshot.get("status") or {}
    out: dict[str, Any] = {
        "seq": snapshot.get("seq", 0), "match": match, "view": view, "lang": lang,
        "notices": notices, "status": status, "game": None, "title": "", "seats": [],
        "turn": None, "turn_name": None, "history": [], "chart": "", "winners": [],
        "finished": False, "prompt": "", "round": None, "rounds": None, "table": {},
        "recent": [speaker.say(n) for n in recent or []],
        "banner": banner(snapshot, game_name, names, lang),
        "last": snapshot.get("last"),
        "undo_question": undo_question(snapshot.get("last"), game_name, names, lang),
        "last_card": last_card(snapshot.get("last"), game_name, names, lang),
        "taken": _taken(snapshot),
        "stats": [],
        "store_why": _store_why(status, speaker),
        "store_warning": speaker.say(status["store_warning"])
        if isinstance(status.get("store_warning"), Mapping) else str(status.get("store_warning") or ""),
    }
    if view is None:
        return out
    game = str(view.get("game") or (match or {}).get("game") or "")
    totals = list(view.get("totals") or [0] * len(names))
    turn = view.get("turn")
    winners = [w for w in view.get("winners") or [] if isinstance(w, int)]
    dealer = view.get("dealer")
    history = [list(r) for r in view.get("history") or []]
    hands = _hand_sizes(view.get("table") or {}, len(names))
    seats = []
    for i, name in enumerate(names):
        seats.append({"index": i, "name": name, "colour": colours[i],
                      "total": totals[i] if i < len(totals) else 0,
                      "turn": turn == i, "dealer": dealer == i, "winner": i in winners,
                      "hand": hands[i], "taken": i in out["taken"]})
    ranked = sorted(seats, key=lambda s: -s["total"])
    if game == "hitthedeck":  # lowest total wins
        ranked = sorted(seats, key=lambda s: s["total"])
    out.update({
        "game": game, "title": GAME_TITLES.get(game, game),
        "seats": seats, "ranked": ranked,
        "turn": turn if isinstance(turn, int) and 0 <= turn < len(names) else None,
        "turn_name": names[turn] if isinstance(turn, int) and 0 <= turn < len(names) else None,
        "history": history,
        "chart": score_chart(history, names, colours, title=t("Score chart", lang)),
        "winners": [names[w] for w in winners if 0 <= w < len(names)],
        "finished": bool(view.get("finished")),
        "prompt": _prompt(speaker, view.get("prompt")),
        "round": view.get("round"), "rounds": view.get("rounds"),
        "table": view.get("table") or {},
        "said": _said_in_table(speaker, view.get("table") or {}),
        "names": names, "colours": colours,
        "stats": match_stats(snapshot.get("stats"), lang),
        "faces": deck_cards(game, lang),
        "can_correct_round": _takes(game, "correct_round"),
    })
    return out


def _takes(game: str, kind: str) -> bool:
    """Whether `game`'s vocabulary has the action `kind`."""
    try:
        return kind in get_game(game).actions
    except (ImportError, AttributeError, ValueError):
        return False


def _taken(snapshot: Mapping[str, Any]) -> list[int]:
    """The seats held by a phone in the match on the table (web.seats)."""
    held = (snapshot.get("status") or {}).get("seats_taken") or {}
    match = snapshot.get("match") or {}
    if not isinstance(held, Mapping) or held.get("match") != match.get("id"):
        return []
    return [s for s in held.get("seats") or [] if isinstance(s, int)]


def _hand_sizes(table: Mapping[str, Any], n: int) -> list[int | None]:
    """How many cards each seat holds, where the game's view says (Solo and Hit the Deck
    count hands, Raj counts the bid cards left, Flip 7 the cards in each line)."""
    counts = table.get("hand_counts") or table.get("cards_left")
    if isinstance(counts, list) and len(counts) == n:
        return [c if isinstance(c, int) else None for c in counts]
    lines = table.get("lines")
    if isinstance(lines, list) and len(lines) == n:
        return [len(l.get("numbers", [])) + len(l.get("modifiers", []))
                + len(l.get("actions", [])) if isinstance(l, Mapping) else None for l in lines]
    return [None] * n


# The game's own figures (engine.stats.match_statistics), as the summary names them.
STAT_LABELS = {
    "rounds_won": N_("Rounds won"), "busts": N_("Busts"), "flip7s": N_("Flip 7s"),
    "second_chances_used": N_("Second Chances used"), "frozen": N_("Frozen"),
    "slaps_lost": N_("Slaps lost"), "fake_outs": N_("Fake-outs"), "forgot_calls": N_("Forgotten calls"),
    "out_of_turn": N_("Out-of-turn discards"), "solo_caught": N_("Caught without Solo"),
    "catches": N_("Catches"), "penalties_taken": N_("Penalties taken"),
    "cards_collected": N_("Cards collected"), "fouls": N_("Fouls"),
}


def match_stats(stats: Mapping[str, Any] | None, lang: str) -> list[dict[str, Any]]:
    """The finished match's figures as rows: {"key", "label", "values" (one per seat)}
    (the points are the standings' own column, so they are left out here)."""
    if not isinstance(stats, Mapping):
        return []
    players = stats.get("players") or []
    return [{"key": key, "label": t(STAT_LABELS.get(key, key.replace("_", " ")), lang),
             "values": [p.get(key, 0) for p in players]}
            for key in stats.get("figures") or [] if key != "points"]


def _said_in_table(speaker: Speaker, table: Mapping[str, Any]) -> dict[str, str]:
    """The game's table section says some things as messages (a demand, the last
    ruling): each in words, by its key."""
    out = {}
    for key, value in table.items():
        if isinstance(value, Mapping) and isinstance(value.get("says"), Mapping):
            value = value["says"]
        if isinstance(value, Mapping) and "code" in value:
            out[key] = speaker.say(value)
        elif isinstance(value, list) and value and all(
                isinstance(v, Mapping) and "code" in v for v in value):
            out[key] = " ".join(speaker.say(v) for v in value)
    return out


def _prompt(speaker: Speaker, prompt: Any) -> str:
    """The view's prompt ({"code", "params"}) in words."""
    if isinstance(prompt, str):  # a game whose view is not converted yet says English
        return prompt
    return speaker.say(prompt) if prompt else ""


def _store_why(status: Mapping[str, Any], speaker: Speaker) -> str:
    """Why the store cannot be written, in the reader's words (its message, device.store);
    the English the store gave only to an English reader when it gave no message."""
    why = status.get("store_why")
    if isinstance(why, Mapping):
        return speaker.say(why)
    store = status.get("store")
    return store if isinstance(store, str) and store != "ok" and speaker.lang == "en" else ""
