"""Price checks: the verification rows, the stored candles, and what the API shows of them (decision 0050).

The poller (`poller.py`) drives `check_series` once per feed symbol and poll; everything here runs in the caller's
transaction and never commits. Each change of a verification publishes `IdeaVerificationChanged` (open pages
update) and each settlement step `IdeaPriceChecked` (the ledger), in the transaction that records it.
"""

import asyncio
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import orjson
from sqlalchemy import Select, and_, case, delete, exists, func, insert, not_, or_, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.core.events import DomainEvent
from tradeideas.core.models import AppMeta
from tradeideas.db import DriverQuery, DriverReader, id_in, utcnow
from tradeideas.ideas.outcomes import CORRECTION_WINDOW, Levels
from tradeideas.ideas.pricing import PricedIdea, ideas_to_price
from tradeideas.prices import settlement
from tradeideas.prices.events import IdeaPriceChecked, IdeaVerificationChanged
from tradeideas.prices.feeds import binance_symbol, dukascopy_instrument, oanda_instrument
from tradeideas.prices.models import IdeaVerification, PriceCandle
from tradeideas.prices.schemas import CandleOut, CandlesOut, ReceiptOut, Verification, VerifiedFigures
from tradeideas.prices.settlement import Candle, Plan, Prices, Progress, Receipt
from tradeideas.realtime.service import publish, publish_many
from tradeideas.settings import Settings

# Operators' words (the receipts' detail and the log); members read `NOT_AVAILABLE`.
NO_FOREX_FEED = "no forex feed configured (FOREX_FEED=off, or oanda without OANDA_TOKEN)"
NO_INSTRUMENT = "the pair has no {feed} symbol"
UNKNOWN_SYMBOL = "{feed} does not know {symbol}: {message}"
NOT_AVAILABLE = "not available for {pair} yet"
CHART_LEAD = timedelta(hours=1)  # the chart (and the stored candles) start this long before publishing
DETAIL_KEEP = timedelta(days=1)  # finer candles are kept this long: the receipts copy the ones that prove a step
BASE = {"binance": "1m", "oanda": "M1", "dukascopy": "T1m"}
TWO_SIDED = frozenset({"oanda", "dukascopy"})  # bid and ask: a BUY triggers on the ask, exits on the bid
FEED_LABELS = {"binance": "Binance", "oanda": "OANDA", "dukascopy": "Dukascopy"}


@dataclass(frozen=True)
class SeriesOf:
    """Where an idea is checked: the feed and its symbol, or why it cannot be (members' words, operators' words)."""

    feed: str | None
    symbol: str | None
    reason: str | None = None
    detail: str | None = None


def series_of(market: str, pair: str, settings: Settings) -> SeriesOf:
    """Crypto on Binance; forex, metals and indices on the forex feed in use (OANDA or Dukascopy)."""
    not_available = NOT_AVAILABLE.format(pair=pair.strip()[:32])
    if market == "crypto":
        symbol = binance_symbol(pair)
        if symbol is None:
            return SeriesOf("binance", None, not_available, NO_INSTRUMENT.format(feed="Binance"))
        return SeriesOf("binance", symbol)
    forex = settings.forex_feed_in_use
    if forex == "dukascopy":
        found = dukascopy_instrument(pair)
        if found is None:
            return SeriesOf("dukascopy", None, not_available, NO_INSTRUMENT.format(feed="Dukascopy"))
        return SeriesOf("dukascopy", found[0])
    instrument = oanda_instrument(pair)
    if instrument is None:
        return SeriesOf("oanda", None, not_available, NO_INSTRUMENT.format(feed="OANDA"))
    if forex == "off" or not settings.oanda_token:
        return SeriesOf("oanda", instrument, not_available, NO_FOREX_FEED)
    return SeriesOf("oanda", instrument)


def _epoch(moment: datetime) -> int:
    return int(moment.timestamp())


def _moment(epoch: int | None) -> datetime | None:
    return None if epoch is None else datetime.fromtimestamp(epoch, UTC)


# ---------------------------------------------------------------- progress <-> JSON


def _dec(value: Decimal | None) -> str | None:
    return None if value is None else str(value)


