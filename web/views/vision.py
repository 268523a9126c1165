"""Teaching and calibration pages for vision: the live camera frame with detected cards
outlined and named, the zones, "teach this card", and which deck the camera reads (the
printed one or a taught one). Viewing is open; teaching, changing zones and switching the
deck need the host. Without a camera the pages say so."""
from __future__ import annotations

from flask import Blueprint, Response, jsonify, render_template

from engine.games import available_games
from web.cards import deck_cards, deck_of
from web.names import card_name, game_title, zone_name
from web.request import current_lang, deckhand, error, json_body, refuse, require_host
from web.words import say
from web.words import t as translate

bp = Blueprint("vision", __name__)


@bp.get("/camera")
def camera_page():
    d = deckhand()
    game = _game()
    games = [game] if game else available_games()
    lang = current_lang()
    labels = [{**c, "label": translate("{game}: {card}", lang, game=game_title(g), card=c["label"])
               if len(games) > 1 else c["label"]}
              for g in games for c in deck_cards(g, lang)]
    return render_template("camera.html", has_camera=d.camera is not None, labels=labels)


@bp.get("/camera/frame.jpg")
def frame():
    camera = deckhand().camera
    if camera is None:
        return refuse("No camera is connected.", 404)
    jpeg = camera.latest_jpeg()
    if not jpeg:
        return refuse("No picture from the camera yet.", 503)
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/api/camera")
def camera_state():
    camera = deckhand().camera
    if camera is None:
        return jsonify({"camera": False, "detections": [], "zones": {}})
    lang, game = current_lang(), _game()
    detections = [_detection_in_words(d, game, lang) for d in camera.detections()]
    zones = camera.zones()
    answer = {"camera": True, "detections": detections, "zones": zones,
              "zone_names": {name: zone_name(name, lang) for name in zones}}
    if hasattr(camera, "deck"):
        answer["deck"] = _deck_words(camera.deck(), lang)
    return jsonify(answer)


def _detection_in_words(found: dict, game: str | None, lang: str) -> dict:
    """A card the camera sees, named as the screens name it ("label"), its zone in words
    ("zone_name"); a card it cannot read is said so, never "unknown"."""
    if found.get("card") and game is not None:
        label = card_name(game, found["card"], lang)
    elif found.get("card"):   # no match: the deck's own label (a taught deck's) or the card's name
        label = _any_game_name(found["card"], lang) or found.get("label") or found["card"]
    else:
        label = translate("Not read", lang)
    zone = found.get("zone")
    return {**found, "label": label, "zone_name": zone_name(zone, lang) if zone else None}


def _any_game_name(code: str, lang: str) -> str | None:
    """The card's name in the first game whose deck has it (no match is being played)."""
    for game in available_games():
        deck = deck_of(game)
        if deck is not None and code in deck:
            return card_name(game, code, lang)
    return None


def _game() -> str | None:
    return ((deckhand().table.snapshot().get("match") or {}).get("game")) or None


def _deck_words(deck, lang: str):
    """The deck being read, its messages put into words for this reader."""
    if deck is None:
        return None
    game = deck.get("game")
    return {**deck, "said": say(deck["said"], lang, game),
            "problem": say(deck["problem"], lang, game) if deck.get("problem") else None}


@bp.post("/api/camera/deck")
@require_host
def choose_deck():
    """{"deck": "printed" | "taught"}: the deck the camera reads for the match being played."""
    camera = deckhand().camera
    if camera is None or not hasattr(camera, "choose_deck"):
        return refuse("No camera is connected.", 404)
    data, refusal = json_body()
    if refusal:
        return refusal
    lang = current_lang()
    try:
        deck = camera.choose_deck(data.get("deck"))
    except ValueError as exc:
        said = getattr(exc, "said", None)
        if not said:
            return refuse("The camera cannot read that deck now.", 409)
        return error(say(said, lang, getattr(exc, "game", None)), 409)
    return jsonify({"deck": _deck_words(deck, lang)})


