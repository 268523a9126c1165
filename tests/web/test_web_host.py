"""The host's fast, safe controls over real HTTP (Flask test client, real LiveTable on
real SQLite): Undo checked against what it named, a card entered by hand, the last
card corrected in one step (and the log replays to it), a new match that asks first,
a rematch, and the seats phones join by QR (what a player session may and may not do)."""
from __future__ import annotations

import json
import re

from conftest import FLIP7, PIN, post_json
from engine.log import read_log
from web.seats import COOKIE, join_key, seat_cookie

SOLO = {"game": "solo", "seats": [{"name": "Ann", "colour": "red"},
                                  {"name": "Bob", "colour": "blue"},
                                  {"name": "Cat", "colour": "green"}]}


def replayed_view(table, match_id):
    """The view a replay of the stored log reaches (what `deckhand replay` would show)."""
    spec = next(m for m in table.history() if m["id"] == match_id)
    start = {"type": "start", "game": spec["game"], "seats": spec["seats"],
             "settings": spec["settings"]}
    lines = [json.dumps(start)] + [json.dumps(r["action"]) for r in table.match_rows(match_id)]
    timeline = read_log(lines)
    return timeline.game.view(timeline.state)


def test_a_card_entered_by_hand_goes_where_the_referee_expects(host, table):
    post_json(host, "/api/match", SOLO)
    assert post_json(host, "/api/card", {"card": "R5"}).status_code == 200   # the starter
    assert post_json(host, "/api/card", {"card": "R7"}).status_code == 200
    assert table.match_rows(1)[-1]["action"] == {"type": "play", "seat": 1, "card": "R7",
                                                 "colour": None}
    page = host.get("/host").get_data(as_text=True)
    assert "Undo Bob&#39;s Red 7?" in page


def test_a_card_for_a_chosen_seat_and_a_bad_card_in_words(host, table):
    post_json(host, "/api/match", FLIP7)
    r = post_json(host, "/api/card", {"card": "5", "seat": 2})
    assert r.status_code == 422 and r.get_json()["error"]  # the deal goes to Bob first
    assert post_json(host, "/api/card", {"card": "5", "seat": 1}).status_code == 200
    assert table.snapshot()["view"]["table"]["lines"][1]["numbers"] == [5]
    assert post_json(host, "/api/card", {"card": ""}).status_code == 400
    assert post_json(host, "/api/card", {"card": "5", "seat": "Bob"}).status_code == 400


def test_correct_the_last_card_is_an_undo_and_the_new_card_and_replays(host, table):
    post_json(host, "/api/match", SOLO)
    post_json(host, "/api/card", {"card": "R5"})
    post_json(host, "/api/card", {"card": "R7"})
    r = post_json(host, "/api/correct", {"card": "R9"})
    assert r.status_code == 200, r.get_json()
    actions = [row["action"] for row in table.match_rows(1)]
    assert actions[-2:] == [{"type": "undo"},
                            {"type": "play", "seat": 1, "card": "R9", "colour": None}]
    assert replayed_view(table, 1) == table.snapshot()["view"]
    banner = host.get("/").get_data(as_text=True)
    assert "The host corrected Bob&#39;s Red 7 to Bob&#39;s Red 9." in banner
    # a refused correction changes nothing (the undo is not logged alone)
    rows = len(table.match_rows(1))
    assert post_json(host, "/api/correct", {"card": "G2"}).status_code == 422
    assert len(table.match_rows(1)) == rows


def test_correct_refuses_when_the_last_action_is_no_card(host, table):
    post_json(host, "/api/match", FLIP7)
    for card in ("3", "4", "5"):
        post_json(host, "/api/card", {"card": card})
    post_json(host, "/api/action", {"type": "stay", "seat": 1})
    r = post_json(host, "/api/correct", {"card": "6"})
    assert r.status_code == 422 and "Undo" in r.get_json()["error"]


