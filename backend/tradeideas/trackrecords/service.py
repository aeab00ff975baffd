"""Track records: keeping the stored totals exact (in the transaction of every change) and reading them.

Writes: `refresh_totals` rewrites an educator's whole-record and per-group rows from their closed ideas; it
runs inside the transaction that changed an idea, through the `IdeaRecordChanged` subscription wired in
`create_app`. Reads: the educators list reads those rows (one per educator and group); one educator's
record, filtered or not, walks their matching closed ideas once in closing order (an index range), which its
per-idea equity curve needs anyway, and computes every figure and group from that walk (decision 0034). The
process keeps each walk and, after an idea closes later than all the others, adds only the ideas closed since
(decision 0060).
"""

import csv
import io
import secrets
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from typing import Any, TypeVar, cast

import orjson
from pydantic import TypeAdapter
from sqlalchemy import Select, Text, and_, case, delete, false, func, insert, not_, or_, select, tuple_, update
from sqlalchemy import cast as sql_cast
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.auth import service as auth_service
from tradeideas.auth.schemas import PublicUser
from tradeideas.core.errors import Invalid, NotFound
from tradeideas.db import Database, DriverQuery, id_rows, lock_until_commit, start_of_day
from tradeideas.desk import service as desk
from tradeideas.ideas import service as ideas
from tradeideas.ideas.events import IdeaRecordChanged, IdeaWithdrawn
from tradeideas.ideas.models import IdeaStatus, TradeIdea
from tradeideas.prices import reads as price_checks
from tradeideas.prices.models import IdeaVerification
from tradeideas.prices.schemas import VerifiedFigures
from tradeideas.trackrecords.cache import (
    FOLLOWERS,
    LIST_KEY,
    VERIFIED,
    TrackRecordCache,
    Walk,
    part_key,
    record_key,
    summary_key,
)
from tradeideas.trackrecords.figures import (
    STORED_GROUPINGS,
    TALLY_FIELDS,
    WHOLE,
    Book,
    Point,
    Tally,
    extend_sparkline,
    figures,
    loaded_sparkline,
    shaped_curve,
    stored_sparkline,
    total_rows,
)
from tradeideas.trackrecords.models import TrackRecordTotal, WithdrawnIdea
from tradeideas.trackrecords.schemas import (
    Coverage,
    CurvePoint,
    EducatorProfile,
    NotCheckedReason,
    RecordGroup,
    RecordSource,
    RecordStatistics,
    SetupFigures,
    SetupRecord,
    TrackRecord,
    TrackRecordSummary,
)
from tradeideas.trackrecords.statistics import SetupTally, Statistics, rounded_r

EDUCATOR_NOT_FOUND = "Educator not found"
SUMMARY = TypeAdapter(TrackRecordSummary)
STREAM_SLICE = 500
Q = TypeVar("Q", bound=Select[*tuple[Any, ...]])
P = TypeVar("P")


# ---------------------------------------------------------------- writing


def _closed_ideas() -> Select[int, str, str, str, str, float | None, datetime | None]:
    """(id, market, idea type, time frame, status, R, closed at) of closed ideas, in closing order."""
    return (
        select(
            TradeIdea.id,
            TradeIdea.market,
            TradeIdea.idea_type,
            TradeIdea.time_frame,
            TradeIdea.status,
            TradeIdea.r_multiple,
            TradeIdea.closed_at,
        )
        .where(TradeIdea.closed_at.is_not(None))
        .order_by(TradeIdea.closed_at, TradeIdea.id)
    )


async def refresh_totals(db: AsyncSession, educator_id: int, locked: bool = False) -> None:
    """Rewrite the educator's stored totals from their closed ideas (one index range, in closing order)."""
    if not locked:
        await _lock(db, educator_id)
    book, stats = await _walk(db, educator_id)
    await db.execute(delete(TrackRecordTotal).where(TrackRecordTotal.educator_id == educator_id))
    if book.whole.values() != Tally().values():
        await db.execute(insert(TrackRecordTotal), total_rows(educator_id, book))
        t = TrackRecordTotal
        await db.execute(
            update(t)
            .where(t.educator_id == educator_id, t.grouping == WHOLE)
            .values(statistics=stats.stored(), rewrite_token=_new_rewrite_token())
        )


