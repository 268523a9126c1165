"""History: finished and unfinished matches with date, players, winner and scores; each
match's score sheet as CSV and its raw log as JSON lines (web.scoresheet); player
profiles (name, colour) reused across matches."""
from __future__ import annotations

from flask import Blueprint, Response, abort, render_template

from web.cards import css_colour
from web.words import t as translate
from web.present import GAME_TITLES, STAT_LABELS
from web.request import current_lang, deckhand
from web.scoresheet import raw_log, score_sheet

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


def _match(match_id: int) -> tuple[dict, list[dict]]:
    """The match's history record and log rows, or a 404."""
    table = deckhand().table
    record = next((m for m in table.history() if m.get("id") == match_id), None)
    if record is None:
        abort(404)
    try:
        return record, table.match_rows(match_id)
    except KeyError:
        abort(404)


@bp.get("/history/<int:match_id>.csv")
def match_csv(match_id: int):
    """The score sheet: names, every round's scores, totals, winner."""
    record, rows = _match(match_id)
    lang = current_lang()
    title = translate(GAME_TITLES.get(record.get("game"), record.get("game") or ""), lang)
    text = score_sheet(record, rows, title, lambda words: translate(words, lang))
    return Response(text, mimetype="text/csv", headers={
        "Content-Disposition": f'attachment; filename="match-{match_id}-scores.csv"'})


@bp.get("/history/<int:match_id>.jsonl")
def match_log(match_id: int):
    """The raw log as JSON lines (`deckhand replay FILE` folds it again)."""
    record, rows = _match(match_id)
    return Response(raw_log(record, rows), mimetype="application/x-ndjson", headers={
        "Content-Disposition": f'attachment; filename="match-{match_id}.jsonl"'})


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
