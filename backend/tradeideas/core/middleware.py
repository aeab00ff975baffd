"""Pure-ASGI middleware: request ids, metrics and access lines, security headers, CSRF origin check, request body
limits, JSON compression.

Pure ASGI (not BaseHTTPMiddleware) so that streamed responses such as Server-Sent Events pass
through untouched.
"""

import gzip
import json
import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from urllib.parse import urlsplit

from cachetools import LRUCache
from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tradeideas.core.errors import ErrorAnswer
from tradeideas.core.logs import REQUEST_ID, accepted_request_id, new_request_id
from tradeideas.core.metrics import UNMATCHED_ROUTE, RequestMetrics
from tradeideas.core.proxies import TrustedProxies

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        # Voice notes are our own files; blob: replays a recording before it is uploaded.
        "media-src 'self' blob:",
        # Only the two video players the idea card embeds.
        "frame-src https://www.youtube-nocookie.com https://player.vimeo.com",
        "font-src 'self' data:",
        "connect-src 'self'",
        "manifest-src 'self'",
        "worker-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"strict-origin-when-cross-origin"),
    (b"x-frame-options", b"DENY"),
    (b"permissions-policy", b"camera=(), microphone=(self), geolocation=()"),
    (b"cross-origin-opener-policy", b"same-origin"),
]

# API answers depend on who asks (and the login answer carries the session token): no cache, shared or
# private, may keep them. A route that is the same for everyone may set its own Cache-Control.
API_HEADERS = [*SECURITY_HEADERS, (b"cache-control", b"no-store")]
ADDED_NAMES = frozenset(name for name, _ in API_HEADERS)

UNSAFE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}
# The request headers the checks below read (ASGI servers pass names in lower case); the rest are not decoded.
CHECKED_HEADERS = frozenset((b"content-type", b"content-length", b"origin", b"sec-fetch-site", b"host"))


