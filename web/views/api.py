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
from web.live import LIVE_TEMPLATES, event_stream, json_data, render_live
from web.request import current_lang, deckhand, error, json_body, refuse, require_host, try_pin
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
        return refuse("The live stream lost its place: reload the page.", 400)
    if not 0 <= value <= MAX_WHOLE:
        return refuse("The live stream lost its place: reload the page.", 400)
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
        return refuse("There is no such live screen: reload the page.", 400)
    if screen in ("pad", "seat"):
        try:
            raw_seat = request.args.get("seat", "")
            if len(raw_seat) > 3:
                raise ValueError(raw_seat)
            extra["seat"] = int(raw_seat)
        except ValueError:
            return refuse("A pad's screen needs its seat number.", 400)
    if screen == "host" and not is_host():
        return refuse("Host controls are locked: enter the host PIN first.", 401)
    lang = current_lang()

    def payload(ev: dict) -> dict | str:
        if screen is None:
            return ev
        key = (screen, lang, ev["seq"], tuple(sorted(extra.items())))

        def encoded() -> str:   # once for every stream of this view (web.live.sse)
            html = d.fragments.get(key, lambda: render_live(screen, ev["snapshot"], lang, **extra))
            return json_data({"seq": ev["seq"], "kind": ev.get("kind"), "html": html,
                              "cue": cue(ev["snapshot"])})

        return d.fragments.get(key + (ev.get("kind"),), encoded)

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
    except KeyError:   # the store's "no match N" (resuming one)
        return refuse("There is no such match.", 404)


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
        return refuse("An action needs a type.", 400)
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
        return refuse("The table changed since Undo was shown: look at it again.", 409)
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
        return refuse("Name the card (and the player, to choose whose it is).", 400)
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
        return refuse("Choose the player by their seat number.", 400)
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
        return refuse("Name the right card.", 400)
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
        return refuse("Say whether the match being played ends or is kept unfinished.", 400)
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
        return refuse("Only a pad press can be sent from a screen.", 400)
    seat, held = data.get("seat"), data.get("held", False)
    if isinstance(seat, bool) or not isinstance(seat, int) or not isinstance(held, bool):
        return refuse("A pad press needs the seat number and whether the pad was held.", 400)
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
        return refuse("Say whether the camera pauses or goes on.", 400)
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
        return refuse("A player needs a name of 1 to 40 characters.", 400)
    if not isinstance(colour, str) or len(colour) > 20:
        return refuse("A player's colour is too long: choose one from the list.", 400)
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
        return refuse("There is no match {match}.", 404, match=match_id)


@bp.get("/games")
def games():
    lang = current_lang()
    return jsonify([{"name": g, "settings": settings_schema(g, lang)} for g in available_games()])


@bp.get("/games/<name>/actions")
def game_actions(name: str):
    try:
        lang = current_lang()
        return jsonify({"game": name, "actions": action_schema(name, lang),
                        "cards": deck_cards(name, lang)})
    except (IllegalAction, ImportError, AttributeError):
        return refuse("Deckhand does not play “{name}”.", 404, name=name)
