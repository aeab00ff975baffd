"""How each feed and symbol answered: backoffs, Retry-After, and why a symbol is not being checked now."""

from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from tradeideas.prices.feeds.base import FeedUnavailable

FeedStatus = Literal["ok", "degraded", "off"]


@dataclass
class SymbolHealth:
    """How one symbol's requests went: its own backoff, so one symbol's bad answers never hold back another's."""

    failures: int = 0  # rounds in a row that failed (one per round, however many requests it made)
    blocked_until: float = 0.0  # monotonic
    reason: str | None = None  # why its last round failed; None when it answered


@dataclass
class FeedHealth:
    """When a feed may be asked again, and how its symbols' last rounds went."""

    retry_until: float = 0.0  # monotonic: the feed said to stay away (Retry-After, a ban, a refused location)
    retry_reason: str | None = None
    last_success: datetime | None = None
    symbols: dict[str, SymbolHealth] = field(default_factory=dict)
    newest: int | None = None  # end of the newest candle held for the watched symbols (epoch seconds)

    def symbol(self, symbol: str) -> SymbolHealth:
        return self.symbols.setdefault(symbol, SymbolHealth())

    def failing(self, clock: float) -> dict[str, str]:
        """Symbol -> why it is not being checked now."""
        out = {s: h.reason for s, h in self.symbols.items() if h.reason is not None}
        if clock < self.retry_until and self.retry_reason:
            out = {s: out.get(s, self.retry_reason) for s in self.symbols} or {"*": self.retry_reason}
        return out

    def told_to_wait(self, clock: float, error: FeedUnavailable) -> None:
        """A 429, 418 or 451 says how long the whole feed is to be left alone: every symbol waits for it, and an
        answer to a request already under way does not shorten it."""
        if error.retry_after is not None:
            self.retry_until = max(self.retry_until, clock + error.retry_after)
            self.retry_reason = str(error)
