"""Price-feed clients: Binance spot public market data, OANDA v20 candles and Dukascopy's historical tick files,
written from their public docs.

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
- Dukascopy (no account, no key): `GET {base}/EURUSD/2026/10/27/14h_ticks.bi5` (month 00-11) is one UTC hour of
  ticks, LZMA-compressed 20-byte big-endian records: milliseconds into the hour (uint32), ask and bid in points
  (uint32; price = points x the instrument's point size) and ask and bid volume (float32). A file appears once its
  hour has ended (404 before); an empty one means no ticks (weekend, holiday). The ticks are turned into one-minute
  candles (`T1m`, bid and ask) and, for the minutes that span two levels, one-second candles (`T1s`).

Every answer is untrusted: it is read up to `PRICE_MAX_RESPONSE_BYTES` (the connection is closed past it), decoded
off the event loop, held to its documented shape and depth, and every candle is checked (`check_candle`) before it
is believed. A client raises `FeedUnavailable` for anything that is not a usable answer (the poller backs off and
asks again later, never settling on it) and `UnknownSymbol` only when the feed itself says the symbol does not
exist. Candles that fail their check are dropped, counted and reported (`Answer.rejected`); only the candles before
the first rejected one are used, so a bad candle neither settles an idea nor hides a gap.
"""

import asyncio
import lzma
import math
import re
import struct
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation
from email.utils import parsedate_to_datetime
from functools import partial
from typing import Any, Literal, TypeVar

import aiohttp
import numpy as np
import numpy.typing as npt
import orjson

from tradeideas.core.metrics import PRICE_FEED_REJECTED, PRICE_FEED_REQUESTS
from tradeideas.prices.settlement import GRANULARITY_SECONDS, Candle, Prices

FeedName = Literal["binance", "oanda", "dukascopy"]
BINANCE_LIMIT = 1000  # the most klines one request returns
OANDA_COUNT = 5000  # the most candles one request returns
BINANCE_INVALID_SYMBOL = -1121
# Without a Retry-After: how long to leave a feed alone after a ban (418), a refusal of our location (451) or a 429.
BAN_SECONDS = 120.0
RESTRICTED_SECONDS = 3600.0
RATE_LIMITED_SECONDS = 60.0
TIMEOUT_SECONDS = 10.0  # for a whole answer, headers to last byte: a feed that trickles bytes is a timeout
# A candle may open this long before the window asked for (the idea's window starts an hour before publishing).
WINDOW_SLACK_SECONDS = 3600
# The deepest nesting each documented answer has: an array of klines; an object of candles of price objects.
BINANCE_DEPTH = 2
OANDA_DEPTH = 4
# Dukascopy: one hour file per request; a backlog is read this many hours per symbol and round.
DUKASCOPY_HOURS_PER_ROUND = 24
DUKASCOPY_HOURS_KEPT = 64  # decoded hours kept for the one-second candles of the minutes that need them
HOUR = 3600
TICK = struct.Struct(">IIIff")  # the record's layout; `decode_ticks` reads it as five 32-bit words
Column = npt.NDArray[np.int64]
EMPTY: Column = np.zeros(0, dtype=np.int64)
DEFAULT_MAX_BYTES = 5_000_000  # PRICE_MAX_RESPONSE_BYTES
READ_CHUNK = 65_536
DEFAULT_MAX_WAIT = 300.0  # PRICE_MAX_BACKOFF_SECONDS

T = TypeVar("T")


class FeedUnavailable(Exception):
    """No usable answer this time; `retry_after` (seconds) when the feed said how long to wait."""

    def __init__(self, result: str, detail: str, retry_after: float | None = None) -> None:
        super().__init__(detail)
        self.result = result
        self.retry_after = retry_after


class UnknownSymbol(Exception):
    """The feed says this symbol does not exist."""


@dataclass(frozen=True)
class Rejection:
    reason: str  # time, alignment, order, price, range, spread
    detail: str


@dataclass
class Answer:
    """The usable candles of one answer, and why the rest were dropped (first rejection first)."""

    candles: list[Candle] = field(default_factory=list)
    rejected: list[Rejection] = field(default_factory=list)
    asked: bool = True  # False when the feed was not asked at all (Dukascopy: nothing new has ended yet)


