"""Every route answers, and every change is refused with a 4xx in words unless it comes
with the host session, a CSRF token and a well-formed, legal body."""
from __future__ import annotations

import json

import pytest

from conftest import FLIP7, PIN, csrf, post_json

VIEW_ROUTES = ["/", "/phone", "/pad", "/history", "/players", "/camera", "/api/state",
               "/api/history", "/api/players", "/api/games", "/api/session", "/api/camera"]


@pytest.mark.parametrize("url", VIEW_ROUTES)
def test_viewing_is_open_before_any_match(client, url):
    r = client.get(url)
    assert r.status_code == 200
    assert "Content-Security-Policy" in r.headers


def test_every_screen_renders_during_a_match(host, table):
    assert post_json(host, "/api/match", FLIP7).status_code == 200
    post_json(host, "/api/action", {"type": "flip", "card": "5"})
    for url in VIEW_ROUTES + ["/host", "/pad/0", "/api/games/flip7/actions", "/history/1.csv",
                              "/api/matches/1/rows"]:
        r = host.get(url)
        assert r.status_code == 200, (url, r.data[:300])
    page = host.get("/phone").get_data(as_text=True)
    assert "Ann" in page and "Bob" in page and 'data-code="5"' in page


def test_state_is_the_tables_snapshot(client, table):
    assert client.get("/api/state").get_json() == table.snapshot()


def test_table_screen_shows_a_qr_code_of_the_phone_address(app, table):
    app.extensions["deckhand"].public_url = "http://192.168.1.20:8000"
    page = app.test_client().get("/").get_data(as_text=True)
    assert "<svg" in page and "http://192.168.1.20:8000/phone" in page


def test_host_page_asks_for_the_pin_until_unlocked(client, host):
    assert "Enter the host PIN" in client.get("/host").get_data(as_text=True)
    assert "New match" in host.get("/host").get_data(as_text=True)


def test_host_starts_a_match_acts_and_undoes(host, table):
    r = post_json(host, "/api/match", FLIP7)
    assert r.status_code == 200 and r.get_json()["match"]["game"] == "flip7"
    assert table.snapshot()["view"]["table"]["dealing"]
    r = post_json(host, "/api/action", {"type": "flip", "card": "7"})
    assert r.status_code == 200
    assert table.snapshot()["view"]["table"]["lines"][1]["numbers"] == [7]
    rows = host.get("/api/matches/1/rows").get_json()
    assert rows[-1]["source"] == "host" and rows[-1]["action"]["card"] == "7"
    r = post_json(host, "/api/action", {"type": "undo"})
    assert r.status_code == 200
    assert table.snapshot()["view"]["table"]["lines"][1]["numbers"] == []


# --- refusals: every change without the host, the token or a good body --------------

CHANGES = [("/api/action", {"type": "undo"}), ("/api/match", FLIP7),
           ("/api/observe", {"type": "pad", "seat": 0, "held": False}),
           ("/api/camera/pause", {"paused": True}), ("/api/players", {"name": "Zoe"}),
           ("/api/camera/zones", {"discard": [0, 0, 1, 1]}), ("/api/camera/teach", {"label": "5"})]


@pytest.mark.parametrize("url,body", CHANGES)
def test_no_change_without_the_host_pin(client, table, url, body):
    seq = table.snapshot()["seq"]
    r = post_json(client, url, body)
    assert r.status_code == 401
    assert "PIN" in r.get_json()["error"]
    assert table.snapshot()["seq"] == seq and table.players() == []


@pytest.mark.parametrize("url,body", CHANGES + [("/api/login", {"pin": PIN}), ("/api/logout", {})])
def test_no_post_without_a_csrf_token(host, table, url, body):
    seq = table.snapshot()["seq"]
    for headers in ({}, {"X-CSRF-Token": "forged"}):
        r = host.post(url, json=body, headers=headers)
        assert r.status_code == 403
        assert "out of date: reload it" in r.get_json()["error"]
    assert table.snapshot()["seq"] == seq


def test_csrf_token_is_per_session(app, host):
    other = app.test_client()
    r = host.post("/api/action", json={"type": "undo"}, headers={"X-CSRF-Token": csrf(other)})
    assert r.status_code == 403


def test_form_posts_carry_the_token_in_a_field(client):
    assert client.post("/host/login", data={"pin": PIN}).status_code == 403
    r = client.post("/host/login", data={"pin": PIN, "csrf_token": csrf(client)})
    assert r.status_code == 302
    assert "New match" in client.get("/host").get_data(as_text=True)


@pytest.mark.parametrize("body", ["not json", "[1, 2]", "null", '"text"'])
def test_malformed_json_is_a_400_in_words(host, table, body):
    seq = table.snapshot()["seq"]
    for url in ("/api/action", "/api/match", "/api/observe", "/api/login"):
        r = host.post(url, data=body, content_type="application/json",
                      headers={"X-CSRF-Token": csrf(host)})
        assert r.status_code == 400, url
        assert "JSON object" in r.get_json()["error"]
    assert table.snapshot()["seq"] == seq