def _new_rewrite_token() -> str:
    """Unique per rewrite of an educator's totals: a walk seen under another token may count changed ideas."""
    return secrets.token_hex(16)


async def _walk(db: AsyncSession, educator_id: int) -> tuple[Book, Statistics]:
    """The educator's whole record and its statistics from their closed ideas (one index range, closing order)."""
    book = Book(STORED_GROUPINGS)
    stats = Statistics()
    rows = await db.execute(
        _closed_ideas().add_columns(TradeIdea.created_at).where(TradeIdea.educator_id == educator_id)
    )
    for idea_id, market, idea_type, time_frame, status, r, closed_at, opened_at in rows:
        book.add(idea_id, market, idea_type, time_frame, status, r, closed_at)
        stats.add(status, r, opened_at, closed_at)
    return book, stats


async def rebuild(db: AsyncSession) -> None:
    """Every educator's totals anew from the ideas (seed data, bulk loads, repairs)."""
    await db.execute(delete(TrackRecordTotal))
    educators = await db.execute(select(TradeIdea.educator_id).where(TradeIdea.closed_at.is_not(None)).distinct())
    for educator_id in educators.scalars().all():
        await refresh_totals(db, educator_id)


# How far a stored R figure may sit from the one recomputed: sums added idea by idea in closing order are exact
# repeats of the walk's, so only a change behind the app's back moves them by more.
TOTALS_TOLERANCE = 1e-6


def _differs(stored: Any, expected: Any) -> bool:
    if isinstance(stored, int | float) and isinstance(expected, int | float) and not isinstance(stored, bool):
        return abs(float(stored) - float(expected)) > TOTALS_TOLERANCE
    if isinstance(stored, list) and isinstance(expected, list):
        return len(stored) != len(expected) or any(_differs(a, b) for a, b in zip(stored, expected, strict=True))
    if isinstance(stored, dict) and isinstance(expected, dict):
        return stored.keys() != expected.keys() or any(_differs(stored[k], expected[k]) for k in expected)
    return bool(stored != expected)


async def stored_totals_problems(db: AsyncSession) -> list[str]:
    """Every stored figure of `track_record_totals` recomputed from the closed ideas (`tradeideas verify-ledger`):
    each difference named by table, row (educator, grouping, key) and column. Rows the ideas do not make are
    named too, and rows they make that are missing."""
    t = TrackRecordTotal
    stored: dict[int, dict[tuple[str, str], TrackRecordTotal]] = defaultdict(dict)
    for total in (await db.execute(select(t))).scalars():
        stored[total.educator_id][(total.grouping, total.key)] = total
    educators = set(stored) | set(
        (await db.execute(select(TradeIdea.educator_id).where(TradeIdea.closed_at.is_not(None)).distinct())).scalars()
    )
    problems: list[str] = []
    for educator_id in sorted(educators):
        book, stats = await _walk(db, educator_id)
        expected = (
            {(r["grouping"], r["key"]): r for r in total_rows(educator_id, book)}
            if book.whole.values() != Tally().values()
            else {}
        )
        have = stored.get(educator_id, {})
        for grouping, key in sorted(set(have) | set(expected)):
            name = f"track_record_totals row (educator {educator_id}, {grouping}, {key!r})"
            row: TrackRecordTotal | None = have.get((grouping, key))
            want = expected.get((grouping, key))
            if row is None:
                problems.append(f"{name} is missing: the closed ideas make it")
                continue
            if want is None:
                problems.append(f"{name} counts ideas that are not closed ideas of the educator")
                continue
            if grouping == WHOLE:
                want = {**want, "statistics": stats.stored()}
            for column, value in want.items():
                if column in ("educator_id", "grouping", "key"):
                    continue
                kept = getattr(row, column)
                if column == "last_closed_at" and kept is not None and value is not None:
                    kept, value = kept.astimezone(UTC), value.astimezone(UTC)
                if column == "statistics" and kept is None:  # written before statistics were kept
                    continue
                if _differs(kept, value):
                    problems.append(f"{name} column {column} is {kept!r}, the closed ideas make {value!r}")
    return problems


