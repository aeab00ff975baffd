"""Track records: keeping the per-day figures exact (in the transaction of every change) and reading them.

Writes: `refresh_days` rewrites an educator's day rows from their closed ideas (a day holds few ideas);
it runs inside the transaction that changed an idea, through the `IdeaRecordChanged` subscription wired in
`create_app`. Reads combine day rows in closing order and never scan ideas, except the educator's open ones.
"""

import csv
import io
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, TypeVar

from sqlalchemy import Select, delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.auth.models import Role, User
from tradeideas.core.errors import Invalid, NotFound
from tradeideas.ideas.events import IdeaRecordChanged, IdeaWithdrawn
from tradeideas.ideas.models import TradeIdea
from tradeideas.trackrecords.figures import TALLY_FIELDS, Tally, figures
from tradeideas.trackrecords.models import TrackRecordDay, WithdrawnIdea
from tradeideas.trackrecords.schemas import (
    CurvePoint,
    EducatorProfile,
    RecordGroup,
    TrackRecord,
    TrackRecordSummary,
)

EDUCATOR_NOT_FOUND = "Educator not found"
Q = TypeVar("Q", bound=Select[*tuple[Any, ...]])
GroupKey = tuple[int, date, str, str, str]


# ---------------------------------------------------------------- writing


def _start_of(day: date) -> datetime:
    return datetime.combine(day, time.min, UTC)


def _closed_ideas() -> Select[int, str, str, str, str, float | None, datetime | None]:
    return select(
        TradeIdea.educator_id,
        TradeIdea.market,
        TradeIdea.idea_type,
        TradeIdea.time_frame,
        TradeIdea.status,
        TradeIdea.r_multiple,
        TradeIdea.closed_at,
    ).order_by(TradeIdea.closed_at, TradeIdea.id)


async def _write_days(db: AsyncSession, rows: Iterable[Any]) -> None:
    """Day rows from closed ideas given in closing order."""
    tallies: dict[GroupKey, tuple[Tally, datetime, datetime]] = {}
    for educator_id, market, idea_type, time_frame, status, r, closed_at in rows:
        key = (educator_id, closed_at.astimezone(UTC).date(), market, idea_type, time_frame)
        tally, first, _ = tallies.get(key) or (Tally(), closed_at, closed_at)
        tally.add(status, r)
        tallies[key] = (tally, first, closed_at)
    db.add_all(
        TrackRecordDay(
            educator_id=educator_id,
            day=day,
            market=market,
            idea_type=idea_type,
            time_frame=time_frame,
            first_closed_at=first,
            last_closed_at=last,
            **tally.values(),
        )
        for (educator_id, day, market, idea_type, time_frame), (tally, first, last) in tallies.items()
    )
    await db.flush()


async def refresh_days(db: AsyncSession, educator_id: int, days: Sequence[date]) -> None:
    """Rewrite the educator's day rows for these closing days from their ideas."""
    if db.get_bind().dialect.name == "postgresql":
        # One writer per educator at a time: two ideas closing on one day must not both rewrite its rows.
        await db.execute(select(User.id).where(User.id == educator_id).with_for_update())
    for day in days:
        await db.execute(
            delete(TrackRecordDay).where(TrackRecordDay.educator_id == educator_id, TrackRecordDay.day == day)
        )
        start = _start_of(day)
        rows = await db.execute(
            _closed_ideas().where(
                TradeIdea.educator_id == educator_id,
                TradeIdea.closed_at >= start,
                TradeIdea.closed_at < start + timedelta(days=1),
            )
        )
        await _write_days(db, rows.all())


async def rebuild(db: AsyncSession) -> None:
    """Every day row anew from the ideas (seed data, bulk loads, repairs)."""
    await db.execute(delete(TrackRecordDay))
    rows = await db.execute(_closed_ideas().where(TradeIdea.closed_at.is_not(None)))
    await _write_days(db, rows.all())


async def on_record_changed(db: AsyncSession, event: IdeaRecordChanged) -> None:
    await refresh_days(db, event.educator_id, event.days)


