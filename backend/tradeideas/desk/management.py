"""What managing cost the member: their realised R beside the idea's price-checked R, entry by entry and on average.

An entry's management cost is the idea's price-checked R minus the member's own R, so a positive cost means the
member kept less than the idea made and a negative one that their handling did better (decision 0178). Only closed
entries linked to an idea whose price check settled with a trade count: a check that was not triggered had no trade
to compare with. The average carries a 95 % interval (Student's t, as the track records compute theirs).
"""

import math
from collections.abc import Iterable
from typing import NamedTuple

from tradeideas.trackrecords.statistics import rounded_r, t_quantile


class CostedEntry(NamedTuple):
    cost_r: float
    setup_id: int | None
    setup_name: str | None
    # The entry's educator (copied when taken): setups of different educators may share a name.
    educator_name: str


def management_cost_r(own_r: float | None, checked_r: float | None) -> float | None:
    """The idea's price-checked R minus the member's realised R; None unless both are known."""
    if own_r is None or checked_r is None:
        return None
    return checked_r - own_r


def mean_interval95(values: list[float]) -> list[float] | None:
    """[low, high]: mean ± t(0.975, n - 1) · s / √n; None under two values."""
    n = len(values)
    if n < 2:
        return None
    mean = sum(values) / n
    deviation = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = t_quantile(0.975, n - 1) * deviation / math.sqrt(n)
    return [rounded_r(mean - half), rounded_r(mean + half)]


def by_setup(entries: Iterable[CostedEntry]) -> list[tuple[int | None, str | None, str | None, int, float]]:
    """(setup id, name, its educator, count, average cost) per setup, the costliest first; ideas without a setup
    share one row (no educator: they may come from several)."""
    groups: dict[int | None, tuple[str | None, str | None, list[float]]] = {}
    for entry in entries:
        educator = None if entry.setup_id is None else entry.educator_name
        groups.setdefault(entry.setup_id, (entry.setup_name, educator, []))[2].append(entry.cost_r)
    rows = [
        (setup_id, name, educator, len(costs), rounded_r(sum(costs) / len(costs)))
        for setup_id, (name, educator, costs) in groups.items()
    ]
    return sorted(rows, key=lambda row: (-row[4], row[1] or "", row[2] or ""))