# PostgreSQL advisory locks of one educator's totals (pg_advisory_xact_lock(class, educator id)): a constant that
# no other two-key lock of this database uses (the audit log's lockout entries use their own).
RECORD_LOCK_CLASS = 0x7472_6563  # "trec"


async def _lock(db: AsyncSession, educator_id: int) -> None:
    """One writer of an educator's totals at a time: each then reads the totals the other committed."""
    await lock_until_commit(db, RECORD_LOCK_CLASS, educator_id)


async def _append(db: AsyncSession, educator_id: int, idea_id: int) -> bool:
    """Add a just-closed idea to the stored totals, if it closed after every idea they count (the usual case:
    closing order is closing time). False when it did not: the totals must then be recomputed."""
    idea = await db.get(TradeIdea, idea_id)
    if idea is None or idea.closed_at is None:
        return False
    t = TrackRecordTotal
    keys = [(WHOLE, ""), ("market", idea.market), ("idea_type", idea.idea_type), ("time_frame", idea.time_frame)]
    found = await db.execute(
        select(t).where(t.educator_id == educator_id, tuple_(t.grouping, t.key).in_(keys)).with_for_update()
    )
    rows = {(row.grouping, row.key): row for row in found.scalars()}
    whole = rows.get((WHOLE, ""))
    if whole is not None and (whole.last_closed_at is None or whole.last_idea_id is None
                              or (idea.closed_at, idea.id) <= (whole.last_closed_at, whole.last_idea_id)):  # fmt: skip
        return False
    for grouping, key in keys:
        row = rows.get((grouping, key)) or TrackRecordTotal(educator_id=educator_id, grouping=grouping, key=key,
                                                            **Tally().values())  # fmt: skip
        tally = Tally.of(row)
        before = tally.r_count
        tally.add(idea.status, idea.r_multiple)
        for name, value in tally.values().items():
            setattr(row, name, value)
        if grouping == WHOLE:
            if row.statistics is None:  # written before statistics were kept: recomputed whole
                return False
            stats = Statistics.loaded(row.statistics)
            stats.add(idea.status, idea.r_multiple, idea.created_at, idea.closed_at)
            row.statistics = stats.stored()
            if tally.r_count > before:
                point = (idea.closed_at, tally.sum_r)
                row.sparkline = stored_sparkline(extend_sparkline(loaded_sparkline(row.sparkline), before, point))
            elif row.sparkline is None:
                row.sparkline = []
            row.last_closed_at, row.last_idea_id = idea.closed_at, idea.id
            if row.rewrite_token is None:  # a new row, or one written before tokens: walks seen so far hold none
                row.rewrite_token = _new_rewrite_token()
        db.add(row)
    await db.flush()
    return True


async def on_record_changed(db: AsyncSession, event: IdeaRecordChanged) -> None:
    await _lock(db, event.educator_id)
    if event.closed_idea_id is None or not await _append(db, event.educator_id, event.closed_idea_id):
        await refresh_totals(db, event.educator_id, locked=True)


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


FORMULA_STARTS = ("=", "+", "-", "@")


async def completed_ideas_csv(db: AsyncSession, educator_id: int) -> str:
    """The educator's completed ideas (outcome given), oldest first, as CSV with levels, outcome, dates and R."""
    if not await auth_service.listed_educators(db, educator_id):
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
        writer.writerow([f"'{c}" if _formula(c) else c for c in cells])
    return out.getvalue()


def _formula(cell: object) -> bool:
    return isinstance(cell, str) and cell[:1] in FORMULA_STARTS and not _number(cell)


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
    setup: int | None = None  # one of the educator's setups (issue #42)


@dataclass
class _Open:
    """Open and withdrawn ideas counted in a record, as a whole and per group."""

    active: dict[tuple[str, str], int] = field(default_factory=lambda: defaultdict(int))
    withdrawn: dict[tuple[str, str], int] = field(default_factory=lambda: defaultdict(int))


