"""Binance spot public market data: one-minute klines and one-second ones for the minutes that need ordering."""

from typing import Any

from tradeideas.prices.feeds.base import Feed, FeedName, FeedUnavailable, UnknownSymbol
from tradeideas.prices.feeds.checks import (
    PAIR_SEPARATORS,
    WINDOW_SLACK_SECONDS,
    Answer,
    BadTime,
    depth_within,
    parse_prices,
    screen,
)
from tradeideas.prices.progress import GRANULARITY_SECONDS, Candle

BINANCE_LIMIT = 1000  # the most klines one request returns
BINANCE_INVALID_SYMBOL = -1121
# The deepest nesting each documented answer has: an array of klines; an object of candles of price objects.
BINANCE_DEPTH = 2


def binance_symbol(pair: str) -> str | None:
    """'BTC/USDT' -> 'BTCUSDT'."""
    symbol = "".join(t for t in PAIR_SEPARATORS.split(pair.upper()) if t)
    return symbol or None


def _binance_time(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadTime(f"a kline time is an integer of milliseconds, not {str(value)[:40]!r}")
    return value // 1000


class BinanceFeed(Feed):
    name: FeedName = "binance"
    label = "Binance"
    base = "1m"
    detail = "1s"

    def check_unknown(self, status: int, body: Any) -> None:
        if isinstance(body, dict) and body.get("code") == BINANCE_INVALID_SYMBOL:
            self.count("invalid_symbol")
            raise UnknownSymbol(str(body.get("msg") or "Invalid symbol.")[:200])

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

    async def candles(self, symbol: str, granularity: str, start: int, now: float, end: int | None = None) -> Answer:
        step = GRANULARITY_SECONDS[granularity]
        start -= start % step  # klines open at or after startTime: ask from the start of the interval
        params = {"symbol": symbol, "interval": granularity, "startTime": start * 1000, "limit": BINANCE_LIMIT}
        body = await self.get("/api/v3/klines", params)

        def build(row: Any) -> Candle:
            open_ms, close_ms = row[0], row[6]
            if isinstance(close_ms, bool) or not isinstance(close_ms, int):
                raise BadTime("a kline's close time is an integer of milliseconds")
            return Candle(_binance_time(open_ms), granularity, parse_prices(*row[1:5]), complete=close_ms < now * 1000)

        def work() -> Answer:
            if not isinstance(body, list) or len(body) > BINANCE_LIMIT or not depth_within(body, BINANCE_DEPTH):
                raise ValueError("klines are an array of at most 1000 arrays of values")
            if not all(isinstance(row, list) and len(row) >= 7 for row in body):
                raise ValueError("a kline is an array of at least 7 values")
            return screen(body, build, start - WINDOW_SLACK_SECONDS, now)

        answer = await self.decode(work)
        self.count("ok")
        return answer
