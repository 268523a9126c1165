"""History: finished and unfinished matches with date, players, winner and scores; a
CSV export of any match's log; player profiles (name, colour) reused across matches."""
from __future__ import annotations

import csv
import io
import json

from flask import Blueprint, Response, abort, render_template

from web.cards import css_colour
from web.i18n import translate
from web.present import GAME_TITLES, STAT_LABELS
from web.request import current_lang, deckhand

bp = Blueprint("history", __name__)


def _names(seats) -> list[str]:
    return [s.get("name", "?") if isinstance(s, dict) else str(s) for s in seats or []]


@bp.get("/history")
def matches():
    rows = []
    for m in deckhand().table.history():
        names = _names(m.get("seats"))
        totals = m.get("totals") or []
        rows.append({
            "id": m.get("id"), "title": GAME_TITLES.get(m.get("game"), m.get("game")),
            "started_at": (m.get("started_at") or "")[:16].replace("T", " "),
            "ended_at": (m.get("ended_at") or "")[:16].replace("T", " ") or None,
            "players": [{"name": n, "total": totals[i] if i < len(totals) else None}
                        for i, n in enumerate(names)],
            "winners": [names[w] for w in m.get("winners") or [] if 0 <= w < len(names)],
        })
    return render_template("history.html", matches=rows)


def _cell(value: str) -> str:
    """Keep spreadsheet programs from running a cell as a formula."""
    return "'" + value if value[:1] in ("=", "+", "-", "@") else value


@bp.get("/history/<int:match_id>.csv")
def match_csv(match_id: int):
    try:
        rows = deckhand().table.match_rows(match_id)
    except KeyError:
        abort(404)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["seq", "match_seq", "time", "source", "type", "action"])
    for r in rows:
        action = r.get("action") or {}
        writer.writerow([r.get("seq"), r.get("match_seq"), r.get("t"), _cell(str(r.get("source", ""))),
                         _cell(str(action.get("type", ""))),
                         json.dumps(action, separators=(",", ":"), ensure_ascii=False)])
    return Response(out.getvalue(), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="match-{match_id}.csv"'})


@bp.get("/players")
def players():
    profiles = [{**p, "css": css_colour(p.get("colour"), i)}
                for i, p in enumerate(deckhand().table.players())]
    lang = current_lang()
    records = deckhand().table.player_records()
    for rec in records:
        rec["by_game"] = [{"title": GAME_TITLES.get(g, g), **v,
                           "figures": [(translate(STAT_LABELS.get(k, k), lang), n)
                                       for k, n in v["figures"].items()]}
                          for g, v in sorted(rec["games"].items())]
    return render_template("players.html", players=profiles, records=records)