async def _send_error(send: Send, status: int, message: str, code: str) -> None:
    body = json.dumps({"message": message, "code": code}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class SecurityMiddleware:
    """Refuses cross-site unsafe requests (CSRF) and bodies over the limits before any route reads them. The
    security headers are added by `AppEdge`, outermost, so that even the answer to an unexpected error carries
    them."""

    def __init__(self, app: ASGIApp, *, max_body_bytes: int, max_json_body_bytes: int) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.max_json_body_bytes = max_json_body_bytes

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        # A plain function that hands back the next app's coroutine: no frame of ours stays on the stack
        # (and no headers dict in memory) for the life of a long request such as an event stream.
        if scope["type"] != "http":
            return self.app(scope, receive, send)
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"] if k in CHECKED_HEADERS}
        if scope["method"] in UNSAFE_METHODS and not _same_origin(headers):
            return _send_error(send, 403, "Cross-site request blocked", "csrf")
        limit = (
            self.max_body_bytes
            if headers.get("content-type", "").startswith("multipart/")
            else self.max_json_body_bytes
        )
        declared = headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            return _send_error(send, 413, "Request body too large", "payload_too_large")
        if declared is None and scope["method"] in UNSAFE_METHODS:
            return self._with_buffered_body(scope, receive, send, limit)
        return self.app(scope, receive, send)

    async def _with_buffered_body(self, scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        """Chunked upload without a length: read it here, within the limit, then replay it."""
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await _send_error(send, 413, "Request body too large", "payload_too_large")
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        buffered: list[Message] = [{"type": "http.request", "body": b"".join(chunks), "more_body": False}]

        async def replay() -> Message:
            return buffered.pop() if buffered else await receive()

        await self.app(scope, replay, send)


def _headers_for(scope: Scope) -> list[tuple[bytes, bytes]]:
    path: str = scope["path"]
    return API_HEADERS if path.startswith("/api/") or path == "/api" else SECURITY_HEADERS


def with_security_headers(own: Iterable[tuple[bytes, bytes]], scope: Scope) -> list[tuple[bytes, bytes]]:
    """A response's headers and the security headers it does not set itself (a file may set its own
    Cache-Control, say)."""
    headers = list(own)
    added = _headers_for(scope)
    names = {name.lower() for name, _ in headers}
    headers += added if names.isdisjoint(ADDED_NAMES) else [h for h in added if h[0] not in names]
    return headers


def _same_origin(headers: dict[str, str]) -> bool:
    """Browsers send Origin on unsafe requests; it must name this host. Non-browser clients send none."""
    origin = headers.get("origin")
    if origin is None:
        # Without Origin, fall back to Fetch Metadata where the browser provides it.
        return headers.get("sec-fetch-site", "same-origin") in ("same-origin", "none")
    if origin == "null":
        return False
    host = headers.get("host", "")
    return urlsplit(origin).netloc.lower() == host.lower()


# JSON answers at least this large are gzipped (smaller ones gain nothing worth the CPU).
COMPRESS_MIN_BYTES = 1024
EVENTS_PATH = "/api/events"
# Recently compressed answers, by content: the busiest answers (a customer's cached page of ideas) are the
# very same bytes again and again, and gzipping 60 KB costs about a millisecond each time.
COMPRESSED_ENTRIES = 256
GZIP_LEVEL = 6


class CompressJSON:
    """Gzips API answers of 1 KB and more for clients that accept it, remembering recent results; the
    event stream and the SPA's files (precompressed at build time) pass untouched, without an extra frame.

    API answers are sent in one piece; one that streams its body (or already names an encoding) is passed
    through as it is.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._compressed: LRUCache[tuple[int, int], tuple[bytes, bytes]] = LRUCache(COMPRESSED_ENTRIES)

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        path: str = scope["path"] if scope["type"] == "http" else ""
        if path.startswith("/api/") and path != EVENTS_PATH and _accepts_gzip(scope):
            return self.app(scope, receive, self._compressing(send))
        return self.app(scope, receive, send)

    def _compressing(self, send: Send) -> Send:
        start: Message | None = None

        async def send_compressed(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                start = message  # held until the body shows whether it is worth compressing
                return
            if start is None:
                await send(message)
                return
            held, start = start, None
            body: bytes = message.get("body", b"")
            headers = MutableHeaders(raw=list(held.get("headers", [])))
            if message.get("more_body") or len(body) < COMPRESS_MIN_BYTES or "content-encoding" in headers:
                await send(held)
                await send(message)
                return
            compressed = self._gzip(body)
            headers["content-encoding"] = "gzip"
            headers["content-length"] = str(len(compressed))
            headers.add_vary_header("Accept-Encoding")
            await send({**held, "headers": headers.raw})
            await send({"type": "http.response.body", "body": compressed})

        return send_compressed

    def _gzip(self, body: bytes) -> bytes:
        key = (hash(body), len(body))  # a bytes object computes its hash once and keeps it
        found = self._compressed.get(key)
        if found is not None and (found[0] is body or found[0] == body):
            return found[1]
        compressed = gzip.compress(body, GZIP_LEVEL, mtime=0)
        self._compressed[key] = (body, compressed)
        return compressed


def raw_header(scope: Scope, name: bytes) -> bytes | None:
    """The first value of a request header (`name` in lower case, as ASGI servers pass names), read without
    building a `Headers` object: the busiest requests each read one or two."""
    for key, value in scope["headers"]:
        if key == name:
            found: bytes = value
            return found
    return None


def _accepts_gzip(scope: Scope) -> bool:
    return b"gzip" in (raw_header(scope, b"accept-encoding") or b"")


STREAM_POSITION_HEADER = b"x-stream-position"

# Where `create_app`'s app keeps the server's own `send` in each request's scope (decision 0111).
SERVER_SEND = "tradeideas.server_send"


def server_send(scope: Scope, send: Send) -> Send:
    """The ASGI server's own `send` for a response that has started: what each layer wraps `send` for (the status,
    the headers, whether an answer started) is settled by the start message, so a long stream's later frames may
    skip the wrappers. `send` itself when the app was not called by a server (a test's transport may not keep
    the scope)."""
    direct: Send = scope.get(SERVER_SEND, send)
    return direct


class _EdgeSend:
    """`AppEdge`'s `send` for one request: adds the security headers and the edge's own to the start and notes its
    status. One small object rather than a closure and its cells, and the headers dropped once sent: an event stream
    keeps it for as long as its client stays."""

    __slots__ = ("own_headers", "scope", "send", "status")

    def __init__(self, scope: Scope, send: Send, own_headers: tuple[tuple[bytes, bytes], ...]) -> None:
        self.scope = scope
        self.send = send
        self.own_headers = own_headers
        self.status = 0  # until the app answers

    async def __call__(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.status = message["status"]
            headers = with_security_headers(message.get("headers", ()), self.scope)
            headers += self.own_headers
            self.own_headers = ()
            message["headers"] = headers
        await self.send(message)


class AppEdge:
    """The app's outermost middleware (added last in `create_app`), around everything else the app adds:

    - gives each request an id, sends it back in `X-Request-ID` and tags the request's log lines with it; an
      incoming X-Request-ID (when safe) is reused only from a trusted proxy (`FORWARDED_ALLOW_IPS`), judged by
      the peer itself: uvicorn's `ProxyHeadersMiddleware`, further in, puts the forwarded client in its place;
    - adds the security headers to every answer;
    - answers an error no handler took with the app's 500 handler, then raises it again: Starlette's
      `ServerErrorMiddleware`, outside it, sees the answer started and leaves it to the server to log;
    - counts the request and its duration by route template, and writes the access line when access logging is
      on;
    - tells, in `X-Stream-Position`, how far along the event stream this process was when an API request came in
      (`stream_position`): the client's first event stream starts from the earliest such position of the data it
      shows, so a change made before the stream opened is not missed.

    So even an unexpected error's answer carries the id and the security headers, and is counted.
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        on_error: ErrorAnswer,
        access_log: logging.Logger,
        trusted_proxies: TrustedProxies,
        stream_position: Callable[[], int] | None = None,
    ) -> None:
        self.app = app
        self.on_error = on_error
        self.access_log = access_log
        self.trusted_proxies = trusted_proxies
        self.stream_position = stream_position
        self.metrics = RequestMetrics()

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        if scope["type"] != "http":
            return self.app(scope, receive, send)
        return self._serve(scope, receive, send)

    async def _serve(self, scope: Scope, receive: Receive, send: Send) -> None:
        incoming = raw_header(scope, b"x-request-id")
        if incoming is not None and not self._from_trusted_proxy(scope):
            incoming = None  # anyone could name a request id: only our own proxy's correlation id is kept
        request_id = (incoming and accepted_request_id(incoming)) or new_request_id()
        # Straight into the `send` that drops them once sent (no local keeps them while an event stream stays open).
        answer = _EdgeSend(scope, send, self._own_headers(scope, request_id))
        context = REQUEST_ID.set(request_id)
        started = time.perf_counter()
        try:
            await self.app(scope, receive, answer)
        except Exception as exc:
            if not answer.status:
                await (await self.on_error(Request(scope), exc))(scope, receive, answer)
            raise
        finally:
            seconds = time.perf_counter() - started
            route = getattr(scope.get("route"), "path_format", None) or UNMATCHED_ROUTE
            status = answer.status or 500  # nothing answered: the server answers 500 when the exception reaches it
            self.metrics.observe(scope["method"], route, status, None if route == EVENTS_PATH else seconds)
            if self.access_log.isEnabledFor(logging.INFO):
                self._log_access(scope, route, status, seconds)
            REQUEST_ID.reset(context)

    def _own_headers(self, scope: Scope, request_id: str) -> tuple[tuple[bytes, bytes], ...]:
        if self.stream_position is not None and scope["path"].startswith("/api/"):
            # Read before the app reads anything: the answer shows every change up to this position, maybe more.
            position = b"%d" % self.stream_position()
            return (b"x-request-id", request_id.encode()), (STREAM_POSITION_HEADER, position)
        return ((b"x-request-id", request_id.encode()),)

    def _from_trusted_proxy(self, scope: Scope) -> bool:
        client = scope.get("client")
        return client is not None and client[0] in self.trusted_proxies

    def _log_access(self, scope: Scope, route: str, status: int, seconds: float) -> None:
        # Invitation and reset links carry their secret in the path: such paths are logged as their template.
        path = route if "{token}" in route else scope["path"]
        method = scope["method"]
        duration_ms = round(seconds * 1000, 2)
        self.access_log.info(
            "%s %s %d %.2f ms",
            method,
            path,
            status,
            duration_ms,
            extra={"method": method, "path": path, "status": status, "duration_ms": duration_ms},
        )
