"""Called versus taken: what the members who took an idea got, as one anonymous aggregate per idea.

Per journal entry: the entry slippage in R, (planned entry - fill) / planned risk for a BUY and (fill - planned
entry) / planned risk for a SELL, so a worse fill is negative; the planned entry and risk are the idea's first
entry and invalidation level as copied into the entry when it was taken. The realised R is the entry's own R as
the journal computes it (`r_multiple`), closed entries only. An idea shows `taken` only once at least
`TAKEN_THRESHOLD` distinct members took it, to everyone alike (decision 0056), and shows medians, not means: five
accounts with absurd prices cannot make an idea's figure absurd (decision 0101).

Pure rules and the stored row's reading; nothing here imports another domain, so the idea list may outer-join
`IdeaTaken` in its page statement and read it through `shown_taken`.
"""

from collections.abc import Iterable
from statistics import median
from typing import Any, NamedTuple, Protocol

from tradeideas.desk.models import IdeaTaken

# Fewer members than this and an idea shows no `taken` at all: a small crowd's figures point at the people in it.
TAKEN_THRESHOLD = 5
TAKEN_DIGITS = 2


def level_number(level: str | None) -> float | None:
    """A level as a number ("1,085.50" -> 1085.5), or None when it is not one (e.g. "market")."""
    if level is None:
        return None
    try:
        value = float(level.strip().replace(",", ""))
    except ValueError:
        return None
    return value if value > 0 and value != float("inf") else None


def r_multiple(order_type: str, fill: float | None, exit_price: float | None, invalidation: str) -> float | None:
    """BUY: (exit - fill) / |fill - invalidation|; SELL mirrored. None while open or without a numeric stop."""
    stop = level_number(invalidation)
    if fill is None or exit_price is None or stop is None or stop == fill:
        return None
    move = exit_price - fill if order_type == "BUY" else fill - exit_price
    return move / abs(fill - stop)


# A fill or exit of an entry linked to an idea lies at most this far from the idea's planned entry, in the idea's
# risk: the manual-close rule (`ideas.outcomes.MAX_MANUAL_R`), so five accounts cannot skew an idea's `taken`
# with a fill of 0.000001 and an exit of 99999999.
MAX_PRICE_R = 20.0


def price_r(order_type: str, entry1: str, entry2: str | None, invalidation: str, price: str) -> float | None:
    """How far `price` lies from the idea's planned entry (the mean of both entries when two are given), in the
    idea's risk, signed as a result; None without numbers."""
    first, stop, at = level_number(entry1), level_number(invalidation), level_number(price)
    second = level_number(entry2) if entry2 is not None else None
    if first is None or stop is None or at is None or (entry2 is not None and second is None):
        return None
    entry = first if second is None else (first + second) / 2
    if entry == stop:
        return None
    move = at - entry if order_type == "BUY" else entry - at
    return move / abs(entry - stop)


def entry_slippage_r(order_type: str, fill: float | None, planned_entry: str, invalidation: str) -> float | None:
    """The fill against the planned entry in units of the planned risk, worse negative; None without numbers."""
    entry, stop = level_number(planned_entry), level_number(invalidation)
    if fill is None or entry is None or stop is None or entry == stop:
        return None
    better_by = entry - fill if order_type == "BUY" else fill - entry
    return better_by / abs(entry - stop)


class TakenEntry(Protocol):
    """What the rule reads of a journal entry (a `JournalEntry`, or a row in the migration)."""

    @property
    def user_id(self) -> int: ...
    @property
    def order_type(self) -> str: ...
    @property
    def entry1(self) -> str: ...
    @property
    def invalidation_level(self) -> str: ...
    @property
    def fill_price(self) -> str: ...
    @property
    def exit_price(self) -> str | None: ...


class Sums(NamedTuple):
    members: int = 0
    slippage_count: int = 0
    slippage_sum_r: float = 0.0
    realised_count: int = 0
    realised_sum_r: float = 0.0
    slippage_median_r: float | None = None
    realised_median_r: float | None = None


def sums_of(entries: Iterable[TakenEntry]) -> Sums:
    """The stored sums of one idea's journal entries."""
    members: set[int] = set()
    slippages: list[float] = []
    realised: list[float] = []
    for e in entries:
        members.add(e.user_id)
        # Prices are kept as the member typed them (decision 0057); the arithmetic reads them as numbers.
        fill = level_number(e.fill_price)
        slip = entry_slippage_r(e.order_type, fill, e.entry1, e.invalidation_level)
        if slip is not None:
            slippages.append(slip)
        r = r_multiple(e.order_type, fill, level_number(e.exit_price), e.invalidation_level)
        if r is not None:
            realised.append(r)
    return Sums(
        len(members),
        len(slippages),
        sum(slippages),
        len(realised),
        sum(realised),
        median(slippages) if slippages else None,
        median(realised) if realised else None,
    )


def average(total: float, count: int) -> float | None:
    return None if count == 0 else round(total / count, TAKEN_DIGITS) + 0.0


def rounded(value: float | None) -> float | None:
    return None if value is None else round(value, TAKEN_DIGITS) + 0.0


def shown_taken(
    members: int | None, slippage_median_r: float | None, realised_median_r: float | None
) -> dict[str, Any] | None:
    """The idea's `taken` object (the input of `ideas.schemas.Taken`, by its field names), or None under the
    threshold."""
    if members is None or members < TAKEN_THRESHOLD:
        return None
    return {
        "count": members,
        "average_entry_slippage_r": rounded(slippage_median_r),
        "average_realised_r": rounded(realised_median_r),
    }


def taken_of_row(row: IdeaTaken | None) -> dict[str, Any] | None:
    if row is None:
        return None
    return shown_taken(row.members, row.slippage_median_r, row.realised_median_r)
