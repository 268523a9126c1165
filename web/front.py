"""The web server's front: an asyncio HTTP/1.1 server that reads every request itself
and only hands complete requests to the WSGI app, so no client can hold a thread by
being slow, idle or silent.

Why (issue 15): a thread-per-connection server is frozen by ~100 half-sent requests or
~100 open event streams. Here

* reading a request costs no thread: the head must arrive within `head_timeout`, the
  body within `body_timeout`, an idle keep-alive connection is closed after
  `idle_timeout`; heads and bodies are bounded in size;
* ordinary requests run in a small pool of `request_threads` that streams never use,
  at most `requests_per_client` at a time from one address;
* live streams (`stream_paths`, the SSE feed) each run in a thread of their own (the
  app's request context lives in it), never in the request pool, and their number is
  bounded per client address and in total (`streams`, `streams_per_client`);
* connections are bounded per client address and in total; when the total is reached
  the oldest idle connection of the address holding the most is closed first, so one
  address cannot lock the others out;
* every write waits for the client at most `write_timeout` with a bounded send buffer:
  a client that does not read is dropped, and a stream lasts at most `stream_lifetime`
  (the browser reconnects and resumes from Last-Event-ID);
* over a limit the answer is 503 with Retry-After and the reason in words.

`FrontServer(app, limits).serve(host, port)` runs until `stop()` (SIGTERM/SIGINT).
"""
from __future__ import annotations

import asyncio
import io
import json
import logging
import queue
import signal
import socket
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable
from urllib.parse import unquote_to_bytes

from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header, parse_cookie

from web import words
from web.messages import N_

log = logging.getLogger("deckhand.front")

WSGIApp = Callable[[dict, Callable], Iterable[bytes]]


@dataclass(frozen=True)
class Limits:
    """What one client address and all clients together may hold, and how long the
    server waits for them (seconds)."""

    connections: int = 400
    connections_per_client: int = 32
    streams: int = 120
    streams_per_client: int = 6
    request_threads: int = 12
    requests_per_client: int = 4
    head_timeout: float = 10.0
    body_timeout: float = 20.0
    idle_timeout: float = 15.0
    write_timeout: float = 10.0
    stream_lifetime: float = 900.0
    max_head: int = 16 * 1024
    max_body: int = 1024 * 1024
    send_buffer: int = 64 * 1024
    retry_after: int = 5
    stream_paths: tuple[str, ...] = ("/api/events",)


class _Refused(Exception):
    """A request the front answers itself (status, why), then closes. `text` is the English
    sentence (a msgid, marked N_), said in the reader's language when the request's
    headers have been read (its `lang` cookie, else Accept-Language), else in every
    language Deckhand speaks (`in_words`)."""

    def __init__(self, status: int, text: str, retry_after: int | None = None, **params: Any):
        super().__init__(text.format(**params))
        self.status, self.text, self.params, self.retry_after = status, text, params, retry_after

    def said(self, lang: str) -> str:
        return words.t(self.text, lang, **self.params)

    def in_words(self, lang: str | None = None) -> str:
        """The sentence in `lang`; with no language known, in each (English first)."""
        if lang is not None:
            return self.said(lang)
        return "\n".join(dict.fromkeys(self.said(one) for one in words.LANGUAGES))


def _environ_language(environ: dict) -> str:
    return _reader_language({"cookie": environ.get("HTTP_COOKIE", ""),
                             "accept-language": environ.get("HTTP_ACCEPT_LANGUAGE", "")})


def _reader_language(headers: dict[str, str]) -> str:
    """The language of the request's reader, from its headers (web.words.choose_language)."""
    cookie = parse_cookie(headers.get("cookie", "")).get("lang")
    return words.choose_language(cookie, parse_accept_header(headers.get("accept-language", ""),
                                                             LanguageAccept))


REASONS = {200: "OK", 400: "Bad Request", 405: "Method Not Allowed", 408: "Request Timeout",
           411: "Length Required",
           413: "Content Too Large", 431: "Request Header Fields Too Large",
           500: "Internal Server Error", 501: "Not Implemented", 503: "Service Unavailable"}


