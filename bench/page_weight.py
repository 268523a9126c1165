"""Page weight of the phone scoreboard: every byte a phone downloads for /phone (the page
and all its assets, during a Flip 7 match after two rounds), and any request to anywhere
but the table itself.

    .venv/bin/python bench/page_weight.py [--page /phone]

Loads the page in headless Chromium (Playwright, Debian's chromium) against the real
app on a loopback server, counting each response's body and headers; the live event
stream never ends, so one update's size (the live region) is counted instead. Without Chromium, falls
back to fetching the HTML and the assets it links.
"""
from __future__ import annotations

import argparse
import logging
import os
import re
import shutil
import sys
import tempfile
import threading
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from werkzeug.serving import make_server  # noqa: E402

from device.store import EventStore  # noqa: E402
from device.table import LiveTable  # noqa: E402
from engine.core import MatchSpec  # noqa: E402
from engine.flip7.selfplay import play_match  # noqa: E402
from web.app import create_app  # noqa: E402

GOAL = 100 * 1024
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]


def table_with_a_match(workdir: str) -> LiveTable:
    table = LiveTable(EventStore(Path(workdir) / "weight.sqlite3"))
    spec = {"type": "start", "game": "flip7", "seats": ["Ann", "Bob", "Cat", "Dan"], "seed": 3}
    table.new_match(spec, "host")
    for action in play_match(MatchSpec.from_json(spec), rounds=2):
        table.submit_action(action, "bot")
    return table


def with_browser(base: str, page_path: str, chromium: str) -> tuple[list[tuple[str, int]], list[str]]:
    from playwright.sync_api import sync_playwright

    sizes: list[tuple[str, int]] = []
    outside: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=ARGS)
        context = browser.new_context(viewport={"width": 390, "height": 844})

        def route(r):
            if r.request.url.startswith(base):
                r.continue_()
            else:
                outside.append(r.request.url)
                r.abort()

        context.route("**/*", route)
        page = context.new_page()

        def done(request):
            response = request.response()
            if response is None:
                return
            try:
                head = sum(len(k) + len(v) + 4 for k, v in response.headers.items())
                body = 0 if "/api/events" in request.url else len(response.body())
            except Exception:
                return
            sizes.append((request.url[len(base):], head + body))

        page.on("requestfinished", done)
        page.goto(base + page_path)
        page.wait_for_selector("#conn.ok")
        event_bytes = page.evaluate("document.getElementById('live').innerHTML.length")
        sizes.append(("/api/events: one live update (the live region)", int(event_bytes)))
        browser.close()
    return sizes, outside


def without_browser(base: str, page_path: str) -> tuple[list[tuple[str, int]], list[str]]:
    html = urllib.request.urlopen(base + page_path).read()
    sizes = [(page_path, len(html))]
    outside = []
    for ref in re.findall(rb'(?:href|src)="([^"]+)"', html):
        url = ref.decode()
        if url.startswith("http"):
            outside.append(url)
        elif url.startswith("/static/"):
            sizes.append((url, len(urllib.request.urlopen(base + url).read())))
    return sizes, outside


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--page", default="/phone")
    args = ap.parse_args()
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    with tempfile.TemporaryDirectory() as workdir:
        app = create_app(table_with_a_match(workdir), host_pin="1234", heartbeat=1.0)
        server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}"
        chromium = os.environ.get("DECKHAND_CHROMIUM") or shutil.which("chromium")
        if chromium:
            sizes, outside = with_browser(base, args.page, chromium)
            how = "headless Chromium"
        else:
            sizes, outside = without_browser(base, args.page)
            how = "HTML + linked assets (no Chromium)"
        server.shutdown()
    total = sum(n for _, n in sizes)
    print(f"page weight of {args.page} ({how}), uncompressed, headers included:")
    for url, n in sizes:
        print(f"  {n:>8,d} B  {url}")
    print(f"  {total:>8,d} B  total = {total / 1024:.1f} KiB in {len(sizes)} responses "
          f"(goal < {GOAL // 1024} KiB): {'OK' if total < GOAL else 'OVER'}")
    print(f"  requests to anywhere else: {len(outside)}{' ' + str(outside) if outside else ''}")


if __name__ == "__main__":
    main()
