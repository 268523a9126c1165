"""The viewing screens: the table display `/` (kiosk), the phone scoreboard `/phone`,
the virtual pads `/pad/<seat>`, and the language toggle. Open to everyone."""
from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, abort, current_app, make_response, redirect, render_template, request

from web.live import render_live
from web.present import present
from web.qr import LAN_BIND, is_loopback, join_address, qr_svg
from web.request import current_lang, deckhand
from web.seats import join_key

bp = Blueprint("screens", __name__)


def pin_for_this_screen() -> str | None:
    """The host PIN, if this table screen may show it (a made-up PIN, to the kiosk)."""
    d = deckhand()
    if not d.show_pin:
        return None
    if d.pin_viewers == "local" and not is_loopback(request.remote_addr):
        return None
    return d.host_pin


def live_page(template: str, screen: str, **extra):
    snapshot = deckhand().table.snapshot()
    lang = current_lang()
    live = render_live(screen, snapshot, lang, **extra)
    return render_template(template, s=present(snapshot, lang), live=live, screen=screen,
                           seq=snapshot.get("seq", 0), **extra)


@bp.get("/")
def table_screen():
    d = deckhand()
    join = join_address(d.listen, request.host, configured=d.public_url)
    url = join.url
    match = d.table.snapshot().get("match")
    seat_url = None
    if match is not None and join.reachable:
        key = join_key(str(current_app.config["SECRET_KEY"]), match["id"])
        seat_url = url.removesuffix("/phone") + "/join?k=" + key
    return live_page("table.html", "table", pin=pin_for_this_screen(),
                     qr=qr_svg(url) if join.reachable else "", phone_url=url,
                     seat_qr=qr_svg(seat_url) if seat_url else None, seat_url=seat_url,
                     lan_bind=LAN_BIND)


@bp.get("/phone")
def phone():
    return live_page("phone.html", "phone")


@bp.get("/pad")
def pads():
    return live_page("pads.html", "phone")


@bp.get("/pad/<int:seat>")
def pad(seat: int):
    snapshot = deckhand().table.snapshot()
    names = present(snapshot, current_lang()).get("names") or []
    if not 0 <= seat < len(names):
        abort(404)
    return live_page("pad.html", "pad", seat=seat, seat_name=names[seat])


@bp.get("/lang/<code>")
def set_language(code: str):
    if code not in ("en", "fr"):
        abort(404)
    target = request.args.get("next", "/")
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        target = "/"
    response = make_response(redirect(target))
    response.set_cookie("lang", code, max_age=365 * 24 * 3600, samesite="Lax", httponly=True)
    return response
