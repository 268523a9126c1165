"""Every refusal a page can show is a sentence in the reader's language: the JSON
refusals of the API (a malformed body, a wrong PIN, a locked host, a bad zone on the
camera page, a match that is not there), Flask's own errors (a page that is not there,
a method not allowed) as JSON and as a page, and the asyncio front's refusals (its
limits), which say every language when the request's headers were not read. A French
reader meets no English word and no program text; and the sources cannot grow a new
English refusal (the scan at the end)."""
from __future__ import annotations

import ast
import html
import json
import re
from pathlib import Path

import pytest

from conftest import PIN, csrf, post_json
from crawl import CODE_PATTERNS, ENGLISH_WORDS
from test_web_camera import StandInCamera
from web.app import create_app

ROOT = Path(__file__).resolve().parents[2]


def _english_in(text: str) -> list[str]:
    found = set(re.findall(r"[A-Za-zÀ-ÿ']+", text.lower())) & set(ENGLISH_WORDS)
    return sorted(found - {"json", "get"})   # the names of a format and a method


def _program_text_in(text: str) -> list[str]:
    return [p for p in CODE_PATTERNS if re.search(p, text)]


@pytest.fixture
def french(table):
    """A French host's browser, unlocked, on a table with a camera."""
    app = create_app(table, host_pin=PIN, secret_key="s", camera=StandInCamera())
    c = app.test_client()
    c.set_cookie("lang", "fr")
    assert post_json(c, "/api/login", {"pin": PIN}).status_code == 200
    return c


def _raw(client, url, body: str):
    return client.post(url, data=body, content_type="application/json",
                       headers={"X-CSRF-Token": csrf(client)})


REFUSALS = [   # (what, how to ask, status): each one a refusal a page can meet
    ("not JSON", lambda c: _raw(c, "/api/action", "not json"), 400),
    ("a list", lambda c: _raw(c, "/api/action", "[1, 2]"), 400),
    ("nested", lambda c: _raw(c, "/api/action", "[" * 40 + "]" * 40), 400),
    ("a lone surrogate", lambda c: _raw(c, "/api/players", '{"name": "A\\ud800"}'), 400),
    ("a huge number", lambda c: _raw(c, "/api/action", '{"type": "stay", "seat": ' + "9" * 17 + "}"), 400),
    ("no type", lambda c: post_json(c, "/api/action", {"seat": 0}), 400),
    ("no card", lambda c: post_json(c, "/api/card", {}), 400),
    ("a seat that is text", lambda c: post_json(c, "/api/card", {"card": "7", "seat": "one"}), 400),
    ("no right card", lambda c: post_json(c, "/api/correct", {}), 400),
    ("running?", lambda c: post_json(c, "/api/match", {"running": "maybe"}), 400),
    ("not a pad", lambda c: post_json(c, "/api/observe", {"type": "card"}), 400),
    ("a pad without a seat", lambda c: post_json(c, "/api/observe", {"type": "pad"}), 400),
    ("paused?", lambda c: post_json(c, "/api/camera/pause", {"paused": "yes"}), 400),
    ("a player without a name", lambda c: post_json(c, "/api/players", {"name": ""}), 400),
    ("a colour too long", lambda c: post_json(c, "/api/players", {"name": "Ann", "colour": "x" * 30}), 400),
    ("undo moved on", lambda c: post_json(c, "/api/undo", {"row": 99}), 409),
    ("no match to free a seat of", lambda c: post_json(c, "/api/seats/0/free", {}), 409),
    ("no such match", lambda c: c.get("/api/matches/42/rows"), 404),
    ("no such game", lambda c: c.get("/api/games/chess/actions"), 404),
    ("no such live view", lambda c: c.get("/api/events?view=kitchen"), 400),
    ("a pad stream without a seat", lambda c: c.get("/api/events?view=pad"), 400),
    ("a bad resume point", lambda c: c.get("/api/events", headers={"Last-Event-ID": "abc"}), 400),
    ("no such API page", lambda c: c.get("/api/nothing-here"), 404),
    ("a method not allowed", lambda c: c.delete("/api/state", headers={"X-CSRF-Token": csrf(c)}), 405),
    ("no CSRF token", lambda c: c.post("/api/action", json={"type": "undo"}), 403),
    ("a zone outside the picture", lambda c: post_json(c, "/api/camera/zones", {"discard": [0, 0, 2, 1]}), 400),
    ("a zone turned inside out", lambda c: post_json(c, "/api/camera/zones", {"seat:1": [0.5, 0.5, 0.2, 0.9]}), 400),
    ("a zone with no name", lambda c: post_json(c, "/api/camera/zones", {" ": [0, 0, 1, 1]}), 400),
    ("a zone the camera refuses", lambda c: post_json(c, "/api/camera/zones", {"reveal": [0, 0, 1, 1]}), 400),
    ("no card named to teach", lambda c: post_json(c, "/api/camera/teach", {"label": ""}), 400),
    ("a wrong PIN", lambda c: post_json(c, "/api/login", {"pin": "0000"}), 403),
    ("no PIN", lambda c: post_json(c, "/api/login", {"pin": ""}), 400),
]