def _where(query: Q, model: Any, f: RecordFilter, moment: Any) -> Q:
    if f.market is not None:
        query = query.where(model.market == f.market)
    if f.idea_type is not None:
        query = query.where(model.idea_type == f.idea_type.capitalize())
    if f.time_frame is not None:
        query = query.where(func.lower(model.time_frame) == f.time_frame.lower())
    if f.since is not None and moment is not None:
        query = query.where(moment >= start_of_day(f.since))
    if f.setup is not None:
        # A withdrawn idea's row is gone with its setup: which setup it was is not known, so no setup counts it.
        setup_id = getattr(model, "setup_id", None)
        query = query.where(false() if setup_id is None else setup_id == f.setup)
    return query


def _count(into: dict[tuple[str, str], int], market: str, idea_type: str, time_frame: str, at: datetime) -> None:
    """Open and withdrawn ideas are few: counted in Python, grouped like closed ones (month: opened/deleted)."""
    for key in (
        (WHOLE, ""),
        ("market", market),
        ("idea_type", idea_type),
        ("time_frame", time_frame),
        ("month", at.strftime("%Y-%m")),
    ):
        into[key] += 1


async def _open_and_withdrawn(db: AsyncSession, educator_ids: Sequence[int], f: RecordFilter) -> dict[int, _Open]:
    out: dict[int, _Open] = defaultdict(_Open)
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
    for educator_id, market, idea_type, time_frame, created_at in open_rows:
        _count(out[educator_id].active, market, idea_type, time_frame, created_at)
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
    for educator_id, market, idea_type, time_frame, deleted_at in gone:
        _count(out[educator_id].withdrawn, market, idea_type, time_frame, deleted_at)
    return out


def _curve(points: Sequence[tuple[datetime, float]]) -> list[CurvePoint]:
    # Built from stored points of known types: no validation (a few hundred points per record, on every rebuild).
    return [CurvePoint.model_construct(at=at, cumulative_r=rounded_r(r)) for at, r in points]


def _summary_rows_statement(dialect: str) -> Select[Any]:
    """Per educator (the ids bound as `ids`): the stored whole record (its JSON as text), and how many ideas are
    open and how many were withdrawn (the list shows only those totals; `_open_and_withdrawn` groups them for one
    educator's record). One statement, so one round trip and one snapshot."""
    educators = id_rows("ids", dialect)
    educator = educators.c.id
    r, t, w = TrackRecordTotal, TradeIdea, WithdrawnIdea
    open_count = select(func.count()).where(t.educator_id == educator, t.closed_at.is_(None)).scalar_subquery()
    gone_count = select(func.count()).where(w.educator_id == educator).scalar_subquery()
    return select(
        educator.label("educator_id"),
        r.grouping.label("grouping"),  # null: no closed idea yet
        sql_cast(r.sparkline, Text).label("sparkline"),
        sql_cast(r.statistics, Text).label("statistics"),
        *(getattr(r, name).label(name) for name in TALLY_FIELDS),
        open_count.label("open"),
        gone_count.label("withdrawn"),
    ).select_from(educators.outerjoin(r, and_(r.educator_id == educator, r.grouping == WHOLE)))


_SUMMARY_ROWS = DriverQuery(_summary_rows_statement)


def _groups(book: Book, extra: _Open, grouping: str) -> list[RecordGroup]:
    keys = {k for g, k in book.groups if g == grouping}
    keys |= {k for g, k in (*extra.active, *extra.withdrawn) if g == grouping}
    return [
        RecordGroup(
            key=k,
            **figures(
                book.groups.get((grouping, k)) or Tally(),
                extra.active.get((grouping, k), 0),
                extra.withdrawn.get((grouping, k), 0),
            ),
        )
        for k in sorted(keys)
    ]


def _profile(user: PublicUser) -> EducatorProfile:
    return EducatorProfile.model_validate(user.model_dump())


Verified = tuple[VerifiedFigures, float | None]  # an educator's verified figures and agreement rate


async def verified_of(db: AsyncSession, educator_ids: Sequence[int]) -> dict[int, Verified]:
    """The whole records' verified figures (every price-checked idea of each educator)."""
    return await price_checks.verified_figures(db, educator_ids) if educator_ids else {}


