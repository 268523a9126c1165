"""Host controls `/host`: the PIN entry, then new match, the common actions as buttons,
a card picker, and a generic form for any action of the current game. The page only
sends JSON to /api/ (web/static/host.js); this blueprint renders it and handles the
PIN form for browsers."""
from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for

from engine.games import available_games
from web.actions import action_schema, settings_schema
from web.cards import deck_cards
from web.words import t
from web.live import render_live
from web.names import COLOURS, colour_name
from web.present import GAME_TITLES, present
from web.request import current_lang, deckhand, try_pin
from web.security import is_host, revoke_host

bp = Blueprint("host", __name__, url_prefix="/host")


@bp.get("")
def controls():
    if not is_host():
        return render_template("login.html", message=None), 200
    d = deckhand()
    snapshot = d.table.snapshot()
    lang = current_lang()
    s = present(snapshot, lang)
    games = [{"name": g, "title": GAME_TITLES.get(g, g), "settings": settings_schema(g, lang)}
             for g in available_games()]
    schema = {}
    if s["game"]:
        schema = {"game": s["game"], "actions": action_schema(s["game"], lang),
                  "cards": deck_cards(s["game"], lang), "seats": s.get("names", []),
                  "colours": s.get("colours", [])}
    colours = {c: colour_name(c, lang) for c in COLOURS}
    return render_template(
        "host.html", colour_names=colours, s=s, seq=snapshot.get("seq", 0), screen="host",
        live=render_live("host", snapshot, lang), games=games,
        players=d.table.players(), camera_status=(snapshot.get("status") or {}).get("camera"),
        schema=schema)


@bp.post("/login")
def login():
    ok, status, words = try_pin(request.form.get("pin"))
    if ok:
        return redirect(url_for("host.controls"))
    return render_template("login.html", message=words), status   # try_pin says it in the reader's words


@bp.post("/logout")
def logout():
    revoke_host()
    return redirect(url_for("screens.table_screen"))
