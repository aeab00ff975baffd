"""Price checks: the verification rows' changes and their events (decision 0050). The rows' JSON is in `rows`, the
stored candles in `storage`, the reads in `reads`, the rules in `settlement`, the poll rounds in `poller`.

The poller (`poller.py`) drives `check_series` once per feed symbol and poll; everything here runs in the caller's
transaction and never commits. Each change of a verification publishes `IdeaVerificationChanged` (open pages
update) and each settlement step `IdeaPriceChecked` (the ledger), in the transaction that records it.
"""

from collections.abc import Iterable, Sequence
from datetime import datetime

import orjson
from sqlalchemy import func, insert, select
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.core.events import DomainEvent
from tradeideas.db import utcnow
from tradeideas.ideas.outcomes import CORRECTION_WINDOW
from tradeideas.ideas.pricing import PricedIdea, ideas_to_price
from tradeideas.prices.events import IdeaPriceChecked, IdeaVerificationChanged
from tradeideas.prices.models import IdeaVerification
from tradeideas.prices.progress import Plan, Progress, unverifiable
from tradeideas.prices.rows import (
    NO_FOREX_FEED,
    SeriesOf,
    apply_progress,
    decimal_text,
    levels_dict,
    plan_of,
    series_of,
    shown,
    to_moment,
)
from tradeideas.prices.schemas import Verification
from tradeideas.realtime.service import publish, publish_many
from tradeideas.settings import Settings


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
            at=to_moment(r.at),
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
                at=to_moment(after.settled_at) or utcnow(),
                feed=row.feed,
                symbol=row.symbol,
                price=decimal_text(after.settlement_price),
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
        return unverifiable(series.reason, series.detail)
    return unverifiable(plan) if isinstance(plan, str) else Progress()


def _new_row(idea: PricedIdea, settings: Settings) -> tuple[IdeaVerification, Progress]:
    series = series_of(idea.market, idea.pair, settings)
    row = IdeaVerification(
        idea_id=idea.id,
        educator_id=idea.educator_id,
        feed=series.feed,
        symbol=series.symbol,
        published_at=idea.published_at,
        levels=levels_dict(idea.levels),
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
        levels = levels_dict(idea.levels)
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
