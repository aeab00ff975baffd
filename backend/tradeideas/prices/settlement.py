"""The settlement rules (decision 0050): an idea's recorded levels replayed against a feed's candles.

Pure functions, no database and no network: `advance` takes what is known so far (`Progress`), the candles
that followed, and returns what is known now. It is called again with newer candles as they arrive, so it never
repeats a step it recorded and never takes one back. When a candle spans two levels whose order matters, it asks
for that candle's finer candles (`Progress.needs_detail`); the caller fetches them and calls again.

R uses the educator's arithmetic (`ideas.outcomes.r_multiple`), so both verdicts compare one to one.
"""

from collections.abc import Mapping, Sequence
from dataclasses import replace
from decimal import Decimal

from tradeideas.ideas.outcomes import exact_r, r_multiple
from tradeideas.prices.progress import (
    DETAIL,
    MAX_SECONDS,
    TRIGGER_SECONDS,
    Candle,
    Plan,
    Prices,
    Progress,
    Receipt,
    Side,
    Step,
)


def _entry_side(plan: Plan, candle: Candle) -> tuple[Prices, Side | None]:
    if not plan.two_sided or candle.ask is None:
        return candle.bid, None
    return (candle.ask, "ask") if plan.buy else (candle.bid, "bid")


def _exit_side(plan: Plan, candle: Candle) -> tuple[Prices, Side | None]:
    if not plan.two_sided or candle.ask is None:
        return candle.bid, None
    return (candle.bid, "bid") if plan.buy else (candle.ask, "ask")


def _crossed(prices: Prices, level: Decimal, previous: Decimal | None) -> Decimal | None:
    """The fill when the path from the previous close through this candle touches `level`, else None.

    Inside the candle's range it fills at the level; a gap over it (previous close on one side, the open on the
    other) fills at the open: the first price beyond it.
    """
    if prices.low <= level <= prices.high:
        return level
    if previous is not None and min(previous, prices.open) <= level <= max(previous, prices.open):
        return prices.open
    return None


def _beyond(plan: Plan, prices: Prices, level: Decimal, favourable: bool) -> Decimal | None:
    """The fill when an exit (`favourable`) or the stop trades in this candle: the level, or the open past it."""
    up = plan.buy == favourable  # a BUY's exits are above, its stop below; a SELL's the other way round
    if up and prices.high >= level:
        return max(level, prices.open)
    if not up and prices.low <= level:
        return min(level, prices.open)
    return None


def _close_beyond(plan: Plan, prices: Prices, level: Decimal) -> bool:
    return prices.close >= level if plan.buy else prices.close <= level


def _open_before_entry(plan: Plan, prices: Prices) -> bool:
    """The candle opens on the far side of the entry from the stop: the path meets the entry before the stop."""
    return prices.open >= plan.entry if plan.buy else prices.open <= plan.entry


def _r(plan: Plan, price: Decimal) -> Decimal:
    value = exact_r(plan.levels, price)
    return Decimal(0) if value is None else value


def _receipt(step: Step, candle: Candle, prices: Prices, side: Side | None, price: Decimal, now: int) -> Receipt:
    at = candle.time if candle.complete else min(max(candle.time, now), candle.end)
    return Receipt(
        step, at, candle.granularity, candle.time, prices.open, prices.high, prices.low, prices.close, side, price
    )


# ---------------------------------------------------------------- steps


def _trigger(p: Progress, plan: Plan, candle: Candle, fill: Decimal, now: int, base_time: int) -> Progress:
    prices, side = _entry_side(plan, candle)
    receipt = _receipt("triggered", candle, prices, side, fill, now)
    detail = candle.time if candle.granularity in DETAIL.values() else None
    return replace(
        p,
        state="triggered",
        receipts=(*p.receipts, receipt),
        triggered_at=receipt.at,
        trigger_candle=base_time,
        trigger_detail=detail,
        mae=Decimal(0),
        mfe=Decimal(0),
    )


def _reach(p: Progress, plan: Plan, candle: Candle, count: int, fill: Decimal, now: int) -> Progress:
    """Exits up to `count` reached in this candle (the last one at `fill`, the others at their levels)."""
    prices, side = _exit_side(plan, candle)
    receipts = list(p.receipts)
    for index in range(p.reached, count):
        price = fill if index == count - 1 else plan.exits[index]
        step: Step = ("exit1", "exit2", "exit3")[index]
        receipts.append(_receipt(step, candle, prices, side, price, now))
    mfe = max(p.mfe or Decimal(0), _r(plan, fill))
    p = replace(p, reached=count, receipts=tuple(receipts), mfe=mfe)
    if count == len(plan.exits):
        return _settle(p, plan, f"exit{count}", fill, receipts[-1].at)
    return p


