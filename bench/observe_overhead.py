"""Benchmark: CPU cost of `AppEdge` (request id, metrics, X-Request-ID and security headers) per request, in-process.

The end-to-end figure of `request_path.py` moves by more than this on a shared machine, so the layer is also
measured alone: the same ASGI call of a route-matched request (scope with a route, a 200 answer in one body
message) with and without the middleware, many times, best of several rounds. Metrics in memory (one
worker) and, with --multiprocess, in memory-mapped files (several workers).

Run from backend/:  uv run python ../bench/observe_overhead.py [--multiprocess] [--requests 200000]
"""

import argparse
import asyncio
import logging
import os
import tempfile
import time

from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class _Route:
    path_format = "/api/trade-ideas"


async def _app(scope: Scope, receive: Receive, send: Send) -> None:
    scope["route"] = _Route  # what the router does on a match
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": b"{}"})


async def _send(_message: Message) -> None:
    return None


async def _receive() -> Message:
    return {"type": "http.request", "body": b""}


def _scope() -> Scope:
    headers = [(b"host", b"127.0.0.1:8000"), (b"authorization", b"Bearer x" * 4), (b"accept-encoding", b"gzip")]
    return {"type": "http", "method": "GET", "path": "/api/trade-ideas", "headers": headers, "client": ("1.2.3.4", 5)}


async def _rounds(app: ASGIApp, requests: int, rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        started = time.process_time()
        for _ in range(requests):
            await app(_scope(), _receive, _send)
        best = min(best, (time.process_time() - started) / requests)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--multiprocess", action="store_true", help="metrics in files, as with several workers")
    args = parser.parse_args()
    if args.multiprocess:  # before prometheus_client is imported
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="bench-metrics-")
    from tradeideas.core.middleware import AppEdge
    from tradeideas.core.proxies import TrustedProxies

    async def on_error(_request: Request, _exc: Exception) -> Response:
        raise AssertionError("the measured app does not fail")

    observed = AppEdge(
        _app, on_error=on_error, access_log=logging.getLogger("tradeideas.access"), trusted_proxies=TrustedProxies()
    )
    bare = asyncio.run(_rounds(_app, args.requests, args.rounds))
    wrapped = asyncio.run(_rounds(observed, args.requests, args.rounds))
    mode = "multiprocess (files)" if args.multiprocess else "one process (memory)"
    print(f"metrics {mode}: bare {bare * 1e6:.2f} µs, with AppEdge {wrapped * 1e6:.2f} µs")
    print(f"overhead per request: {(wrapped - bare) * 1e6:.2f} µs CPU")


if __name__ == "__main__":
    main()