def binance_symbol(pair: str) -> str | None:
    """'BTC/USDT' -> 'BTCUSDT'."""
    symbol = "".join(t for t in _SPLIT.split(pair.upper()) if t)
    return symbol or None


_SPLIT = re.compile(r"[^A-Z0-9]+")


def _pair_tokens(pair: str) -> list[str]:
    tokens = [t for t in _SPLIT.split(pair.upper()) if t]
    if len(tokens) == 1 and len(tokens[0]) == 6 and tokens[0].isalpha():
        tokens = [tokens[0][:3], tokens[0][3:]]
    return tokens


def oanda_instrument(pair: str) -> str | None:
    """'EUR/USD' -> 'EUR_USD', 'XAUUSD' -> 'XAU_USD'; None when the pair has no two parts."""
    tokens = _pair_tokens(pair)
    if len(tokens) != 2:
        return None
    return "_".join(tokens)


# The currencies whose crosses Dukascopy publishes with a point of 0.00001 (0.001 when the yen is quoted), and the
# metals it publishes against the dollar with a point of 0.001. Indices and anything else are not mapped: their
# point sizes are not documented, and a wrong one would settle on wrong prices.
DUKASCOPY_CURRENCIES = frozenset({"USD", "EUR", "GBP", "JPY", "CHF", "AUD", "NZD", "CAD", "SEK", "NOK", "DKK", "SGD"})
DUKASCOPY_METALS = frozenset({"XAU", "XAG"})


def dukascopy_instrument(pair: str) -> tuple[str, Decimal] | None:
    """'EUR/USD' -> ('EURUSD', 0.00001), 'USD/JPY' -> ('USDJPY', 0.001), 'XAU/USD' -> ('XAUUSD', 0.001)."""
    tokens = _pair_tokens(pair)
    if len(tokens) != 2 or tokens[0] == tokens[1]:
        return None
    base, quote = tokens
    if base in DUKASCOPY_METALS and quote == "USD":
        return base + quote, Decimal("0.001")
    if base in DUKASCOPY_CURRENCIES and quote in DUKASCOPY_CURRENCIES:
        return base + quote, Decimal("0.001") if quote == "JPY" else Decimal("0.00001")
    return None


def dukascopy_point(symbol: str) -> Decimal:
    found = dukascopy_instrument(symbol)
    if found is None:
        raise UnknownSymbol(f"Dukascopy publishes no {symbol}")
    return found[1]


def retry_after(value: str | None, now: float, cap: float) -> float | None:
    """A `Retry-After` header in seconds: delta-seconds or an HTTP date, never negative, at most `cap`."""
    if value is None:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            seconds = parsedate_to_datetime(value).timestamp() - now
        except (TypeError, ValueError, IndexError, OverflowError):
            return None
    if math.isnan(seconds):
        return None
    return min(cap, max(0.0, seconds))


def _decimal(value: Any) -> Decimal:
    if not isinstance(value, str) or len(value) > 32:
        raise ValueError("a price is a short string")
    number = Decimal(value)
    if not number.is_finite() or number <= 0:
        raise ValueError("a price is a finite positive number")
    return number


def _prices(o: Any, h: Any, lo: Any, c: Any) -> Prices:
    return Prices(_decimal(o), _decimal(h), _decimal(lo), _decimal(c))


def check_candle(candle: Candle, earliest: int, now: float, after: int | None) -> Rejection | None:
    """Why a candle cannot be believed, or None: it opens on its granularity's grid, within [earliest, now + one
    candle], after the previous one, with low <= open, close <= high on each side."""
    step = GRANULARITY_SECONDS[candle.granularity]
    if not earliest <= candle.time <= now + step:
        return Rejection("time", f"opens at {candle.time}, outside {earliest}..{int(now) + step}")
    if candle.time % step:
        return Rejection("alignment", f"opens at {candle.time}, not on the {candle.granularity} grid")
    if after is not None and candle.time <= after:
        return Rejection("order", f"opens at {candle.time}, not after the candle before it ({after})")
    for prices in (candle.bid, candle.ask):
        if prices is None:
            continue
        if not (prices.low <= min(prices.open, prices.close) and max(prices.open, prices.close) <= prices.high):
            return Rejection("range", f"at {candle.time}: low and high do not bound the open and close")
    return None


