"""The settlement rules (decision 0050), one test per rule."""

from decimal import Decimal as D

import pytest

from tradeideas.ideas.outcomes import Levels, r_multiple
from tradeideas.prices.progress import (
    MAX_SECONDS,
    NOT_NUMBERS,
    TRIGGER_SECONDS,
    Candle,
    Plan,
    Prices,
    Progress,
    plan_for,
)
from tradeideas.prices.settlement import advance, agrees

T0 = 1_700_000_040  # a minute boundary
M = 60


def px(o: float, h: float, lo: float, c: float) -> Prices:
    return Prices(D(str(o)), D(str(h)), D(str(lo)), D(str(c)))


def bar(i: int, o: float, h: float, lo: float, c: float, *, complete: bool = True, g: str = "1m") -> Candle:
    return Candle(T0 + i * M, g, px(o, h, lo, c), complete=complete)


def fx(i: int, bid: tuple[float, ...], ask: tuple[float, ...], g: str = "M1") -> Candle:
    return Candle(T0 + i * M, g, px(*bid), px(*ask))


def sec(base: int, s: int, o: float, h: float, lo: float, c: float) -> Candle:
    return Candle(T0 + base * M + s, "1s", px(o, h, lo, c))


def plan(
    order: str = "BUY",
    entry: str = "100",
    stop: str = "90",
    exits: tuple[str | None, ...] = ("110", "120", None),
    forex: bool = False,
) -> Plan:
    levels = Levels(order, entry, None, stop, exits[0] or "", exits[1], exits[2])
    result = plan_for(levels, T0, forex)
    assert isinstance(result, Plan)
    return result


def run(p: Plan, candles: list[Candle], detail: dict[int, list[Candle]] | None = None) -> Progress:
    return advance(p, Progress(), candles, now=candles[-1].end if candles else T0, detail=detail or {})


def test_buy_breakout_waits_for_entry_then_reaches_exits_in_order() -> None:
    p = plan()
    path = [bar(0, 95, 96, 94, 95), bar(1, 95, 99, 95, 99)]
    assert run(p, path).state == "waiting"
    path += [bar(2, 99, 101, 98.5, 100.5), bar(3, 100.5, 111, 100, 110.5)]
    progress = run(p, path)
    assert progress.state == "triggered" and progress.reached == 1
    assert [r.step for r in progress.receipts] == ["triggered", "exit1"]
    progress = advance(p, progress, [*path, bar(4, 110.5, 121, 110, 119)], now=T0 + 5 * M)
    assert progress.state == "settled" and progress.outcome == "exit2"
    assert progress.r_multiple == r_multiple(p.levels, "exit2", None) == 2.0
    assert progress.settlement_price == D(120)
    assert [r.step for r in progress.receipts] == ["triggered", "exit1", "exit2"]


def test_buy_published_above_waits_for_the_pull_back() -> None:
    p = plan()
    progress = run(p, [bar(0, 105, 106, 101, 102), bar(1, 102, 103, 99.5, 101)])
    assert progress.state == "triggered" and progress.receipts[0].price == D(100)


def test_sell_mirrors_buy_and_stops_at_the_invalidation() -> None:
    p = plan("SELL", "100", "110", ("90", None, None))
    progress = run(p, [bar(0, 98, 100.5, 97, 100), bar(1, 100, 105, 99, 104), bar(2, 104, 111, 103, 109)])
    assert progress.outcome == "invalidation" and progress.r_multiple == -1.0
    assert progress.mae == D(-1) and progress.mfe == D("0.1")


def test_invalidation_before_entry_is_not_triggered() -> None:
    p = plan(entry="100", stop="90")
    progress = run(p, [bar(0, 95, 96, 89, 91)])
    assert progress.state == "settled" and progress.outcome == "not_triggered" and progress.r_multiple is None


def test_nothing_triggers_within_the_trigger_window() -> None:
    p = plan()
    quiet = [bar(0, 95, 96, 94, 95)]
    assert run(p, quiet).state == "waiting"
    later = Candle(T0 + TRIGGER_SECONDS, "1m", px(95, 96, 94, 95))
    progress = advance(p, run(p, quiet), [later], now=later.end)
    assert progress.outcome == "not_triggered" and progress.settled_at == T0 + TRIGGER_SECONDS


def test_open_after_the_maximum_closes_manually_at_the_last_price() -> None:
    p = plan()
    progress = run(p, [bar(0, 99, 101, 99, 101), bar(1, 101, 105, 101, 105)])
    assert progress.state == "triggered"
    later = Candle(T0 + MAX_SECONDS, "1m", px(104, 104, 104, 104))
    progress = advance(p, progress, [later], now=later.end)
    assert progress.outcome == "manual" and progress.settlement_price == D(105) and progress.r_multiple == 0.5


def test_a_gap_through_the_stop_fills_at_the_open_beyond_it() -> None:
    p = plan()
    progress = run(p, [bar(0, 99, 101, 99, 100), bar(1, 100, 101, 95, 96), bar(2, 85, 86, 84, 85)])
    assert progress.outcome == "invalidation" and progress.settlement_price == D(85)
    assert progress.r_multiple == -1.5  # a gap can cost more than 1 R


def test_a_gap_through_entry_triggers_at_the_open() -> None:
    p = plan()
    progress = run(p, [bar(0, 97, 98, 96, 98), bar(1, 102, 104, 101, 103)])
    assert progress.state == "triggered" and progress.receipts[0].price == D(102)


