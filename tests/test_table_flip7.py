"""The live table and the event log with the real Flip 7: camera sightings and pad
presses go through Flip 7's referee, a sighting on a player's turn is a Hit and a Flip
logged together, refusals log nothing, and whole self-played matches survive a restart
exactly (with and across checkpoints)."""
from __future__ import annotations

import json

import pytest

from device.store import EventStore, OpenMatch
from device.table import LiveTable
from engine.core import IllegalAction, MatchSpec, Seat
from engine.flip7 import GAME as FLIP7
from engine.flip7.selfplay import play_match
from engine.log import read_log
from engine.observations import CardSeen, PadPressed

SPEC = MatchSpec("flip7", (Seat("Ann", "red"), Seat("Bob", "blue"), Seat("Cat", "green")), {}, 4)


class Clock:
    def __init__(self) -> None:
        self.now = 0

    def __call__(self) -> int:
        self.now += 1_000_000
        return self.now


def test_cards_and_pads_at_a_flip7_table(tmp_path):
    db = tmp_path / "flip7.sqlite3"
    clock = Clock()
    store = EventStore(db)
    table = LiveTable(store, monotonic_ns=clock)
    start = table.new_match(SPEC.to_json(), "host")
    match_id = start["match"]["id"]
    assert start["view"]["prompt"] == {"code": "flip7.deal_to", "params": {"seat": 1}}
    for card in ("5", "9", "3"):                       # the deal: Bob, Cat, Ann
        table.observe_event(CardSeen("discard", card, clock()), "camera")
    view = table.snapshot()["view"]
    assert view["turn"] == 1 and [line["numbers"] for line in view["table"]["lines"]] == [[3], [5], [9]]

    before = table.snapshot()["seq"]
    out = table.observe_event(CardSeen("discard", "7", clock()), "camera")   # Bob's turn: a Hit
    rows = table.match_rows(match_id)
    assert [r["action"] for r in rows[-2:]] == [{"type": "hit", "seat": 1},
                                                {"type": "flip", "card": "7", "seat": None}]
    assert rows[-1]["seq"] == out["seq"] and {r["source"] for r in rows} == {"camera"}
    [event] = table.events_since(before, 0)            # one observation, one event
    assert event["seq"] == out["seq"] and event["snapshot"]["view"]["table"]["lines"][1]["numbers"] == [5, 7]

    with pytest.raises(IllegalAction):                 # Ann may not act on Cat's turn
        table.observe({"type": "pad", "seat": 0, "held": True}, "web")
    table.observe({"type": "pad", "seat": 2, "held": True}, "pad")           # Cat stays
    assert table.snapshot()["view"]["table"]["lines"][2]["status"] == "stayed"
    assert table.match_rows(match_id)[-1]["action"] == {"type": "stay", "seat": 2}

    table.observe_event(CardSeen("discard", "0", clock()), "camera")         # Ann hits: 0
    with pytest.raises(IllegalAction):                 # there is only one 0 in the deck
        table.observe_event(CardSeen("discard", "0", clock()), "camera")
    logged = len(table.match_rows(match_id))
    table.submit({"type": "undo"}, "host")             # takes back the flip of the 0 only
    assert table.snapshot()["view"]["waiting"] == {"for": "card", "seat": 0}
    assert len(table.match_rows(match_id)) == logged + 1
    view, seq = table.snapshot()["view"], table.snapshot()["seq"]
    store.close()

    store = EventStore(db)
    with store:
        table = LiveTable(store)
        assert table.snapshot()["view"] == view and table.snapshot()["seq"] == seq
        table.observe_event(CardSeen("discard", "12", clock()), "camera")
        assert table.snapshot()["view"]["table"]["lines"][0]["numbers"] == [3, 12]


@pytest.mark.parametrize("seed", [1, 2])
def test_a_whole_self_played_match_survives_a_restart(tmp_path, monkeypatch, seed):
    monkeypatch.setattr(OpenMatch, "checkpoint_every", 40)
    db = tmp_path / "flip7.sqlite3"
    spec = MatchSpec("flip7", SPEC.seats, {"target": 120}, seed)
    actions = list(play_match(spec, "odds:0.3,stay:20", seed))
    store = EventStore(db)
    table = LiveTable(store)
    match_id = table.new_match(spec.to_json(), "host")["match"]["id"]
    for action in actions:
        table.submit_action(action, "bot")
    final = table.snapshot()
    assert final["view"]["finished"]
    store.close()
    with EventStore(db) as store:
        again = OpenMatch.resume(store, match_id)
        assert json.loads(json.dumps(again.view)) == json.loads(json.dumps(final["view"]))
        rows = store.rows(match_id)
        log = read_log([json.dumps(spec.to_json())] + [json.dumps(r.action) for r in rows])
        assert log.state == again.state
        record = store.match(match_id)
        assert list(record.totals) == final["view"]["totals"] and record.ended_at is not None
        # Undo back across several checkpoints gives the states of the log's prefixes.
        for back in range(1, 90):
            again.submit([again.parse({"type": "undo"})], "host")
            if back % 29 == 0:
                prefix = read_log([json.dumps(spec.to_json())] +
                                  [json.dumps(a.to_json()) for a in actions[:-back]])
                assert again.state == prefix.state
        assert store.unfinished()[0].id == match_id     # undone past the end: open again