def test_undo_takes_back_only_what_it_named(host, table):
    post_json(host, "/api/match", FLIP7)
    post_json(host, "/api/card", {"card": "3"})
    named = table.snapshot()["last"]["row"]
    post_json(host, "/api/card", {"card": "4"})        # the table moved on meanwhile
    r = post_json(host, "/api/undo", {"row": named})
    assert r.status_code == 409 and "changed" in r.get_json()["error"]
    assert post_json(host, "/api/undo", {"row": table.snapshot()["last"]["row"]}).status_code == 200
    assert table.snapshot()["view"]["table"]["lines"][2]["numbers"] == []
    assert "The host undid Cat&#39;s 4." in host.get("/").get_data(as_text=True)


def test_a_new_match_during_a_running_one_asks_first(host, table):
    post_json(host, "/api/match", FLIP7)
    r = post_json(host, "/api/match", SOLO)
    assert r.status_code == 409
    assert r.get_json()["error"].startswith("A match is being played")
    assert table.snapshot()["match"]["game"] == "flip7"       # nothing replaced
    assert post_json(host, "/api/match", {**SOLO, "running": "end"}).status_code == 200
    first = next(m for m in table.history() if m["id"] == 1)
    assert first["ended_at"] is not None                      # ended, not abandoned
    assert post_json(host, "/api/match", {**FLIP7, "running": "keep"}).status_code == 200
    second = next(m for m in table.history() if m["id"] == 2)
    assert second["ended_at"] is None                         # kept, to resume later
    assert post_json(host, "/api/match", {**FLIP7, "running": "maybe"}).status_code == 400


def test_rematch_same_seats_and_settings_only_when_over(host, table):
    post_json(host, "/api/match", {**FLIP7, "settings": {"target": 50}})
    assert post_json(host, "/api/rematch", {}).status_code == 422
    post_json(host, "/api/action", {"type": "end_match"})
    assert post_json(host, "/api/rematch", {}).status_code == 200
    match = table.snapshot()["match"]
    assert match["id"] == 2 and [s["name"] for s in match["seats"]] == ["Ann", "Bob", "Cat"]
    assert match["settings"] == {"target": 50}
    assert table.snapshot()["view"]["dealer"] == 1          # the next dealer deals first
    post_json(host, "/api/action", {"type": "end_match"})
    post_json(host, "/api/rematch", {})
    assert table.snapshot()["view"]["dealer"] == 2


def test_the_finished_screen_says_final_not_round_one(host, table):
    post_json(host, "/api/match", FLIP7)
    post_json(host, "/api/action", {"type": "end_match"})
    for url in ("/", "/phone", "/host"):
        page = host.get(url).get_data(as_text=True)
        assert "Match summary" in page and "Final result" in page
        assert not re.search(r"Round\s+1", page.split("Match summary")[0])


# -- seats joined by QR ------------------------------------------------------------


def join(app, table, seat):
    """A fresh phone that scans the table's seat code and takes `seat`."""
    phone = app.test_client()
    key = join_key("test-secret", table.snapshot()["match"]["id"])
    page = phone.get(f"/join?k={key}")
    assert page.status_code == 200
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True)).group(1)
    r = phone.post(f"/join/{seat}", data={"csrf_token": token, "k": key})
    return phone, r


def test_a_seat_phone_presses_its_own_pad_and_nothing_else(app, host, table):
    post_json(host, "/api/match", FLIP7)
    for card in ("3", "4", "5"):
        post_json(host, "/api/card", {"card": card})
    phone, r = join(app, table, 1)
    assert r.status_code == 302 and r.headers["Location"].endswith("/seat")
    assert "Your turn" in phone.get("/seat").get_data(as_text=True)
    assert post_json(phone, "/api/seat/press", {"held": True}).status_code == 200
    assert table.snapshot()["view"]["table"]["lines"][1]["status"] == "stayed"
    rows = len(table.match_rows(1))
    for url, body in [("/api/undo", {}), ("/api/action", {"type": "undo"}),
                      ("/api/action", {"type": "end_match"}), ("/api/match", FLIP7),
                      ("/api/rematch", {}), ("/api/card", {"card": "7"}),
                      ("/api/observe", {"type": "pad", "seat": 2, "held": False}),
                      ("/api/seats/1/free", {})]:
        assert post_json(phone, url, body).status_code == 401, url
    # the seat comes from the session: a seat in the body is not obeyed
    # (it is Cat's turn: Cat's pad would mean Hit; Bob's press must not)
    post_json(phone, "/api/seat/press", {"held": False, "seat": 2})
    assert not [r for r in table.match_rows(1)[rows:] if r["action"].get("seat") == 2]