async def on_withdrawn(db: AsyncSession, event: IdeaWithdrawn) -> None:
    db.add(
        WithdrawnIdea(
            idea_id=event.id,
            educator_id=event.educator_id,
            market=event.market,
            idea_type=event.idea_type,
            time_frame=event.time_frame,
            published_at=event.published_at,
            deleted_at=event.deleted_at,
        )
    )
    await db.flush()


# ---------------------------------------------------------------- reading

CSV_COLUMNS = ("closedAt", "publishedAt", "pair", "market", "ideaType", "timeFrame", "direction", "entry1",
               "entry2", "invalidationLevel", "exit1", "exit2", "exit3", "status", "outcome", "closePrice",
               "rMultiple")  # fmt: skip


async def completed_ideas_csv(db: AsyncSession, educator_id: int) -> str:
    """The educator's completed ideas (outcome given), oldest first, as CSV with levels, outcome, dates and R."""
    if (await db.execute(_educators().where(User.id == educator_id))).scalar_one_or_none() is None:
        raise NotFound(EDUCATOR_NOT_FOUND)
    t = TradeIdea
    rows = await db.execute(
        select(
            t.closed_at,
            t.created_at,
            t.pair,
            t.market,
            t.idea_type,
            t.time_frame,
            t.order_type,
            t.entry1,
            t.entry2,
            t.invalidation_level,
            t.exit1,
            t.exit2,
            t.exit3,
            t.status,
            t.outcome,
            t.close_price,
            t.r_multiple,
        )
        .where(t.educator_id == educator_id, t.closed_at.is_not(None))
        .order_by(t.closed_at, t.id)
    )
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for closed_at, created_at, *rest, r in rows.all():
        cells = [
            closed_at.isoformat() if closed_at else "",
            created_at.isoformat(),
            *rest,
            "" if r is None else f"{r:.2f}",
        ]
        # Spreadsheet formulas are never run from a cell of ours: a leading =, +, - or @ is quoted as text.
        writer.writerow([f"'{c}" if isinstance(c, str) and c[:1] in "=+-@" and not _number(c) else c for c in cells])
    return out.getvalue()


def _number(text: str) -> bool:
    try:
        float(text.replace(",", ""))
    except ValueError:
        return False
    return True


def parse_day(value: str | None) -> date | None:
    """A YYYY-MM-DD day (422 for one that does not exist, such as 2026-02-30)."""
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError as exc:
        raise Invalid("since must be a day as YYYY-MM-DD", code="invalid_since") from exc


@dataclass(frozen=True)
class RecordFilter:
    market: str | None = None
    idea_type: str | None = None  # "leverage" / "exchange"
    time_frame: str | None = None
    since: date | None = None


@dataclass(slots=True)
class _Part:
    """One day row, open idea or withdrawn idea, with the keys it is grouped by."""

    market: str
    idea_type: str
    time_frame: str
    month: str
    tally: Tally | None = None
    day: date | None = None
    last_closed_at: datetime | None = None


@dataclass
class _Parts:
    days: list[_Part] = field(default_factory=list)
    opened: list[_Part] = field(default_factory=list)
    withdrawn: list[_Part] = field(default_factory=list)


def _where(query: Q, model: Any, f: RecordFilter, moment: Any, by_day: bool = False) -> Q:
    if f.market is not None:
        query = query.where(model.market == f.market)
    if f.idea_type is not None:
        query = query.where(model.idea_type == f.idea_type.capitalize())
    if f.time_frame is not None:
        query = query.where(func.lower(model.time_frame) == f.time_frame.lower())
    if f.since is not None:
        query = query.where(moment >= (f.since if by_day else _start_of(f.since)))
    return query


