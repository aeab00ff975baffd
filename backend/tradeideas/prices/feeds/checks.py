"""The checks every feed's answer passes before a candle is believed: the shape, the depth and each candle."""

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from tradeideas.prices.progress import GRANULARITY_SECONDS, Candle, Prices

# A candle may open this long before the window asked for (the idea's window starts an hour before publishing).
WINDOW_SLACK_SECONDS = 3600


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


PAIR_SEPARATORS = re.compile(r"[^A-Z0-9]+")


def pair_tokens(pair: str) -> list[str]:
    tokens = [t for t in PAIR_SEPARATORS.split(pair.upper()) if t]
    if len(tokens) == 1 and len(tokens[0]) == 6 and tokens[0].isalpha():
        tokens = [tokens[0][:3], tokens[0][3:]]
    return tokens


def parse_price(value: Any) -> Decimal:
    if not isinstance(value, str) or len(value) > 32:
        raise ValueError("a price is a short string")
    number = Decimal(value)
    if not number.is_finite() or number <= 0:
        raise ValueError("a price is a finite positive number")
    return number


def parse_prices(o: Any, h: Any, lo: Any, c: Any) -> Prices:
    return Prices(parse_price(o), parse_price(h), parse_price(lo), parse_price(c))


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
            answer.rejected.append(Rejection(reason_of(exc), str(exc)[:200]))
            break
        rejection = check_candle(candle, earliest, now, after)
        if rejection is not None:
            answer.rejected.append(rejection)
            break
        answer.candles.append(candle)
        after = candle.time
    return answer


class BadTime(ValueError):
    pass


def reason_of(exc: Exception) -> str:
    return "time" if isinstance(exc, (BadTime, OverflowError)) else "price"
