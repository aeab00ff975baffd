"""Statistics that admit their uncertainty, checked against values computed by hand and published t tables."""

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from tests.trackrecords.test_track_records_api import buy, complete, record
from tradeideas.core.clock import Clock
from tradeideas.trackrecords.statistics import Statistics, sample_size_note, t_cdf, t_quantile


@pytest.mark.parametrize(
    ("df", "expected"),
    # Two-sided 95 % critical values of Student's t (any printed table, e.g. NIST/SEMATECH 1.3.6.7.2).
    [(1, 12.706), (2, 4.303), (5, 2.571), (10, 2.228), (29, 2.045), (100, 1.984), (100_000, 1.960)],
)
def test_t_quantile_matches_the_tables(df: int, expected: float) -> None:
    assert round(t_quantile(0.975, df), 3) == expected


def test_t_cdf_is_symmetric_around_zero() -> None:
    assert t_cdf(0.0, 7) == pytest.approx(0.5)
    assert t_cdf(-2.0, 7) == pytest.approx(1.0 - t_cdf(2.0, 7))


def test_statistics_of_a_sequence_by_hand() -> None:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    stats = Statistics()
    # (status, R, hours held), in closing order; the not-triggered idea is left out of everything.
    ideas = [("successful", 2.0, 1), ("unsuccessful", -1.0, 2), ("unsuccessful", -1.0, 3), ("successful", 3.0, 4),
             ("invalidated", None, 50), ("successful", 2.0, 5), ("unsuccessful", -1.0, 6)]  # fmt: skip
    for status, r, hours in ideas:
        stats.add(status, r, start, start + timedelta(hours=hours))
    # R: 2 -1 -1 3 2 -1: mean 4/6; gains 7, losses 3; cumulative 2 1 0 3 5 4: deepest fall 2 (from 2 to 0).
    # Squared deviations from 2/3 sum to 156/9, s² = 156/45, s/√6 = 0.76012; t(0.975, 5) = 2.570582:
    # half width 1.95394, interval [-1.2873, 2.6206].
    assert stats.values() == {
        "decided": 6,
        "expectancy_r": 0.67,
        "profit_factor": 2.33,
        "max_drawdown_r": 2.0,
        "longest_win_streak": 2,
        "longest_loss_streak": 2,
        "average_holding_hours": 3.5,
        "average_r_interval95": [-1.29, 2.62],
        "sample_size_note": "6 decided ideas: too few to judge",
    }


def test_small_and_large_samples() -> None:
    empty = Statistics().values()
    assert empty["expectancy_r"] is None and empty["average_r_interval95"] is None
    assert empty["sample_size_note"] == "0 decided ideas: too few to judge"
    one = Statistics()
    one.add("successful", 1.5, datetime(2026, 1, 1, tzinfo=UTC), datetime(2026, 1, 1, 12, tzinfo=UTC))
    assert one.values()["average_r_interval95"] is None  # under 2 ideas
    assert one.values()["profit_factor"] is None  # no losses
    assert sample_size_note(1) == "1 decided idea: too few to judge"
    assert sample_size_note(11) == "11 decided ideas: too few to judge"
    assert sample_size_note(29) is not None and sample_size_note(30) is None


async def test_the_record_carries_the_statistics_of_its_filter(
    educator_a: httpx.AsyncClient, tf: str, clock: Clock
) -> None:
    win = await buy(educator_a, tf)
    loss = await buy(educator_a, tf)
    skipped = await buy(educator_a, tf)
    clock.advance(timedelta(hours=2))
    await complete(educator_a, win, status="successful", outcome="exit2")  # +3 R
    await complete(educator_a, loss, status="unsuccessful")  # -1 R
    await complete(educator_a, skipped, status="invalid")  # not triggered: not counted
    stats = (await record(educator_a, timeFrame=tf))["statistics"]
    # R 3 and -1: mean 1, s = 2.8284, s/√2 = 2, t(0.975, 1) = 12.7062: 1 ± 25.41.
    assert stats == {
        "decided": 2,
        "expectancyR": 1.0,
        "profitFactor": 3.0,
        "maxDrawdownR": 1.0,
        "longestWinStreak": 1,
        "longestLossStreak": 1,
        "averageHoldingHours": 2.0,
        "averageRInterval95": [-24.41, 26.41],
        "sampleSizeNote": "2 decided ideas: too few to judge",
    }


async def test_the_educators_list_shows_the_same_statistics_as_the_whole_record(
    educator_a: httpx.AsyncClient, tf: str, clock: Clock
) -> None:
    """The list reads them from the stored whole row, kept as ideas close (appended) or are re-graded (rewritten);
    the record walks the ideas: both must agree."""

    async def listed() -> dict[str, Any]:
        records = (await educator_a.get("/api/educators/track-records")).json()
        found: dict[str, Any] = next(r for r in records if r["educator"]["id"] == 1)["statistics"]
        return found

    first, second, third = await buy(educator_a, tf), await buy(educator_a, tf), await buy(educator_a, tf)
    clock.advance(timedelta(hours=3))
    await complete(educator_a, first, status="successful", outcome="exit2")
    await complete(educator_a, second, status="unsuccessful")
    assert await listed() == (await record(educator_a))["statistics"]
    before = (await listed())["decided"]
    await complete(educator_a, third, status="successful")
    # A correction within the window rewrites the totals from the ideas.
    await complete(educator_a, second, status="successful")
    after = await listed()
    assert after == (await record(educator_a))["statistics"] and after["decided"] == before + 1
    assert after["sampleSizeNote"] is None or after["sampleSizeNote"].endswith("too few to judge")