def test_a_candle_spanning_stop_and_exit_is_drilled_into() -> None:
    p = plan(exits=("110", None, None))
    first = [bar(0, 99, 101, 99, 100)]
    wide = bar(1, 100, 111, 89, 100)
    progress = run(p, [*first, wide])
    assert progress.needs_detail == wide.time and progress.state == "triggered"
    seconds = [sec(1, 0, 100, 111, 100, 110), sec(1, 1, 110, 110, 89, 89)]
    progress = advance(p, progress, [*first, wide], now=wide.end, detail={wide.time: seconds})
    assert progress.outcome == "exit1" and progress.receipts[-1].granularity == "1s"


def test_still_both_after_drilling_is_ambiguous_counted_as_the_stop() -> None:
    p = plan(exits=("110", None, None))
    first = [bar(0, 99, 101, 99, 100)]
    wide = bar(1, 100, 111, 89, 100)
    progress = advance(
        p, run(p, first), [*first, wide], now=wide.end, detail={wide.time: [sec(1, 0, 100, 111, 89, 100)]}
    )
    assert progress.outcome == "ambiguous" and progress.r_multiple == -1.0
    assert agrees("ambiguous", "invalidation") is True and agrees("ambiguous", "exit1") is False


def test_no_finer_candles_reads_the_candle_cautiously() -> None:
    p = plan(exits=("110", None, None))
    first = [bar(0, 99, 101, 99, 100)]
    wide = bar(1, 100, 111, 89, 100)
    progress = advance(p, run(p, first), [*first, wide], now=wide.end, detail={wide.time: []})
    assert progress.outcome == "ambiguous"


def test_stop_after_an_exit_keeps_the_exit_verdict() -> None:
    p = plan()
    progress = run(p, [bar(0, 99, 101, 99, 100), bar(1, 100, 111, 100, 105), bar(2, 105, 106, 89, 90)])
    assert progress.outcome == "exit1" and progress.r_multiple == 1.0 and progress.settlement_price == D(110)
    assert [r.step for r in progress.receipts] == ["triggered", "exit1", "stop"]


def test_forex_buy_triggers_on_the_ask_and_exits_on_the_bid() -> None:
    p = plan(entry="1.1000", stop="1.0950", exits=("1.1050", None, None), forex=True)
    # The bid touches entry but the ask stays above: a BUY triggers on the ask, so it does.
    c0 = fx(0, (1.1010, 1.1012, 1.0999, 1.1005), (1.1012, 1.1014, 1.1001, 1.1007))
    assert run(p, [c0]).state == "waiting"
    c1 = fx(1, (1.1005, 1.1006, 1.0996, 1.1000), (1.1007, 1.1008, 1.0998, 1.1002))
    progress = run(p, [c0, c1])
    assert progress.state == "triggered" and progress.receipts[0].side == "ask"
    # The ask reaches the exit, the bid does not: not reached yet.
    c2 = fx(2, (1.1000, 1.1049, 1.1000, 1.1040), (1.1002, 1.1051, 1.1002, 1.1042))
    assert run(p, [c0, c1, c2]).reached == 0
    c3 = fx(3, (1.1040, 1.1050, 1.1040, 1.1045), (1.1042, 1.1052, 1.1042, 1.1047))
    progress = run(p, [c0, c1, c2, c3])
    assert progress.outcome == "exit1" and progress.receipts[-1].side == "bid"


def test_forex_sell_triggers_on_the_bid_and_stops_on_the_ask() -> None:
    p = plan("SELL", "1.1000", "1.1050", ("1.0950", None, None), forex=True)
    c0 = fx(0, (1.0990, 1.1000, 1.0990, 1.0998), (1.0992, 1.1002, 1.0992, 1.1000))
    c1 = fx(1, (1.0998, 1.1049, 1.0998, 1.1040), (1.1000, 1.1051, 1.1000, 1.1042))
    progress = run(p, [c0, c1])
    assert (
        progress.outcome == "invalidation"
        and progress.receipts[0].side == "bid"
        and progress.receipts[-1].side == "ask"
    )


def test_an_open_candle_settles_without_waiting_for_its_close_and_is_not_repeated() -> None:
    p = plan(exits=("110", None, None))
    start = [bar(0, 99, 101, 99, 100)]
    live = bar(1, 100, 110.2, 100, 110.1, complete=False)
    progress = run(p, [*start, live])
    assert progress.outcome == "exit1"
    # The same candle again, complete: a settled idea takes no further step.
    again = advance(p, progress, [*start, bar(1, 100, 112, 100, 111)], now=T0 + 3 * M)
    assert again == progress


def test_replaying_the_same_candles_repeats_no_step() -> None:
    p = plan()
    path = [bar(0, 99, 101, 99, 100), bar(1, 100, 111, 100, 105)]
    once = run(p, path)
    assert advance(p, once, path, now=path[-1].end).receipts == once.receipts


def test_levels_that_are_not_numbers_are_unverifiable() -> None:
    assert plan_for(Levels("BUY", "about 100", None, "90", "110", None, None), T0, False) == NOT_NUMBERS
    assert "not in order" in str(plan_for(Levels("BUY", "100", None, "110", "120", None, None), T0, False))


def test_candles_before_publishing_are_ignored() -> None:
    p = plan()
    before = Candle(T0 - M, "1m", px(99, 101, 99, 100))
    assert run(p, [before]).state == "waiting"


@pytest.mark.parametrize(
    ("verified", "educator", "expected"), [("exit1", "exit1", True), ("exit2", "exit1", False), (None, "exit1", None)]
)
def test_agreement(verified: str | None, educator: str | None, expected: bool | None) -> None:
    assert agrees(verified, educator) is expected
