"""What the screens say: every game's end-of-round table rendered in English and French
from a real played round, cards drawn as cards, French for every screen string, notices
translated by code, the score chart and the QR code."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import segno

from conftest import play
from engine.games import available_games
from web.app import create_app
from web.cards import css_colour, face
from web.chart import running_totals, score_chart
from web.words import choose_language, say
from web.present import present

SEATS = [{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"},
         {"name": "Cat", "colour": "green"}]
ROUNDS = {"flip7": 1, "raj": None, "solo": 1, "hitthedeck": 1}
TEMPLATES = Path(__file__).resolve().parents[2] / "web" / "templates"


def played(table, game):
    if game not in available_games():
        pytest.skip(f"{game} is not in the engine yet")
    try:
        play(table, game, SEATS, ROUNDS[game])
    except ImportError as exc:
        pytest.skip(f"{game} has no self-play yet: {exc}")
    return table.snapshot()


@pytest.mark.parametrize("game", ["flip7", "raj", "solo", "hitthedeck"])
def test_every_screen_renders_a_played_round_in_both_languages(table, game):
    snap = played(table, game)
    app = create_app(table, host_pin="1234")
    c = app.test_client()
    for lang, turn_word in (("en", "Round"), ("fr", "Manche")):
        c.set_cookie("lang", lang)
        for url in ("/", "/phone", "/pad/1"):
            r = c.get(url)
            assert r.status_code == 200, (url, lang)
            page = r.get_data(as_text=True)
            assert f'<html lang="{lang}"' in page
            if url != "/pad/1":
                assert all(s["name"] in page for s in SEATS) and turn_word in page
    c.set_cookie("lang", "en")
    page = c.get("/phone").get_data(as_text=True)
    for total in snap["view"]["totals"]:
        assert f'<span class="total">{total}</span>' in page


def test_flip7_lines_show_cards_status_and_round_scores(table):
    snap = played(table, "flip7")
    page = create_app(table, host_pin="1").test_client().get("/").get_data(as_text=True)
    last = snap["view"]["table"]["last_round"]
    for line in last:
        for n in line["numbers"]:
            assert f'data-code="{n}"' in page
        assert f'<span class="sum" title="round score">{line["score"]}</span>' in page
    statuses = {line["status"] for line in last}
    words = {"busted": "Bust", "stayed": "Stayed", "frozen": "Frozen"}
    assert all(words[s] in page for s in statuses if s in words)


def test_raj_shows_pot_bids_and_who_took_what(table):
    snap = played(table, "raj")
    client = create_app(table, host_pin="1").test_client()
    # the match is over: the table screen shows its summary and who took what
    kiosk = client.get("/").get_data(as_text=True)
    assert 'class="card-block summary"' in kiosk and "Last pot" in kiosk
    page = client.get("/phone").get_data(as_text=True)
    tb = snap["view"]["table"]
    assert "Last pot" in page
    for seat, cards in enumerate(tb["collected"]):
        for code in cards:
            assert f'data-code="{code}"' in page
    for seat, bid in enumerate(tb["last"]["bids"]):
        if bid is not None:
            assert f'data-code="{SEATS[seat]["colour"]}:{bid}"' in page


def test_present_reads_only_the_shared_keys():
    snap = {"seq": 3, "match": {"game": "x", "seats": [{"name": "A", "colour": "red"}, {"name": "B"}]},
            "view": {"game": "x", "seats": ["A", "B"], "round": 2, "dealer": 0, "turn": 1,
                     "totals": [5, 9], "history": [[5, 9]], "finished": True, "winners": [1],
                     "prompt": "p", "table": {"top": "?"}},
            "notices": [{"code": "undo", "params": {"undone": {"type": "end_match"}}, "seats": []}],
            "status": {}}
    s = present(snap, "fr")
    assert s["turn_name"] == "B" and s["winners"] == ["B"] and s["colours"][0] == css_colour("red")
    assert [x["name"] for x in s["ranked"]] == ["B", "A"]
    assert s["notices"] == ["Annulé : Terminer la partie."] and "<svg" in s["chart"]
    assert present({"seq": 0, "match": None, "view": None}, "en")["seats"] == []


def test_cards_are_drawn_from_the_deck_definitions():
    assert face("solo", "R7") == {"code": "R7", "label": "Red 7", "short": "7", "colour": css_colour("red"),
                                  "colour_name": "red", "kind": "number", "known": True}
    assert face("solo", "CHOOSE")["colour_name"] == ""   # black: no letter needed
    assert face("raj", "P-5")["short"] == "-5" and face("raj", "purple:15")["short"] == "15"
    assert face("flip7", "FREEZE")["kind"] == "freeze"
    assert face("flip7", "nonsense")["known"] is False
    assert css_colour("#12ab56") == "#12ab56" and css_colour("url(x)", 1) == css_colour(None, 1)


def test_notices_are_said_by_code_with_names_cards_and_numbers():
    names = ["Ann", "Bob"]
    take = {"code": "raj.take", "params": {"seat": 1, "points": -3}, "seats": [1]}
    assert say(take, "fr", "raj", names) == "Bob prend -3."
    assert say(take, "en", "raj", names) == "Bob takes -3."
    undone = {"code": "undo", "params": {"undone": {"type": "play", "seat": 0, "card": "R7"}}}
    assert say(undone, "en", "solo", names) == "Undone: Ann's Red 7."
    assert say(undone, "fr", "solo", names) == "Annulé : Rouge 7 d'Ann."
    unknown = {"code": "new_thing", "params": {}, "seats": []}
    assert "new_thing" not in say(unknown, "fr", "flip7", names)


def test_language_choice(client):
    class Accept:
        def __init__(self, best):
            self.best = best

        def best_match(self, options):
            return self.best

    assert choose_language("fr", Accept("en")) == "fr"
    assert choose_language(None, Accept("fr")) == "fr"
    assert choose_language("xx", Accept(None)) == "en"
    r = client.get("/phone", headers={"Accept-Language": "fr-CA,fr;q=0.9,en;q=0.5"})
    assert '<html lang="fr">' in r.get_data(as_text=True)
    r = client.get("/lang/fr?next=/phone")
    assert r.status_code == 302 and r.headers["Location"].endswith("/phone")
    assert "lang=fr" in r.headers["Set-Cookie"]
    assert client.get("/lang/en?next=https://evil.example/").headers["Location"] == "/"
    assert client.get("/lang/en?next=//evil.example/").headers["Location"] == "/"


def test_score_chart():
    assert running_totals([[3, 5], [-2, 10]], 2) == [[0, 3, 1], [0, 5, 15]]
    svg = score_chart([[3, 5], [-2, 10]], ["A<b>", "B"], ["#d62828", "#1d63d6"])
    assert svg.startswith("<svg") and svg.count("<polyline") == 2 and "A&lt;b&gt;" in svg
    assert score_chart([], ["A"], ["#000"]) == ""


def test_qr_code_encodes_the_phone_address(app):
    app.extensions["deckhand"].public_url = "http://10.1.2.3:8000/"
    page = app.test_client().get("/").get_data(as_text=True)
    svg = page[page.index('<div class="qr">') + len('<div class="qr">'):page.index("</div>", page.index('<div class="qr">'))]
    assert svg.startswith("<svg") and "http://10.1.2.3:8000/phone" in page
    assert segno.make("http://10.1.2.3:8000/phone", error="m").svg_inline(
        scale=5, dark="#000", light="#fff", omitsize=True) == svg


def test_phone_lists_recent_plays_in_words_and_undo_takes_them_back(table):
    from conftest import FLIP7

    table.new_match({"type": "start", **FLIP7}, "host")
    for card in ("5", "6", "7"):
        table.submit({"type": "flip", "card": card}, "camera")
    table.submit({"type": "stay", "seat": 1}, "pad")
    c = create_app(table, host_pin="1").test_client()
    page = c.get("/phone").get_data(as_text=True)
    assert "Recent plays" in page and "Bob stays with 5." in page
    table.submit({"type": "undo"}, "host")
    page = c.get("/phone").get_data(as_text=True)
    assert "Bob stays with 5." not in page
    c.set_cookie("lang", "fr")
    table.submit({"type": "stay", "seat": 1}, "pad")
    assert "Bob s&#39;arrête avec 5." in c.get("/phone").get_data(as_text=True)


def test_prompts_are_said_in_the_device_language():
    prompt = {"code": "flip7.deal_to", "params": {"seat": 1}}
    assert say(prompt, "fr", "flip7", ["Ann", "Bob"]) == "Donnez une carte à Bob."
    assert say(prompt, "en", "flip7", ["Ann", "Bob"]) == "Deal a card to Bob."
    hit = {"code": "flip7.hit_or_stay", "params": {"seat": 0}}
    assert say(hit, "fr", "flip7", ["Ann"]) == "Ann : tirer (touchez votre pad) ou rester (maintenez-le)."


def test_the_host_pickers_cards_are_named_in_the_screens_language():
    snap = {"seq": 1, "match": {"game": "solo", "seats": [{"name": "A"}, {"name": "B"}]},
            "view": {"game": "solo", "seats": ["A", "B"], "totals": [0, 0], "table": {}}, "status": {}}
    labels = {f["code"]: f["label"] for f in present(snap, "fr")["faces"]}
    assert labels["R7"] == "Rouge 7"
    assert {f["code"]: f["label"] for f in present(snap, "en")["faces"]}["R7"] == "Red 7"
