"""What the browser crawl (test_web_crawl.py) needs: tables in a known state, built by
scripted matches through the real table service, and the in-page audit that measures a
page (scroll, overlaps, text cut off, the smallest text, program text, English words).
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path

from device.store import EventStore
from device.table import LiveTable
from engine.core import MatchSpec

GAMES = ("flip7", "raj", "solo", "hitthedeck")
SIZES = ((800, 480), (1024, 600), (1280, 720), (1920, 1080), (3840, 2160))
SEATS = [{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"},
         {"name": "Cat", "colour": "green"}, {"name": "Dan", "colour": "yellow"}]
# The smallest text a player must read on the table screen: 2.5 % of the screen height
# (27 px at 1080p), with half a pixel for rounding.
TABLE_FLOOR = 0.025
# Elsewhere (phones, host, history) text is read up close: an absolute floor.
PAGE_FLOOR_PX = 12.0

STRATEGIES = {"raj": ["random"] * len(SEATS), "solo": "random", "hitthedeck": None,
              "flip7": None}


@dataclass
class TableState:
    game: str
    moment: str          # "mid" (the middle of a round) or "end" (the match is over)
    table: LiveTable
    store: EventStore


def _actions(game: str, spec: MatchSpec, seed: int, rounds: int | None) -> list:
    selfplay = importlib.import_module(f"engine.{game}.selfplay")
    return list(selfplay.play_match(spec, STRATEGIES[game], seed, rounds=rounds))


def build_state(folder: Path, game: str, moment: str, seed: int = 11) -> TableState:
    """A table in the middle of its second round (`moment="mid"`) or at the end of a
    whole match (`"end"`), played by the games' own bots through the real LiveTable."""
    store = EventStore(folder / f"{game}-{moment}.sqlite3")
    table = LiveTable(store)
    spec_json = {"type": "start", "game": game, "seats": SEATS, "settings": {}, "seed": seed}
    table.new_match(spec_json, "host")
    spec = MatchSpec.from_json(spec_json)
    if moment == "mid":
        first = len(_actions(game, spec, seed, 1))
        both = _actions(game, spec, seed, 2)
        actions = both[:first + max(1, (len(both) - first) // 2)]
    else:
        actions = _actions(game, spec, seed, None)
    for action in actions:
        table.submit_action(action, "bot")
    if moment == "end" and not table.snapshot()["view"].get("finished"):
        table.submit({"type": "end_match"}, "host")
    return TableState(game, moment, table, store)


# Program text a person must never see: card codes, action calls, keyword arguments,
# Python values, identifiers with underscores, raw JSON.
CODE_PATTERNS = (
    r"\b[RGBY]-[A-Z0-9]{2,}\b",          # R-CUT, G-TAKE2
    r"\b[a-z_]+\(",                      # flip(, take_penalty(
    r"\b[a-z_]+=",                       # seat=, card=
    r"\bNone\b|\bTrue\b|\bFalse\b",
    r"\b[a-z]+_[a-z_]+\b",               # take_penalty, hand_counts
    r"[{\[]['\"]",                       # {'type': ..., ["seats"]
    r"\b(?:red|blue|green|yellow|purple):\d+\b",   # Raj bid codes
    r"\bP-?\d+\b",                       # Raj point codes
)

# Common English words of the screens; on a French page none of them may show (game
# titles, player names and the language link "English" are taken out first; words that
# French spells the same, such as "score", "pot" or "direction", are not listed, nor
# "deck": the French edition's own cards and rules say "HIT THE DECK", « tape le deck »).
ENGLISH_WORDS = (
    "the", "and", "or", "of", "to", "is", "with", "your", "you", "play", "plays", "played",
    "draw", "draws", "round", "rounds", "turn", "whose", "player",
    "players", "host", "card", "cards", "hand", "hands", "history", "winner", "waiting",
    "bid", "down", "top", "demand", "clockwise", "anticlockwise", "stayed", "stay",
    "bust", "frozen", "undo", "undone", "start", "names", "colour", "red", "green", "blue",
    "yellow", "hits", "discards", "left", "last", "point", "scan", "phone", "lost", "settings",
    "save", "download", "next", "new", "end", "game", "over", "nobody", "took", "stays",
    "cancelled", "void", "sizes", "chart", "recent", "standings",
    "offline", "reconnecting", "live", "matches", "unfinished", "seat", "seats", "penalty",
    "take", "miss", "swap", "choose", "change", "out", "in", "this", "what", "happened",
)

AUDIT_JS = r"""
([floorPx, isTable]) => {
  const vw = window.innerWidth, vh = window.innerHeight;
  const doc = document.documentElement;
  const out = {scrollH: doc.scrollHeight, scrollW: doc.scrollWidth, vw, vh,
               minFont: null, minText: "", small: [], overlaps: [], cut: [], text: ""};
  function visible(el) {
    // checkVisibility also knows what a closed <details> skips (content-visibility)
    if (el.checkVisibility && !el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})) return false;
    for (let e = el; e && e !== document.body; e = e.parentElement) {
      const cs = getComputedStyle(e);
      if (cs.display === "none" || cs.visibility === "hidden" || parseFloat(cs.opacity) === 0) return false;
      if (e.hidden || e.getAttribute("aria-hidden") === "true") return false;
    }
    return true;
  }
  function label(el) {
    let s = el.tagName.toLowerCase();
    if (el.id) s += "#" + el.id;
    if (el.className && typeof el.className === "string") s += "." + el.className.trim().split(/\s+/).join(".");
    return s;
  }
  const items = [];   // {el, rect, text}
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const texts = [], words = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const txt = n.textContent.trim();
    if (!txt) continue;
    const el = n.parentElement;
    if (!el || el.closest("script,style,title,svg,option,select,textarea,noscript")) continue;
    if (!visible(el)) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    const rects = Array.from(range.getClientRects()).filter(r => r.width > 0.5 && r.height > 0.5);
    if (!rects.length) continue;
    texts.push(txt);
    // words a person reads as language: not a drawn card's printed mark, not what is
    // marked translate="no" (addresses, commands)
    if (!el.closest('.card, [translate="no"], code')) words.push(txt);
    const font = parseFloat(getComputedStyle(el).fontSize);
    if (out.minFont === null || font < out.minFont) { out.minFont = font; out.minText = txt.slice(0, 40); }
    if (font < floorPx - 0.5) out.small.push(label(el) + " " + font.toFixed(1) + "px: " + txt.slice(0, 30));
    for (const r of rects) {
      items.push({el, r, text: txt.slice(0, 30)});
      // cut off: past the viewport's sides (or its bottom on the table screen), or
      // clipped by a box that hides its overflow
      if (r.left < -1 || r.right > vw + 1 || (isTable && r.bottom > vh + 1))
        out.cut.push(label(el) + ": " + txt.slice(0, 30));
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const cs = getComputedStyle(a);
        if (cs.overflowX !== "visible" || cs.overflowY !== "visible") {
          const b = a.getBoundingClientRect();
          if (r.right > b.right + 1 || r.bottom > b.bottom + 1 || r.left < b.left - 1 || r.top < b.top - 1)
            out.cut.push(label(el) + " clipped by " + label(a) + ": " + txt.slice(0, 30));
          break;
        }
      }
    }
  }
  // the drawn cards and tags count as things a player reads, as whole boxes
  document.querySelectorAll(".card, .tag, .badge, .qr svg").forEach(el => {
    if (!visible(el)) return;
    const r = el.getBoundingClientRect();
    if (r.width > 0.5 && r.height > 0.5) items.push({el, r, text: label(el)});
    if (r.left < -1 || r.right > vw + 1 || (isTable && r.bottom > vh + 1)) out.cut.push(label(el));
  });
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      const a = items[i], b = items[j];
      if (a.el === b.el || a.el.contains(b.el) || b.el.contains(a.el)) continue;
      const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
      const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
      if (w > 2 && h > 0.25 * Math.min(a.r.height, b.r.height) && h > 2)
        out.overlaps.push(a.text + " × " + b.text);
    }
  }
  out.cut = Array.from(new Set(out.cut));
  // the kiosk's scores and its join QR code, whole on the screen
  function whole(sel) {
    const el = document.querySelector(sel);
    if (!el || !visible(el)) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.top >= -1 && r.left >= -1 && r.bottom <= vh + 1 && r.right <= vw + 1;
  }
  out.qrShown = whole(".join .qr svg");
  out.scoresShown = whole(".k-side .standings");
  out.text = texts.join("\n");
  out.words = words.join("\n");
  // what a select offers, and the words of buttons' and fields' hints
  const extra = [];
  document.querySelectorAll("select").forEach(sel => {
    if (visible(sel)) Array.from(sel.options).forEach(o => extra.push(o.textContent.trim()));
  });
  document.querySelectorAll("[placeholder], [title], [aria-label]").forEach(el => {
    if (!visible(el) || el.closest('.card, [translate="no"]')) return;
    ["placeholder", "title", "aria-label"].forEach(a => { if (el.getAttribute(a)) extra.push(el.getAttribute(a)); });
  });
  out.options = extra.join("\n");
  return out;
}
"""