async def followers_of(db: AsyncSession, educator_ids: Sequence[int]) -> dict[int, desk.Followers]:
    """The whole records' followers (members who journaled any idea of each educator)."""
    if not educator_ids:
        return {}
    ideas = select(TradeIdea.id, TradeIdea.educator_id).where(TradeIdea.educator_id.in_(educator_ids))
    found = await desk.followers(db, ideas)
    return {e: found.get(e, desk.NO_FOLLOWERS) for e in educator_ids}


async def track_records(
    database: Database,
    db: AsyncSession,
    educators: Sequence[PublicUser],
    verified: dict[int, Verified],
    followers: dict[int, desk.Followers],
) -> list[TrackRecordSummary]:
    """These educators' whole records with an equity sparkline (stored rows; no breakdowns), with each one's
    verified figures and followers as `_parts` keeps them."""
    ids = [e.id for e in educators]
    # Read through the driver, outside a transaction: after a completion this is the whole of the list's rebuild.
    async with database.reader() as reader:
        rows = {row["educator_id"]: row for row in await reader.rows(_SUMMARY_ROWS, ids=ids)}
    wholes: dict[int, tuple[list[Point], Tally]] = {}
    stats: dict[int, Statistics] = {}
    for educator_id, row in rows.items():
        if row["grouping"] is None:
            continue
        line = orjson.loads(row["sparkline"]) if row["sparkline"] is not None else None
        wholes[educator_id] = (loaded_sparkline(line), Tally(*(row[name] for name in TALLY_FIELDS)))
        if row["statistics"] is not None:
            stats[educator_id] = Statistics.loaded(orjson.loads(row["statistics"]))
    for educator_id in wholes.keys() - stats.keys():  # rows written before statistics were kept
        stats[educator_id] = (await _walk(db, educator_id))[1]
    out = []
    for e in educators:
        line, tally = wholes.get(e.id, ([], Tally()))
        active, withdrawn = rows[e.id]["open"], rows[e.id]["withdrawn"]
        out.append(
            TrackRecordSummary(
                educator=_profile(e),
                verified=verified[e.id][0],
                agreement_rate=verified[e.id][1],
                followers_count=followers[e.id].members,
                followers_average_r=followers[e.id].average_r,
                equity_curve=_curve(line),
                statistics=RecordStatistics(**stats.get(e.id, Statistics()).values()),
                **figures(tally, active, withdrawn),
            )
        )
    return out


async def _rewrite_token(db: AsyncSession, educator_id: int) -> str | None:
    t = TrackRecordTotal
    found = await db.execute(select(t.rewrite_token).where(t.educator_id == educator_id, t.grouping == WHOLE))
    return found.scalar_one_or_none()


def verdicts(educator_id: int, f: RecordFilter) -> Select[Any]:
    """(id, market, idea type, time frame, status, R, settled at, published at) of the educator's ideas as the price
    checks settled them, in settling order: the same rows `_closed_ideas` gives of the educator's calls, with the
    verdict read as `prices.reads.verified_figures` counts it (an ambiguous candle is the stop)."""
    v = IdeaVerification
    traded = func.coalesce(v.outcome, "") != "not_triggered"
    won = and_(
        traded,
        or_(
            v.outcome.in_(("exit1", "exit2", "exit3")),
            and_(v.outcome == "manual", func.coalesce(v.r_multiple, 0) > 0),
        ),
    )
    status = case((not_(traded), "not_triggered"), (won, "successful"), else_="unsuccessful")
    query = (
        select(
            TradeIdea.id,
            TradeIdea.market,
            TradeIdea.idea_type,
            TradeIdea.time_frame,
            status,
            v.r_multiple,
            v.settled_at,
            TradeIdea.created_at,
        )
        .join_from(TradeIdea, v, v.idea_id == TradeIdea.id)
        .where(TradeIdea.educator_id == educator_id, v.state == "settled", v.settled_at.is_not(None))
        .order_by(v.settled_at, TradeIdea.id)
    )
    return _where(query, TradeIdea, f, v.settled_at)


