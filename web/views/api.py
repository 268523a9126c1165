"""The JSON API under /api/: the snapshot, the live event stream, and every change
(each one needs the host session and a CSRF header; refusals are 4xx JSON in words).
Host actions go through table.submit / table.new_match, the same log as camera and pads.
"""
from __future__ import annotations

from flask import Blueprint, Response, jsonify, request, stream_with_context

from engine.core import IllegalAction
from engine.games import available_games
from engine.untrusted import MAX_WHOLE
from web.actions import action_schema, settings_schema
from web.cards import deck_cards
from web.cues import cue
from web.words import t as translate
from web.live import LIVE_TEMPLATES, event_stream, render_live
from web.request import current_lang, deckhand, error, json_body, require_host, try_pin
from web.security import csrf_token, is_host, revoke_host
from web.words import say

bp = Blueprint("api", __name__, url_prefix="/api")


@bp.get("/state")
def state():
    return jsonify(deckhand().table.snapshot())


def _resume_point() -> int | None | Response:
    raw = request.headers.get("Last-Event-ID") or request.args.get("since")
    if raw is None or raw == "":
        return None
    try:
        value = int(raw)
    except ValueError:
        return error("Last-Event-ID / since must be a whole number", 400)
    if not 0 <= value <= MAX_WHOLE:
        return error("Last-Event-ID / since must be a whole number from 0 to 2^53", 400)
    return value