def test_illegal_actions_are_refused_with_the_reason(host, table):
    r = post_json(host, "/api/action", {"type": "undo"})
    assert r.status_code == 422 and "No match is being played" in r.get_json()["error"]
    post_json(host, "/api/match", FLIP7)
    seq = table.snapshot()["seq"]
    cases = [({"type": "hit", "seat": 0}, None), ({"type": "flip", "card": "99"}, None),
             ({"type": "teleport"}, "no action “teleport”"), ({"type": "flip"}, "Card"),
             ({"type": "stay", "seat": "Ann"}, "does not fit")]
    for action, words in cases:
        r = post_json(host, "/api/action", action)
        assert r.status_code == 422, action
        reason = r.get_json()["error"]
        assert reason and (words is None or words in reason), (action, reason)
    assert post_json(host, "/api/action", {"seat": 1}).status_code == 400
    assert table.snapshot()["seq"] == seq


def test_bad_match_specs_are_refused(host, table):
    for spec, words in [({"game": "chess", "seats": ["A", "B"]}, "does not play “chess”"),
                        ({"game": "flip7"}, "at least one player"),
                        ({"game": "flip7", "seats": ["A", "B", "C"], "settings": {"nope": 1}}, "nope")]:
        r = post_json(host, "/api/match", spec)
        assert r.status_code == 422 and words in r.get_json()["error"], r.get_json()
    assert table.snapshot()["match"] is None


def test_virtual_pad_goes_through_the_referee(host, table):
    post_json(host, "/api/match", FLIP7)
    for card in ("5", "6", "7"):  # the deal: Bob, Cat, Ann
        post_json(host, "/api/action", {"type": "flip", "card": card})
    assert table.snapshot()["view"]["turn"] == 1
    r = post_json(host, "/api/observe", {"type": "pad", "seat": 1, "held": True})
    assert r.status_code == 200, r.get_json()
    assert table.snapshot()["view"]["table"]["lines"][1]["status"] == "stayed"
    assert host.get("/api/matches/1/rows").get_json()[-1]["source"] == "pad"
    for bad in ({"type": "pad", "seat": "x"}, {"type": "pad", "seat": 0, "held": "yes"},
                {"type": "card", "zone": "discard", "card": "5"}):
        assert post_json(host, "/api/observe", bad).status_code == 400
    assert post_json(host, "/api/observe", {"type": "pad", "seat": 9, "held": False}).status_code == 422


def test_pad_pages(host, client):
    assert host.get("/pad/0").status_code == 404  # no match: no seats
    post_json(host, "/api/match", FLIP7)
    page = host.get("/pad/2").get_data(as_text=True)
    assert "Cat" in page and 'id="pad"' in page and "disabled" not in page.split('id="pad"')[1][:200]
    assert "disabled" in client.get("/pad/2").get_data(as_text=True)
    assert host.get("/pad/3").status_code == 404
    assert "Cat" in host.get("/pad").get_data(as_text=True)


def test_camera_pause_and_players(host, table):
    r = post_json(host, "/api/camera/pause", {"paused": True})
    assert r.status_code == 200 and table.snapshot()["status"]["camera"] == "paused"
    assert post_json(host, "/api/camera/pause", {"paused": "yes"}).status_code == 400
    assert post_json(host, "/api/players", {"name": "Zoe", "colour": "purple"}).status_code == 200
    assert {"name": "Zoe", "colour": "purple"} in host.get("/api/players").get_json()
    assert "Zoe" in host.get("/players").get_data(as_text=True)
    assert post_json(host, "/api/players", {"name": " "}).status_code == 400
    assert post_json(host, "/api/players", {"name": "x" * 41}).status_code == 400