def depth_within(value: Any, limit: int) -> bool:
    """Whether `value` nests no deeper than `limit` arrays and objects (walked without recursion)."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = item.values()
        elif not isinstance(item, list):
            continue
        depth += 1
        if depth > limit:
            return False
        stack.extend((child, depth) for child in item if isinstance(child, (list, dict)))
    return True


def screen(rows: Sequence[Any], build: Callable[[Any], Candle], earliest: int, now: float) -> Answer:
    """Build and check candles in order; stop at the first that fails (the rest wait for a later answer)."""
    answer = Answer()
    after: int | None = None
    for row in rows:
        try:
            candle = build(row)
        except (ValueError, TypeError, ArithmeticError, KeyError) as exc:
            answer.rejected.append(Rejection(_reason_of(exc), str(exc)[:200]))
            break
        rejection = check_candle(candle, earliest, now, after)
        if rejection is not None:
            answer.rejected.append(rejection)
            break
        answer.candles.append(candle)
        after = candle.time
    return answer


class _BadTime(ValueError):
    pass


def _reason_of(exc: Exception) -> str:
    return "time" if isinstance(exc, (_BadTime, OverflowError)) else "price"


def _binance_time(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _BadTime(f"a kline time is an integer of milliseconds, not {str(value)[:40]!r}")
    return value // 1000


def _oanda_time(value: Any) -> int:
    if not isinstance(value, str) or len(value) > 32:
        raise _BadTime("a candle time is a short string of Unix seconds")
    try:
        number = Decimal(value)
    except InvalidOperation as exc:
        raise _BadTime(f"a candle time is Unix seconds, not {value[:40]!r}") from exc
    if not number.is_finite() or abs(number) > 10**12:
        raise _BadTime(f"a candle time out of range: {value[:40]!r}")
    return int(number)


class Feed:
    name: FeedName
    label: str  # as members read it
    base: str
    detail: str

    def __init__(
        self,
        client: aiohttp.ClientSession,
        base_url: str,
        max_bytes: int = DEFAULT_MAX_BYTES,
        max_wait: float = DEFAULT_MAX_WAIT,
    ) -> None:
        self.client = client
        self.base_url = base_url.rstrip("/")
        self.max_bytes = max_bytes
        self.max_wait = max_wait
        self.timeout = TIMEOUT_SECONDS

    def count(self, result: str) -> None:
        PRICE_FEED_REQUESTS.labels(self.name, result).inc()

    def reject(self, rejection: Rejection) -> None:
        PRICE_FEED_REJECTED.labels(self.name, rejection.reason).inc()

    async def fetch(
        self, path: str, params: dict[str, Any] | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, Mapping[str, str], bytes]:
        """One answer's status, headers and body, read up to `max_bytes` within `TIMEOUT_SECONDS` (aiohttp, not
        httpx: a quarter of the CPU per request, decision 0092)."""
        try:
            async with asyncio.timeout(self.timeout):
                async with self.client.get(self.base_url + path, params=params, headers=headers) as response:
                    declared = response.content_length
                    if declared is not None and declared > self.max_bytes:
                        response.close()
                        self.count("too_large")
                        raise FeedUnavailable("too_large", f"{self.name}: an answer of {declared} bytes")
                    chunks: list[bytes] = []
                    size = 0
                    async for chunk in response.content.iter_chunked(READ_CHUNK):
                        size += len(chunk)
                        if size > self.max_bytes:
                            response.close()  # the connection goes without the rest being read
                            self.count("too_large")
                            raise FeedUnavailable("too_large", f"{self.name}: an answer over {self.max_bytes} bytes")
                        chunks.append(chunk)
                    return response.status, response.headers, b"".join(chunks)
        except TimeoutError as exc:
            self.count("timeout")
            raise FeedUnavailable("timeout", f"{self.name}: no whole answer in {self.timeout:.0f} s") from exc
        except aiohttp.ClientError as exc:
            self.count("unreachable")
            raise FeedUnavailable("unreachable", f"{self.name}: {exc.__class__.__name__}") from exc

    def refused(self, status: int, headers: Mapping[str, str]) -> None:
        """Raises for the statuses that tell us to stay away (429, 418, 451), with how long."""
        if status in (429, 418):
            result = "rate_limited" if status == 429 else "banned"
            self.count(result)
            told = retry_after(headers.get("Retry-After"), datetime.now(UTC).timestamp(), self.max_wait)
            wait = (
                told if told is not None else min(self.max_wait, BAN_SECONDS if status == 418 else RATE_LIMITED_SECONDS)
            )
            raise FeedUnavailable(result, f"{self.name}: HTTP {status}, retry after {wait:.0f} s", wait)
        if status == 451:
            self.count("restricted")
            wait = min(self.max_wait, RESTRICTED_SECONDS)
            raise FeedUnavailable("restricted", f"{self.name}: HTTP 451 (location refused)", wait)

    async def get(self, path: str, params: dict[str, Any], headers: dict[str, str] | None = None) -> Any:
        """The decoded JSON of a 200 answer (decoded in a worker thread); every other outcome is counted and
        raised."""
        status, answer_headers, raw = await self.fetch(path, params, headers)
        self.refused(status, answer_headers)
        try:
            body = await asyncio.to_thread(orjson.loads, raw)
        except orjson.JSONDecodeError as exc:
            self.count("malformed")
            raise FeedUnavailable(
                "malformed", f"{self.name}: HTTP {status} with a body that is not JSON ({exc})"
            ) from exc
        if status >= 400:
            self.check_unknown(status, body)
            self.count("error")
            raise FeedUnavailable("error", f"{self.name}: HTTP {status}")
        return body

    async def decode(self, work: Callable[[], T]) -> T:
        """Runs the shape checks and candle building of an answer in a worker thread: anything it raises is a
        malformed answer, never a crash of the round."""
        try:
            return await asyncio.to_thread(work)
        except Exception as exc:
            self.count("malformed")
            raise FeedUnavailable("malformed", f"{self.name}: answer not as documented ({str(exc)[:200]})") from exc

    def check_unknown(self, status: int, body: Any) -> None:
        raise NotImplementedError

    def resume_from(self, symbol: str) -> int | None:
        """Where the next request for `symbol` may start at the earliest (the end of what was read in full)."""
        return None

    def forget(self) -> None:
        """Drop what the client remembers between rounds (the poller forgot its own state)."""

    async def check_symbol(self, symbol: str, now: float) -> None:
        """Returns when the feed knows `symbol`; raises UnknownSymbol or FeedUnavailable."""
        raise NotImplementedError

    async def candles(self, symbol: str, granularity: str, start: int, now: float, end: int | None = None) -> Answer:
        """Candles opening at or after `start` (epoch seconds), oldest first, as many as one request gives (a feed
        may stop at `end`, the first moment the caller does not need)."""
        raise NotImplementedError


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
                raise _BadTime("a kline's close time is an integer of milliseconds")
            return Candle(_binance_time(open_ms), granularity, _prices(*row[1:5]), complete=close_ms < now * 1000)

        def work() -> Answer:
            if not isinstance(body, list) or len(body) > BINANCE_LIMIT or not depth_within(body, BINANCE_DEPTH):
                raise ValueError("klines are an array of at most 1000 arrays of values")
            if not all(isinstance(row, list) and len(row) >= 7 for row in body):
                raise ValueError("a kline is an array of at least 7 values")
            return screen(body, build, start - WINDOW_SLACK_SECONDS, now)

        answer = await self.decode(work)
        self.count("ok")
        return answer


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
                _prices(bid["o"], bid["h"], bid["l"], bid["c"]),
                _prices(ask["o"], ask["h"], ask["l"], ask["c"]),
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


@dataclass(frozen=True)
class HourTicks:
    """One hour file's ticks as columns, oldest first: milliseconds into the hour, ask and bid in points."""

    hour: int  # epoch seconds of the hour's start
    ms: Column
    ask: Column
    bid: Column


