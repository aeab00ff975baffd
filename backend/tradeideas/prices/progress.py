"""What a price check knows (decision 0050): candles, the plan taken from an idea's levels, the receipts of its steps
and its progress so far. Data only; the rules that move it are in `settlement`.
"""

from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal
from itertools import pairwise
from typing import Literal

from tradeideas.ideas.outcomes import Levels, parse_level

# Nothing triggered this long after publishing: not triggered. Still open this long after publishing: closed at
# that moment's price (`manual`).
SETTLE_TRIGGER_DAYS = 30
SETTLE_MAX_DAYS = 90
TRIGGER_SECONDS = int(timedelta(days=SETTLE_TRIGGER_DAYS).total_seconds())
MAX_SECONDS = int(timedelta(days=SETTLE_MAX_DAYS).total_seconds())

State = Literal["waiting", "triggered", "settled", "unverifiable", "off"]
Step = Literal["triggered", "exit1", "exit2", "exit3", "stop"]
Side = Literal["bid", "ask"]
GRANULARITY_SECONDS = {"1m": 60, "1s": 1, "M1": 60, "S5": 5, "T1m": 60, "T1s": 1}
# The finer candles that order the events inside one candle of each base granularity.
# Dukascopy's are built from its ticks: T1m from an hour's ticks, T1s for the minutes that need ordering.
DETAIL = {"1m": "1s", "M1": "S5", "T1m": "T1s"}


@dataclass(frozen=True)
class Prices:
    open: Decimal
    high: Decimal
    low: Decimal
    close: Decimal


@dataclass(frozen=True)
class Candle:
    """One candle; `bid` holds the trade prices for crypto, `ask` is set for forex only."""

    time: int  # opening time, epoch seconds
    granularity: str
    bid: Prices
    ask: Prices | None = None
    complete: bool = True

    @property
    def end(self) -> int:
        return self.time + GRANULARITY_SECONDS[self.granularity]


@dataclass(frozen=True)
class Plan:
    """What is checked: the recorded levels as numbers, the direction and when the price path starts."""

    levels: Levels
    buy: bool
    entry: Decimal
    stop: Decimal
    exits: tuple[Decimal, ...]
    published: int  # epoch seconds
    two_sided: bool  # forex: a BUY triggers on the ask, exits and stops on the bid; a SELL the other way round


@dataclass(frozen=True)
class Receipt:
    step: Step
    at: int
    granularity: str
    candle_time: int
    open: Decimal
    high: Decimal
    low: Decimal
    close: Decimal
    side: Side | None
    price: Decimal


@dataclass(frozen=True)
class Progress:
    state: State = "waiting"
    outcome: str | None = None
    reached: int = 0  # exits reached so far
    receipts: tuple[Receipt, ...] = ()
    triggered_at: int | None = None
    settled_at: int | None = None
    settlement_price: Decimal | None = None
    r_multiple: float | None = None
    mae: Decimal | None = None  # worst move since the trigger, in R (<= 0)
    mfe: Decimal | None = None  # best move since the trigger, in R (>= 0)
    cursor: int = 0  # base candles opening before this time are done with
    trigger_candle: int | None = None  # opening time of the base candle that triggered
    trigger_detail: int | None = None  # opening time of the finer candle that triggered, when it was drilled
    last_close: Decimal | None = None  # exit-side close of the last complete candle (gap fills, expiry)
    last_entry_close: Decimal | None = None  # entry-side close of the last complete candle (gaps through entry)
    reason: str | None = None  # why it cannot be checked, in the member's words
    detail: str | None = None  # the operator's words for the same (the receipts' detail and the log)
    needs_detail: int | None = field(default=None, compare=False)  # a base candle to fetch finer candles for

    @property
    def done(self) -> bool:
        return self.state in ("settled", "unverifiable")


NOT_NUMBERS = "the levels are not all numbers"
OUT_OF_ORDER = "the levels are not in order for a {direction}"


def plan_for(levels: Levels, published: int, two_sided: bool) -> Plan | str:
    """The plan, or the reason it cannot be checked."""
    entry = parse_level(levels.entry1)
    stop = parse_level(levels.invalidation_level)
    exits: list[Decimal] = []
    for text in (levels.exit1, levels.exit2, levels.exit3):
        if text is None or not text.strip():
            break
        value = parse_level(text)
        if value is None:
            return NOT_NUMBERS
        exits.append(value)
    if entry is None or stop is None or not exits:
        return NOT_NUMBERS
    buy = levels.order_type == "BUY"
    ladder = [stop, entry, *exits] if buy else [stop, entry, *exits][::-1]
    # Exits in the trade's direction, beyond the entry, the stop on the other side.
    if any(a >= b for a, b in pairwise(ladder)):
        return OUT_OF_ORDER.format(direction=levels.order_type)
    return Plan(levels, buy, entry, stop, tuple(exits), published, two_sided)


def unverifiable(reason: str, detail: str | None = None) -> Progress:
    """Not checkable: `reason` as members read it after "Price check: ", `detail` as the operator's."""
    if detail is None:  # the levels' own faults read the same to both
        reason, detail = f"not possible, {reason}", reason
    return Progress(state="unverifiable", reason=reason, detail=detail)