def test_history_score_sheet_and_raw_log(host, table):
    import csv
    import io

    from engine.core import MatchSpec
    from engine.games import get_game
    from engine.log import read_log
    from engine.flip7.selfplay import play_match

    start = {"type": "start", **FLIP7, "settings": {}, "seed": 3}
    post_json(host, "/api/match", start)
    for action in play_match(MatchSpec.from_json(start), None, 3, rounds=2):
        table.submit_action(action, "bot")
    post_json(host, "/api/action", {"type": "end_match"})
    view = table.snapshot()["view"]
    page = host.get("/history").get_data(as_text=True)
    assert "Flip 7" in page and "Ann" in page and "Score sheet (CSV)" in page
    r = host.get("/history/1.csv")
    assert r.status_code == 200 and r.mimetype == "text/csv"
    sheet = list(csv.reader(io.StringIO(r.get_data(as_text=True))))
    assert sheet[0][0] == "Flip 7"
    assert sheet[1] == ["Round", "Ann", "Bob", "Cat"]
    assert len(view["history"]) == 2
    for number, scores in enumerate(view["history"], start=1):
        assert sheet[1 + number] == [str(number)] + [str(v) for v in scores]
    assert sheet[-2] == ["Total"] + [str(v) for v in view["totals"]]
    winners = [FLIP7["seats"][w]["name"] for w in view["winners"]]
    assert sheet[-1] == ["Winner", ", ".join(winners)]
    # in French, the words of the sheet are French
    host.set_cookie("lang", "fr")
    sheet_fr = list(csv.reader(io.StringIO(host.get("/history/1.csv").get_data(as_text=True))))
    assert sheet_fr[1][0] == "Manche" and sheet_fr[-2][0] == "Total"
    # the raw log: JSON lines that fold again to the same match
    r = host.get("/history/1.jsonl")
    assert r.status_code == 200 and r.mimetype == "application/x-ndjson"
    lines = r.get_data(as_text=True).splitlines()
    assert json.loads(lines[0])["game"] == "flip7" and json.loads(lines[-1]) == {"type": "end_match"}
    replayed = read_log(lines)
    assert get_game("flip7").view(replayed.state)["totals"] == view["totals"]
    for url in ("/history/99.csv", "/history/99.jsonl", "/api/matches/99/rows"):
        assert host.get(url).status_code == 404


def test_score_sheet_keeps_formulas_out_and_survives_a_log_that_no_longer_folds():
    import csv
    import io

    from web.scoresheet import score_sheet

    record = {"game": "flip7", "seats": [{"name": "=SUM(A1)"}, {"name": "Bob"}],
              "started_at": "2026-01-02T10:00:00", "ended_at": None, "totals": [5, -3],
              "winners": []}
    text = score_sheet(record, [{"action": {"type": "nonsense"}}], "Flip 7", lambda w: w)
    sheet = list(csv.reader(io.StringIO(text)))
    assert sheet[0] == ["Flip 7", "2026-01-02 10:00", "unfinished"]
    assert sheet[1] == ["Round", "'=SUM(A1)", "Bob"]
    assert sheet[2] == ["Total", "5", "-3"] and sheet[3] == ["Winner", ""]


def test_unknown_things_are_json_404s(client):
    for url in ("/api/nothing", "/api/games/chess/actions"):
        r = client.get(url)
        assert r.status_code == 404 and r.get_json()["error"]
    r = client.get("/api/action")
    assert r.status_code == 405 and r.get_json()["error"] == "That cannot be done here."
    assert client.get("/lang/de").status_code == 404


def test_logout_locks_again(host, table):
    assert post_json(host, "/api/logout", {}).status_code == 200
    assert post_json(host, "/api/action", {"type": "undo"}).status_code == 401


def test_no_debug_mode(app):
    assert app.debug is False
    assert app.config["SECRET_KEY"] == "test-secret"


def test_host_shortcuts_follow_the_table(host, table):
    post_json(host, "/api/match", FLIP7)
    for card in ("5", "6", "7"):
        post_json(host, "/api/action", {"type": "flip", "card": card})
    page = host.get("/host").get_data(as_text=True)
    assert '{"seat": 1, "type": "hit"}' in page.replace("&#34;", '"') or \
        '"type": "hit", "seat": 1' in page.replace("&#34;", '"')
    r = post_json(host, "/api/action", {"type": "hit", "seat": 1})
    assert r.status_code == 200
    post_json(host, "/api/action", {"type": "flip", "card": "FREEZE"})
    pending = table.snapshot()["view"]["table"]["pending"]
    assert pending and pending["chooser"] == 1
    page = host.get("/host").get_data(as_text=True).replace("&#34;", '"')
    for option in pending["options"]:
        assert f'"target": {option}' in page
    r = post_json(host, "/api/action", {"type": "target", "seat": 1, "target": pending["options"][0]})
    assert r.status_code == 200 and table.snapshot()["view"]["table"]["pending"] is None


def test_action_schema_describes_each_field(host):
    actions = {a["type"]: a for a in host.get("/api/games/flip7/actions").get_json()["actions"]}
    assert set(actions) == {"flip", "hit", "stay", "target", "undo", "end_match",
                            "set_totals", "correct_round"}
    assert [(f["name"], f["kind"], f["optional"]) for f in actions["flip"]["fields"]] == \
        [("card", "card", False), ("seat", "seat", True)]
    games = {g["name"]: g for g in host.get("/api/games").get_json()}
    assert {"name": "target", "label": "Target score", "help": "The match ends when someone reaches it.",
            "kind": "int", "choices": [], "choice_labels": [], "default": 200, "optional": False} \
        in games["flip7"]["settings"]


