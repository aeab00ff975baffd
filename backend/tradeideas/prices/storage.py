"""The stored candles (a feed's answers kept for the chart and the receipts), checkpoints of the replay's progress,
and the feeds' last reported status. Run in the caller's transaction; nothing here commits.
"""

import asyncio
from collections.abc import Sequence
from datetime import datetime
from decimal import Decimal
from typing import Any

import orjson
from sqlalchemy import delete, exists, func, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.core.models import AppMeta
from tradeideas.prices.models import IdeaVerification, PriceCandle
from tradeideas.prices.progress import DETAIL, GRANULARITY_SECONDS, Candle, Prices, Progress
from tradeideas.prices.rows import DETAIL_KEEP, decimal_text, dump_progress, r_rounded, to_epoch

# What a stored candle is read as: plain columns, not ORM objects. Loading a symbol's candles as mapped rows was a
# fifth of the first round after a start (py-spy), spent on the event loop of the process's requests.
CANDLE_COLUMNS = (
    PriceCandle.time,
    PriceCandle.granularity,
    PriceCandle.open,
    PriceCandle.high,
    PriceCandle.low,
    PriceCandle.close,
    PriceCandle.ask_open,
    PriceCandle.ask_high,
    PriceCandle.ask_low,
    PriceCandle.ask_close,
    PriceCandle.complete,
)
CANDLES_PER_YIELD = 2000  # converted between two chances for the event loop's other tasks


def candle_of(row: Sequence[Any]) -> Candle:
    """The candle of a row of `CANDLE_COLUMNS`."""
    time, granularity, open_, high, low, close, ask_open, ask_high, ask_low, ask_close, complete = row
    ask = None
    if ask_open is not None:
        ask = Prices(
            Decimal(ask_open),
            Decimal(ask_high or ask_open),
            Decimal(ask_low or ask_open),
            Decimal(ask_close or ask_open),
        )
    return Candle(time, granularity, Prices(Decimal(open_), Decimal(high), Decimal(low), Decimal(close)), ask, complete)


async def store_candles(db: AsyncSession, series: Sequence[tuple[str, str, Sequence[Candle]]]) -> None:
    """Insert or replace the candles of (feed, symbol, candles) series (an open candle is replaced by its later,
    complete self)."""
    values = [
        {
            "feed": feed,
            "symbol": symbol,
            "granularity": c.granularity,
            "time": c.time,
            "open": str(c.bid.open),
            "high": str(c.bid.high),
            "low": str(c.bid.low),
            "close": str(c.bid.close),
            "ask_open": decimal_text(c.ask.open) if c.ask else None,
            "ask_high": decimal_text(c.ask.high) if c.ask else None,
            "ask_low": decimal_text(c.ask.low) if c.ask else None,
            "ask_close": decimal_text(c.ask.close) if c.ask else None,
            "complete": c.complete,
        }
        for feed, symbol, candles in series
        for c in candles
    ]
    if not values:
        return
    insert = pg_insert if db.get_bind().dialect.name == "postgresql" else sqlite_insert
    stmt = insert(PriceCandle)
    columns = {k: stmt.excluded[k] for k in values[0] if k not in ("feed", "symbol", "granularity", "time")}
    upsert = stmt.on_conflict_do_update(index_elements=["feed", "symbol", "granularity", "time"], set_=columns)
    await db.execute(upsert, values)  # one statement, compiled once, for every candle of the round


async def stored_candles(
    db: AsyncSession, feed: str, symbol: str, granularity: str, start: int, end: int | None = None
) -> list[Candle]:
    stmt = select(*CANDLE_COLUMNS).where(
        PriceCandle.feed == feed,
        PriceCandle.symbol == symbol,
        PriceCandle.granularity == granularity,
        PriceCandle.time >= start,
    )
    if end is not None:
        stmt = stmt.where(PriceCandle.time < end)
    rows = await db.execute(stmt.order_by(PriceCandle.time))
    candles: list[Candle] = []
    for chunk in rows.partitions(CANDLES_PER_YIELD):
        candles.extend(candle_of(r) for r in chunk)
        await asyncio.sleep(0)
    return candles


async def last_complete(db: AsyncSession, feed: str, symbol: str, granularity: str) -> int | None:
    """The end of the newest complete stored candle (where the next request starts), None when none is stored."""
    latest = await db.execute(
        select(func.max(PriceCandle.time)).where(
            PriceCandle.feed == feed,
            PriceCandle.symbol == symbol,
            PriceCandle.granularity == granularity,
            PriceCandle.complete.is_(True),
        )
    )
    value = latest.scalar_one()
    return None if value is None else int(value) + GRANULARITY_SECONDS[granularity]


async def prune_candles(db: AsyncSession, now: datetime) -> int:
    """Retention: candles of symbols no idea is checked on, and finer candles older than a day (the receipts
    keep a copy of each candle that proved a step)."""
    v = IdeaVerification
    needed = exists().where(v.feed == PriceCandle.feed, v.symbol == PriceCandle.symbol)
    detail = await db.execute(
        delete(PriceCandle).where(
            PriceCandle.granularity.in_(list(DETAIL.values())),
            PriceCandle.time < to_epoch(now - DETAIL_KEEP),
        )
    )
    unused = await db.execute(delete(PriceCandle).where(~needed))
    return int(getattr(detail, "rowcount", 0) or 0) + int(getattr(unused, "rowcount", 0) or 0)


# ---------------------------------------------------------------- one series


async def open_series(db: AsyncSession) -> list[tuple[int, str | None, str | None]]:
    """(idea id, feed, symbol) of every idea still waiting or open: plain columns, no JSON decoded."""
    v = IdeaVerification
    rows = await db.execute(select(v.idea_id, v.feed, v.symbol).where(v.done.is_(False)))
    return [(idea_id, feed, symbol) for idea_id, feed, symbol in rows.all()]


# Cursor-only moves are written every ten minutes of price path: a restart replays at most that much.
CHECKPOINT_SECONDS = 600


async def write_checkpoints(db: AsyncSession, moved: Sequence[tuple[int, Progress]], now: datetime) -> None:
    """Cursor-only progress (no step: nothing shown changes but MAE/MFE) in one statement per batch."""
    if not moved:
        return
    rows = [
        {
            "idea_id": i,
            "progress": dump_progress(p),
            "mae_r": r_rounded(p.mae),
            "mfe_r": r_rounded(p.mfe),
            "updated_at": now,
        }
        for i, p in moved
    ]
    await db.execute(update(IdeaVerification), rows)  # bulk UPDATE by primary key


# ---------------------------------------------------------------- feed status (any process answers /api/health)

STATUS_KEY = "price_feed_status"


async def write_status(db: AsyncSession, report: dict[str, Any]) -> None:
    """The leading process's `PricePoller.report()`, for every process's `/api/health`."""
    value = orjson.dumps(report).decode()
    row = await db.get(AppMeta, STATUS_KEY)
    if row is None:
        db.add(AppMeta(key=STATUS_KEY, value=value))
    elif row.value != value:
        row.value = value
