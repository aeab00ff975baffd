"""A local HTTP server that answers as Binance spot, OANDA v20 and Dukascopy's tick files do (shapes from their
public documentation).

Prices are set per symbol and granularity (`put`), Dukascopy ticks per instrument and hour (`put_ticks`, published
once the hour has ended on the feed's clock unless held back with `late`); `fail_next` makes the next answers errors
(429 with Retry-After, 451, 500, a body that is not JSON), `hostile_next` makes the next answer one of the attacks a
feed could send (`huge`: an endless body; `slow`: a byte every half second; `reset`: the connection cut mid-body),
and `down` makes it refuse everything, as a feed that is unreachable would.
"""

import json
import lzma
import struct
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
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
    # Dukascopy: (instrument, hour start) -> ticks (ms into the hour, ask points, bid points); None: an empty file
    ticks: dict[tuple[str, int], list[tuple[int, int, int]] | None] = field(default_factory=dict)
    late: set[tuple[str, int]] = field(default_factory=set)  # hours whose file has not appeared yet
    hostile: list[str] = field(default_factory=list)
    request_times: list[tuple[float, str]] = field(default_factory=list)  # (monotonic, symbol) of every GET
    sent_bytes: int = 0  # body bytes written by the last hostile answer before the client hung up
    # symbol -> what every request for it gets until removed: a hostile kind, or (status, headers, raw body)
    answer_for: dict[str, str | tuple[int, dict[str, str], bytes]] = field(default_factory=dict)

    def put_ticks(self, instrument: str, hour: int, ticks: list[tuple[int, int, int]] | None) -> None:
        with self.lock:
            self.ticks[(instrument, hour)] = ticks

    def hostile_next(self, kind: str) -> None:
        with self.lock:
            self.hostile.append(kind)

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


def bi5(ticks: list[tuple[int, int, int]] | None) -> bytes:
    """An hour file as Dukascopy serves it: LZMA ("alone") over 20-byte big-endian ticks; empty for no ticks."""
    if not ticks:
        return b""
    record = struct.Struct(">IIIff")
    raw = b"".join(record.pack(ms, ask, bid, 1.5, 2.25) for ms, ask, bid in ticks)
    return lzma.compress(raw, format=lzma.FORMAT_ALONE)


def _dukascopy(state: FeedState, path: str) -> tuple[int, bytes]:
    """`/EURUSD/2026/10/27/14h_ticks.bi5`, month counted from 00."""
    parts = path.strip("/").split("/")
    if len(parts) != 5 or not parts[4].endswith("h_ticks.bi5"):
        return 404, b""
    instrument, year, month, day, name = parts
    hour = int(datetime(int(year), int(month) + 1, int(day), int(name[:2]), tzinfo=UTC).timestamp())
    key = (instrument, hour)
    if key in state.late or hour + 3600 > state.now:
        return 404, b""
    return 200, bi5(state.ticks.get(key))  # an hour with no ticks put is an empty file, as on a weekend


def _handler(state: FeedState) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # connections are kept alive, as Binance's and OANDA's are

        def log_message(self, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            """Programming from another process (the benchmarks): /_fake/bars {symbol, interval, bars: [[time, o,
            h, l, c], ...]}, /_fake/now {now} and /_fake/answer (what every request for a symbol gets)."""
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
            if self.path == "/_fake/bars":
                state.put(
                    body["symbol"],
                    body["interval"],
                    [Bar(int(b[0]), str(b[1]), str(b[2]), str(b[3]), str(b[4])) for b in body["bars"]],
                )
            elif self.path == "/_fake/now":
                state.now = float(body["now"])
            elif self.path == "/_fake/answer":  # {symbol, hostile} or {symbol, status, body}; {symbol} clears
                with state.lock:
                    if "hostile" in body:
                        state.answer_for[body["symbol"]] = str(body["hostile"])
                    elif "status" in body:
                        raw = body["body"].encode()
                        state.answer_for[body["symbol"]] = (int(body["status"]), {}, raw)
                    else:
                        state.answer_for.pop(body["symbol"], None)
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
                hostile = state.hostile.pop(0) if state.hostile and failure is None else None
                parts = url.path.strip("/").split("/")
                symbol = query.get("symbol") or (parts[2] if url.path.startswith("/v3/") else parts[0])
                state.request_times.append((time.monotonic(), symbol))
                fixed = state.answer_for.get(symbol) if not url.path.endswith("exchangeInfo") else None
            if isinstance(fixed, str):
                hostile = fixed
            elif fixed is not None:
                failure = fixed
            if hostile is not None:
                self._hostile(hostile)
                return
            if url.path.endswith(".bi5"):
                status, payload = _dukascopy(state, url.path)
                self._send(status, payload, {"Content-Type": "application/octet-stream"})
                return
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

        def _hostile(self, kind: str) -> None:
            """An answer that never ends (`huge`, no length), trickles (`slow`) or is cut mid-body (`reset`)."""
            self.close_connection = True
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            if kind == "reset":
                self.send_header("Content-Length", "1000")
            self.end_headers()
            state.sent_bytes = 0
            chunk = b"[" + b"0," * 32767
            try:
                if kind == "huge":  # 80 MB, unless the client hangs up first
                    while state.sent_bytes < 80_000_000:
                        self.wfile.write(chunk)
                        state.sent_bytes += len(chunk)
                elif kind == "slow":
                    for _ in range(60):
                        self.wfile.write(b" ")
                        self.wfile.flush()
                        time.sleep(0.5)
                elif kind == "reset":
                    self.wfile.write(b'[[1700000040000, "1.0"')
            except (BrokenPipeError, ConnectionResetError):
                pass

        def _send(self, status: int, payload: bytes, headers: dict[str, str]) -> None:
            self.send_response(status)
            if "Content-Type" not in headers:
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
