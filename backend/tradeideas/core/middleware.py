"""Pure-ASGI middleware: security headers, CSRF origin check and request body limits.

Pure ASGI (not BaseHTTPMiddleware) so that streamed responses such as Server-Sent Events pass
through untouched.
"""

import json
from collections.abc import Awaitable
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "media-src 'self' blob: https:",
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
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
    (b"cross-origin-opener-policy", b"same-origin"),
]

UNSAFE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


async def _send_error(send: Send, status: int, message: str, code: str) -> None:
    body = json.dumps({"message": message, "code": code}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *SECURITY_HEADERS,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class SecurityMiddleware:
    def __init__(self, app: ASGIApp, *, max_body_bytes: int, max_json_body_bytes: int) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.max_json_body_bytes = max_json_body_bytes

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        # A plain function that hands back the next app's coroutine: no frame of ours stays on the stack
        # (and no headers dict in memory) for the life of a long request such as an event stream.
        if scope["type"] != "http":
            return self.app(scope, receive, send)
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
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
        return self.app(scope, receive, _with_security_headers(send))

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

        await self.app(scope, replay, _with_security_headers(send))


def _with_security_headers(send: Send) -> Send:
    async def send_with_headers(message: Message) -> None:
        if message["type"] == "http.response.start":
            existing = {k.lower() for k, _ in message.get("headers", [])}
            message["headers"] = list(message.get("headers", [])) + [
                h for h in SECURITY_HEADERS if h[0] not in existing
            ]
        await send(message)

    return send_with_headers


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