def test_new_match_remembers_the_players(host, table):
    assert post_json(host, "/api/match", FLIP7).status_code == 200
    assert {"name": "Cat", "colour": "green"} in table.players()
    page = host.get("/host").get_data(as_text=True)
    assert '<option value="Cat" data-colour="green">' in page


def test_host_form_logout(host):
    r = host.post("/host/logout", data={"csrf_token": csrf(host)})
    assert r.status_code == 302
    assert "Enter the host PIN" in host.get("/host").get_data(as_text=True)


def test_join_address_is_one_the_server_listens_on(monkeypatch):
    from web import qr
    from web.qr import JoinAddress, join_address

    monkeypatch.setattr(qr, "lan_address", lambda: "192.168.1.77")
    # bound to every interface: the kiosk (loopback) advertises the LAN address
    assert join_address("0.0.0.0", "127.0.0.1:8000") == JoinAddress("http://192.168.1.77:8000/phone", True)
    assert join_address("::", "localhost:8000").url == "http://192.168.1.77:8000/phone"
    assert join_address("0.0.0.0", "10.0.0.5:8000") == JoinAddress("http://10.0.0.5:8000/phone", True)
    assert join_address("0.0.0.0", "deckhand.local").url == "http://deckhand.local/phone"
    assert join_address("0.0.0.0", None, 8000).url == "http://192.168.1.77:8000/phone"
    # bound to loopback only: never the LAN address, and phones cannot reach it
    assert join_address("127.0.0.1", "127.0.0.1:8000") == JoinAddress("http://127.0.0.1:8000/phone", False)
    assert join_address("127.0.0.1", "localhost:8000") == JoinAddress("http://localhost:8000/phone", False)
    assert join_address("127.0.0.1", None, 8000) == JoinAddress("http://127.0.0.1:8000/phone", False)
    # bound to one address: that address
    assert join_address("10.0.0.9", "127.0.0.1:8000") == JoinAddress("http://10.0.0.9:8000/phone", True)
    assert join_address("fe80::1", None, 81).url == "http://[fe80::1]:81/phone"
    # a configured public address wins
    assert join_address("127.0.0.1", "127.0.0.1:8000", configured="http://table.example:81/") == \
        JoinAddress("http://table.example:81/phone", True)
    # not told the bind, reached over loopback: only what is known
    assert join_address(None, "127.0.0.1:8000") == JoinAddress("http://127.0.0.1:8000/phone", False)
    # no LAN at all
    monkeypatch.setattr(qr, "lan_address", lambda: None)
    assert join_address("0.0.0.0", "127.0.0.1:8000") == JoinAddress("http://127.0.0.1:8000/phone", False)


def test_table_screen_shows_the_qr_only_for_an_address_phones_can_reach(table, monkeypatch):
    from web import qr
    from web.app import create_app

    monkeypatch.setattr(qr, "lan_address", lambda: "192.168.1.77")
    lan = create_app(table, host_pin=PIN, listen="0.0.0.0").test_client().get("/").get_data(as_text=True)
    assert '<div class="qr"><svg' in lan and "http://192.168.1.77/phone" in lan
    assert "deckhand run --bind" not in lan
    local = create_app(table, host_pin=PIN, listen="127.0.0.1").test_client().get("/").get_data(as_text=True)
    assert '<div class="qr">' not in local and "192.168.1.77" not in local
    assert "Phones cannot join yet" in local and "<code>deckhand run --bind 0.0.0.0</code>" in local


def test_oversized_bodies_are_refused(host, table):
    r = host.post("/api/action", data="{" + " " * (300 * 1024) + "}", content_type="application/json",
                  headers={"X-CSRF-Token": csrf(host)})
    assert r.status_code == 413 and "too large" in r.get_json()["error"]


def test_screens_say_when_the_camera_is_lost_or_paused(host, table):
    post_json(host, "/api/match", FLIP7)
    table.set_status(camera="lost")
    assert "Camera lost" in host.get("/").get_data(as_text=True)
    post_json(host, "/api/camera/pause", {"paused": True})
    page = host.get("/phone").get_data(as_text=True)
    assert "Camera paused" in page and "Camera lost" not in page
    assert "Resume camera" in host.get("/host").get_data(as_text=True)


def test_a_french_reader_gets_the_games_actions_and_cards_in_french(host):
    fr = {"Accept-Language": "fr"}
    schema = host.get("/api/games/flip7/actions", headers=fr).get_json()
    assert {a["type"]: a["label"] for a in schema["actions"]}["stay"] == "Rester"
    assert {c["code"]: c["label"] for c in schema["cards"]}["FREEZE"] == "Gel"
    games = {g["name"]: g for g in host.get("/api/games", headers=fr).get_json()}
    assert {s["name"]: s["label"] for s in games["flip7"]["settings"]}["target"] != "Target score"
