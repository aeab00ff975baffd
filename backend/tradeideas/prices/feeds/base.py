"""What every feed client shares: one HTTP answer read within its limits, the refusals that say to stay away
(429, 418, 451) and the errors the poller backs off on.
"""

import asyncio
import math
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any, Literal, TypeVar

import aiohttp
import orjson

from tradeideas.core.metrics import PRICE_FEED_REJECTED, PRICE_FEED_REQUESTS
from tradeideas.prices.feeds.checks import Answer, Rejection

FeedName = Literal["binance", "oanda", "dukascopy"]
# Without a Retry-After: how long to leave a feed alone after a ban (418), a refusal of our location (451) or a 429.
BAN_SECONDS = 120.0
RESTRICTED_SECONDS = 3600.0
RATE_LIMITED_SECONDS = 60.0
TIMEOUT_SECONDS = 10.0  # for a whole answer, headers to last byte: a feed that trickles bytes is a timeout
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