@dataclass
class _Conn:
    client: str
    writer: asyncio.StreamWriter | None
    opened: float
    sock: socket.socket | None = None
    busy: bool = False          # a request is being answered (not evictable)
    streaming: bool = False
    evicted: bool = False

    def close(self) -> None:
        """Drop it now (evicted, or the server stops)."""
        self.evicted = True
        if self.writer is not None:
            self.writer.transport.abort()


@dataclass
class Counters:
    """What the front refused and dropped since it started (for the log and tests)."""

    refused_connections: int = 0
    refused_streams: int = 0
    evicted: int = 0
    head_timeouts: int = 0
    slow_readers: int = 0
    served: int = 0
    most_from_one_client: int = 0
    most_streams: int = 0

    def line(self) -> str:
        return ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in vars(self).items())


class FrontServer:
    def __init__(self, app: WSGIApp, limits: Limits = Limits(),
                 on_stop: Callable[[], None] | None = None):
        self.app = app
        self.limits = limits
        self.on_stop = on_stop
        self.counters = Counters()
        self._conns: dict[str, list[_Conn]] = {}
        self._streams: dict[str, int] = {}
        self._total_streams = 0
        self._turns: dict[str, asyncio.Semaphore] = {}
        self._requests = ThreadPoolExecutor(limits.request_threads, thread_name_prefix="deckhand-req")
        self._loop: asyncio.AbstractEventLoop | None = None
        self._listener: socket.socket | None = None
        self._closing = 0
        self._stopped: asyncio.Event | None = None
        self.ready = threading.Event()
        self.address: tuple[str, int] | None = None

    # -- running -------------------------------------------------------------------------------

    def serve(self, host: str, port: int, install_signals: bool = True) -> None:
        """Serve until stop(); blocks (SIGTERM/SIGINT stop it when install_signals)."""
        asyncio.run(self._main(host, port, install_signals))

    def stop(self) -> None:
        """Stop accepting, let answers in flight finish (streams are ended by on_stop)."""
        if self._loop is not None and self._stopped is not None:
            self._loop.call_soon_threadsafe(self._stopped.set)

    async def _main(self, host: str, port: int, install_signals: bool) -> None:
        self._loop = asyncio.get_running_loop()
        self._stopped = asyncio.Event()
        _raise_file_limit(self.limits.connections + 200)
        listener = socket.create_server((host, port), family=_family(host), backlog=512,
                                        reuse_port=False)
        listener.setblocking(False)
        self._listener = listener
        self.address = listener.getsockname()[:2]
        self._loop.add_reader(listener, self._accept)
        if install_signals and threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGTERM, signal.SIGINT):
                self._loop.add_signal_handler(sig, self._stopped.set)
        self.ready.set()
        try:
            await self._stopped.wait()
        finally:
            if self.on_stop is not None:
                self.on_stop()
            self._loop.remove_reader(listener)
            listener.close()
            for conns in list(self._conns.values()):
                for c in list(conns):
                    if not c.busy:
                        c.close()
            deadline = time.monotonic() + 5.0
            while any(c.busy for cs in self._conns.values() for c in cs) and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            self._requests.shutdown(wait=False, cancel_futures=True)
            log.info("web front stopped: %s", self.counters.line())

    # -- one connection ------------------------------------------------------------------------

    def _accept(self) -> None:
        """Take what waits in the listen queue. A connection over a limit is refused
        right here (a 503 written to the bare socket, closed a moment later), without
        a transport or a task: a client that keeps reconnecting costs little."""
        for _ in range(128):
            try:
                sock, peer = self._listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as exc:   # out of file descriptors: pause accepting briefly
                log.warning("web front: cannot accept (%s); pausing half a second", exc)
                self._loop.remove_reader(self._listener)
                self._loop.call_later(0.5, self._loop.add_reader, self._listener, self._accept)
                return
            sock.setblocking(False)
            client = str(peer[0])
            refusal = self._admit(client)
            if refusal is not None:
                self.counters.refused_connections += 1
                self._refuse_now(sock, refusal)
                continue
            try:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.limits.send_buffer)
            except OSError:
                pass
            conn = _Conn(client, None, time.monotonic(), sock=sock)
            held = self._conns.setdefault(client, [])
            held.append(conn)
            self.counters.most_from_one_client = max(self.counters.most_from_one_client, len(held))
            asyncio.ensure_future(self._handle(conn, peer))

    def _refuse_now(self, sock: socket.socket, refusal: "_Refused") -> None:
        try:
            sock.send(_plain_response(refusal, json_body=False))
            sock.shutdown(socket.SHUT_WR)
        except OSError:
            sock.close()
            return
        if self._closing >= 256:   # a flood: no courtesy wait
            sock.close()
            return
        self._closing += 1

        def close() -> None:
            self._closing -= 1
            try:   # read what the client sent, so closing does not reset the answer away
                while sock.recv(65536):
                    pass
            except OSError:
                pass
            sock.close()

        self._loop.call_later(0.3, close)

    async def _handle(self, conn: "_Conn", peer) -> None:
        client = conn.client
        writer = None
        try:
            reader, writer = await asyncio.open_connection(sock=conn.sock, limit=self.limits.max_head)
            conn.writer = writer
            if conn.evicted:
                return
            writer.transport.set_write_buffer_limits(high=self.limits.send_buffer)
            await self._serve_conn(conn, reader, writer, peer)
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError, TimeoutError, OSError):
            pass
        except Exception:   # a bug here must not take the server down
            log.exception("web front: connection from %s failed", client)
        finally:
            conns = self._conns.get(client, [])
            if conn in conns:
                conns.remove(conn)
            if not conns:
                self._conns.pop(client, None)
                self._turns.pop(client, None)   # nobody of that address waits on it now
            if writer is None:
                conn.sock.close()
            elif not writer.is_closing():
                writer.transport.abort()

    def _admit(self, client: str) -> _Refused | None:
        held = len(self._conns.get(client, ()))
        lim = self.limits
        if held >= lim.connections_per_client:
            return _Refused(503, N_("Deckhand is busy: this device already has {held} connections open, the "
                                    "most one device may hold. Close some pages, then try again in "
                                    "{seconds} seconds."), lim.retry_after, held=held, seconds=lim.retry_after)
        total = sum(len(c) for c in self._conns.values())
        if total >= lim.connections and not self._evict_one():
            return _Refused(503, N_("Deckhand is busy: {total} connections are open, the most it serves at "
                                    "once. Try again in {seconds} seconds."), lim.retry_after,
                            total=total, seconds=lim.retry_after)
        return None

    def _evict_one(self) -> bool:
        """Close the oldest idle connection of the address holding the most (room for
        another address); False if every connection is answering something."""
        for client in sorted(self._conns, key=lambda c: -len(self._conns[c])):
            idle = [c for c in self._conns[client] if not c.busy]
            if idle:
                victim = min(idle, key=lambda c: c.opened)
                self._conns[client].remove(victim)
                victim.close()
                self.counters.evicted += 1
                return True
        return False

    async def _serve_conn(self, conn: _Conn, reader, writer, peer) -> None:
        lim = self.limits
        first = True
        while True:
            conn.busy = False
            try:
                head = await asyncio.wait_for(self._read_head(reader, first),
                                              lim.head_timeout if first else lim.idle_timeout + lim.head_timeout)
            except asyncio.TimeoutError:
                self.counters.head_timeouts += 1
                await self._answer_refusal(writer, _Refused(
                    408, N_("The request did not arrive within {seconds:g} seconds."), seconds=lim.head_timeout), "/")
                return
            except _Refused as refusal:
                await self._answer_refusal(writer, refusal, "/")
                return
            if head is None:
                return   # the client closed between requests
            conn.busy = True
            first = False
            target, lang = "/", None
            try:
                method, target, version, headers = _parse_head(head)
                path = target.split("?", 1)[0]
                lang = _reader_language(headers)
                body = await self._read_body(reader, writer, headers)
            except _Refused as refusal:
                await self._answer_refusal(writer, refusal, target, lang)
                return
            keep = version == "HTTP/1.1" and "close" not in headers.get("connection", "").lower()
            environ = _environ(method, target, version, headers, body, peer, writer)
            if path in lim.stream_paths:
                if method != "GET":   # HEAD would run the endless stream in the request pool
                    await self._answer_refusal(writer, _Refused(
                        405, N_("A live stream is read with GET.")), path, lang)
                    return
                await self._stream(conn, reader, writer, environ, path)
                return
            turn = self._turns.setdefault(conn.client, asyncio.Semaphore(lim.requests_per_client))
            async with turn:   # one device cannot take the whole request pool
                status, out_headers, payload = await self._loop.run_in_executor(
                    self._requests, _call_app, self.app, environ)
            self.counters.served += 1
            await self._write(writer, _response_head(status, out_headers, len(payload), keep)
                              + (b"" if method == "HEAD" else payload))
            if not keep:
                await self._close(writer)
                return

    async def _read_head(self, reader: asyncio.StreamReader, first: bool) -> bytes | None:
        if not first:
            # between requests: wait for the next one's first byte, at most idle_timeout
            try:
                start = await asyncio.wait_for(reader.readexactly(1), self.limits.idle_timeout)
            except (asyncio.TimeoutError, asyncio.IncompleteReadError):
                return None
        else:
            start = b""
        while True:
            try:
                head = start + await reader.readuntil(b"\r\n\r\n")
            except asyncio.LimitOverrunError:
                raise _Refused(431, N_("The request's headers are too large."))
            except asyncio.IncompleteReadError as exc:
                if not exc.partial.strip() and not start:
                    return None
                raise
            if head.strip():
                return head.lstrip(b"\r\n")
            start = b""

    async def _read_body(self, reader, writer, headers: dict[str, str]) -> bytes:
        if "transfer-encoding" in headers:
            raise _Refused(411, N_("Send the request's body with a Content-Length (chunked bodies are not "
                                   "accepted)."))
        raw = headers.get("content-length", "0").strip() or "0"
        if not raw.isdigit() or len(raw) > 12:
            raise _Refused(400, N_("The request's Content-Length must be a whole number."))
        length = int(raw)
        if length > self.limits.max_body:
            raise _Refused(413, N_("The request's body is too large (at most {most} bytes)."), most=self.limits.max_body)
        if length == 0:
            return b""
        if headers.get("expect", "").lower() == "100-continue":
            await self._write(writer, b"HTTP/1.1 100 Continue\r\n\r\n")
        try:
            return await asyncio.wait_for(reader.readexactly(length), self.limits.body_timeout)
        except asyncio.TimeoutError:
            self.counters.head_timeouts += 1
            raise _Refused(408, N_("The request's body did not arrive within {seconds:g} seconds."),
                           seconds=self.limits.body_timeout)

    async def _write(self, writer: asyncio.StreamWriter, data: bytes) -> None:
        """Write and wait for the client to take it, at most write_timeout."""
        writer.write(data)
        try:
            await asyncio.wait_for(writer.drain(), self.limits.write_timeout)
        except asyncio.TimeoutError:
            self.counters.slow_readers += 1
            writer.transport.abort()
            raise ConnectionError("the client does not read")

    async def _close(self, writer: asyncio.StreamWriter) -> None:
        try:
            writer.close()
            await asyncio.wait_for(writer.wait_closed(), self.limits.write_timeout)
        except (OSError, asyncio.TimeoutError):
            writer.transport.abort()

    async def _answer_refusal(self, writer, refusal: _Refused, target: str, lang: str | None = None) -> None:
        try:
            await self._write(writer, _plain_response(refusal, target.startswith("/api/"), lang))
        except (ConnectionError, OSError):
            return
        await self._close(writer)

    # -- live streams --------------------------------------------------------------------------

    async def _stream(self, conn: _Conn, reader, writer, environ: dict, path: str) -> None:
        lim = self.limits
        client = conn.client
        lang = _environ_language(environ)
        if self._streams.get(client, 0) >= lim.streams_per_client:
            self.counters.refused_streams += 1
            return await self._answer_refusal(writer, _Refused(
                503, N_("This device already has {most} live screens open, the most one device may follow: "
                        "close one and try again in {seconds} seconds."),
                lim.retry_after, most=lim.streams_per_client, seconds=lim.retry_after), path, lang)
        if self._total_streams >= lim.streams:
            self.counters.refused_streams += 1
            return await self._answer_refusal(writer, _Refused(
                503, N_("{most} live screens are open, the most Deckhand serves at once: try again in "
                        "{seconds} seconds."), lim.retry_after, most=lim.streams, seconds=lim.retry_after),
                path, lang)
        self._streams[client] = self._streams.get(client, 0) + 1
        self._total_streams += 1
        self.counters.most_streams = max(self.counters.most_streams, self._total_streams)
        conn.streaming = True
        pump = _StreamPump(self.app, environ, self._loop)
        eof = asyncio.ensure_future(_wait_eof(reader))
        try:
            kind, *head = await pump.get()
            if kind != "head":
                return
            status, headers = head
            await self._write(writer, _response_head(status, headers, None, False))
            deadline = time.monotonic() + lim.stream_lifetime
            while not eof.done():
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                item = asyncio.ensure_future(pump.get())
                done, _ = await asyncio.wait({item, eof}, timeout=left,
                                             return_when=asyncio.FIRST_COMPLETED)
                if item not in done:
                    item.cancel()
                    break
                kind, *data = item.result()
                if kind == "end":
                    break
                if kind == "chunk":
                    await self._write(writer, data[0])
        finally:
            eof.cancel()
            pump.cancel()
            await pump.finished(5.0)   # the thread ends the WSGI iterator itself
            self._streams[client] -= 1
            if not self._streams[client]:
                self._streams.pop(client, None)
            self._total_streams -= 1
            self.counters.served += 1
            if not writer.is_closing():
                writer.transport.abort()


