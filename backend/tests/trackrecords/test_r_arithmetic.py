"""R arithmetic and outcome rules, without the database."""

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest

from tradeideas.core.errors import Invalid
from tradeideas.ideas.models import IdeaStatus
from tradeideas.ideas.outcomes import Levels, manual_status, parse_level, r_multiple, resolve_outcome
from tradeideas.trackrecords import figures as figures_module
from tradeideas.trackrecords.figures import Tally, extend_sparkline, figures, sparkline


def levels(order: str = "BUY", e1: str = "100", e2: str | None = None, inv: str = "90", x1: str = "120",
           x2: str | None = "130", x3: str | None = None) -> Levels:  # fmt: skip
    return Levels(order, e1, e2, inv, x1, x2, x3)


@pytest.mark.parametrize(
    ("text", "value"),
    [("1.0850", "1.0850"), ("64,200", "64200"), ("1,234.5", "1234.5"), ("-0.5", "-0.5"), ("+12", "12"),
     (" 5 210 ", "5210"), (".5", "0.5")],
)  # fmt: skip
def test_levels_are_read_as_decimal_numbers(text: str, value: str) -> None:
    assert parse_level(text) == Decimal(value)


@pytest.mark.parametrize("text", ["", "market", "1.08-1.09", "1.2.3", "~1.08", None, "1e5"])
def test_words_and_ranges_are_not_numbers(text: str | None) -> None:
    assert parse_level(text) is None


def test_buy_and_sell_each_outcome() -> None:
    buy = levels()
    assert r_multiple(buy, "exit1", None) == 2.0
    assert r_multiple(buy, "exit2", None) == 3.0
    assert r_multiple(buy, "invalidation", None) == -1.0
    assert r_multiple(buy, "manual", "95") == -0.5
    assert r_multiple(buy, "not_triggered", None) is None
    assert r_multiple(buy, "exit3", None) is None  # no exit 3
    sell = levels("SELL", "1.0920", None, "1.0980", "1.0800", "1.0776")
    assert r_multiple(sell, "exit1", None) == 2.0
    assert r_multiple(sell, "exit2", None) == 2.4
    assert r_multiple(sell, "invalidation", None) == -1.0
    assert r_multiple(sell, "manual", "1.0921") == -0.02


def test_two_entries_use_their_mean_and_rounding_is_to_two_decimals() -> None:
    # entry (100 + 96) / 2 = 98, risk 8: exit 120 is 22 / 8 = 2.75.
    assert r_multiple(levels(e2="96"), "exit1", None) == 2.75
    # 1/3 R rounds to 0.33.
    assert r_multiple(levels(e1="10", inv="7", x1="11"), "exit1", None) == 0.33


def test_non_numeric_levels_give_no_r() -> None:
    assert r_multiple(levels(x1="the weekly high"), "exit1", None) is None
    assert r_multiple(levels(e2="near 95"), "exit1", None) is None
    assert r_multiple(levels(inv="below the range"), "invalidation", None) is None
    assert r_multiple(levels(inv="100"), "exit1", None) is None  # no risk, no R


def test_defaults_and_refusals() -> None:
    exits = {"exit1": "120", "exit2": None, "exit3": None}
    assert resolve_outcome(IdeaStatus.SUCCESSFUL, None, None, exits) == ("exit1", None)
    assert resolve_outcome(IdeaStatus.UNSUCCESSFUL, None, None, exits) == ("invalidation", None)
    assert resolve_outcome(IdeaStatus.INVALIDATED, None, None, exits) == ("not_triggered", None)
    assert resolve_outcome(IdeaStatus.PENDING, None, None, exits) == (None, None)
    assert resolve_outcome(IdeaStatus.SUCCESSFUL, "manual", "99", exits) == ("manual", "99")
    refused = [
        (IdeaStatus.SUCCESSFUL, "exit2", None, "This idea has no Exit 2"),
        (IdeaStatus.SUCCESSFUL, "manual", None, "A manual close needs a numeric closePrice"),
        (IdeaStatus.SUCCESSFUL, "invalidation", None, "Outcome invalidation does not fit status successful"),
        (IdeaStatus.SUCCESSFUL, "exit1", "99", "closePrice is only given for a manual close"),
        (IdeaStatus.PENDING, "exit1", None, "An outcome is only given when an idea is completed"),
    ]
    for status, outcome, price, message in refused:
        with pytest.raises(Invalid) as error:
            resolve_outcome(status, outcome, price, exits)
        assert error.value.message == message
        assert error.value.status_code == 422


