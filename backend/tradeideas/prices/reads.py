"""What the API and other domains read of the price checks: one idea's check and chart, many ideas' shown checks in
one driver query, the price-checked figures of a track record, the latest stored prices, and the feeds' status as
the leading process last wrote it (`/api/health`).
"""

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import orjson
from sqlalchemy import Select, and_, case, func, not_, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.core.models import AppMeta
from tradeideas.core.schemas import LEVEL_NAMES
from tradeideas.db import DriverQuery, DriverReader, id_in
from tradeideas.prices.models import IdeaVerification, PriceCandle
from tradeideas.prices.progress import GRANULARITY_SECONDS, Candle
from tradeideas.prices.rows import BASE, CHART_LEAD, TWO_SIDED, to_epoch
from tradeideas.prices.schemas import CandleOut, CandlesOut, VerifiedFigures
from tradeideas.prices.storage import STATUS_KEY, stored_candles
from tradeideas.settings import Settings


async def feed_status(db: AsyncSession, settings: Settings) -> tuple[str, dict[str, Any]]:
    """ok, degraded (a symbol failing, or not asked yet) or off, as the leading process last found it, and per
    feed its last success and the symbols failing and why."""
    if settings.price_feed == "off":
        return "off", {}
    row = await db.get(AppMeta, STATUS_KEY)
    try:
        report = orjson.loads(row.value) if row is not None else {}
    except orjson.JSONDecodeError:  # written by a version that stored the status alone
        report = {"status": row.value if row is not None else "degraded"}
    if not isinstance(report, dict):
        report = {}
    status = "ok" if report.get("status") == "ok" else "degraded"
    feeds = report.get("feeds")
    return status, feeds if isinstance(feeds, dict) else {}


async def verification_of(db: AsyncSession, idea_id: int) -> dict[str, Any] | None:
    row = (await db.execute(select(IdeaVerification.shown).where(IdeaVerification.idea_id == idea_id))).scalar()
    return None if row is None else orjson.loads(row)


def _shown_statement(dialect: str) -> Any:
    v = IdeaVerification.__table__
    return select(v.c.idea_id, v.c.shown).where(id_in(v.c.idea_id, "ids", dialect))


_SHOWN = DriverQuery(_shown_statement)


async def read_verifications(reader: DriverReader, ids: Sequence[int]) -> dict[int, dict[str, Any]]:
    """Per idea id, its `verification` object (ideas not yet adopted by the poller have none)."""
    if not ids:
        return {}
    rows = await reader.rows(_SHOWN, ids=list(ids))
    return {row["idea_id"]: orjson.loads(row["shown"]) for row in rows if row["shown"]}


# The chart's candle sizes (minutes) and their labels: the first that draws the idea's window in at most
# `CHART_MOST_CANDLES` candles (60-200 for any window from an hour to the 90 days an idea can stay open).
# Each size is at most 3.3 times the one before (200 / 60), so some size always lands in the range.
CHART_SIZES = ((1, "1m"), (2, "2m"), (3, "3m"), (5, "5m"), (10, "10m"), (15, "15m"), (30, "30m"), (60, "1h"),
               (120, "2h"), (240, "4h"), (480, "8h"), (1440, "1d"))  # fmt: skip
CHART_MOST_CANDLES = 200


def chart_size(seconds: int) -> tuple[int, str]:
    """The candle size (seconds, label) for a window of `seconds`."""
    for minutes, label in CHART_SIZES:
        if seconds / (minutes * 60) <= CHART_MOST_CANDLES:
            return minutes * 60, label
    minutes, label = CHART_SIZES[-1]
    return minutes * 60, label


def level_precision(levels: dict[str, str | None]) -> int:
    """Decimals the educator wrote the levels with (1.0850: 4), the chart's price precision."""
    places = 0
    for key in LEVEL_NAMES:
        text = (levels.get(key) or "").replace(",", "").strip()
        _, dot, fraction = text.partition(".")
        if dot and fraction.isdigit():
            places = max(places, len(fraction))
    return min(places, 10)


