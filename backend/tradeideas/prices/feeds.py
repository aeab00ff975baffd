"""Price-feed clients: Binance spot public market data and OANDA v20 candles, written from their public docs.

- Binance: `GET /api/v3/klines?symbol=BTCUSDT&interval=1m&startTime=<ms>&limit=1000` answers an array of arrays
  `[openTime, "open", "high", "low", "close", "volume", closeTime, ...]` (prices as strings, times in ms), oldest
  first, the last one still open. `GET /api/v3/exchangeInfo?symbol=X` checks a symbol. Errors are
  `{"code": -1121, "msg": "Invalid symbol."}` with a 4xx status; 429 (rate limit) and 418 (IP banned after
  ignoring 429s) carry `Retry-After` in seconds; 451 refuses the caller's location; 5xx are Binance's own.
- OANDA: `GET /v3/instruments/EUR_USD/candles?price=BA&granularity=M1&from=<unix>&count=5000` with
  `Authorization: Bearer <token>` and `Accept-Datetime-Format: UNIX` answers
  `{"instrument", "granularity", "candles": [{"time": "1700000040.000000000", "complete": true, "volume": 12,
  "bid": {"o", "h", "l", "c"}, "ask": {...}}]}`; errors are `{"errorMessage": "..."}` (400 for an unknown
  instrument, 401 for a bad token), 429 when rate limited.

A client raises `FeedUnavailable` for anything that is not a usable answer (the poller backs off and asks
again later, never settling on it) and `UnknownSymbol` only when the feed itself says the symbol does not exist.
"""

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, Literal

import httpx

from tradeideas.core.metrics import PRICE_FEED_REQUESTS
from tradeideas.prices.settlement import GRANULARITY_SECONDS, Candle, Prices

FeedName = Literal["binance", "oanda"]
BINANCE_LIMIT = 1000  # the most klines one request returns
OANDA_COUNT = 5000  # the most candles one request returns
BINANCE_INVALID_SYMBOL = -1121
# Without a Retry-After: how long to leave a feed alone after a ban (418) or a refusal of our location (451).
BAN_SECONDS = 120.0
RESTRICTED_SECONDS = 3600.0
TIMEOUT_SECONDS = 10.0


class FeedUnavailable(Exception):
    """No usable answer this time; `retry_after` (seconds) when the feed said how long to wait."""

    def __init__(self, result: str, detail: str, retry_after: float | None = None) -> None:
        super().__init__(detail)
        self.result = result
        self.retry_after = retry_after


class UnknownSymbol(Exception):
    """The feed says this symbol does not exist."""


@dataclass(frozen=True)
class Series:
    """What one feed calls a pair, and its candle granularities."""

    feed: FeedName
    symbol: str
    base: str  # "1m" / "M1"
    detail: str  # "1s" / "S5"


_SPLIT = re.compile(r"[^A-Z0-9]+")


def binance_symbol(pair: str) -> str | None:
    """'BTC/USDT' -> 'BTCUSDT'."""
    symbol = "".join(t for t in _SPLIT.split(pair.upper()) if t)
    return symbol or None


def oanda_instrument(pair: str) -> str | None:
    """'EUR/USD' -> 'EUR_USD', 'XAUUSD' -> 'XAU_USD'; None when the pair has no two parts."""
    tokens = [t for t in _SPLIT.split(pair.upper()) if t]
    if len(tokens) == 1 and len(tokens[0]) == 6 and tokens[0].isalpha():
        tokens = [tokens[0][:3], tokens[0][3:]]
    if len(tokens) != 2:
        return None
    return "_".join(tokens)


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("Retry-After")
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None


def _decimal(value: Any) -> Decimal:
    if not isinstance(value, str):
        raise ValueError("prices are strings")
    number = Decimal(value)
    if not number.is_finite() or number <= 0:
        raise ValueError("a price is a positive number")
    return number


def _prices(o: Any, h: Any, lo: Any, c: Any) -> Prices:
    prices = Prices(_decimal(o), _decimal(h), _decimal(lo), _decimal(c))
    if not (prices.low <= min(prices.open, prices.close) and max(prices.open, prices.close) <= prices.high):
        raise ValueError("a candle's low and high bound its open and close")
    return prices