NOT_SETTLED_YET = "still being checked"
NEVER_CHECKED = "not price-checked (completed before price checks began, or price checks were off)"


# Setup figures: per setup id, from the educator's calls and from the price checks' verdicts.
SetupTallies = dict[int, tuple[SetupTally, SetupTally]]


def _checked_status(outcome: str | None, r: float | None) -> str:
    """A settled verdict as the record counts it (`verdicts`): an exit, or a manual close in profit, is a win; not
    triggered is no trade; anything else (the stop, an ambiguous candle) a loss."""
    if outcome == "not_triggered":
        return "not_triggered"
    if outcome in ("exit1", "exit2", "exit3") or (outcome == "manual" and (r or 0) > 0):
        return IdeaStatus.SUCCESSFUL
    return IdeaStatus.UNSUCCESSFUL


async def coverage(db: AsyncSession, educator_id: int, f: RecordFilter) -> tuple[Coverage, SetupTallies]:
    """The selection's completed ideas, those the price checks settled, why the others were not, and the R the two
    verdicts give over the ideas both cover (decision 0102). In the same pass, per setup, the decided ideas as the
    educator called them and as the price checks settled them (`bySetup`, decision 0172)."""
    v = IdeaVerification
    completed = _where(
        select(
            TradeIdea.status,
            TradeIdea.r_multiple,
            v.state,
            v.reason,
            v.outcome,
            v.r_multiple,
            TradeIdea.setup_id,
            TradeIdea.created_at,
            TradeIdea.closed_at,
            v.settled_at,
        )
        .outerjoin(v, v.idea_id == TradeIdea.id)
        .where(TradeIdea.educator_id == educator_id, TradeIdea.closed_at.is_not(None)),
        TradeIdea,
        f,
        TradeIdea.closed_at,
    )
    total = checked = 0
    reasons: dict[str, int] = defaultdict(int)
    educator_r = checked_r = 0.0
    setups: SetupTallies = {}
    async for rows in (await db.stream(completed)).partitions(STREAM_SLICE):
        for status, r, state, reason, outcome, verdict_r, setup_id, opened_at, closed_at, settled_at in rows:
            total += 1
            if setup_id is not None and closed_at is not None:
                pair = setups.get(setup_id)
                if pair is None:
                    pair = setups[setup_id] = (SetupTally(), SetupTally())
                pair[0].add(status, r, opened_at, closed_at)
                if state == "settled" and settled_at is not None:
                    pair[1].add(_checked_status(outcome, verdict_r), verdict_r, opened_at, settled_at)
            if state == "settled":
                checked += 1
                if status in (IdeaStatus.SUCCESSFUL, IdeaStatus.UNSUCCESSFUL) and r is not None:
                    educator_r += r
                if outcome != "not_triggered" and verdict_r is not None:
                    checked_r += verdict_r
            elif state is None:
                reasons[NEVER_CHECKED] += 1
            elif state == "unverifiable":
                reasons[reason or "not possible"] += 1
            else:
                reasons[NOT_SETTLED_YET] += 1
    return Coverage(
        completed=total,
        price_checked=checked,
        not_checked=total - checked,
        reasons=[
            NotCheckedReason(reason=k, ideas=n) for k, n in sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))
        ],
        educator_r_on_checked=rounded_r(educator_r) or 0.0,
        checked_r_on_checked=rounded_r(checked_r) or 0.0,
        r_difference=rounded_r(checked_r - educator_r) or 0.0,
    ), setups


async def by_setup(db: AsyncSession, educator_id: int, tallies: SetupTallies) -> list[SetupRecord]:
    """Every setup the educator keeps, in the order they were added, with its figures from `tallies`."""
    records = []
    for setup in await ideas.list_setups(db, educator_id):
        called, checked = tallies.get(setup.id) or (SetupTally(), SetupTally())
        records.append(
            SetupRecord(
                setup_id=setup.id,
                name=setup.name,
                description=setup.description,
                price_checked=SetupFigures(**checked.values()),
                **called.values(),
            )
        )
    return records