def test_a_seat_token_cannot_be_forged_moved_or_reused(app, host, table):
    post_json(host, "/api/match", FLIP7)
    phone, _ = join(app, table, 1)
    cookie = phone.get_cookie(COOKIE).value
    # a second phone cannot take a seat someone holds
    _, r = join(app, table, 1)
    assert r.status_code == 409
    # the same cookie, re-signed by someone without the secret, for another seat
    thief = app.test_client()
    thief.set_cookie(COOKIE, seat_cookie("guessed-secret", 1, 2, "x"))
    assert post_json(thief, "/api/seat/press", {"held": False}).status_code == 401
    # a real cookie edited to say another seat breaks its signature
    thief.set_cookie(COOKIE, cookie.replace(cookie[5], "A" if cookie[5] != "A" else "B"))
    assert post_json(thief, "/api/seat/press", {"held": False}).status_code == 401
    # a copy of Bob's cookie still only ever presses Bob's pad; the host takes it back
    assert post_json(host, "/api/seats/1/free", {}).status_code == 200
    assert post_json(phone, "/api/seat/press", {"held": False}).status_code == 401
    assert phone.get("/seat").status_code == 403
    assert "The host took back Bob&#39;s seat." in host.get("/").get_data(as_text=True)
    # a join without the match's key, or for the next match with an old key, is refused
    stranger = app.test_client()
    assert stranger.get("/join?k=0000").status_code == 403
    token = re.search(r'name="csrf-token" content="([^"]+)"',
                      stranger.get("/join").get_data(as_text=True)).group(1)
    assert stranger.post("/join/0", data={"csrf_token": token, "k": "0000"}).status_code == 403
    # CSRF still holds for a player
    assert phone.post("/api/seat/press", json={"held": False}).status_code == 403


def test_seats_carry_over_to_a_rematch(app, host, table):
    post_json(host, "/api/match", FLIP7)
    phone, _ = join(app, table, 2)
    post_json(host, "/api/action", {"type": "end_match"})
    post_json(host, "/api/rematch", {})
    assert phone.get("/seat").status_code == 200
    assert "Open seats" in host.get("/").get_data(as_text=True)
    assert PIN  # the host PIN was never needed by the phone


def test_the_players_page_counts_wins_matches_and_the_games_figures(host, table):
    post_json(host, "/api/match", FLIP7)
    for card in ("3", "4", "5"):                     # Bob 3, Cat 4, Ann 5
        post_json(host, "/api/card", {"card": card})
    post_json(host, "/api/action", {"type": "hit", "seat": 1})
    post_json(host, "/api/card", {"card": "3"})      # Bob busts
    post_json(host, "/api/action", {"type": "stay", "seat": 2})
    post_json(host, "/api/action", {"type": "stay", "seat": 0})
    post_json(host, "/api/action", {"type": "end_match"})
    post_json(host, "/api/rematch", {})
    post_json(host, "/api/action", {"type": "end_match"})   # nobody scored: all share it
    post_json(host, "/api/match", {**FLIP7, "running": "keep"})  # unfinished: not counted
    records = {r["name"]: r for r in table.player_records()}
    assert records["Ann"]["matches"] == 2 and records["Ann"]["wins"] == 2
    assert records["Bob"]["wins"] == 1 and records["Bob"]["games"]["flip7"]["figures"]["busts"] == 1
    assert records["Ann"]["games"]["flip7"]["best"] == 5
    page = host.get("/players").get_data(as_text=True)
    bob = page.split('data-player="Bob"')[1].split("</article>")[0]
    assert '<span class="wins">1</span>' in bob and '<span class="played">2</span>' in bob
    assert "Busts 1" in bob