@bp.get("/events")
def events():
    since = _resume_point()
    if isinstance(since, tuple):
        return since
    d = deckhand()
    screen = request.args.get("view")
    extra: dict = {}
    if screen is not None and screen not in LIVE_TEMPLATES:
        return error(f"unknown view {screen!r}; known: {', '.join(LIVE_TEMPLATES)}", 400)
    if screen in ("pad", "seat"):
        try:
            raw_seat = request.args.get("seat", "")
            if len(raw_seat) > 3:
                raise ValueError(raw_seat)
            extra["seat"] = int(raw_seat)
        except ValueError:
            return error("a pad stream needs ?seat=<number>", 400)
    if screen == "host" and not is_host():
        return error("host controls are locked: enter the host PIN first", 401)
    lang = current_lang()

    def payload(ev: dict) -> dict:
        if screen is None:
            return ev
        key = (screen, lang, ev["seq"], tuple(sorted(extra.items())))
        html = d.fragments.get(key, lambda: render_live(screen, ev["snapshot"], lang, **extra))
        return {"seq": ev["seq"], "kind": ev.get("kind"), "html": html, "cue": cue(ev["snapshot"])}

    stream = event_stream(d.table.events_since, d.table.snapshot, since, payload, d.heartbeat,
                          d.stopping)
    return Response(stream_with_context(stream), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@bp.get("/session")
def session_info():
    """This browser's CSRF token and whether it holds the host session."""
    return jsonify({"csrf_token": csrf_token(), "host": is_host()})


@bp.post("/login")
def login():
    data, refusal = json_body()
    if refusal:
        return refusal
    ok, status, words = try_pin(data.get("pin"))
    if not ok:
        return error(words, status)
    return jsonify({"host": True})


@bp.post("/logout")
def logout():
    revoke_host()
    return jsonify({"host": False})


def _refusable(call, spec: dict | None = None):
    try:
        return jsonify(call())
    except IllegalAction as exc:   # the store being down is one too (http_status 503)
        return _refusal(say_refusal(exc, spec), getattr(exc, "http_status", 422), exc.to_json())
    except KeyError as exc:
        return _refusal(str(exc.args[0]) if exc.args else "not found", 404)


def say_refusal(exc: IllegalAction, spec: dict | None = None) -> str:
    """A refusal in the device's words, naming the players of `spec` (a match being
    started) or of the current match."""
    match = spec if spec is not None else (deckhand().table.snapshot().get("match") or {})
    names = [s.get("name", "") if isinstance(s, dict) else str(s)
             for s in (match.get("seats") or []) if isinstance(s, (dict, str))]
    game = match.get("game") if isinstance(match.get("game"), str) else None
    return say(exc.to_json(), current_lang(), game, names)


def _refusal(words: str, status: int, refusal: dict | None = None):
    response = jsonify({"error": words, **({"refusal": refusal} if refusal else {})})
    response.status_code = status
    return response


@bp.post("/action")
@require_host
def action():
    data, refusal = json_body()
    if refusal:
        return refusal
    if not isinstance(data.get("type"), str):
        return error('an action needs a "type" (for example {"type": "undo"})', 400)
    return _refusable(lambda: deckhand().table.submit(data, "host"))


@bp.post("/undo")
@require_host
def undo():
    """Undo, checked against what the host was shown: {"row": n} is the row count the
    host's Undo named; if the log moved on since, nothing is undone."""
    data, refusal = json_body()
    if refusal:
        return refusal
    table = deckhand().table
    last = table.snapshot().get("last")
    row = data.get("row")
    if row is not None and (last is None or last.get("row") != row):
        return error("the table changed since Undo was shown: look at it again", 409)
    return _refusable(lambda: table.submit({"type": "undo"}, "host"))


def _card_field(data: dict) -> str | None:
    card = data.get("card")
    return card if isinstance(card, str) and 0 < len(card) <= 40 else None


@bp.post("/card")
@require_host
def enter_card():
    """A card named by hand: {"card": code} goes where the referee expects it;
    {"card": code, "seat": n} puts it at seat n."""
    data, refusal = json_body()
    if refusal:
        return refusal
    card, seat = _card_field(data), data.get("seat")
    if card is None:
        return error('send {"card": "<the card>"} (and "seat" to choose whose)', 400)
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
        return error('"seat" must be a seat number', 400)
    return _refusable(lambda: deckhand().table.enter_card(card, seat, "host"))


@bp.post("/correct")
@require_host
def correct_card():
    """Replace the last card in effect: {"card": code} (logged as undo + the new card)."""
    data, refusal = json_body()
    if refusal:
        return refusal
    card = _card_field(data)
    if card is None:
        return error('send {"card": "<the right card>"}', 400)
    return _refusable(lambda: deckhand().table.correct_card(card, "host"))


def running_match() -> dict | None:
    """The match on the table if it is still being played."""
    snap = deckhand().table.snapshot()
    if snap.get("match") and snap.get("view") and not snap["view"].get("finished"):
        return snap["match"]
    return None


@bp.post("/match")
@require_host
def new_match():
    """Start a match. While one is being played the host must say what becomes of it:
    {"running": "end"} ends it first, {"running": "keep"} leaves it unfinished (History
    can resume it); without either the answer is 409 with the question in words."""
    data, refusal = json_body()
    if refusal:
        return refusal
    choice = data.pop("running", None)
    if choice not in (None, "end", "keep"):
        return error('"running" is "end" or "keep"', 400)
    running = running_match()
    if running is not None and choice is None:
        lang = current_lang()
        return jsonify({"error": translate("A match is being played: end it, or keep it "
                                           "unfinished to resume later?", lang),
                        "running": running}), 409
    spec = {"type": "start", **data}
    table = deckhand().table
    response = _refusable(lambda: table.new_match(spec, "host", end_running=choice == "end"), spec)
    if response.status_code == 200:  # remember who played, for the next match's form
        for seat in spec.get("seats") or []:
            if isinstance(seat, dict) and isinstance(seat.get("name"), str) and seat["name"].strip():
                try:
                    table.save_player(seat["name"].strip()[:40], str(seat.get("colour", ""))[:20])
                except IllegalAction:
                    break   # the match is recorded; the profiles can wait
    return response


@bp.post("/rematch")
@require_host
def rematch():
    """The finished match again: same seats and settings, the next dealer; the phones
    that held seats keep them."""
    d = deckhand()
    before = (d.table.snapshot().get("match") or {}).get("id")
    response = _refusable(lambda: d.table.rematch("host"))
    after = (d.table.snapshot().get("match") or {}).get("id")
    if response.status_code == 200 and before is not None and after != before:
        d.seats.carry_over(before, after)
    return response


@bp.post("/observe")
@require_host
def observe():
    data, refusal = json_body()
    if refusal:
        return refusal
    if data.get("type") != "pad":
        return error('only virtual pads may be observed from the web: {"type": "pad", ...}', 400)
    seat, held = data.get("seat"), data.get("held", False)
    if isinstance(seat, bool) or not isinstance(seat, int) or not isinstance(held, bool):
        return error('a pad needs "seat" (a whole number) and "held" (true/false)', 400)
    return _refusable(lambda: deckhand().table.observe(
        {"type": "pad", "seat": seat, "held": held}, "pad"))


@bp.post("/camera/pause")
@require_host
def camera_pause():
    data, refusal = json_body()
    if refusal:
        return refusal
    paused = data.get("paused")
    if not isinstance(paused, bool):
        return error('send {"paused": true} or {"paused": false}', 400)
    return _refusable(lambda: (deckhand().table.set_camera_paused(paused), {"paused": paused})[1])


@bp.get("/players")
def players():
    return jsonify(deckhand().table.players())


@bp.post("/players")
@require_host
def save_player():
    data, refusal = json_body()
    if refusal:
        return refusal
    name, colour = data.get("name"), data.get("colour", "")
    if not isinstance(name, str) or not name.strip() or len(name) > 40:
        return error("a player needs a name of 1 to 40 characters", 400)
    if not isinstance(colour, str) or len(colour) > 20:
        return error("a colour is a name like \"red\" or a #rrggbb code", 400)
    return _refusable(lambda: (deckhand().table.save_player(name.strip(), colour.strip()),
                               {"name": name.strip(), "colour": colour.strip()})[1])


@bp.get("/history")
def history():
    return jsonify(deckhand().table.history())


@bp.get("/matches/<int:match_id>/rows")
def match_rows(match_id: int):
    try:
        return jsonify(deckhand().table.match_rows(match_id))
    except KeyError:
        return error(f"there is no match {match_id}", 404)


@bp.get("/games")
def games():
    return jsonify([{"name": g, "settings": settings_schema(g)} for g in available_games()])


@bp.get("/games/<name>/actions")
def game_actions(name: str):
    try:
        return jsonify({"game": name, "actions": action_schema(name),
                        "cards": deck_cards(name)})
    except (IllegalAction, ImportError, AttributeError):
        return error(f"there is no game {name!r} here", 404)