async def track_record(
    db: AsyncSession, educator_id: int, f: RecordFilter, kept: Walk | None = None, source: RecordSource = "educator"
) -> tuple[TrackRecord, Walk]:
    """One educator's record, filtered, with figures per market, idea type, time frame and month, and its
    equity curve apart (`equity_curve` left empty: see `track_record_json`).

    `kept`, a walk of the same filtered ideas made earlier, is extended with the ideas closed after its last one
    when the educator's totals were not rewritten since (same token): every change to a counted idea rewrites them,
    only an idea closing after all the others is added in place (`_append`). Returns the record and its walk."""
    listed = await auth_service.listed_educators(db, educator_id)
    if not listed:
        raise NotFound(EDUCATOR_NOT_FOUND)
    educator = listed[0]
    # Read before the ideas: a rewrite committed in between changes the token, so the next read walks again.
    token = await _rewrite_token(db, educator_id)
    ideas = _closed_ideas().add_columns(TradeIdea.created_at).where(TradeIdea.educator_id == educator_id)
    query = _where(ideas, TradeIdea, f, TradeIdea.closed_at)
    if source == "verified":  # the price checks' verdicts, walked afresh: they are not kept in the totals
        kept, token, query = None, None, verdicts(educator_id, f)
    if kept is not None and token is not None and kept.rewrite_token == token:
        book, stats = kept.book.copy(), replace(kept.statistics)
        if book.last is not None:
            last_at, last_id = book.last
            query = query.where(
                and_(TradeIdea.closed_at >= last_at, or_(TradeIdea.closed_at > last_at, TradeIdea.id > last_id))
            )
    else:
        book, stats = Book((*STORED_GROUPINGS, "month")), Statistics()
    # Read in slices (a server-side cursor on PostgreSQL): a record may be ~14,000 ideas, and the process
    # answers its other requests (cached ones, mostly) between two slices instead of after the whole walk.
    async for rows in (await db.stream(query)).partitions(STREAM_SLICE):
        for idea_id, market, idea_type, time_frame, status, r, closed_at, opened_at in rows:
            book.add(idea_id, market, idea_type, time_frame, status, r, closed_at)
            stats.add(status, r, opened_at, closed_at)
    extra = (await _open_and_withdrawn(db, [educator_id], f))[educator_id]
    # The verified figures count the same ideas: market, idea type and time frame; the period by settlement.
    counted = _where(select(TradeIdea.id).where(TradeIdea.educator_id == educator_id), TradeIdea, f, None)
    since = None if f.since is None else start_of_day(f.since)
    verified, agreement = (await price_checks.verified_figures(db, [educator_id], counted, since))[educator_id]
    # Followers of the ideas the filters select, open ones included (`since`: published on or after the day).
    its_ideas = select(TradeIdea.id, TradeIdea.educator_id).where(TradeIdea.educator_id == educator_id)
    followers = (await desk.followers(db, _where(its_ideas, TradeIdea, f, TradeIdea.created_at))).get(
        educator_id, desk.NO_FOLLOWERS
    )
    covered, setup_tallies = await coverage(db, educator_id, f)
    record = TrackRecord(
        educator=_profile(educator),
        verified=verified,
        agreement_rate=agreement,
        followers_count=followers.members,
        followers_average_r=followers.average_r,
        equity_curve=[],
        source=source,
        coverage=covered,
        by_market=_groups(book, extra, "market"),
        by_idea_type=_groups(book, extra, "idea_type"),
        by_time_frame=_groups(book, extra, "time_frame"),
        by_month=_groups(book, extra, "month"),
        by_setup=await by_setup(db, educator_id, setup_tallies),
        statistics=RecordStatistics(**stats.values()),
        **figures(book.whole, extra.active.get((WHOLE, ""), 0), extra.withdrawn.get((WHOLE, ""), 0)),
    )
    return record, Walk(token, book, stats)


def _with_curve(record: TrackRecord, curve: Sequence[Point]) -> bytes:
    """The record as JSON, its curve encoded straight from the points: thousands of them, one model each
    would cost more than the rest of the answer (`at` as pydantic writes it: ISO 8601 ending in Z)."""
    data = record.model_dump(mode="json", by_alias=True)
    data["equityCurve"] = [{"at": at, "cumulativeR": rounded_r(r)} for at, r in curve]
    return orjson.dumps(data, option=orjson.OPT_UTC_Z)