def dump_progress(p: Progress) -> dict[str, Any]:
    data = asdict(p)
    data.pop("needs_detail", None)
    data["receipts"] = [
        {k: (str(v) if isinstance(v, Decimal) else v) for k, v in asdict(r).items()} for r in p.receipts
    ]
    for key in ("settlement_price", "mae", "mfe", "last_close", "last_entry_close"):
        data[key] = _dec(getattr(p, key))
    return data


def load_progress(data: dict[str, Any]) -> Progress:
    if not data:
        return Progress()
    receipts = tuple(
        Receipt(
            step=r["step"],
            at=r["at"],
            granularity=r["granularity"],
            candle_time=r["candle_time"],
            open=Decimal(r["open"]),
            high=Decimal(r["high"]),
            low=Decimal(r["low"]),
            close=Decimal(r["close"]),
            side=r["side"],
            price=Decimal(r["price"]),
        )
        for r in data.get("receipts", [])
    )
    fields = {k: v for k, v in data.items() if k in Progress.__dataclass_fields__}
    for key in ("settlement_price", "mae", "mfe", "last_close", "last_entry_close"):
        if fields.get(key) is not None:
            fields[key] = Decimal(fields[key])
    fields["receipts"] = receipts
    return Progress(**fields)


def _levels_dict(levels: Levels) -> dict[str, str | None]:
    return asdict(levels)


def plan_of(row: IdeaVerification) -> Plan | str:
    levels = Levels(**row.levels)  # type: ignore[arg-type]
    return settlement.plan_for(levels, _epoch(row.published_at), two_sided=row.feed in TWO_SIDED)


# ---------------------------------------------------------------- what the API shows


def _r2(value: Decimal | None) -> float | None:
    return None if value is None else float(value.quantize(Decimal("0.01")))


def shown(row: IdeaVerification, feed_off: bool) -> dict[str, Any]:
    """The `verification` object, as JSON (pydantic's own encoding, so list pages and single reads match)."""
    state = row.state
    if feed_off and state in ("waiting", "triggered"):
        state = "off"
    model = Verification(
        state=state,
        outcome=row.outcome,
        r_multiple=row.r_multiple,
        settlement_price=row.settlement_price,
        triggered_at=row.triggered_at,
        settled_at=row.settled_at,
        mae_r=row.mae_r,
        mfe_r=row.mfe_r,
        feed=row.feed,
        symbol=row.symbol,
        reason=row.reason,
        detail=(row.progress or {}).get("detail"),
        receipts=[ReceiptOut.model_validate(r) for r in row.receipts],
        agrees=settlement.agrees(row.outcome, row.educator_outcome) if row.state == "settled" else None,
    )
    return model.model_dump(mode="json", by_alias=True)


def _receipt_json(r: Receipt) -> dict[str, Any]:
    return ReceiptOut(
        step=r.step,
        at=_moment(r.at),
        granularity=r.granularity,
        candle_time=_moment(r.candle_time),
        open=str(r.open),
        high=str(r.high),
        low=str(r.low),
        close=str(r.close),
        side=r.side,
        price=str(r.price),
    ).model_dump(mode="json", by_alias=True)


def apply_progress(row: IdeaVerification, p: Progress) -> None:
    row.state = p.state
    row.done = p.done
    row.outcome = p.outcome
    row.r_multiple = p.r_multiple
    row.settlement_price = _dec(p.settlement_price)
    row.triggered_at = _moment(p.triggered_at)
    row.settled_at = _moment(p.settled_at)
    row.mae_r = _r2(p.mae)
    row.mfe_r = _r2(p.mfe)
    row.reason = p.reason
    row.receipts = [_receipt_json(r) for r in p.receipts]
    row.progress = dump_progress(p)


def changed_event(row: IdeaVerification, settings: Settings) -> IdeaVerificationChanged:
    """Refreshes the row's `shown` JSON and returns the event that carries it to open pages."""
    row.shown = orjson.dumps(shown(row, settings.price_feed == "off")).decode()
    return IdeaVerificationChanged(
        id=row.idea_id, educator_id=row.educator_id, verification=Verification.model_validate_json(row.shown)
    )


