"""Hit the Deck on the table screen: after a HIT WITH A HAND window, every slap in order
with the gap to the one before in milliseconds, and who draws; the block carries the
few seconds it stays up (static/ephemeral.js hides it)."""
import re

from engine.hitthedeck.actions import Play, Slap, StartHand, TurnUp

MS = 1_000_000
SEATS = [{"name": n} for n in ("Ann", "Bob", "Cat", "Dan")]


def _hand_slapped(table):
    table.new_match({"type": "start", "game": "hitthedeck", "seats": SEATS}, "host")
    for action in (StartHand(), TurnUp("R3"), Play(1, "HIT-HAND", 1000 * MS),
                   Slap(1, 1200 * MS), Slap(3, 1203 * MS + 400_000), Slap(0, 1250 * MS),
                   Slap(2, 1400 * MS)):
        table.submit_action(action, "host")


def _ranking(html: str) -> list[tuple[str, str, str]]:
    block = re.search(r'<section class="slap-ranking"(.*?)</section>', html, re.S)
    assert block, "no slap ranking on the page"
    items = re.findall(r'<span class="name">([^<]+)</span>\s*<span class="gap">([^<]+)</span>\s*'
                       r'(?:<span class="draws">([^<]+)</span>)?', block.group(1))
    return [(name, gap.strip(), draws.strip()) for name, gap, draws in items]


def test_the_table_ranks_every_slap_with_the_gaps_and_who_draws(table, client):
    _hand_slapped(table)
    html = client.get("/").get_data(as_text=True)
    assert _ranking(html) == [("Bob", "first", ""), ("Dan", "+3.4 ms", ""),
                              ("Ann", "+46.6 ms", ""), ("Cat", "+150.0 ms", "draws 4")]
    assert re.search(r'class="slap-ranking" data-show-for="\d+" data-key="1000000000-4-', html)


def test_players_who_did_not_slap_are_listed_as_drawing(table, client):
    from engine.hitthedeck.actions import CloseWindow
    table.new_match({"type": "start", "game": "hitthedeck", "seats": SEATS}, "host")
    for action in (StartHand(), TurnUp("R3"), Play(1, "HIT-HAND", 1000 * MS),
                   Slap(2, 1100 * MS), CloseWindow(4000 * MS)):
        table.submit_action(action, "host")
    ranking = _ranking(client.get("/").get_data(as_text=True))
    assert ranking[0] == ("Cat", "first", "")
    assert sorted(ranking[1:]) == [("Ann", "did not slap", "draws 4"), ("Bob", "did not slap", "draws 4"),
                                   ("Dan", "did not slap", "draws 4")]


def test_french_gaps_use_a_decimal_comma(table, client):
    _hand_slapped(table)
    client.set_cookie("lang", "fr")
    assert "+3,4 ms" in client.get("/").get_data(as_text=True)
