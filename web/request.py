"""What every view needs from the request it is answering: the app's parts
(`deckhand()`), the reader's language, a refusal in words (`error`), the JSON body,
the host guard (`require_host`) and the host PIN check (`try_pin`).

The app factory (web/app.py) and the views (web/views/) both import from here, so
neither imports the other. Nothing here builds the app or registers routes.
"""
from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from functools import wraps
from typing import Any

from flask import current_app, jsonify, request

from engine.untrusted import MAX_DEPTH, json_fault, shorten
from web import words
from web.camera import CameraProvider
from web.feed import NoticeFeed
from web.live import FragmentCache
from web.seats import SeatClaims
from web.security import HostSessions, PinGate, grant_host, is_host
from web.table import TableService


@dataclass
class Deckhand:
    """The app's collaborators and settings (one per app)."""

    table: TableService
    gate: PinGate
    host_pin: str
    pin_generated: bool
    show_pin: bool
    pin_viewers: str
    camera: CameraProvider | None
    public_url: str | None
    heartbeat: float
    listen: str | None = None   # the bind address, when known (web.qr.join_address)
    fragments: FragmentCache = field(default_factory=FragmentCache)
    stopping: threading.Event = field(default_factory=threading.Event)
    feed: NoticeFeed = field(default_factory=NoticeFeed)
    seats: SeatClaims = field(default_factory=SeatClaims)
    sessions: HostSessions = field(default_factory=HostSessions)


def deckhand() -> Deckhand:
    """This app's parts."""
    return current_app.extensions["deckhand"]


def current_lang() -> str:
    """The language this reader gets: their cookie, else their browser's choice."""
    return words.choose_language(request.cookies.get("lang"), request.accept_languages)


def error(message: str, status: int, **fields: Any):
    """A refusal already in the reader's words, as JSON ("error"; `fields` beside it are
    for programs, never shown)."""
    return jsonify({"error": message, **fields}), status


def refuse(text: str, status: int, fields: dict[str, Any] | None = None, **params: Any):
    """A refusal as JSON, in the reader's language: `text` is the English sentence (a
    msgid: web.catalog extracts every `refuse("...")`), `{name}` filled from `params`."""
    return error(words.t(text, current_lang(), **params), status, **(fields or {}))


def wants_json() -> bool:
    """Whether this request should be answered in JSON rather than a page."""
    if request.path.startswith("/api/") or request.is_json:
        return True
    best = request.accept_mimetypes.best_match(["application/json", "text/html"])
    return best == "application/json"


def require_host(view):
    """Refuse (401, in words) unless this browser has entered the host PIN."""

    @wraps(view)
    def guarded(*args, **kwargs):
        if not is_host():
            return refuse("Host controls are locked: enter the host PIN first.", 401)
        return view(*args, **kwargs)

    return guarded


def json_body() -> tuple[dict[str, Any] | None, Any]:
    """The request's JSON object, or (None, a 400 refusal in words). Checked here, at the
    edge, so nothing later meets text it cannot store or show, a number too large to
    use, or nesting no request needs (engine.untrusted.json_problem)."""
    if not request.is_json:
        return None, refuse("The request must send a JSON object (Content-Type: application/json).", 400)
    try:
        data = json.loads(request.get_data(cache=True))
    except RecursionError:
        return None, refuse("The request is nested more than {depth} deep.", 400, depth=MAX_DEPTH)
    except ValueError:  # not JSON, not UTF-8, or a number of thousands of digits
        return None, refuse("The request must send a JSON object: this is not valid JSON.", 400)
    if not isinstance(data, dict):
        return None, refuse("The request must send a JSON object, not a list, a text or a number.", 400)
    fault = json_fault(data)
    if fault is not None:
        code, where = fault
        place = {"where": shorten(where, 60)}   # the JSON path, for programs
        if code == "too_deep":
            return None, refuse("The request is nested more than {depth} deep.", 400, place, depth=MAX_DEPTH)
        if code == "number_too_large":
            return None, refuse("The request holds a number too large to use.", 400, place)
        return None, refuse("The request holds text that is not valid Unicode.", 400, place)
    return data, None


def try_pin(entry: Any) -> tuple[bool, int, str]:
    """Check a host PIN entry from this client: (unlocked, HTTP status, words)."""
    gate = deckhand().gate
    client = request.remote_addr or "?"
    wait = gate.retry_after(client)
    lang = current_lang()
    if wait > 0:
        return False, 429, words.t("Too many wrong PINs have been tried: try again in {seconds} seconds "
                                   "(the table's own screen can still unlock).", lang, seconds=int(wait) + 1)
    if not isinstance(entry, str) or not entry.strip():
        return False, 400, words.t("Enter the host PIN.", lang)
    if not gate.check(client, entry.strip()):
        return False, 403, words.t("Wrong PIN.", lang)
    grant_host()
    return True, 200, words.t("Unlocked.", lang)