async def _wait_eof(reader: asyncio.StreamReader) -> None:
    """Resolves when a streaming client goes away (what it sends meanwhile is dropped)."""
    while True:
        data = await reader.read(4096)
        if not data:
            return


# -- WSGI -----------------------------------------------------------------------------------------


class _StreamPump:
    """One live stream's WSGI call, run from start to end in one thread of its own (the
    app's request context lives in that thread), handing its chunks to the event loop
    through a small queue: when the client does not take them, the queue fills and the
    thread waits, so an unread stream holds a few chunks, not an ever-growing buffer.
    Items: ("head", status, headers), ("chunk", bytes)..., ("end",)."""

    PENDING = 4

    def __init__(self, app: WSGIApp, environ: dict, loop: asyncio.AbstractEventLoop):
        self.app, self.environ, self.loop = app, environ, loop
        self.items: queue.Queue = queue.Queue(self.PENDING)
        self.arrived = asyncio.Event()
        self.stopped = threading.Event()
        self.done = asyncio.Event()
        threading.Thread(target=self._run, name="deckhand-stream", daemon=True).start()

    async def get(self) -> tuple:
        while True:
            try:
                return self.items.get_nowait()
            except queue.Empty:
                self.arrived.clear()
            try:   # again after clearing: an item put meanwhile must not be slept through
                return self.items.get_nowait()
            except queue.Empty:
                await self.arrived.wait()

    def cancel(self) -> None:
        self.stopped.set()

    async def finished(self, limit: float) -> None:
        try:
            await asyncio.wait_for(self.done.wait(), limit)
        except asyncio.TimeoutError:
            log.warning("a live stream's thread did not end in %g s", limit)

    def _put(self, item: tuple) -> bool:
        """Hand one item over (waiting while the queue is full); False once the stream
        is cancelled or the loop is gone."""
        while not self.stopped.is_set():
            try:
                self.items.put(item, timeout=1.0)
            except queue.Full:
                continue
            try:
                self.loop.call_soon_threadsafe(self.arrived.set)
            except RuntimeError:   # the loop has closed
                return False
            return True
        return False

    def _run(self) -> None:
        box: dict[str, Any] = {}

        def start_response(status, headers, exc_info=None):
            box["status"], box["headers"] = status, headers
            return lambda data: None

        result = None
        try:
            result = self.app(self.environ, start_response)
            iterator = iter(result)
            first = next(iterator, b"")
            if self._put(("head", box["status"], box["headers"])) and (not first or self._put(("chunk", first))):
                for chunk in iterator:
                    if self.stopped.is_set() or (chunk and not self._put(("chunk", chunk))):
                        break
        except Exception:
            log.exception("web stream failed")
            if "status" not in box:
                self._put(("head", "500 Internal Server Error", [("Content-Type", "text/plain")]))
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                try:
                    close()
                except Exception:
                    log.exception("closing a web stream failed")
            self._put(("end",))
            try:
                self.loop.call_soon_threadsafe(self.done.set)
            except RuntimeError:
                pass