@pytest.mark.parametrize("what, ask, status", REFUSALS, ids=[r[0] for r in REFUSALS])
def test_a_refusal_is_said_in_french_to_a_french_reader(french, what, ask, status):
    r = ask(french)
    assert r.status_code == status, (what, r.get_json())
    said = r.get_json()["error"]
    assert said and not _english_in(said) and not _program_text_in(said), (what, said)
    french.set_cookie("lang", "en")
    english = ask(french).get_json()["error"]
    assert english != said, (what, said)


def test_a_bad_zone_names_the_zone_in_words(french):
    r = post_json(french, "/api/camera/zones", {"seat:1": [0.5, 0.5, 0.2, 0.9]})
    assert r.get_json()["error"] == ("La zone « Place 2 » doit avoir une largeur et une hauteur, "
                                     "et tenir dans l'image.")
    french.set_cookie("lang", "en")
    r = post_json(french, "/api/camera/zones", {"discard": [0, 0, 2, 1]})
    assert r.get_json()["error"].startswith("The zone “Discard pile” must be four numbers from 0 to 1")


def test_the_camera_page_names_cards_and_zones_in_words(french):
    state = french.get("/api/camera").get_json()
    assert state["zone_names"] == {"discard": "Pile de défausse"}
    assert [(d["label"], d["zone_name"]) for d in state["detections"]] == [("7", "Pile de défausse")]


def test_a_locked_host_and_a_lost_seat_are_refused_in_french(table):
    c = create_app(table, host_pin=PIN, secret_key="s").test_client()
    c.set_cookie("lang", "fr")
    r = post_json(c, "/api/action", {"type": "undo"})
    assert r.status_code == 401 and r.get_json()["error"] == (
        "Les commandes de l'hôte sont verrouillées : saisissez d'abord le code de l'hôte.")
    r = post_json(c, "/api/seat/press", {"held": False})
    assert r.status_code == 401 and not _english_in(r.get_json()["error"])


def test_a_page_that_is_not_there_says_so_in_french_with_the_way_back(client):
    client.set_cookie("lang", "fr")
    r = client.get("/nowhere", headers={"Accept": "text/html"})
    page = html.unescape(r.get_data(as_text=True))
    assert r.status_code == 404 and '<html lang="fr">' in page
    assert "<p>Cette page n'existe pas.</p>" in page and "Retour à la table" in page and "404" not in page


def test_the_fronts_refusals_say_the_readers_language_or_every_language():
    from web.front import Limits, _Refused, _plain_response

    busy = _Refused(503, "Deckhand is busy: {total} connections are open, the most it serves at once. "
                         "Try again in {seconds} seconds.", 2, total=64, seconds=2)
    head, body = _plain_response(busy, json_body=True).split(b"\r\n\r\n", 1)
    answer = json.loads(body)
    assert answer["said"]["fr"] == ("Deckhand est occupé : 64 connexions sont ouvertes, le maximum qu'il "
                                    "sert à la fois. Réessayez dans 2 secondes.")
    assert answer["error"] == answer["said"]["en"] and b"Retry-After: 2" in head
    plain = _plain_response(busy, json_body=False).split(b"\r\n\r\n", 1)[1].decode()
    assert plain.splitlines() == [answer["said"]["en"], answer["said"]["fr"]]   # no language known
    french = _plain_response(busy, json_body=False, lang="fr").split(b"\r\n\r\n", 1)[1].decode()
    assert french == answer["said"]["fr"] + "\n"
    assert Limits().retry_after > 0