def _zones_refused(data):
    """A refusal in the reader's words of the first zone that cannot be kept, else None."""
    for name, box in data.items():
        if not name.strip():
            return refuse("Every zone needs a name.", 400)
        if not isinstance(box, list) or len(box) != 4 or not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v <= 1 for v in box):
            return refuse("The zone “{zone}” must be four numbers from 0 to 1 (x, y, w, h): it must lie "
                          "inside the picture.", 400, zone=zone_name(name, current_lang()))
        if not (box[0] < box[2] and box[1] < box[3]):
            return refuse("The zone “{zone}” must have a width and a height, and lie inside the picture.",
                          400, zone=zone_name(name, current_lang()))
    return None


@bp.post("/api/camera/zones")
@require_host
def set_zones():
    camera = deckhand().camera
    if camera is None:
        return refuse("No camera is connected.", 404)
    data, refusal = json_body()
    if refusal:
        return refusal
    refusal = _zones_refused(data)
    if refusal:
        return refusal
    try:
        camera.set_zones(data)
    except ValueError:   # what _zones_refused lets through and the camera still refuses
        return refuse("These zones could not be kept: check each zone's numbers.", 400)
    return jsonify({"zones": camera.zones()})


@bp.post("/api/camera/teach")
@require_host
def teach():
    camera = deckhand().camera
    if camera is None:
        return refuse("No camera is connected.", 404)
    data, refusal = json_body()
    if refusal:
        return refusal
    label = data.get("label")
    if not isinstance(label, str) or not label.strip():
        return refuse("Say which card lies under the camera.", 400)
    try:
        result = _in_words(camera.teach(label))
    except ValueError as exc:
        return _refused(exc)
    return jsonify(result), (200 if result.get("ok") else 422)


def _refused(exc: ValueError):
    """A refusal of live teaching in the reader's words (its `said`, device.live_teaching)."""
    said = getattr(exc, "said", None)
    if not said:
        return refuse("Live teaching cannot do that now.", 400)
    return error(say(said, current_lang(), _game()), 400)


def _no_live_teaching():
    return refuse("Live teaching is not available on this table.", 404)


def _in_words(status: dict) -> dict:
    """Live teaching's answer or status with what it says ("message", "seen", the
    self-check's "check", "deck": messages, device.live_teaching) in the device's words."""
    lang, game = current_lang(), _game()
    out = dict(status)
    for key in ("message", "seen", "deck"):
        if isinstance(out.get(key), dict):
            out[key] = say(out[key], lang, game)
    if isinstance(out.get("check"), list):
        out["check"] = [say(m, lang, game) if isinstance(m, dict) else m for m in out["check"]]
    return out


def _live_teaching():
    """The camera's live teaching (device.camera_view.CameraView.teach_*), or None."""
    camera = deckhand().camera
    return camera if camera is not None and hasattr(camera, "teach_status") else None


@bp.get("/api/camera/teaching")
def teaching_status():
    camera = _live_teaching()
    if camera is None:
        return jsonify({"available": False})
    return jsonify(_in_words(camera.teach_status()))


@bp.post("/api/camera/teaching/start")
@require_host
def teaching_start():
    camera = _live_teaching()
    if camera is None:
        return _no_live_teaching()
    data, refusal = json_body()
    if refusal:
        return refusal
    labels = data.get("labels")
    if not isinstance(labels, list) or not labels or not all(isinstance(x, str) and x.strip() for x in labels):
        return refuse("Say which card lies under the camera, or which cards from left to right.", 400)
    try:
        return jsonify(_in_words(camera.teach_start(labels)))
    except ValueError as exc:
        return _refused(exc)


@bp.post("/api/camera/teaching/stop")
@require_host
def teaching_stop():
    camera = _live_teaching()
    if camera is None:
        return _no_live_teaching()
    return jsonify(_in_words(camera.teach_stop()))


@bp.post("/api/camera/teaching/train")
@require_host
def teaching_train():
    camera = _live_teaching()
    if camera is None:
        return _no_live_teaching()
    return jsonify(_in_words(camera.teach_train()))
