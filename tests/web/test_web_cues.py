"""Sound cues: the server names the sounds a change calls for from the engine's notice
codes (web/cues.py) and sends them with every screen update."""
import json

from web.cues import cue

from conftest import FLIP7


def _flip(table, code):
    return table.observe({"type": "card", "zone": "discard", "card": code}, "camera")


def test_a_bust_and_a_flip7_and_a_slap_each_call_for_their_sound():
    assert cue({"notices": [{"code": "bust"}], "view": {"turn": 2}})["sounds"] == ["bust"]
    assert cue({"notices": [{"code": "flip7"}, {"code": "round_over"}]})["sounds"] == ["flip7"]
    assert cue({"notices": [{"code": "slap_lost"}, {"code": "draw"}]})["sounds"] == ["slap"]
    assert cue({"notices": [{"code": "hit"}], "view": {"turn": 1, "finished": True}}) == \
        {"sounds": [], "turn": 1, "finished": True}


def test_the_live_stream_carries_the_cue_of_a_real_bust(table, client):
    table.new_match({**FLIP7, "type": "start"}, "host")
    for code in ("5", "9", "4"):          # the deal: Bob 5, Cat 9, Ann 4 (Ann deals)
        _flip(table, code)
    table.observe({"type": "pad", "seat": 1}, "pad")   # Bob hits
    since = table.seq
    _flip(table, "5")                                     # and busts
    body = client.get(f"/api/events?view=table&since={since}", buffered=False)
    for chunk in body.response:
        text = chunk.decode() if isinstance(chunk, bytes) else chunk
        if text.startswith("id:"):
            data = json.loads(text.split("data: ", 1)[1])
            break
    body.close()
    assert data["cue"]["sounds"] == ["bust"]
    assert data["cue"]["turn"] == 2       # Cat's turn after Bob's bust