async def _parts(db: AsyncSession, educator_ids: Sequence[int], f: RecordFilter) -> dict[int, _Parts]:
    out: dict[int, _Parts] = defaultdict(_Parts)
    d = TrackRecordDay
    tally_columns = [getattr(d, name) for name in TALLY_FIELDS]
    keys = (d.educator_id, d.market, d.idea_type, d.time_frame, d.day, d.last_closed_at)
    day_rows = await db.execute(
        _where(select(*keys, *tally_columns).where(d.educator_id.in_(educator_ids)), d, f, d.day, by_day=True).order_by(
            d.educator_id, d.day, d.first_closed_at
        )
    )
    for educator_id, market, idea_type, time_frame, day, last, *values in day_rows:
        out[educator_id].days.append(
            _Part(market, idea_type, time_frame, day.strftime("%Y-%m"), Tally(*values), day, last)
        )
    t = TradeIdea
    open_rows = await db.execute(
        _where(
            select(t.educator_id, t.market, t.idea_type, t.time_frame, t.created_at).where(
                t.educator_id.in_(educator_ids), t.closed_at.is_(None)
            ),
            t,
            f,
            t.created_at,
        )
    )
    for educator_id, market, idea_type, time_frame, at in open_rows:
        out[educator_id].opened.append(_Part(market, idea_type, time_frame, at.strftime("%Y-%m")))
    w = WithdrawnIdea
    gone = await db.execute(
        _where(
            select(w.educator_id, w.market, w.idea_type, w.time_frame, w.deleted_at).where(
                w.educator_id.in_(educator_ids)
            ),
            w,
            f,
            w.deleted_at,
        )
    )
    for educator_id, market, idea_type, time_frame, at in gone:
        out[educator_id].withdrawn.append(_Part(market, idea_type, time_frame, at.strftime("%Y-%m")))
    return out


def _combined(days: Iterable[_Part]) -> Tally:
    total = Tally()
    for part in days:
        assert part.tally is not None
        total.then(part.tally)
    return total


def _curve(days: Sequence[_Part]) -> list[CurvePoint]:
    points: list[CurvePoint] = []
    total = 0.0
    at: datetime | None = None
    for i, part in enumerate(days):
        assert part.tally is not None and part.last_closed_at is not None
        total += part.tally.sum_r
        at = part.last_closed_at if at is None else max(at, part.last_closed_at)
        if i + 1 == len(days) or days[i + 1].day != part.day:  # the day's last group
            points.append(CurvePoint(at=at, cumulative_r=round(total, 2) + 0.0))
            at = None
    return points


def _figures(parts: _Parts) -> dict[str, Any]:
    return figures(_combined(parts.days), len(parts.opened), len(parts.withdrawn))


def _groups(parts: _Parts, key: Callable[[_Part], str]) -> list[RecordGroup]:
    split: dict[Hashable, _Parts] = defaultdict(_Parts)
    for name in ("days", "opened", "withdrawn"):
        for part in getattr(parts, name):
            getattr(split[key(part)], name).append(part)
    return [RecordGroup(key=str(k), **_figures(split[k])) for k in sorted(split, key=str)]


def _profile(user: User) -> EducatorProfile:
    return EducatorProfile(
        id=user.id,
        slug=user.slug,
        name=user.display_name,
        avatar_url=user.avatar_url,
        specialty=user.specialty,
        bio=user.bio,
        years_experience=user.years_experience,
        trading_style=user.trading_style,
    )


def _educators() -> Select[User]:
    return (
        select(User)
        .where(User.role == Role.EDUCATOR, User.disabled.is_(False), User.is_public.is_(True))
        .order_by(User.id)
    )


async def track_records(db: AsyncSession) -> list[TrackRecordSummary]:
    """Every educator's whole record with their equity curve (no breakdowns)."""
    educators = list((await db.execute(_educators())).scalars())
    parts = await _parts(db, [e.id for e in educators], RecordFilter())
    return [
        TrackRecordSummary(educator=_profile(e), equity_curve=_curve(parts[e.id].days), **_figures(parts[e.id]))
        for e in educators
    ]


async def track_record(db: AsyncSession, educator_id: int, f: RecordFilter) -> TrackRecord:
    """One educator's record, filtered, with figures per market, idea type, time frame and month."""
    educator = (await db.execute(_educators().where(User.id == educator_id))).scalar_one_or_none()
    if educator is None:
        raise NotFound(EDUCATOR_NOT_FOUND)
    parts = (await _parts(db, [educator_id], f))[educator_id]
    return TrackRecord(
        educator=_profile(educator),
        equity_curve=_curve(parts.days),
        by_market=_groups(parts, lambda p: p.market),
        by_idea_type=_groups(parts, lambda p: p.idea_type),
        by_time_frame=_groups(parts, lambda p: p.time_frame),
        by_month=_groups(parts, lambda p: p.month),
        **_figures(parts),
    )