def test_a_manual_close_is_a_win_only_in_profit() -> None:
    assert manual_status(IdeaStatus.UNSUCCESSFUL, 0.4) == IdeaStatus.SUCCESSFUL
    assert manual_status(IdeaStatus.SUCCESSFUL, -0.4) == IdeaStatus.UNSUCCESSFUL
    assert manual_status(IdeaStatus.SUCCESSFUL, 0.0) == IdeaStatus.UNSUCCESSFUL
    assert manual_status(IdeaStatus.SUCCESSFUL, None) == IdeaStatus.SUCCESSFUL  # profit unknown


def _tally(*results: tuple[str, float | None]) -> Tally:
    tally = Tally()
    for status, r in results:
        tally.add(status, r)
    return tally


def test_figures_of_a_sequence() -> None:
    seq = [("successful", 2.0), ("unsuccessful", -1.0), ("unsuccessful", -1.0), ("successful", 3.0),
           ("invalidated", None), ("successful", None), ("unsuccessful", -1.0)]  # fmt: skip
    out = figures(_tally(*seq), active=2, withdrawn=1)
    assert out["wins"] == 3 and out["losses"] == 3 and out["not_triggered"] == 1
    assert out["completed"] == 7 and out["ideas"] == 9 and out["active"] == 2
    assert out["win_rate"] == 0.5
    assert out["total_r"] == 2.0 and out["average_r"] == 0.4  # 2 / 5 ideas with R
    assert out["profit_factor"] == 1.67  # 5 / 3
    assert out["max_drawdown_r"] == 2.0  # peak 2, trough 0
    assert (out["best_r"], out["worst_r"]) == (3.0, -1.0)
    assert out["deleted_after_publish"] == 1


def test_runs_combine_exactly_in_any_split() -> None:
    values = [1.5, -1.0, -2.0, 0.5, 3.0, -1.0, -1.0, -1.0, 2.0]
    whole = _tally(*(("successful" if v > 0 else "unsuccessful", v) for v in values))
    for cut in range(len(values) + 1):
        left = _tally(*(("successful" if v > 0 else "unsuccessful", v) for v in values[:cut]))
        right = _tally(*(("successful" if v > 0 else "unsuccessful", v) for v in values[cut:]))
        assert figures(left.then(right), 0, 0) == figures(whole, 0, 0)
    assert figures(whole, 0, 0)["max_drawdown_r"] == 3.0  # from 1.5 down to -1.5


def test_no_ideas_means_no_rates() -> None:
    out = figures(Tally(), 0, 0)
    assert out["win_rate"] is None and out["average_r"] is None and out["profit_factor"] is None
    assert out["total_r"] == 0.0 and out["best_r"] is None and out["max_drawdown_r"] == 0.0


@pytest.mark.parametrize("limit", [1, 2, 5, 60])
def test_a_sparkline_extended_by_one_idea_equals_one_made_from_the_whole_curve(
    monkeypatch: pytest.MonkeyPatch, limit: int
) -> None:
    monkeypatch.setattr(figures_module, "SPARKLINE_POINTS", limit)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    curve = [(start + timedelta(hours=i), float(i % 7 - 3)) for i in range(400)]
    line: list[tuple[datetime, float]] = []
    for n, point in enumerate(curve):
        line = extend_sparkline(line, n, point)
        assert line == sparkline(curve[: n + 1])
        assert len(line) <= limit + 1 and line[-1] == point