async def announce(db: AsyncSession, row: IdeaVerification, settings: Settings) -> None:
    await publish(db, changed_event(row, settings))


def step_events(row: IdeaVerification, before: Progress, after: Progress) -> list[IdeaPriceChecked]:
    """`IdeaPriceChecked` for every step `after` took beyond `before`, and for the verdict."""
    out = [
        IdeaPriceChecked(
            idea_id=row.idea_id,
            educator_id=row.educator_id,
            step=r.step,
            at=_moment(r.at),
            feed=row.feed,
            symbol=row.symbol,
            price=str(r.price),
            outcome=None,
            r_multiple=None,
        )
        for r in after.receipts[len(before.receipts) :]
    ]
    if after.state in ("settled", "unverifiable") and before.state != after.state:
        out.append(
            IdeaPriceChecked(
                idea_id=row.idea_id,
                educator_id=row.educator_id,
                step="settled" if after.state == "settled" else "unverifiable",
                at=_moment(after.settled_at) or utcnow(),
                feed=row.feed,
                symbol=row.symbol,
                price=_dec(after.settlement_price),
                outcome=after.outcome or after.reason,
                r_multiple=after.r_multiple,
            )
        )
    return out


async def publish_steps(db: AsyncSession, row: IdeaVerification, before: Progress, after: Progress) -> None:
    for event in step_events(row, before, after):
        await publish(db, event)


# ---------------------------------------------------------------- rows


def _initial(series: SeriesOf, plan: Plan | str) -> Progress:
    if series.reason is not None:
        return settlement.unverifiable(series.reason, series.detail)
    return settlement.unverifiable(plan) if isinstance(plan, str) else Progress()


def _new_row(idea: PricedIdea, settings: Settings) -> tuple[IdeaVerification, Progress]:
    series = series_of(idea.market, idea.pair, settings)
    row = IdeaVerification(
        idea_id=idea.id,
        educator_id=idea.educator_id,
        feed=series.feed,
        symbol=series.symbol,
        published_at=idea.published_at,
        levels=_levels_dict(idea.levels),
        educator_outcome=idea.outcome,
        receipts=[],
        progress={},
        levels_fixed=False,
        state="waiting",
        done=False,
        updated_at=utcnow(),
    )
    progress = _initial(series, plan_of(row))
    apply_progress(row, progress)
    return row, progress


_ROW_COLUMNS = [c.key for c in IdeaVerification.__table__.columns]


async def adopt_many(db: AsyncSession, ideas: Sequence[PricedIdea], settings: Settings, batch: int = 1000) -> None:
    """The ideas' verification rows (waiting, or unverifiable with the reason) with their events, inserted in
    batches: a first round over thousands of published ideas is a few statements, not one per idea."""
    for start in range(0, len(ideas), batch):
        events: list[DomainEvent] = []
        values = []
        for idea in ideas[start : start + batch]:
            row, progress = _new_row(idea, settings)
            events.append(changed_event(row, settings))
            if progress.done:
                events.extend(step_events(row, Progress(), progress))
            values.append({key: getattr(row, key) for key in _ROW_COLUMNS})
        await db.execute(insert(IdeaVerification), values)
        await publish_many(db, events)


async def adopted_ids(db: AsyncSession, after_id: int) -> set[int]:
    rows = await db.execute(select(IdeaVerification.idea_id).where(IdeaVerification.idea_id > after_id))
    return set(rows.scalars())


async def max_adopted(db: AsyncSession) -> int:
    return int((await db.execute(select(func.max(IdeaVerification.idea_id)))).scalar_one() or 0)


async def refresh_levels(
    db: AsyncSession, rows: Sequence[IdeaVerification], ideas: Iterable[PricedIdea], now: datetime, settings: Settings
) -> None:
    """Levels edited within the correction window are corrections: the check starts over with them."""
    by_id = {i.id: i for i in ideas}
    for row in rows:
        idea = by_id.get(row.idea_id)
        if idea is None:
            continue
        levels = _levels_dict(idea.levels)
        if levels != row.levels:
            row.levels = levels
            plan = plan_of(row)
            progress = _initial(series_of(idea.market, idea.pair, settings), plan)
            apply_progress(row, progress)
            await announce(db, row, settings)
        if now >= row.published_at + CORRECTION_WINDOW:
            row.levels_fixed = True


