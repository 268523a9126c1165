"""The phone's recent plays (web.feed.NoticeFeed) are rendered on the way to the phones
after every change: each change reads only the log rows it has not applied yet, and
says the same as a feed that read the whole log at once (undos and a new match too)."""
from __future__ import annotations

from conftest import FLIP7, play
from web.feed import NoticeFeed


class CountingTable:
    """The real table, counting the log rows the feed asks it for."""

    def __init__(self, table):
        self.table = table
        self.rows_read = 0

    def match_rows(self, match_id, after=0):
        rows = self.table.match_rows(match_id, after)
        self.rows_read += len(rows)
        return rows


def test_each_change_reads_only_the_new_rows_and_says_what_a_fresh_feed_says(table):
    play(table, "flip7", FLIP7["seats"], rounds=1)
    counting, feed = CountingTable(table), NoticeFeed()
    first = feed.recent(counting, table.snapshot())
    assert counting.rows_read == table.current_match.rows_logged
    assert first and first == NoticeFeed().recent(table, table.snapshot())

    last = table.current_match.timeline.actions[-1]
    for change in ({"type": "undo"}, last):
        if isinstance(change, dict):
            table.submit(change, "host")
        else:
            table.submit_action(change, "bot")
        before = counting.rows_read
        got = feed.recent(counting, table.snapshot())
        assert counting.rows_read == before + 1
        assert got == NoticeFeed().recent(table, table.snapshot())
    assert got == first   # the undone action played again


def test_a_new_match_is_read_from_its_first_row(table):
    play(table, "flip7", FLIP7["seats"], rounds=1)
    counting, feed = CountingTable(table), NoticeFeed()
    feed.recent(counting, table.snapshot())
    table.new_match({"type": "start", **FLIP7}, "host", end_running=True)
    table.submit({"type": "flip", "card": "5"}, "camera")
    before = counting.rows_read
    got = feed.recent(counting, table.snapshot())
    assert counting.rows_read == before + 1
    assert got == NoticeFeed().recent(table, table.snapshot()) and got


def test_a_change_rendered_after_a_later_undo_still_says_its_own_play(table):
    """A stream that renders a change late, when the log already holds the undo made
    after it, says that change's play (the undo is the next change's)."""
    table.new_match({"type": "start", **FLIP7}, "host")
    table.submit({"type": "flip", "card": "4"}, "camera")
    flipped = table.snapshot()
    table.submit({"type": "undo"}, "host")
    feed = NoticeFeed()
    late = feed.recent(table, flipped)
    assert late and late == NoticeFeed().recent(table, flipped)
    assert any(n.get("params", {}).get("card") == "4" for n in late), late
    assert feed.recent(table, table.snapshot()) == []   # then the undo, read next time
