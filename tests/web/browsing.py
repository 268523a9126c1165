"""What the browser test modules share: finding Debian's Chromium and Playwright (or
skipping the module in words), one browser per module, and holding a pad down."""
from __future__ import annotations

import os
import shutil
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest

CHROMIUM = os.environ.get("DECKHAND_CHROMIUM") or shutil.which("chromium")
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]


def playwright_or_skip():
    """playwright.sync_api, or skip the calling test module (at import) saying why."""
    if not CHROMIUM:
        pytest.skip("no Chromium installed (apt-get install chromium, or set DECKHAND_CHROMIUM)",
                    allow_module_level=True)
    return pytest.importorskip("playwright.sync_api", reason="playwright is not installed")


@contextmanager
def chromium(sync_api, extra_args: tuple[str, ...] = ()) -> Iterator[object]:
    """A headless Chromium for the length of the block."""
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS + list(extra_args))
        try:
            yield b
        finally:
            b.close()


def hold(page, selector: str, url_end: str, ms: int = 650):
    """Press `selector` with the mouse, hold it `ms`, release; the response whose URL
    ends with `url_end` (what the release sent)."""
    box = page.locator(selector).bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.wait_for_timeout(ms)
    with page.expect_response(lambda r: r.url.endswith(url_end)) as resp:
        page.mouse.up()
    return resp.value