def chart_candles(candles: Sequence[Candle], size: int) -> list[CandleOut]:
    """Base candles (bid) merged into candles of `size` seconds, oldest first."""
    out: list[CandleOut] = []
    for c in candles:
        start = c.time - c.time % size
        if out and out[-1].time == start:
            last = out[-1]
            last.high = max(last.high, float(c.bid.high))
            last.low = min(last.low, float(c.bid.low))
            last.close = float(c.bid.close)
        else:
            out.append(
                CandleOut(
                    time=start,
                    open=float(c.bid.open),
                    high=float(c.bid.high),
                    low=float(c.bid.low),
                    close=float(c.bid.close),
                )
            )
    return out


async def candles_for(db: AsyncSession, idea_id: int, now: datetime) -> CandlesOut:
    """The stored candles of the idea's symbol from an hour before publishing to settlement (or now), merged into
    a size that draws the window in 60-200 candles."""
    row = await db.get(IdeaVerification, idea_id)
    if row is None:  # not adopted by the poller yet: nothing stored for it
        return CandlesOut(feed=None, symbol=None, granularity=None, precision=2, candles=[])
    precision = level_precision(row.levels)
    if row.feed is None or row.symbol is None:
        return CandlesOut(feed=row.feed, symbol=row.symbol, granularity=None, precision=precision, candles=[])
    granularity = BASE[row.feed]
    end = row.settled_at or now
    start = to_epoch(row.published_at - CHART_LEAD)
    step = GRANULARITY_SECONDS[granularity]
    size, label = chart_size(max(step, to_epoch(end) - start))
    stored = await stored_candles(db, row.feed, row.symbol, granularity, start - start % size, to_epoch(end) + step)
    return CandlesOut(
        feed=row.feed,
        symbol=row.symbol,
        granularity=label,
        precision=precision,
        side="bid" if row.feed in TWO_SIDED else None,
        candles=chart_candles(stored, size),
    )


# ---------------------------------------------------------------- track records


# An educator without a settled or unverifiable check: the counts of `verified_figures`, and no sum of R.
NOTHING_COUNTED = (0, 0, 0, None, 0, 0, 0, 0)


async def price_checked_r(db: AsyncSession, idea_ids: Iterable[int]) -> dict[int, float]:
    """Each idea's price-checked R, by id, for ideas whose check settled with a trade (not triggered: no trade)."""
    wanted = set(idea_ids)
    if not wanted:
        return {}
    v = IdeaVerification
    rows = await db.execute(
        select(v.idea_id, v.r_multiple).where(
            v.idea_id.in_(wanted),
            v.state == "settled",
            func.coalesce(v.outcome, "") != "not_triggered",
            v.r_multiple.is_not(None),
        )
    )
    return {idea_id: r for idea_id, r in rows if r is not None}


async def verified_figures(
    db: AsyncSession,
    educator_ids: Sequence[int],
    ideas: Select[int] | None = None,
    since: datetime | None = None,
) -> dict[int, tuple[VerifiedFigures, float | None]]:
    """Per educator: the verified figures and the agreement rate (share of ideas with both verdicts that agree).

    A filtered record passes `ideas` (a select of the idea ids it counts) and `since` (its period: ideas settled
    from then on, or for unverifiable ones published from then on). Counted by the database in one statement: the
    educators list asks for every educator's at once, after every completion, and a record may hold 100,000 ideas.
    """
    v = IdeaVerification
    settled = v.state == "settled"
    traded = and_(settled, func.coalesce(v.outcome, "") != "not_triggered")
    won = and_(
        traded,
        or_(
            v.outcome.in_(("exit1", "exit2", "exit3")), and_(v.outcome == "manual", func.coalesce(v.r_multiple, 0) > 0)
        ),
    )
    with_r = and_(traded, v.r_multiple.is_not(None))
    both = and_(settled, v.outcome.is_not(None), v.educator_outcome.is_not(None))
    # `settlement.agrees`: an ambiguous candle counts as the stop.
    verdict = case((v.outcome == "ambiguous", "invalidation"), else_=v.outcome)

    def count(condition: Any) -> Any:
        return func.coalesce(func.sum(case((condition, 1), else_=0)), 0)

    stmt = (
        select(
            v.educator_id,
            count(settled),
            count(won),
            count(and_(traded, not_(won))),
            func.sum(case((with_r, v.r_multiple))),
            count(with_r),
            count(v.state == "unverifiable"),
            count(both),
            count(and_(both, verdict == v.educator_outcome)),
        )
        .where(v.educator_id.in_(list(educator_ids)), v.state.in_(["settled", "unverifiable"]))
        .group_by(v.educator_id)
    )
    if ideas is not None:
        stmt = stmt.where(v.idea_id.in_(ideas))
    if since is not None:
        stmt = stmt.where(func.coalesce(v.settled_at, v.published_at) >= since)
    counted = {row[0]: row[1:] for row in (await db.execute(stmt)).all()}
    out = {}
    for educator_id in educator_ids:
        n_settled, wins, losses, sum_r, n_r, unverifiable, n_both, n_agree = counted.get(educator_id, NOTHING_COUNTED)
        decided = wins + losses
        total = round(sum_r or 0.0, 2) + 0.0
        figures = VerifiedFigures(
            settled=n_settled,
            wins=wins,
            losses=losses,
            win_rate=round(wins / decided, 4) if decided else None,
            total_r=total,
            average_r=round(total / n_r, 2) if n_r else None,
            unverifiable=unverifiable,
        )
        out[educator_id] = (figures, round(n_agree / n_both, 4) if n_both else None)
    return out