async def _listed_educators(db: AsyncSession, cache: TrackRecordCache) -> list[PublicUser]:
    """The educators the list shows (kept until a profile changes: `create_app` then drops everything)."""
    educators = cache.educators()
    if educators is None:
        started = cache.generation
        educators = await auth_service.listed_educators(db)
        cache.keep_educators(educators, started)
    return educators


async def track_records_json(database: Database, cache: TrackRecordCache) -> bytes:
    """`track_records` as the JSON sent, from this process's cache when nothing changed since (a database session
    is opened only to build it)."""

    async def build() -> bytes:
        async with database.sessionmaker() as db:
            return await _summaries_json(database, db, cache)

    return await cache.answer_or_build(LIST_KEY, build)


async def _summaries_json(database: Database, db: AsyncSession, cache: TrackRecordCache) -> bytes:
    educators = await _listed_educators(db, cache)
    # Each educator's summary is kept apart, under that educator's changes: after a completion only the
    # completing educator's is built again (its verified figures count every price-checked idea of theirs).
    parts: dict[int, bytes] = {}
    for e in educators:
        if (kept := cache.answer(summary_key(e.id))) is not None:
            parts[e.id] = kept
    missing = [e for e in educators if e.id not in parts]
    if missing:
        started = {e.id: cache.generation_of(summary_key(e.id)) for e in missing}
        # A completion spoils the summary but not the price checks' verdicts or the followers: those parts are
        # kept apart under the changes that do touch them, and counted again only after those.
        ids = [e.id for e in missing]
        verified = await _parts(cache, VERIFIED, ids, lambda todo: verified_of(db, todo))
        followers = await _parts(cache, FOLLOWERS, ids, lambda todo: followers_of(db, todo))
        summaries = await track_records(database, db, missing, verified, followers)
        for summary in summaries:
            body = SUMMARY.dump_json(summary, by_alias=True)
            cache.put(summary_key(summary.educator.id), body, started[summary.educator.id])
            parts[summary.educator.id] = body
    return b"[" + b",".join(parts[e.id] for e in educators) + b"]"


async def _parts(
    cache: TrackRecordCache, part: str, educator_ids: list[int], count: Callable[[list[int]], Awaitable[dict[int, P]]]
) -> dict[int, P]:
    """Each educator's `part`: kept, or counted now (in one statement for all that miss it) and kept."""
    found: dict[int, P] = {}
    for educator_id in educator_ids:
        kept = cache.part(part_key(part, educator_id))
        if kept is not None:
            found[educator_id] = cast(P, kept)  # kept by this function, for this part
    todo = [e for e in educator_ids if e not in found]
    if todo:
        started = {e: cache.generation_of(part_key(part, e)) for e in todo}
        counted = await count(todo)
        for educator_id, value in counted.items():
            cache.keep_part(part_key(part, educator_id), value, started[educator_id])
        found.update(counted)
    return found


async def track_record_json(
    database: Database,
    cache: TrackRecordCache,
    educator_id: int,
    f: RecordFilter,
    full_curve: bool = False,
    source: RecordSource = "educator",
) -> bytes:
    """`track_record` as the JSON sent, from this process's cache when nothing changed since (a database session is
    opened only to build it). The equity curve keeps its shape in at most `CURVE_POINTS` points (`shaped_curve`),
    so the answer does not grow with the educator's history; `full_curve` sends every idea's point."""

    key = record_key(educator_id, f)  # the walk of the educator's calls, shared by both answers

    async def build() -> bytes:
        async with database.sessionmaker() as db:
            record, walk = await track_record(db, educator_id, f, cache.walk(key), source)
        if walk.rewrite_token is not None:  # a walk without one could never be extended
            cache.keep_walk(key, walk)
        curve = walk.book.curve
        return _with_curve(record, curve if full_curve else shaped_curve(curve))

    return await cache.answer_or_build(record_key(educator_id, (f, full_curve, source)), build)
