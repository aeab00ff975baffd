"""A local HTTP server that answers as Binance spot and OANDA v20 do (shapes from their public documentation).

Prices are set per symbol and granularity; `fail_next` makes the next answers errors (429 with Retry-After, 451,
500, a body that is not JSON), `down` makes it refuse everything, as a feed that is unreachable would.
"""

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

INTERVAL_SECONDS = {"1m": 60, "1s": 1, "M1": 60, "S5": 5}


@dataclass
class Bar:
    time: int  # epoch seconds
    open: str
    high: str
    low: str
    close: str
    ask: tuple[str, str, str, str] | None = None  # forex: the ask's o/h/l/c (bid is open/high/low/close)


@dataclass
class FeedState:
    bars: dict[tuple[str, str], list[Bar]] = field(default_factory=dict)
    failures: list[tuple[int, dict[str, str], bytes]] = field(default_factory=list)
    requests: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    down: bool = False
    now: float = 0.0  # the feed's clock: the bar containing it is the open one
    lock: threading.Lock = field(default_factory=threading.Lock)

    def put(self, symbol: str, interval: str, bars: list[Bar]) -> None:
        with self.lock:
            merged = {b.time: b for b in self.bars.get((symbol, interval), [])}
            merged.update({b.time: b for b in bars})
            self.bars[(symbol, interval)] = sorted(merged.values(), key=lambda b: b.time)

    def fail_next(
        self, status: int, body: Any = None, headers: dict[str, str] | None = None, raw: bytes | None = None
    ) -> None:
        payload = raw if raw is not None else json.dumps(body if body is not None else {}).encode()
        with self.lock:
            self.failures.append((status, headers or {}, payload))


def _binance(state: FeedState, path: str, query: dict[str, str]) -> tuple[int, Any]:
    symbol = query.get("symbol", "")
    known = {s for s, _ in state.bars}
    if path == "/api/v3/exchangeInfo":
        if symbol not in known:
            return 400, {"code": -1121, "msg": "Invalid symbol."}
        return 200, {
            "timezone": "UTC",
            "serverTime": int(state.now * 1000),
            "rateLimits": [],
            "exchangeFilters": [],
            "symbols": [{"symbol": symbol, "status": "TRADING", "baseAsset": symbol[:3], "quoteAsset": symbol[3:]}],
        }
    if path == "/api/v3/klines":
        if symbol not in known:
            return 400, {"code": -1121, "msg": "Invalid symbol."}
        interval = query.get("interval", "1m")
        step = INTERVAL_SECONDS[interval]
        start = int(query.get("startTime", "0")) // 1000
        limit = min(int(query.get("limit", "500")), 1000)
        rows = []
        for b in state.bars.get((symbol, interval), []):
            if b.time < start or b.time > state.now:
                continue
            close_ms = (b.time + step) * 1000 - 1
            rows.append(
                [b.time * 1000, b.open, b.high, b.low, b.close, "1.00000000", close_ms, "100.0", 10, "0.5", "50.0", "0"]
            )
            if len(rows) == limit:
                break
        return 200, rows
    return 404, {"code": -1000, "msg": "Unknown path."}


def _oanda(state: FeedState, path: str, query: dict[str, str], auth: str | None) -> tuple[int, Any]:
    if not auth or not auth.startswith("Bearer "):
        return 401, {"errorMessage": "Insufficient authorization to perform request."}
    parts = path.split("/")  # /v3/instruments/EUR_USD/candles
    if len(parts) != 5 or parts[4] != "candles":
        return 404, {"errorMessage": "Not found"}
    instrument = parts[3]
    if instrument not in {s for s, _ in state.bars}:
        return 400, {"errorMessage": "Invalid value specified for 'instrument'"}
    granularity = query.get("granularity", "S5")
    step = INTERVAL_SECONDS[granularity]
    start = float(query.get("from", "0"))
    count = int(query.get("count", "500"))
    candles = []
    for b in state.bars.get((instrument, granularity), []):
        if b.time < start or b.time > state.now:
            continue
        ask = b.ask or (b.open, b.high, b.low, b.close)
        candles.append(
            {
                "complete": b.time + step <= state.now,
                "volume": 10,
                "time": f"{b.time}.000000000",
                "bid": {"o": b.open, "h": b.high, "l": b.low, "c": b.close},
                "ask": {"o": ask[0], "h": ask[1], "l": ask[2], "c": ask[3]},
            }
        )
        if len(candles) == count:
            break
    return 200, {"instrument": instrument, "granularity": granularity, "candles": candles}


def _handler(state: FeedState) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # connections are kept alive, as Binance's and OANDA's are

        def log_message(self, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            """Programming from another process (the benchmark): /_fake/bars {symbol, interval, bars: [[time, o,
            h, l, c], ...]} and /_fake/now {now}."""
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
            if self.path == "/_fake/bars":
                state.put(
                    body["symbol"],
                    body["interval"],
                    [Bar(int(b[0]), str(b[1]), str(b[2]), str(b[3]), str(b[4])) for b in body["bars"]],
                )
            elif self.path == "/_fake/now":
                state.now = float(body["now"])
            self._send(204 if self.path.startswith("/_fake/") else 404, b"", {})

        def do_GET(self) -> None:
            if state.down:  # an unreachable feed: the connection closes without an answer
                self.close_connection = True
                return
            url = urlsplit(self.path)
            query = {k: v[0] for k, v in parse_qs(url.query).items()}
            with state.lock:
                state.requests.append((url.path, query))
                failure = state.failures.pop(0) if state.failures else None
            if failure is not None:
                status, headers, payload = failure
                self._send(status, payload, headers)
                return
            if url.path.startswith("/v3/"):
                status, body = _oanda(state, url.path, query, self.headers.get("Authorization"))
            else:
                status, body = _binance(state, url.path, query)
            extra = {"X-MBX-USED-WEIGHT-1M": str(len(state.requests))} if not url.path.startswith("/v3/") else {}
            self._send(status, json.dumps(body).encode(), extra)

        def _send(self, status: int, payload: bytes, headers: dict[str, str]) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(payload)

    return Handler


@contextmanager
def fake_feed(state: FeedState | None = None) -> Iterator[tuple[str, FeedState]]:
    """Serves on an ephemeral loopback port; yields its base URL and the state the test programs."""
    state = state or FeedState()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", state
    finally:
        server.shutdown()
        server.server_close()


if __name__ == "__main__":  # a feed in its own process: python -m tests.prices.fakefeed PORT
    import sys

    served = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), _handler(FeedState()))
    served.serve_forever()
