"""What the browser test modules share: finding Debian's Chromium and Playwright (or
skipping the module in words), one browser per module, and holding a pad down.

No wait on the browser is without limit. Playwright's page actions have timeouts, but
creating a context or a page, closing one and `evaluate` wait as long as Chromium takes
(the CI run of stop 26 waited 5,400 s after a browser test). `Chromium` bounds them: a
call with no timeout of its own gets `CALL_WITHIN` seconds, a whole test `TEST_WITHIN`
(tests/web/conftest.py), and past that the browser is killed, so the waiting call fails
at once and says why; the next test gets a new browser instead of waiting as well."""
from __future__ import annotations

import os
import shutil
import signal
import sys
import threading
import traceback
import warnings
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest

CHROMIUM = os.environ.get("DECKHAND_CHROMIUM") or shutil.which("chromium")
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
# Playwright adds --disable-dev-shm-usage (and --disable-gpu's kin) itself.
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]
# a new context or page, a close, evaluate: at most 1.1 s in 200 cycles here at load 20-26
CALL_WITHIN = 60.0
# closing a context or a page: at most 0.5 s in those cycles (see _close_bounded)
CLOSE_WITHIN = 30.0
TEST_WITHIN = 240.0   # a whole browser test (the slowest takes 35 s), inside pytest-timeout's 300


class BrowserKilled(RuntimeError):
    """Chromium did not answer within its limit and was killed."""


def playwright_or_skip():
    """playwright.sync_api, or skip the calling test module (at import) saying why."""
    if not CHROMIUM:
        pytest.skip("no Chromium installed (apt-get install chromium, or set DECKHAND_CHROMIUM)",
                    allow_module_level=True)
    return pytest.importorskip("playwright.sync_api", reason="playwright is not installed")


class Chromium:
    """A headless Chromium (Playwright's Browser: its other attributes are passed on),
    launched again when the one before was killed. It keeps the contexts it made so a
    test that failed with pages open has them closed (`close_contexts`)."""

    def __init__(self, playwright, extra_args: tuple[str, ...] = ()):
        self._playwright = playwright
        self._args = ARGS + list(extra_args)
        self._browser = None
        self._pids: set[int] = set()
        self._contexts: list = []
        self.killed: list[str] = []      # why, each time it was killed
        self._launch()

    def _launch(self) -> None:
        before = _descendants(os.getpid())
        self._browser = self._playwright.chromium.launch(executable_path=CHROMIUM,
                                                         args=self._args)
        # what appeared under the Playwright driver (started before) is this browser
        self._pids = {pid for pid in _descendants(os.getpid()) - before
                      if _name(pid) != "node"}

    @property
    def browser(self):
        if not self._browser.is_connected():
            self._launch()
        return self._browser

    def __getattr__(self, name: str):
        return getattr(self.browser, name)

    def new_context(self, **options):
        with self.bounded("new_context"):
            context = self.browser.new_context(**options)
        self._keep(context)
        return context

    def new_page(self, **options):
        with self.bounded("new_page"):
            page = self.browser.new_page(**options)
        self._keep(page.context)
        self._close_bounded(page, "closing a page")
        return page

    def _keep(self, context) -> None:
        self._contexts.append(context)
        context.on("close", lambda c: c in self._contexts and self._contexts.remove(c))
        self._close_bounded(context, "closing a context", pages_first=True)
        made = context.new_page

        def new_page(*args, **options):
            with self.bounded("new_page"):
                page = made(*args, **options)
            self._close_bounded(page, "closing a page")
            return page
        context.new_page = new_page

    def _close_bounded(self, target, what: str, pages_first: bool = False) -> None:
        """`target.close()` (a context's or a page's) from now on waits at most
        CLOSE_WITHIN: Chromium sometimes never answers a context's disposal (seen in a CI
        run here: a test whose checks had all passed waited in `context.close()` until
        killed, the browser idle, no renderer busy; Playwright gives that call no
        timeout). Past the limit the browser is killed, a warning says so and the test
        goes on: closing is the test's tidying, not what it checks; the next test gets
        a new browser. With `pages_first` (a context) its pages are closed first
        (`close_pages`)."""
        plain = target.close

        def close(*args, **options):
            if not self._browser.is_connected():
                return                         # killed before: nothing left to close
            try:
                with self.bounded(what, CLOSE_WITHIN):
                    if pages_first:
                        self.close_pages(target)
                    plain(*args, **options)
            except BrowserKilled as exc:
                warnings.warn(f"{exc}; the next browser call starts a new browser",
                              RuntimeWarning, stacklevel=2)
        target.close = close

    @staticmethod
    def close_pages(context) -> None:
        """Close every open page of `context` (no beforeunload) before the context is
        disposed of. Chromium answers the disposal of a context with no window open at
        once; with a window open it answers only once that window has closed (Chrome's
        DevToolsBrowserContextManager::DisposeBrowserContext), and that answer sometimes
        never came: for a host page that had just reloaded itself (sessions 12-13), then,
        once pages were sent to about:blank before the disposal instead (session 14), for
        a phone's context right after its page opened /phone (its live stream and wake
        lock). Counts in README.md. A page that fails to close is left to the disposal."""
        for page in list(context.pages):
            if page.is_closed():
                continue
            try:
                page.close(run_before_unload=False)
            except Exception:   # noqa: BLE001 - the context's disposal closes it then
                pass

    def close_contexts(self) -> None:
        """Close what a test left open (a failed test's pages and their streams)."""
        while self._contexts:
            context = self._contexts.pop()
            try:
                with self.bounded("closing a context"):
                    context.close()
            except Exception:   # noqa: BLE001 - already gone with a killed browser
                pass

    @contextmanager
    def bounded(self, what: str, within: float = CALL_WITHIN) -> Iterator[None]:
        """Kill the browser if the block takes longer than `within` seconds; the call
        it was waiting on then fails, and the block raises BrowserKilled saying why."""
        why = f"Chromium did not answer within {within:.0f} s ({what}): killed"
        main = threading.current_thread().ident
        timer = threading.Timer(within, self.kill, args=(why, main))
        timer.daemon = True
        timer.start()
        try:
            yield
        except Exception as exc:
            if timer.finished.is_set() and self.killed and self.killed[-1] == why:
                raise BrowserKilled(why) from exc
            raise
        finally:
            timer.cancel()

    def kill(self, why: str, waiting: int | None = None) -> None:
        """SIGKILL this browser's processes, saying why and (if given) where the
        thread `waiting` was waiting."""
        self.killed.append(why)
        frame = sys._current_frames().get(waiting) if waiting else None
        where = "".join(traceback.format_stack(frame)) if frame else ""
        print(f"{why}\n{where}", file=sys.stderr, flush=True)
        for pid in sorted(self._pids | {d for p in self._pids for d in _descendants(p)}):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass

    def close(self) -> None:
        if self._browser.is_connected():
            try:
                with self.bounded("closing the browser"):
                    self._browser.close()
            except BrowserKilled:
                pass    # gone either way, after the tests' own work


@contextmanager
def chromium(sync_api, extra_args: tuple[str, ...] = ()) -> Iterator[Chromium]:
    """A headless Chromium for the length of the block."""
    with sync_api.sync_playwright() as p:
        b = Chromium(p, extra_args)
        try:
            yield b
        finally:
            b.close()


def _descendants(pid: int) -> set[int]:
    """Every process below `pid` (Linux /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            ppid = int(stat[stat.rindex(")") + 2:].split()[1])
            children.setdefault(ppid, []).append(int(entry))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def _name(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


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
