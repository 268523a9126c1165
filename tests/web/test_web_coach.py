"""Coach mode on the screens: the phones show each active Flip 7 player's chance to bust
and the value of one more Hit exactly as engine/flip7/coach.py counts them from the cards
seen; the table screen shows them only when the setting says "table"."""
import re

from engine.flip7 import draw_pile
from engine.flip7.coach import outlook

from conftest import FLIP7


def _deal(table, cards=("5", "9", "5")):
    for code in cards:
        table.observe({"type": "card", "zone": "discard", "card": code}, "camera")


def _shown(html: str) -> dict[int, tuple[float, float]]:
    rows = re.findall(r'<tr style="[^"]*" data-seat="(\d+)">.*?class="bust-chance" data-value="([^"]+)".*?'
                      r'class="hit-value" data-value="([^"]+)"', html, re.S)
    return {int(seat): (float(bust), float(hit)) for seat, bust, hit in rows}


def test_phones_show_the_exact_bust_chance_and_hit_value(table, client):
    table.new_match({**FLIP7, "type": "start", "settings": {"coach": "phones"}}, "host")
    _deal(table)
    html = client.get("/phone").get_data(as_text=True)
    state = table.current_match.state
    pile = draw_pile(state)
    shown = _shown(html)
    assert set(shown) == {0, 1, 2}
    for seat, line in enumerate(state.lines):
        figures = outlook(line, pile)
        assert shown[seat] == (float(figures.bust), float(figures.hit))
    assert shown[0][0] == 3 / 91          # two of the five 5s are out
    assert "Bust chance" in html
    # Only the phones: the table screen leaves it out with this setting.
    assert "bust-chance" not in client.get("/").get_data(as_text=True)


def test_the_table_screen_shows_the_coach_when_asked_and_french_uses_commas(table, client):
    table.new_match({**FLIP7, "type": "start", "settings": {"coach": "table"}}, "host")
    _deal(table)
    assert "bust-chance" in client.get("/").get_data(as_text=True)
    client.set_cookie("lang", "fr")
    html = client.get("/phone").get_data(as_text=True)
    assert re.search(r'class="bust-chance" data-value="[^"]+">3 %', html)
    assert re.search(r'class="hit-value" data-value="[^"]+">\d+,\d', html)


def test_no_coach_by_default(table, client):
    table.new_match({**FLIP7, "type": "start"}, "host")
    _deal(table)
    assert "bust-chance" not in client.get("/phone").get_data(as_text=True)