def _stop(p: Progress, plan: Plan, candle: Candle, fill: Decimal, now: int, ambiguous: bool) -> Progress:
    prices, side = _exit_side(plan, candle)
    receipt = _receipt("stop", candle, prices, side, fill, now)
    p = replace(p, receipts=(*p.receipts, receipt), mae=min(p.mae or Decimal(0), _r(plan, fill)))
    if p.reached:  # the highest exit reached before the stop is the verdict, settled at that exit's price
        exit_price = next(r.price for r in reversed(p.receipts) if r.step == f"exit{p.reached}")
        return _settle(p, plan, f"exit{p.reached}", exit_price, receipt.at)
    return _settle(p, plan, "ambiguous" if ambiguous else "invalidation", fill, receipt.at)


def _settle(p: Progress, plan: Plan, outcome: str, price: Decimal, at: int) -> Progress:
    """Settled with `outcome` at `price`: R is the educator's arithmetic at that price (gap fills included)."""
    if outcome == "not_triggered":
        return replace(p, state="settled", outcome=outcome, settled_at=at)
    r = r_multiple(plan.levels, "manual", str(price))
    return replace(p, state="settled", outcome=outcome, settlement_price=price, r_multiple=r, settled_at=at)


def _track(p: Progress, plan: Plan, prices: Prices) -> Progress:
    """Worst and best moves of an open trade, in R, over a candle it stayed open through."""
    low, high = _r(plan, prices.low), _r(plan, prices.high)
    worst, best = (low, high) if plan.buy else (high, low)
    return replace(p, mae=min(p.mae or Decimal(0), worst, Decimal(0)), mfe=max(p.mfe or Decimal(0), best, Decimal(0)))


# ---------------------------------------------------------------- one candle


def _waiting(p: Progress, plan: Plan, c: Candle, now: int, base: int, finest: bool) -> Progress | None:
    """A waiting idea meets a candle; None when the candle must be drilled into."""
    entry_prices, _ = _entry_side(plan, c)
    exit_prices, _ = _exit_side(plan, c)
    fill = _crossed(entry_prices, plan.entry, p.last_entry_close)
    stop_fill = _beyond(plan, exit_prices, plan.stop, favourable=False)
    if fill is None:
        if stop_fill is not None:  # the invalidation traded first
            return _settle(
                p, plan, "not_triggered", stop_fill, _receipt("stop", c, exit_prices, None, stop_fill, now).at
            )
        return p
    exit_fill = _beyond(plan, exit_prices, plan.exits[0], favourable=True)
    if (stop_fill is not None or exit_fill is not None) and not finest:
        return None
    p = _trigger(p, plan, c, fill, now, base)
    if stop_fill is not None:
        # Opening beyond the entry, the price met it on its way to the stop; otherwise the order is unknown.
        return _stop(p, plan, c, stop_fill, now, ambiguous=not _open_before_entry(plan, entry_prices))
    return _after_trigger_in_same_candle(p, plan, c, now)


def _after_trigger_in_same_candle(p: Progress, plan: Plan, c: Candle, now: int) -> Progress:
    """Exits in the candle that triggered, with nothing finer to order them: counted only where it closed past them."""
    prices, _ = _exit_side(plan, c)
    count = p.reached
    for index in range(p.reached, len(plan.exits)):
        if _close_beyond(plan, prices, plan.exits[index]):
            count = index + 1
    if count > p.reached:
        return _reach(p, plan, c, count, plan.exits[count - 1], now)
    return p


def _open_trade(p: Progress, plan: Plan, c: Candle, now: int, finest: bool, trigger_candle: bool) -> Progress | None:
    """A triggered idea meets a candle; None when the candle must be drilled into."""
    prices, _ = _exit_side(plan, c)
    stop_fill = _beyond(plan, prices, plan.stop, favourable=False)
    count, exit_fill = p.reached, None
    for index in range(p.reached, len(plan.exits)):
        reached = _beyond(plan, prices, plan.exits[index], favourable=True)
        if reached is None:
            break
        count, exit_fill = index + 1, reached
    if trigger_candle:
        # The part of the trigger candle before the trigger is no evidence: without finer candles, a stop there
        # counts (the cautious reading) and an exit only where the candle closed past it.
        if (stop_fill is not None or exit_fill is not None) and not finest:
            return None
        if stop_fill is not None:
            return _stop(p, plan, c, stop_fill, now, ambiguous=exit_fill is not None and p.reached == 0)
        return _after_trigger_in_same_candle(p, plan, c, now)
    if stop_fill is not None and exit_fill is not None:
        if not finest:
            return None
        if stop_fill == prices.open:  # gapped through the stop: it came first
            return _stop(p, plan, c, stop_fill, now, ambiguous=False)
        if exit_fill == prices.open:  # gapped through the exit: it came first
            p = _reach(p, plan, c, count, exit_fill, now)
            return p if p.done else _stop(p, plan, c, stop_fill, now, ambiguous=False)
        return _stop(p, plan, c, stop_fill, now, ambiguous=p.reached == 0)
    if stop_fill is not None:
        return _stop(p, plan, c, stop_fill, now, ambiguous=False)
    if exit_fill is not None:
        p = _reach(p, plan, c, count, exit_fill, now)
        if p.done:
            return p
    return _track(p, plan, prices)