# ---------------------------------------------------------------- latest prices, for other domains (the desk)

LATEST_PRICE_MAX_AGE = timedelta(days=3)  # older than this (a weekend and a bit), a stored price is not "latest"


async def latest_price(db: AsyncSession, feed: str, symbol: str, now: datetime) -> tuple[Decimal, datetime] | None:
    """The newest stored close (bid) of `symbol` on `feed` and the moment its candle started, if recent enough."""
    newest = await db.execute(
        select(PriceCandle.close, PriceCandle.time)
        .where(
            PriceCandle.feed == feed,
            PriceCandle.symbol == symbol,
            PriceCandle.time >= to_epoch(now - LATEST_PRICE_MAX_AGE),
        )
        .order_by(PriceCandle.time.desc())
        .limit(1)
    )
    row = newest.first()
    if row is None:
        return None
    price = Decimal(row.close)
    return (price, datetime.fromtimestamp(row.time, UTC)) if price > 0 else None


async def latest_rate(
    db: AsyncSession, settings: Settings, base: str, quote: str, now: datetime
) -> tuple[Decimal, datetime, str] | None:
    """How many `quote` one `base` is worth from the configured feeds' latest stored prices: (rate, as of, feed).

    Tried in order: the forex feed in use (OANDA as BASE_QUOTE, Dukascopy as BASEQUOTE), then QUOTE BASE inverted;
    Binance likewise. None when no feed is configured or none has a recent price of either symbol (the customer
    types the rate).
    """
    if settings.price_feed != "live":
        return None
    tries: list[tuple[str, str, bool]] = []
    forex = settings.forex_feed_in_use
    if forex == "oanda" and settings.oanda_token:
        tries += [("oanda", f"{base}_{quote}", False), ("oanda", f"{quote}_{base}", True)]
    elif forex == "dukascopy":
        tries += [("dukascopy", f"{base}{quote}", False), ("dukascopy", f"{quote}{base}", True)]
    tries += [("binance", f"{base}{quote}", False), ("binance", f"{quote}{base}", True)]
    for feed, symbol, inverted in tries:
        found = await latest_price(db, feed, symbol, now)
        if found is not None:
            price, at = found
            return (1 / price if inverted else price), at, feed
    return None


async def verdicts(db: AsyncSession, batch: int = 5000) -> Any:
    """Every final price check's (idea id, state, verdict, R), by idea id, a batch at a time: what `tradeideas
    verify-ledger` compares with the ledger's last `settled` or `unverifiable` step of each idea. The verdict is
    the outcome, or the reason an idea could not be checked, as the step records it."""
    v = IdeaVerification
    after = 0
    while True:
        rows = (
            await db.execute(
                select(v.idea_id, v.state, func.coalesce(v.outcome, v.reason), v.r_multiple)
                .where(v.state.in_(("settled", "unverifiable")), v.idea_id > after)
                .order_by(v.idea_id)
                .limit(batch)
            )
        ).all()
        if not rows:
            return
        yield rows
        after = rows[-1][0]