# --- the scan: no new English reaches a person from web/ --------------------------------

def _literal(node: ast.AST) -> bool:
    """Text written in the source (a string or an f-string), not a msgid looked up."""
    return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str)
                                               and bool(re.search(r"[A-Za-z]{2}", node.value)))


def _english_refusals(tree: ast.AST, where: str) -> list[str]:
    """Where a module answers with text that does not go through the catalog:
    `error("…")` (error takes words already said; `refuse("…")` is the one that
    translates), `jsonify({"error": "…"})`, `_Refused(status, "…")` without N_, a
    `Response("…")`."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
        at = f"{where}:{node.lineno}"
        if name == "error" and node.args and _literal(node.args[0]):
            found.append(f"{at}: error() of English text; use refuse()")
        if name == "_Refused" and len(node.args) > 1 and _literal(node.args[1]):
            found.append(f"{at}: _Refused with English text not marked N_")
        if name == "jsonify" and node.args and isinstance(node.args[0], ast.Dict):
            for key, value in zip(node.args[0].keys, node.args[0].values):
                if isinstance(key, ast.Constant) and key.value in ("error", "message") and _literal(value):
                    found.append(f"{at}: jsonify with English {key.value}")
        if name == "Response" and node.args and _literal(node.args[0]):
            found.append(f"{at}: a response of English text")
    return found


def test_no_refusal_in_web_is_english_text_outside_the_catalog():
    found = []
    for path in sorted((ROOT / "web").rglob("*.py")):
        found += _english_refusals(ast.parse(path.read_text(encoding="utf-8")), str(path.relative_to(ROOT)))
    assert found == []


def test_the_scan_finds_an_english_refusal():
    """The scan is not blind: each shape it looks for is found in a sample, and a
    sentence that goes through the catalog is not."""
    sample = ast.parse('error("no such thing", 404)\n_Refused(400, f"bad {x}")\n'
                       'jsonify({"error": "nope"})\nrefuse("There is no such page.", 404)\n'
                       '_Refused(400, N_("The request could not be read."))\nerror(said, 400)\n')
    assert [line.split(":")[1] for line in _english_refusals(sample, "sample")] == ["1", "2", "3"]


def test_a_store_that_cannot_be_written_is_said_in_french_on_the_pages_and_in_refusals(tmp_path):
    """The store's folder removed while a match is played: the refusal and every page say
    why in French (device.store's message), not SQLite's or the store's English."""
    import shutil

    from conftest import FLIP7
    from device.store import EventStore
    from device.table import LiveTable

    db = tmp_path / "state" / "deckhand.sqlite3"
    store = EventStore(db)
    try:
        table = LiveTable(store)
        c = create_app(table, host_pin=PIN, secret_key="s").test_client()
        c.set_cookie("lang", "fr")
        assert post_json(c, "/api/login", {"pin": PIN}).status_code == 200
        assert post_json(c, "/api/match", FLIP7).status_code == 200
        shutil.rmtree(db.parent)
        r = post_json(c, "/api/action", {"type": "flip", "card": "5"})
        assert r.status_code == 503
        why = f"la base {db} a disparu : son dossier n'existe plus"
        assert why in r.get_json()["error"] and not _english_in(r.get_json()["error"].replace(str(db), ""))
        page = html.unescape(c.get("/phone").get_data(as_text=True))
        assert f'<span class="why">{why}</span>' in page and "folder is gone" not in page
        assert "folder is gone" in table.snapshot()["status"]["store"]   # the English stays for logs and the API
    finally:
        store.close()
