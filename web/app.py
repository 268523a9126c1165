"""The application factory: `create_app(table, *, host_pin, ...)` builds the Flask app
around a TableService (web/table.py), registers one blueprint per screen, and installs
the security checks (CSRF on every POST, JSON errors in words, no debug).

Everything the app needs arrives through the factory; nothing is global. The app's
own parts live in `app.extensions["deckhand"]` (a `web.request.Deckhand`); the helpers
the views use to answer a request are in web/request.py, so views never import this.
"""
from __future__ import annotations

import secrets
import time
from typing import Any, Callable

from flask import Flask, request
from markupsafe import escape
from werkzeug.exceptions import HTTPException
from werkzeug.routing import IntegerConverter

from web import words
from web.camera import CameraProvider
from web.cards import css_colour, face, seat_symbol
from web.messages import N_
from web.request import Deckhand, current_lang, error, refuse, wants_json
from web.security import CSRF_FIELD, CSRF_HEADER, PinGate, csrf_ok, csrf_token, is_host, make_pin
from web.table import TableService
from web.views import api, history, host, screens, seats, vision


def create_app(table: TableService, *, host_pin: str | None = None,
               pin_check: Callable[[str], bool] | None = None,
               secret_key: str | None = None, camera: CameraProvider | None = None,
               public_url: str | None = None, show_pin: bool | None = None,
               pin_viewers: str = "local", pin_attempts: int = 5, pin_window: float = 300.0,
               pin_attempts_total: int = 20,
               heartbeat: float = 15.0, listen: str | None = None,
               clock: Callable[[], float] = time.monotonic) -> Flask:
    """Build the Deckhand web app.

    table: the running table (web.table.TableService).
    host_pin: the PIN that unlocks host controls; None makes one up (read it back from
        `app.config["DECKHAND_HOST_PIN"]`), which the table screen then shows.
    pin_check: instead of host_pin, a function that says whether an entry is the PIN
        (the configuration keeps only the PIN's hash); such a PIN is never shown.
    secret_key: signs the session cookie; None generates one (sessions end at restart).
    camera: the vision pages' camera (web.camera.CameraProvider), or None.
    public_url: the address phones should open (for the QR code), e.g.
        "http://192.168.1.20:8000"; None guesses it from the request or the LAN address.
    show_pin: show the host PIN on the table screen (default: only a made-up PIN).
    pin_viewers: "local" shows it only to a browser on this machine (the kiosk), "all"
        to every viewer of the table screen.
    pin_attempts, pin_window: wrong PIN entries allowed per client per window (seconds).
    pin_attempts_total: wrong PIN entries allowed from all network clients together per
        window (the table's own screen on this machine is not held by it).
    heartbeat: seconds between SSE heartbeats when nothing happens.
    listen: the address the server is bound to ("127.0.0.1", "0.0.0.0", ...), so the
        join address shown to phones is one it really listens on; None: not known (the
        address each page was reached at is taken as the one phones can use).
    """
    if pin_viewers not in ("local", "all"):
        raise ValueError('pin_viewers must be "local" or "all"')
    if host_pin and pin_check is not None:
        raise ValueError("give host_pin or pin_check, not both")
    generated = not host_pin and pin_check is None
    pin = host_pin or ("" if pin_check is not None else make_pin())
    app = Flask(__name__)
    app.debug = False
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    app.config.update(
        SECRET_KEY=secret_key or secrets.token_hex(32),
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        DECKHAND_HOST_PIN=pin,
        JSON_SORT_KEYS=False,
        MAX_CONTENT_LENGTH=256 * 1024,
    )
    app.extensions["deckhand"] = Deckhand(
        table=table, gate=PinGate(pin_check or pin, pin_attempts, pin_window, clock, pin_attempts_total), host_pin=pin,
        pin_generated=generated, show_pin=generated if show_pin is None else show_pin,
        pin_viewers=pin_viewers, camera=camera, public_url=public_url, heartbeat=heartbeat,
        listen=listen)

    app.url_map.converters["int"] = WholeNumberInPath
    for module in (screens, host, api, history, vision, seats):
        app.register_blueprint(module.bp)

    _install_checks(app)
    _install_template_helpers(app)
    return app


class WholeNumberInPath(IntegerConverter):
    """`<int:...>` in every route: at most 15 digits, so a match id or seat of twenty
    digits is "no such page" (404), never a number SQLite or Python cannot take."""

    regex = r"\d{1,15}"


def _install_checks(app: Flask) -> None:
    @app.before_request
    def check_csrf():
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return None
        sent = request.headers.get(CSRF_HEADER) or request.form.get(CSRF_FIELD)
        if not csrf_ok(sent):
            return refuse("This page is out of date: reload it and try again.", 403)
        return None

    @app.after_request
    def security_headers(response):
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
            "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
            "form-action 'self'")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        return response

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        lang = current_lang()
        said = words.t({
            400: N_("The request could not be read."),
            404: N_("There is no such page."),
            405: N_("That cannot be done here."),
            413: N_("The request is too large."),
        }.get(exc.code or 500, N_("The table could not answer this request.")), lang)
        if wants_json():
            return error(said, exc.code or 500)
        return error_page(said, lang), exc.code

    @app.errorhandler(Exception)
    def crash(exc: Exception):
        status = getattr(exc, "http_status", None)
        if isinstance(status, int):   # a part that says why in words (the store is down)
            said = getattr(exc, "to_json", None)
            return error(words.say(said(), current_lang()) if said else str(exc), status)
        app.logger.exception("unhandled error")
        return refuse("The table could not do that (an internal error, written to its log).", 500)


def error_page(said: str, lang: str) -> str:
    """A page that says only why (a page asked for that is not there, say), in the
    reader's language, with the way back to the table."""
    back = escape(words.t("Back to the table", lang))
    return (f'<!doctype html><html lang="{lang}"><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(said)}</title><p>{escape(said)}</p><p><a href=\"/\">{back}</a></p></html>")


def _install_template_helpers(app: Flask) -> None:
    @app.context_processor
    def helpers() -> dict[str, Any]:
        lang = current_lang()
        return {
            "lang": lang,
            "t": lambda text, **params: words.t(text, lang, **params),
            "tn": lambda singular, plural, n, **params: words.tn(singular, plural, n, lang, **params),
            "csrf_token": csrf_token,
            "is_host": is_host(),
            "card_face": lambda game, code: face(game, code, lang),
            "css_colour": css_colour,
            "seat_symbol": seat_symbol,
        }
