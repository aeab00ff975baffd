"""OANDA v20 candles: bid and ask, one minute and five seconds for the minutes that need ordering."""

from decimal import Decimal, InvalidOperation
from typing import Any

import aiohttp

from tradeideas.prices.feeds.base import DEFAULT_MAX_BYTES, DEFAULT_MAX_WAIT, Feed, FeedName, UnknownSymbol
from tradeideas.prices.feeds.checks import (
    WINDOW_SLACK_SECONDS,
    Answer,
    BadTime,
    depth_within,
    pair_tokens,
    parse_prices,
    screen,
)
from tradeideas.prices.progress import Candle

OANDA_COUNT = 5000  # the most candles one request returns
# The deepest nesting each documented answer has: an array of klines; an object of candles of price objects.
OANDA_DEPTH = 4


def oanda_instrument(pair: str) -> str | None:
    """'EUR/USD' -> 'EUR_USD', 'XAUUSD' -> 'XAU_USD'; None when the pair has no two parts."""
    tokens = pair_tokens(pair)
    if len(tokens) != 2:
        return None
    return "_".join(tokens)


def _oanda_time(value: Any) -> int:
    if not isinstance(value, str) or len(value) > 32:
        raise BadTime("a candle time is a short string of Unix seconds")
    try:
        number = Decimal(value)
    except InvalidOperation as exc:
        raise BadTime(f"a candle time is Unix seconds, not {value[:40]!r}") from exc
    if not number.is_finite() or abs(number) > 10**12:
        raise BadTime(f"a candle time out of range: {value[:40]!r}")
    return int(number)


class OandaFeed(Feed):
    name: FeedName = "oanda"
    label = "OANDA"
    base = "M1"
    detail = "S5"

    def __init__(
        self,
        client: aiohttp.ClientSession,
        base_url: str,
        token: str,
        max_bytes: int = DEFAULT_MAX_BYTES,
        max_wait: float = DEFAULT_MAX_WAIT,
    ) -> None:
        super().__init__(client, base_url, max_bytes, max_wait)
        self.headers = {"Authorization": f"Bearer {token}", "Accept-Datetime-Format": "UNIX"}

    def check_unknown(self, status: int, body: Any) -> None:
        message = body.get("errorMessage") if isinstance(body, dict) else None
        if status in (400, 404) and isinstance(message, str) and "instrument" in message.lower():
            self.count("invalid_symbol")
            raise UnknownSymbol(message[:200])

    async def check_symbol(self, symbol: str, now: float) -> None:
        await self.candles(symbol, self.base, int(now) - 3600, now, count=1)

    async def candles(
        self, symbol: str, granularity: str, start: int, now: float, end: int | None = None, count: int = OANDA_COUNT
    ) -> Answer:
        params = {"price": "BA", "granularity": granularity, "from": str(start), "count": count}
        body = await self.get(f"/v3/instruments/{symbol}/candles", params, self.headers)

        def build(row: Any) -> Candle:
            bid, ask = row["bid"], row["ask"]
            complete = row["complete"]
            if not isinstance(complete, bool):
                raise ValueError("complete is true or false")
            return Candle(
                _oanda_time(row["time"]),
                granularity,
                parse_prices(bid["o"], bid["h"], bid["l"], bid["c"]),
                parse_prices(ask["o"], ask["h"], ask["l"], ask["c"]),
                complete=complete,
            )

        def work() -> Answer:
            rows = body.get("candles") if isinstance(body, dict) else None
            if not isinstance(rows, list) or len(rows) > OANDA_COUNT or not depth_within(body, OANDA_DEPTH):
                raise ValueError("candles is a list of at most 5000 candles")
            if not all(isinstance(row, dict) for row in rows):
                raise ValueError("a candle is an object")
            return screen(rows, build, start - WINDOW_SLACK_SECONDS, now)

        answer = await self.decode(work)
        self.count("ok")
        return answer
