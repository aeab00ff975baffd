"""Dukascopy's historical tick files, turned into one-minute candles and one-second ones where needed."""

import lzma
import struct
from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt

from tradeideas.prices.feeds.base import Feed, FeedName, FeedUnavailable, UnknownSymbol
from tradeideas.prices.feeds.checks import Answer, Rejection, pair_tokens
from tradeideas.prices.progress import GRANULARITY_SECONDS, Candle, Prices

# Dukascopy: one hour file per request; a backlog is read this many hours per symbol and round.
DUKASCOPY_HOURS_PER_ROUND = 24
DUKASCOPY_HOURS_KEPT = 64  # decoded hours kept for the one-second candles of the minutes that need them
HOUR = 3600
TICK = struct.Struct(">IIIff")  # the record's layout; `decode_ticks` reads it as five 32-bit words
Column = npt.NDArray[np.int64]
EMPTY: Column = np.zeros(0, dtype=np.int64)


# The currencies whose crosses Dukascopy publishes with a point of 0.00001 (0.001 when the yen is quoted), and the
# metals it publishes against the dollar with a point of 0.001. Indices and anything else are not mapped: their
# point sizes are not documented, and a wrong one would settle on wrong prices.
DUKASCOPY_CURRENCIES = frozenset({"USD", "EUR", "GBP", "JPY", "CHF", "AUD", "NZD", "CAD", "SEK", "NOK", "DKK", "SGD"})
DUKASCOPY_METALS = frozenset({"XAU", "XAG"})


def dukascopy_instrument(pair: str) -> tuple[str, Decimal] | None:
    """'EUR/USD' -> ('EURUSD', 0.00001), 'USD/JPY' -> ('USDJPY', 0.001), 'XAU/USD' -> ('XAUUSD', 0.001)."""
    tokens = pair_tokens(pair)
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