LEGACY_NO_FOREX_FEED = "no forex feed configured"  # the reason as versions before Dukascopy stored it
FOREX_FEEDS = ("oanda", "dukascopy")


async def reopen_unchecked(db: AsyncSession, settings: Settings) -> int:
    """Forex ideas found uncheckable for want of a feed (or on a feed no longer in use) are checked again from the
    start on the feed in use now; returns how many. Runs once per start of the poller."""
    v = IdeaVerification
    rows = list((await db.execute(select(v).where(v.state == "unverifiable", v.feed.in_(FOREX_FEEDS)))).scalars())
    in_use = settings.forex_feed_in_use
    stale = [
        r
        for r in rows
        if r.reason == LEGACY_NO_FOREX_FEED or r.feed != in_use or (r.progress or {}).get("detail") == NO_FOREX_FEED
    ]
    if not stale:
        return 0
    by_id = {i.id: i for i in await ideas_to_price(db, ids=[r.idea_id for r in stale], limit=len(stale))}
    reopened = 0
    for row in stale:
        idea = by_id.get(row.idea_id)
        if idea is None:
            continue
        series = series_of(idea.market, idea.pair, settings)
        if series.reason is not None:
            continue
        row.feed, row.symbol = series.feed, series.symbol
        plan = plan_of(row)
        progress = _initial(series, plan)
        apply_progress(row, progress)
        row.updated_at = utcnow()
        await announce(db, row, settings)
        await publish(
            db,
            IdeaPriceChecked(
                idea_id=row.idea_id,
                educator_id=row.educator_id,
                step="reopened",
                at=utcnow(),
                feed=row.feed,
                symbol=row.symbol,
                price=None,
                outcome=None,
                r_multiple=None,
            ),
        )
        reopened += 1
    return reopened


async def educator_outcome_changed(db: AsyncSession, idea_id: int, outcome: str | None, settings: Settings) -> None:
    """The educator recorded (or cleared) an outcome: `agrees` may change."""
    row = await db.get(IdeaVerification, idea_id)
    if row is None or row.educator_outcome == outcome:
        return
    row.educator_outcome = outcome
    await announce(db, row, settings)


# ---------------------------------------------------------------- candles


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
            "ask_open": _dec(c.ask.open) if c.ask else None,
            "ask_high": _dec(c.ask.high) if c.ask else None,
            "ask_low": _dec(c.ask.low) if c.ask else None,
            "ask_close": _dec(c.ask.close) if c.ask else None,
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
    return None if value is None else int(value) + settlement.GRANULARITY_SECONDS[granularity]


async def prune_candles(db: AsyncSession, now: datetime) -> int:
    """Retention: candles of symbols no idea is checked on, and finer candles older than a day (the receipts
    keep a copy of each candle that proved a step)."""
    v = IdeaVerification
    needed = exists().where(v.feed == PriceCandle.feed, v.symbol == PriceCandle.symbol)
    detail = await db.execute(
        delete(PriceCandle).where(
            PriceCandle.granularity.in_(list(settlement.DETAIL.values())),
            PriceCandle.time < _epoch(now - DETAIL_KEEP),
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
        {"idea_id": i, "progress": dump_progress(p), "mae_r": _r2(p.mae), "mfe_r": _r2(p.mfe), "updated_at": now}
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


# ---------------------------------------------------------------- reads


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
    for key in ("entry1", "entry2", "invalidation_level", "exit1", "exit2", "exit3"):
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
    start = _epoch(row.published_at - CHART_LEAD)
    step = settlement.GRANULARITY_SECONDS[granularity]
    size, label = chart_size(max(step, _epoch(end) - start))
    stored = await stored_candles(db, row.feed, row.symbol, granularity, start - start % size, _epoch(end) + step)
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
            PriceCandle.time >= _epoch(now - LATEST_PRICE_MAX_AGE),
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