class Feed:
    name: FeedName
    base: str
    detail: str

    def __init__(self, client: httpx.AsyncClient, base_url: str) -> None:
        self.client = client
        self.base_url = base_url.rstrip("/")

    def count(self, result: str) -> None:
        PRICE_FEED_REQUESTS.labels(self.name, result).inc()

    async def get(self, path: str, params: dict[str, Any], headers: dict[str, str] | None = None) -> Any:
        """The decoded JSON of a 200 answer; every other outcome is counted and raised."""
        try:
            response = await self.client.get(
                self.base_url + path, params=params, headers=headers, timeout=TIMEOUT_SECONDS
            )
        except httpx.TimeoutException as exc:
            self.count("timeout")
            raise FeedUnavailable("timeout", f"{self.name}: no answer in {TIMEOUT_SECONDS:.0f} s") from exc
        except httpx.HTTPError as exc:
            self.count("unreachable")
            raise FeedUnavailable("unreachable", f"{self.name}: {exc.__class__.__name__}") from exc
        status = response.status_code
        if status in (429, 418):
            result = "rate_limited" if status == 429 else "banned"
            self.count(result)
            wait = _retry_after(response) or (BAN_SECONDS if status == 418 else 60.0)
            raise FeedUnavailable(result, f"{self.name}: HTTP {status}, retry after {wait:.0f} s", wait)
        if status == 451:
            self.count("restricted")
            raise FeedUnavailable("restricted", f"{self.name}: HTTP 451 (location refused)", RESTRICTED_SECONDS)
        try:
            body = response.json()
        except ValueError as exc:
            self.count("malformed")
            raise FeedUnavailable("malformed", f"{self.name}: HTTP {status} with a body that is not JSON") from exc
        if status >= 400:
            self.check_unknown(status, body)
            self.count("error")
            raise FeedUnavailable("error", f"{self.name}: HTTP {status}")
        return body

    def check_unknown(self, status: int, body: Any) -> None:
        raise NotImplementedError

    async def check_symbol(self, symbol: str, now: float) -> None:
        """Returns when the feed knows `symbol`; raises UnknownSymbol or FeedUnavailable."""
        raise NotImplementedError

    async def candles(self, symbol: str, granularity: str, start: int, now: float) -> list[Candle]:
        """Candles opening at or after `start` (epoch seconds), oldest first, as many as one request gives."""
        raise NotImplementedError


class BinanceFeed(Feed):
    name: FeedName = "binance"
    base = "1m"
    detail = "1s"

    def check_unknown(self, status: int, body: Any) -> None:
        if isinstance(body, dict) and body.get("code") == BINANCE_INVALID_SYMBOL:
            self.count("invalid_symbol")
            raise UnknownSymbol(str(body.get("msg") or "Invalid symbol."))

    async def check_symbol(self, symbol: str, now: float) -> None:
        body = await self.get("/api/v3/exchangeInfo", {"symbol": symbol})
        symbols = body.get("symbols") if isinstance(body, dict) else None
        if not isinstance(symbols, list):
            self.count("malformed")
            raise FeedUnavailable("malformed", "binance: exchangeInfo without a symbols list")
        if not any(isinstance(s, dict) and s.get("symbol") == symbol for s in symbols):
            self.count("invalid_symbol")
            raise UnknownSymbol("Invalid symbol.")
        self.count("ok")

    async def candles(self, symbol: str, granularity: str, start: int, now: float) -> list[Candle]:
        step = GRANULARITY_SECONDS[granularity]
        start -= start % step  # klines open at or after startTime: ask from the start of the interval
        params = {"symbol": symbol, "interval": granularity, "startTime": start * 1000, "limit": BINANCE_LIMIT}
        body = await self.get("/api/v3/klines", params)
        try:
            if not isinstance(body, list):
                raise ValueError("klines are an array")
            out = []
            for row in body:
                if not isinstance(row, list) or len(row) < 7:
                    raise ValueError("a kline is an array of at least 7 values")
                open_ms, close_ms = int(row[0]), int(row[6])
                out.append(Candle(open_ms // 1000, granularity, _prices(*row[1:5]), complete=close_ms < now * 1000))
        except (ValueError, TypeError, InvalidOperation) as exc:
            self.count("malformed")
            raise FeedUnavailable("malformed", f"binance: klines not as documented ({exc})") from exc
        self.count("ok")
        return out


class OandaFeed(Feed):
    name: FeedName = "oanda"
    base = "M1"
    detail = "S5"

    def __init__(self, client: httpx.AsyncClient, base_url: str, token: str) -> None:
        super().__init__(client, base_url)
        self.headers = {"Authorization": f"Bearer {token}", "Accept-Datetime-Format": "UNIX"}

    def check_unknown(self, status: int, body: Any) -> None:
        message = body.get("errorMessage") if isinstance(body, dict) else None
        if status in (400, 404) and isinstance(message, str) and "instrument" in message.lower():
            self.count("invalid_symbol")
            raise UnknownSymbol(message)

    async def check_symbol(self, symbol: str, now: float) -> None:
        await self.candles(symbol, self.base, int(now) - 3600, now, count=1)

    async def candles(
        self, symbol: str, granularity: str, start: int, now: float, count: int = OANDA_COUNT
    ) -> list[Candle]:
        params = {"price": "BA", "granularity": granularity, "from": str(start), "count": count}
        body = await self.get(f"/v3/instruments/{symbol}/candles", params, self.headers)
        try:
            rows = body.get("candles") if isinstance(body, dict) else None
            if not isinstance(rows, list):
                raise ValueError("candles is a list")
            out = []
            for row in rows:
                bid, ask = row["bid"], row["ask"]
                out.append(
                    Candle(
                        int(Decimal(row["time"])),
                        granularity,
                        _prices(bid["o"], bid["h"], bid["l"], bid["c"]),
                        _prices(ask["o"], ask["h"], ask["l"], ask["c"]),
                        complete=bool(row["complete"]),
                    )
                )
        except (ValueError, TypeError, KeyError, InvalidOperation) as exc:
            self.count("malformed")
            raise FeedUnavailable("malformed", f"oanda: candles not as documented ({exc})") from exc
        self.count("ok")
        return out