def _first_bad_tick(ms: Column, ask: Column, bid: Column) -> tuple[int, Rejection]:
    """Where the first tick that fails its check is, and why (the same checks as `decode_ticks`, tick by tick)."""
    late = ms >= HOUR * 1000
    backwards = np.concatenate(([False], ms[1:] < ms[:-1]))
    bad_time = late | backwards
    bad_price = (ask == 0) | (bid == 0)
    bad_spread = ask < bid
    i = int(np.argmax(bad_time | bad_price | bad_spread))
    m = int(ms[i])
    if bad_time[i]:
        previous = int(ms[i - 1]) if i else 0
        return i, Rejection("time", f"a tick {m} ms into the hour, after one at {previous} ms")
    if bad_price[i]:
        return i, Rejection("price", f"a tick at {m} ms with a price of zero points")
    return i, Rejection("spread", f"a tick at {m} ms with the ask ({int(ask[i])}) below the bid ({int(bid[i])})")


def decode_ticks(raw: bytes, hour: int, max_bytes: int) -> tuple[HourTicks, list[Rejection]]:
    """An hour file's ticks up to the first one that fails its check (and why it failed). The file is read as
    columns of big-endian 32-bit words and every check is one NumPy operation over a column: 300 instruments'
    hours cost a fraction of a second (bench/dukascopy.py, decision 0092)."""
    if not raw:
        return HourTicks(hour, EMPTY, EMPTY, EMPTY), []
    decompressor = lzma.LZMADecompressor(lzma.FORMAT_AUTO)
    data = decompressor.decompress(raw, max_length=max_bytes + 1)
    if len(data) > max_bytes or not decompressor.eof:
        raise ValueError(f"an hour of ticks over {max_bytes} bytes, or cut short")
    if len(data) % TICK.size:
        raise ValueError(f"{len(data)} bytes is not a whole number of {TICK.size}-byte ticks")
    if not data:
        return HourTicks(hour, EMPTY, EMPTY, EMPTY), []
    # Five words a tick: milliseconds, ask, bid, then the two volumes (float32, not used). Native int64 columns:
    # comparisons and differences never wrap.
    words = np.frombuffer(data, dtype=">u4").reshape(-1, 5)
    ms, ask, bid = (words[:, column].astype(np.int64) for column in range(3))
    good = ms[-1] < HOUR * 1000 and not (ms[1:] < ms[:-1]).any() and bid.min() > 0 and not (ask < bid).any()
    if good:
        return HourTicks(hour, ms, ask, bid), []
    cut, rejection = _first_bad_tick(ms, ask, bid)
    return HourTicks(hour, ms[:cut], ask[:cut], bid[:cut]), [rejection]


