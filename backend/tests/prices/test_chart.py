"""The idea page's chart: candles a person can read at the first zoom, in the pair's own precision."""

from decimal import Decimal

import pytest

from tradeideas.prices.progress import Candle, Prices
from tradeideas.prices.reads import chart_candles, chart_size, level_precision


@pytest.mark.parametrize(
    ("hours", "label"), [(1, "1m"), (3, "1m"), (4, "2m"), (24, "10m"), (72, "30m"), (24 * 8, "1h"), (24 * 30, "4h"),
                         (24 * 91, "1d")],
)  # fmt: skip
def test_a_window_is_drawn_in_60_to_200_candles(hours: int, label: str) -> None:
    size, got = chart_size(hours * 3600)
    assert got == label
    assert hours * 3600 / size <= 200
    assert hours < 2 or hours * 3600 / size >= 60


def test_the_levels_decide_the_precision() -> None:
    levels = {"entry1": "1.0850", "entry2": None, "invalidation_level": "1.0795", "exit1": "1.09105", "exit2": "",
              "exit3": None}  # fmt: skip
    assert level_precision(levels) == 5
    assert level_precision({"entry1": "64,200", "invalidation_level": "62,900", "exit1": "66,800"}) == 0


def test_minute_candles_merge_into_larger_ones() -> None:
    def one(t: int, o: str, h: str, lo: str, c: str) -> Candle:
        return Candle(t, "T1m", Prices(Decimal(o), Decimal(h), Decimal(lo), Decimal(c)))

    merged = chart_candles(
        [
            one(0, "1.1", "1.2", "1.0", "1.15"),
            one(60, "1.15", "1.3", "1.1", "1.25"),
            one(300, "1.25", "1.26", "1.2", "1.21"),
        ],
        300,
    )
    assert [(c.time, c.open, c.high, c.low, c.close) for c in merged] == [
        (0, 1.1, 1.3, 1.0, 1.25),
        (300, 1.25, 1.26, 1.2, 1.21),
    ]


def test_every_window_an_idea_can_have_lands_in_the_range() -> None:
    for minutes in range(60, 91 * 1440, 7):  # an hour of lead to the 90 days an idea may stay open
        size, _ = chart_size(minutes * 60)
        assert 60 <= minutes * 60 / size <= 200, minutes