def _call_app(app: WSGIApp, environ: dict) -> tuple[str, list[tuple[str, str]], bytes]:
    box: dict[str, Any] = {}

    def start_response(status, headers, exc_info=None):
        box["status"], box["headers"] = status, headers
        return lambda data: None

    try:
        result = app(environ, start_response)
        try:
            payload = b"".join(result)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
    except Exception:
        log.exception("web app failed")
        said = words.t("The table could not do that (an internal error, written to its log).",
                       _environ_language(environ))
        return ("500 Internal Server Error", [("Content-Type", "text/plain; charset=utf-8")],
                said.encode())
    return box["status"], box["headers"], payload


def _parse_head(head: bytes) -> tuple[str, str, str, dict[str, str]]:
    try:
        text = head.decode("latin-1")
        lines = text.split("\r\n")
        method, target, version = lines[0].split(" ")
    except ValueError:
        raise _Refused(400, N_("The request could not be read.")) from None
    if version not in ("HTTP/1.0", "HTTP/1.1") or not method.isalpha() or not target.startswith("/"):
        raise _Refused(400, N_("The request could not be read."))
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if not line:
            continue
        name, sep, value = line.partition(":")
        if not sep or not name or name != name.strip():
            raise _Refused(400, N_("The request could not be read."))
        key = name.lower()
        value = value.strip()
        headers[key] = f"{headers[key]}, {value}" if key in headers else value
    if len(headers) > 100:
        raise _Refused(431, N_("The request has too many headers."))
    return method, target, version, headers