def _ohlc(points: Column, starts: Column, ends: Column) -> list[tuple[int, int, int, int]]:
    """Open, high, low and close of each run [starts[i], ends[i]) of `points`, as Python ints."""
    return list(
        zip(
            points[starts].tolist(),
            np.maximum.reduceat(points, starts).tolist(),
            np.minimum.reduceat(points, starts).tolist(),
            points[ends - 1].tolist(),
            strict=True,
        )
    )


def tick_candles(
    ticks: HourTicks, granularity: str, point: Decimal, start_at: int | None = None, end_at: int | None = None
) -> list[Candle]:
    """Candles of `granularity` (T1m or T1s) from an hour's ticks, bid and ask, opening in [start_at, end_at) when
    given; a span with no tick has no candle."""
    step_ms = GRANULARITY_SECONDS[granularity] * 1000
    first = 0 if start_at is None else int(np.searchsorted(ticks.ms, (start_at - ticks.hour) * 1000))
    stop = len(ticks.ms) if end_at is None else int(np.searchsorted(ticks.ms, (end_at - ticks.hour) * 1000))
    if first >= stop:
        return []
    ms, bid, ask = ticks.ms[first:stop], ticks.bid[first:stop], ticks.ask[first:stop]
    slots = ms // step_ms
    starts = np.concatenate(([0], np.flatnonzero(slots[1:] != slots[:-1]) + 1))
    ends = np.append(starts[1:], len(ms))
    times = (ticks.hour + slots[starts] * (step_ms // 1000)).tolist()

    def prices(o: int, h: int, lo: int, c: int) -> Prices:
        return Prices(point * o, point * h, point * lo, point * c)

    return [
        Candle(time, granularity, prices(*b), prices(*a), complete=True)
        for time, b, a in zip(times, _ohlc(bid, starts, ends), _ohlc(ask, starts, ends), strict=True)
    ]


@dataclass(frozen=True)
class Hour:
    """One hour file as read: its ticks (up to the first bad one), their minute candles, and why it stopped."""

    ticks: HourTicks
    minutes: list[Candle]
    rejected: list[Rejection]


def decode_hour(raw: bytes, hour: int, point: Decimal, max_bytes: int) -> Hour:
    """An hour file's ticks and minute candles, in one pass off the event loop."""
    ticks, rejected = decode_ticks(raw, hour, max_bytes)
    return Hour(ticks, tick_candles(ticks, "T1m", point), rejected)


def hour_path(symbol: str, hour: int) -> str:
    moment = datetime.fromtimestamp(hour, UTC)
    return f"/{symbol}/{moment.year:04d}/{moment.month - 1:02d}/{moment.day:02d}/{moment.hour:02d}h_ticks.bi5"


class DukascopyFeed(Feed):
    """Hour files, each asked for once per instrument and hour and shared by every idea on it."""

    name: FeedName = "dukascopy"
    label = "Dukascopy"
    base = "T1m"
    detail = "T1s"

    late_after = 2 * HOUR  # an hour still missing this long after it ended is reported, not awaited

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.hours: OrderedDict[tuple[str, int], Hour] = OrderedDict()
        self.covered: dict[str, int] = {}
        self.fetched = 0  # hour files asked for

    def check_unknown(self, status: int, body: Any) -> None:
        return None

    def resume_from(self, symbol: str) -> int | None:
        return self.covered.get(symbol)

    def forget(self) -> None:
        self.covered.clear()

    async def check_symbol(self, symbol: str, now: float) -> None:
        self.point(symbol)  # the instruments are known from their names: nothing to ask

    async def hour(self, symbol: str, hour: int, now: float) -> Hour | None:
        """An hour's ticks and minute candles (None while its file has not appeared), from memory when read
        before."""
        kept = self.hours.get((symbol, hour))
        if kept is not None:
            self.hours.move_to_end((symbol, hour))
            return kept
        self.fetched += 1
        status, headers, raw = await self.fetch(hour_path(symbol, hour))
        self.refused(status, headers)
        if status == 404:
            self.count("not_published")
            if now - (hour + HOUR) > self.late_after:
                when = datetime.fromtimestamp(hour, UTC).strftime("%Y-%m-%d %H:00")
                raise FeedUnavailable("not_published", f"dukascopy: the {when} UTC hour is not published")
            return None
        if status != 200:
            self.count("error")
            raise FeedUnavailable("error", f"dukascopy: HTTP {status}")
        read = await self.decode(partial(decode_hour, raw, hour, self.point(symbol), self.max_bytes))
        self.count("ok")
        if not read.rejected:
            self.hours[(symbol, hour)] = read
            while len(self.hours) > DUKASCOPY_HOURS_KEPT:
                self.hours.popitem(last=False)
        return read

    def point(self, symbol: str) -> Decimal:
        """The instrument's point size (its prices are whole numbers of points)."""
        return dukascopy_point(symbol)

    async def candles(self, symbol: str, granularity: str, start: int, now: float, end: int | None = None) -> Answer:
        point = self.point(symbol)
        answer = Answer()
        hour = start - start % HOUR
        if granularity == self.detail:  # the one-second candles of a few minutes, from their hour's ticks
            read = await self.hour(symbol, hour, now)
            if read is not None:
                answer.rejected = read.rejected
                until = min(end if end is not None else hour + HOUR, hour + HOUR)
                answer.candles = tick_candles(read.ticks, granularity, point, start, until)
            return answer
        first = max(hour, self.covered.get(symbol, hour))
        fetched = self.fetched
        for n in range(DUKASCOPY_HOURS_PER_ROUND):
            at = first + n * HOUR
            if at + HOUR > now:  # the hour in progress: its file appears once it has ended
                break
            read = await self.hour(symbol, at, now)
            if read is None:  # not published yet
                break
            answer.candles.extend(read.minutes)
            if read.rejected:
                answer.rejected = read.rejected
                break
            self.covered[symbol] = at + HOUR
        answer.asked = self.fetched > fetched
        return answer