def _one(p: Progress, plan: Plan, c: Candle, now: int, base: int, finest: bool) -> Progress | None:
    if p.state == "waiting":
        return _waiting(p, plan, c, now, base, finest)
    if c.granularity in DETAIL:  # a base candle: the one that triggered holds prices from before the trigger
        return _open_trade(p, plan, c, now, finest, trigger_candle=base == p.trigger_candle)
    if p.trigger_candle == base and p.trigger_detail is not None and c.time < p.trigger_detail:
        return p  # a finer candle before the one that triggered: already accounted for
    in_trigger = p.trigger_candle == base and (p.trigger_detail is None or p.trigger_detail == c.time)
    return _open_trade(p, plan, c, now, finest, in_trigger)


def _closes(p: Progress, plan: Plan, c: Candle) -> Progress:
    if not c.complete:
        return p
    return replace(p, last_close=_exit_side(plan, c)[0].close, last_entry_close=_entry_side(plan, c)[0].close)


# ---------------------------------------------------------------- the replay


def advance(
    plan: Plan,
    progress: Progress,
    candles: Sequence[Candle],
    now: int,
    detail: Mapping[int, Sequence[Candle]] | None = None,
) -> Progress:
    """Replay `candles` (base granularity, oldest first; the last may be incomplete) after `progress`.

    `detail` maps a base candle's opening time to its finer candles (an empty list: the feed has none). Returns the
    new progress; when `needs_detail` is set, the replay stopped before that candle: fetch its finer candles and
    call again. Expiry (not triggered in `SETTLE_TRIGGER_DAYS`, still open after `SETTLE_MAX_DAYS`) is judged
    only on candles that cover the deadline, so an idea never settles on a feed outage.
    """
    detail = detail or {}
    p = replace(progress, needs_detail=None)
    for candle in candles:
        if p.done:
            break
        if candle.end <= max(p.cursor, plan.published):
            continue  # done with, or wholly before publishing
        expired = _expire(p, plan, candle.time)
        if expired is not None:
            return expired
        straddles_publish = candle.time < plan.published < candle.end
        result = _one(p, plan, candle, now, candle.time, finest=False)
        if straddles_publish and result is not None and (result.receipts, result.state) != (p.receipts, p.state):
            result = None  # a step in the minute of publishing: only the seconds after publishing count
        if result is None:
            fine = detail.get(candle.time)
            if fine is None:
                if candle.granularity in DETAIL:
                    return replace(p, needs_detail=candle.time)
                fine = []
            result = _drill(p, plan, candle, fine, now)
        p = result
        if candle.complete and not p.done:
            p = replace(_closes(p, plan, candle), cursor=candle.end)
    if not p.done:
        return _expire(p, plan, p.cursor) or p
    return p


def _drill(p: Progress, plan: Plan, candle: Candle, fine: Sequence[Candle], now: int) -> Progress:
    """The candle's finer candles in order; with none, the candle itself read by the cautious rules."""
    usable = sorted((f for f in fine if f.end > plan.published), key=lambda f: f.time)
    if p.state == "triggered" and p.trigger_candle == candle.time and p.trigger_detail is None:
        # Triggered on this candle before its finer candles were known: find the finer candle that did it.
        entry_close = p.last_entry_close
        for f in usable:
            if _crossed(_entry_side(plan, f)[0], plan.entry, entry_close) is not None:
                p = replace(p, trigger_detail=f.time)
                break
            entry_close = _entry_side(plan, f)[0].close
    if not usable:
        result = _one(p, plan, candle, now, candle.time, finest=True)
        assert result is not None
        return result
    for f in usable:
        if p.done:
            break
        result = _one(p, plan, f, now, candle.time, finest=True)
        assert result is not None
        p = _closes(result, plan, f)
    return p


def _expire(p: Progress, plan: Plan, covered_until: int) -> Progress | None:
    """Settle by the clock once the candles reach the deadline: not triggered, or closed at the last price."""
    if p.state == "waiting" and covered_until >= plan.published + TRIGGER_SECONDS:
        return replace(p, state="settled", outcome="not_triggered", settled_at=plan.published + TRIGGER_SECONDS)
    if p.state == "triggered" and covered_until >= plan.published + MAX_SECONDS and p.last_close is not None:
        return _settle(p, plan, "manual", p.last_close, plan.published + MAX_SECONDS)
    return None


def agrees(verified: str | None, educator: str | None) -> bool | None:
    """Whether the two verdicts agree, once both exist; an ambiguous candle counts as the stop."""
    if verified is None or educator is None:
        return None
    return (verified if verified != "ambiguous" else "invalidation") == educator