def _environ(method, target, version, headers, body, peer, writer) -> dict:
    path, _, query = target.partition("?")
    sockname = writer.get_extra_info("sockname") or ("localhost", 0)
    environ = {
        "REQUEST_METHOD": method,
        "SCRIPT_NAME": "",
        "PATH_INFO": unquote_to_bytes(path).decode("latin-1"),
        "QUERY_STRING": query,
        "RAW_URI": target,
        "REQUEST_URI": target,
        "SERVER_NAME": str(sockname[0]),
        "SERVER_PORT": str(sockname[1]),
        "SERVER_PROTOCOL": version,
        "REMOTE_ADDR": str(peer[0]),
        "REMOTE_PORT": str(peer[1]),
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": False,
        "wsgi.run_once": False,
        "CONTENT_LENGTH": str(len(body)) if body or "content-length" in headers else "",
    }
    for key, value in headers.items():
        if key == "content-type":
            environ["CONTENT_TYPE"] = value
        elif key != "content-length":
            environ["HTTP_" + key.upper().replace("-", "_")] = value
    return environ


def _response_head(status: str, headers: list[tuple[str, str]], length: int | None, keep: bool) -> bytes:
    lines = [f"HTTP/1.1 {status}"]
    for name, value in headers:
        if name.lower() not in ("content-length", "connection", "transfer-encoding"):
            lines.append(f"{name}: {value}")
    if length is not None:
        lines.append(f"Content-Length: {length}")
    lines.append("Connection: keep-alive" if keep else "Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def _plain_response(refusal: _Refused, json_body: bool, lang: str | None = None) -> bytes:
    if json_body:   # a page's script picks its own language from "said" when none was known
        said = {one: refusal.said(one) for one in words.LANGUAGES}
        body = json.dumps({"error": refusal.in_words(lang) if lang else said["en"], "said": said}).encode()
        kind = "application/json"
    else:
        body = (refusal.in_words(lang) + "\n").encode()
        kind = "text/plain; charset=utf-8"
    headers = [("Content-Type", kind), ("Cache-Control", "no-store")]
    if refusal.retry_after is not None:
        headers.append(("Retry-After", str(refusal.retry_after)))
    status = f"{refusal.status} {REASONS.get(refusal.status, 'Error')}"
    return _response_head(status, headers, len(body), False) + body


def _family(host: str) -> socket.AddressFamily:
    return socket.AF_INET6 if ":" in host else socket.AF_INET


def _raise_file_limit(wanted: int) -> None:
    """Room for every connection the limits allow (the soft limit is often 1024)."""
    try:
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        target = wanted if hard == resource.RLIM_INFINITY else min(max(soft, wanted), hard)
        if soft < target:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ImportError, ValueError, OSError):
        pass
