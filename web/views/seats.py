"""Seats joined by QR (web.seats): the join page `/join?k=...` lists the open seats of
the match, taking one gives this phone a player session for it, `/seat` is that
player's page (its own pad and its own view), `/api/seat/press` its pad, and the host
takes a seat back with `/api/seats/<n>/free`. No host PIN is involved; a player
session can do nothing but press its own pad."""
from __future__ import annotations

from flask import (Blueprint, current_app, jsonify, make_response, redirect, render_template,
                   request, url_for)

from web.request import current_lang, deckhand, error, json_body, refuse, require_host
from web.words import t as translate
from web.live import render_live
from web.present import present
from web.seats import COOKIE, join_key_ok, read_seat_cookie, seat_cookie

bp = Blueprint("seats", __name__)


def _secret() -> str:
    return str(current_app.config["SECRET_KEY"])


def current_seat() -> int | None:
    """The seat this phone holds in the match on the table, or None."""
    match = deckhand().table.snapshot().get("match")
    data = read_seat_cookie(_secret(), request.cookies.get(COOKIE))
    if not match or data is None:
        return None
    # The claim on record decides (a rematch carries the claims over to the new match).
    if not deckhand().seats.holds(match["id"], data["s"], data["n"]):
        return None
    return data["s"]


def _publish_seats(match_id: int, what: dict, source: str) -> None:
    d = deckhand()
    d.table.report({"seats_taken": {"match": match_id, "seats": d.seats.taken(match_id)}},
                   source, what)


@bp.get("/join")
def join():
    d = deckhand()
    snapshot = d.table.snapshot()
    match = snapshot.get("match")
    key = request.args.get("k", "")
    ok = match is not None and join_key_ok(_secret(), match["id"], key)
    lang = current_lang()
    s = present(snapshot, lang)
    taken = d.seats.taken(match["id"]) if match else []
    return render_template("join.html", s=s, ok=ok, key=key, taken=taken,
                           mine=current_seat()), 200 if ok else 403


@bp.post("/join/<int:seat>")
def take_seat(seat: int):
    d = deckhand()
    match = d.table.snapshot().get("match")
    lang = current_lang()
    if match is None or not join_key_ok(_secret(), match["id"], request.form.get("k")):
        return error(translate("Scan the code on the table screen again.", lang), 403)
    if not 0 <= seat < len(match["seats"]):
        return error(translate("There is no such seat.", lang), 404)
    held = read_seat_cookie(_secret(), request.cookies.get(COOKIE))
    mine = held["n"] if held and held["m"] == match["id"] and held["s"] == seat else None
    try:
        nonce = d.seats.claim(match["id"], seat, mine)
    except ValueError:
        return error(translate("That seat is taken: ask the host to free it.", lang), 409)
    if mine is None:
        _publish_seats(match["id"], {"type": "seat_taken", "seat": seat}, "web")
    response = make_response(redirect(url_for("seats.seat_page")))
    response.set_cookie(COOKIE, seat_cookie(_secret(), match["id"], seat, nonce),
                        httponly=True, samesite="Lax")
    return response


@bp.get("/seat")
def seat_page():
    seat = current_seat()
    if seat is None:
        return render_template("seat_lost.html", s=present({}, current_lang())), 403
    snapshot = deckhand().table.snapshot()
    lang = current_lang()
    s = present(snapshot, lang)
    live = render_live("seat", snapshot, lang, seat=seat)
    return render_template("seat.html", s=s, live=live, screen="seat", seat=seat,
                           seat_name=s["names"][seat], seq=snapshot.get("seq", 0))


@bp.post("/api/seat/press")
def press():
    """This phone's own pad: {"held": bool}. The seat comes from the player session,
    never from the request."""
    seat = current_seat()
    lang = current_lang()
    if seat is None:
        return error(translate("This phone holds no seat: scan the code on the table screen.",
                               lang), 401)
    data, refusal = json_body()
    if refusal:
        return refusal
    held = data.get("held", False)
    if not isinstance(held, bool):
        return refuse("A pad press needs to say whether the pad was held.", 400)
    from engine.core import IllegalAction
    try:
        return jsonify(deckhand().table.observe({"type": "pad", "seat": seat, "held": held},
                                                "pad"))
    except IllegalAction as exc:
        from web.views.api import say_refusal
        return error(say_refusal(exc), 422)


@bp.post("/api/seats/<int:seat>/free")
@require_host
def free_seat(seat: int):
    """The host takes a seat back: the phone that held it loses its session."""
    d = deckhand()
    match = d.table.snapshot().get("match")
    if match is None:
        return refuse("No match is being played: start one first.", 409)
    if not d.seats.free(match["id"], seat):
        return error(translate("Nobody holds that seat.", current_lang()), 404)
    _publish_seats(match["id"], {"type": "seat_back", "seat": seat}, "host")
    return jsonify({"seat": seat, "taken": d.seats.taken(match["id"])})
