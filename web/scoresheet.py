"""A finished (or unfinished) match as a score sheet and as its raw log.

The score sheet is what a person keeps: the game, the date, the players' names, every
round's scores, the totals and the winner, one CSV row each. The raw log is the match
as JSON lines (its start line, then one action a line, undos included), the format
`deckhand replay FILE` folds again. Both are built from the history record and the
log rows a TableService gives; the rounds come from folding the rows with the engine.
"""
from __future__ import annotations

import csv
import io
import json
from typing import Any, Callable, Mapping, Sequence

from engine.core import IllegalAction, MatchSpec, parse_action
from engine.games import get_game
from engine.log import Timeline


def start_line(record: Mapping[str, Any]) -> dict[str, Any]:
    """The match's start line (engine.core.MatchSpec JSON) from its history record."""
    line = {"type": "start", "game": record["game"], "seats": list(record.get("seats") or []),
            "settings": dict(record.get("settings") or {})}
    if record.get("seed") is not None:
        line["seed"] = record["seed"]
    return line


def raw_log(record: Mapping[str, Any], rows: Sequence[Mapping[str, Any]]) -> str:
    """The match as JSON lines: the start line, then every logged action in order."""
    lines = [json.dumps(start_line(record), ensure_ascii=False, separators=(",", ":"))]
    lines += [json.dumps(r.get("action") or {}, ensure_ascii=False, separators=(",", ":"))
              for r in rows]
    return "\n".join(lines) + "\n"


def final_view(record: Mapping[str, Any],
               rows: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """The game's view after folding the match's rows, or None if they no longer fold
    (a game this build lacks, or rules that changed since)."""
    try:
        game = get_game(record["game"])
        timeline = Timeline(game, MatchSpec.from_json(start_line(record)))
        for row in rows:
            timeline.apply(parse_action(row.get("action"), game.actions))
    except (IllegalAction, ImportError, KeyError, ValueError):
        return None
    return game.view(timeline.state)


def _cell(value: Any) -> str:
    """Keep spreadsheet programs from running a cell as a formula."""
    text = "" if value is None else str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@") and not _is_number(text) else text


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def score_sheet(record: Mapping[str, Any], rows: Sequence[Mapping[str, Any]],
                title: str, t: Callable[[str], str]) -> str:
    """The score sheet as CSV text: a heading line (game, started, ended), the players'
    names, one row per round, the totals, the winner(s). `t` puts a word in the
    reader's language."""
    names = [s.get("name", "?") if isinstance(s, Mapping) else str(s)
             for s in record.get("seats") or []]
    view = final_view(record, rows) or {}
    rounds = [list(r) for r in view.get("history") or []]
    totals = list(view.get("totals") or record.get("totals") or [])
    winners = view.get("winners") if view.get("finished") else record.get("winners")
    winners = [names[w] for w in winners or [] if isinstance(w, int) and 0 <= w < len(names)]
    out = io.StringIO()
    writer = csv.writer(out)
    started = (record.get("started_at") or "")[:16].replace("T", " ")
    ended = (record.get("ended_at") or "")[:16].replace("T", " ") or t("unfinished")
    writer.writerow([_cell(title), _cell(started), _cell(ended)])
    writer.writerow([t("Round")] + [_cell(n) for n in names])
    for number, scores in enumerate(rounds, start=1):
        writer.writerow([number] + [_cell(v) for v in scores])
    writer.writerow([t("Total")] + [_cell(v) for v in totals])
    writer.writerow([t("Winner")] + [_cell(", ".join(winners))])
    return out.getvalue()
