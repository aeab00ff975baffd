"""Reading trade ideas: presenting them as the API shows them, list pages, revisions, customers' seen state."""

import base64
import binascii
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any, NamedTuple

from sqlalchemy import (
    BindParameter,
    CompoundSelect,
    Integer,
    Row,
    Select,
    String,
    and_,
    bindparam,
    case,
    exists,
    false,
    func,
    literal_column,
    null,
    or_,
    select,
    true,
    union_all,
)
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.auth.models import Role, User, avatar_url, display_name
from tradeideas.core.errors import Invalid, NotFound
from tradeideas.core.schemas import MAX_ID
from tradeideas.db import DriverQuery, DriverReader, NamedRow, UTCDateTime, id_in, start_of_day
from tradeideas.desk.models import IdeaTaken
from tradeideas.desk.taken import shown_taken
from tradeideas.ideas.cache import SeenMarks
from tradeideas.ideas.models import (
    IdeaImage,
    IdeaRevision,
    IdeaSetup,
    IdeaStatus,
    IdeaView,
    TradeIdea,
)
from tradeideas.ideas.outcomes import (
    CORRECTION_WINDOW,
    LEVEL_FIELDS,
    Levels,
    identity_fixed_at,
    lesson_fixed_at,
    result_fixed_at,
)
from tradeideas.ideas.schemas import (
    INVALID_STATUS,
    MAX_LIMIT,
    IdeaListQuery,
    IdeaOut,
    RevisionOut,
    UnseenCounts,
)
from tradeideas.media.models import MediaFile, media_url
from tradeideas.notifications.models import CustomerIdeaState, MutedEducator
from tradeideas.prices import reads as price_checks

IDEA_NOT_FOUND = "Trade idea not found"
# An invalidated idea stays on the active list (with its INVALID tag, after every live idea) this long after it was
# invalidated (its `closed_at`), then leaves it (issue #26).
INVALIDATED_SHOWN = timedelta(hours=24)
# Unseen counts stop here; the badges show "99+" for anything above 99.
UNSEEN_COUNT_CAP = 100
STATUS_ALIASES: dict[str, IdeaStatus] = {
    "active": IdeaStatus.ACTIVE,
    "pending": IdeaStatus.PENDING,
    "reset": IdeaStatus.PENDING,
    "successful": IdeaStatus.SUCCESSFUL,
    "success": IdeaStatus.SUCCESSFUL,
    "unsuccessful": IdeaStatus.UNSUCCESSFUL,
    "failure": IdeaStatus.UNSUCCESSFUL,
    "failed": IdeaStatus.UNSUCCESSFUL,
    "invalidated": IdeaStatus.INVALIDATED,
    "invalid": IdeaStatus.INVALIDATED,
}


# Editable attributes and the names their revisions carry (the JSON field names).
def normalise_status(value: str) -> IdeaStatus:
    status = STATUS_ALIASES.get(value.strip().lower())
    if status is None:
        raise Invalid(INVALID_STATUS, code="invalid_status")
    return status


# ---------------------------------------------------------------- presenting


@dataclass
class Viewer:
    """Who is reading: customers get `isNew` computed from their seen state."""

    user_id: int
    is_customer: bool


# Event payloads go to every viewer, so they carry no per-customer NEW flag.
PUBLIC_VIEWER = Viewer(user_id=0, is_customer=False)

# Single reads run on the request's session (which flushes pending changes first); the list runs on the driver.
_IDEAS = TradeIdea.__table__
_USERS = User.__table__
_IMAGES = IdeaImage.__table__
_MEDIA = MediaFile.__table__
_TAKEN = IdeaTaken.__table__
_SETUPS = IdeaSetup.__table__
# What an idea is shown with, as plain columns (no ORM entities: building objects cost more than the query), read
# by name in `shown_idea`: the idea's columns and its educator's card.
_SHOWN_COLUMNS = (
    _IDEAS.c.id,
    _IDEAS.c.educator_id,
    _USERS.c.first_name,
    _USERS.c.last_name,
    _USERS.c.role,
    _USERS.c.slug,
    _USERS.c.avatar_path,
    _USERS.c.specialty,
    _IDEAS.c.pair,
    _IDEAS.c.time_frame,
    _IDEAS.c.order_type,
    _IDEAS.c.idea_type,
    _IDEAS.c.market_type,
    _IDEAS.c.market,
    _IDEAS.c.entry_1,
    _IDEAS.c.entry_2,
    _IDEAS.c.invalidation_level,
    _IDEAS.c.exit_1,
    _IDEAS.c.exit_2,
    _IDEAS.c.exit_3,
    _IDEAS.c.notes,
    _IDEAS.c.setup_id,
    _SETUPS.c.name.label("setup_name"),
    _IDEAS.c.reason,
    _IDEAS.c.status,
    _IDEAS.c.completed,
    _IDEAS.c.video_url,
    _IDEAS.c.audio_url,
    _IDEAS.c.created_at,
    _IDEAS.c.updated_at,
    _IDEAS.c.edited,
    _IDEAS.c.edited_after_publish,
    _IDEAS.c.outcome,
    _IDEAS.c.close_price,
    _IDEAS.c.closed_at,
    _IDEAS.c.r_multiple,
    _IDEAS.c.lesson_what_happened,
    _IDEAS.c.lesson_text,
    _IDEAS.c.lesson_at,
    _IDEAS.c.lesson_updated_at,
    # Called versus taken: the stored medians of members' journal entries, outer-joined (decisions 0056, 0101).
    _TAKEN.c.members.label("taken_members"),
    _TAKEN.c.slippage_median_r.label("taken_slippage_median_r"),
    _TAKEN.c.realised_median_r.label("taken_realised_median_r"),
)


def never_new(row: NamedRow) -> bool:
    """Completed or invalidated: an idea no customer should be told is NEW or count as unseen (issue #26)."""
    return bool(row["completed"]) or row["status"] == IdeaStatus.INVALIDATED


def _shown_ideas() -> Select[Any]:
    return (
        select(*_SHOWN_COLUMNS)
        .join_from(_IDEAS, _USERS, _USERS.c.id == _IDEAS.c.educator_id)
        .outerjoin(_TAKEN, _TAKEN.c.idea_id == _IDEAS.c.id)
        .outerjoin(_SETUPS, _SETUPS.c.id == _IDEAS.c.setup_id)
    )


class Pictures(NamedTuple):
    """An idea's images in order: their ids, card URLs and full-size URLs (tuples: JSON arrays, never changed)."""

    ids: tuple[int, ...]
    urls: tuple[str, ...]
    full_urls: tuple[str, ...]


NO_PICTURES = Pictures((), (), ())


def shown_idea(
    row: NamedRow, pictures: Pictures, is_new: bool | None, verification: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A row of `_shown_ideas` (read by column name) as the input of `IdeaOut`, keyed by its Python field names
    (the camelCase names are the model's alone): what single reads validate into `IdeaOut` and the list's pages
    encode through it (`ideas.pages`)."""
    urls = pictures.urls
    created_at, closed_at = row["created_at"], row["closed_at"]
    return {
        "id": row["id"],
        "educator_id": row["educator_id"],
        "educator_name": display_name(row["first_name"], row["last_name"], row["role"]),
        "educator_slug": row["slug"],
        "educator_image": avatar_url(row["avatar_path"]),
        "specialty": row["specialty"],
        "pair": row["pair"],
        "time_frame": row["time_frame"],
        "order_type": row["order_type"],
        "idea_type": row["idea_type"],
        "market_type": row["market_type"],
        "market": row["market"],
        "entry1": row["entry_1"],
        "entry2": row["entry_2"],
        "invalidation_level": row["invalidation_level"],
        "exit1": row["exit_1"],
        "exit2": row["exit_2"],
        "exit3": row["exit_3"],
        "notes": row["notes"],
        "setup_id": row["setup_id"],
        "setup_name": row["setup_name"],
        "reason": row["reason"],
        "status": row["status"],
        "completed": row["completed"],
        "image_ids": pictures.ids,
        "image_urls": urls,
        "image_full_urls": pictures.full_urls,
        "chart_url": urls[0] if urls else None,
        "video_url": row["video_url"],
        "audio_url": row["audio_url"],
        "created_at": created_at,
        "updated_at": row["updated_at"],
        "edited": row["edited"],
        "edited_after_publish": row["edited_after_publish"],
        "outcome": row["outcome"],
        "close_price": row["close_price"],
        "closed_at": closed_at,
        "r_multiple": row["r_multiple"],
        "lesson": shown_lesson(row),
        "identity_fixed_at": identity_fixed_at(created_at),
        "result_fixed_at": result_fixed_at(closed_at),
        "is_new": is_new,
        "verification": verification,  # read apart: `prices.reads.read_verifications`
        "taken": shown_taken(row["taken_members"], row["taken_slippage_median_r"], row["taken_realised_median_r"]),
    }


def shown_lesson(row: NamedRow) -> dict[str, Any] | None:
    """The idea's lesson as the input of `LessonOut` (its field names), or None while it has none."""
    lesson_at = row["lesson_at"]
    if lesson_at is None:
        return None
    return {
        "what_happened": row["lesson_what_happened"],
        "lesson": row["lesson_text"],
        "updated_at": row["lesson_updated_at"] or lesson_at,
        "fixed_at": lesson_fixed_at(lesson_at),
    }


def _group_pictures(rows: Iterable[NamedRow]) -> dict[int, Pictures]:
    """Image rows (`_PICTURE_COLUMNS`), ordered by idea and position, per idea."""
    grouped: dict[int, tuple[list[int], list[str], list[str]]] = {}
    for row in rows:
        ids, urls, full_urls = grouped.setdefault(row["idea_id"], ([], [], []))
        name = row["file_name"]
        ids.append(row["media_id"])
        urls.append(media_url(name))
        full_urls.append(media_url(row["full_file_name"] or name))
    return {idea_id: Pictures(tuple(ids), tuple(urls), tuple(full)) for idea_id, (ids, urls, full) in grouped.items()}


_PICTURE_COLUMNS = (_IMAGES.c.idea_id, _MEDIA.c.id.label("media_id"), _MEDIA.c.file_name, _MEDIA.c.full_file_name)


async def pictures_by_idea(db: AsyncSession, ids: Sequence[int]) -> dict[int, Pictures]:
    """Per idea, in order, its images (through the session, for single reads)."""
    if not ids:
        return {}
    rows = await db.execute(
        select(*_PICTURE_COLUMNS)
        .join_from(_IMAGES, _MEDIA, _MEDIA.c.id == _IMAGES.c.media_id)
        .where(_IMAGES.c.idea_id.in_(ids))
        .order_by(_IMAGES.c.idea_id, _IMAGES.c.position)
    )
    return _group_pictures(rows.mappings())


def _seen_until(state: CustomerIdeaState | Row[*tuple[Any, ...]] | None, market: str) -> datetime | None:
    if state is None:
        return None
    return state.forex_seen_until if market == "forex" else state.crypto_seen_until


async def seen_marks(db: AsyncSession, user_id: int, idea_ids: Sequence[int]) -> SeenMarks:
    """The customer's watermarks and their marks among `idea_ids` (through the session, for single reads).

    Two round trips: the state row, then the seen ideas and the muted educators together (told apart by `muted`).
    """
    states = CustomerIdeaState.__table__
    state = (
        await db.execute(
            select(
                states.c.forex_seen_until, states.c.crypto_seen_until, states.c.notify_forex, states.c.notify_crypto
            ).where(states.c.user_id == user_id)
        )
    ).one_or_none()
    views, mutes = IdeaView.__table__, MutedEducator.__table__
    seen = select(views.c.idea_id.label("id"), false().label("muted")).where(
        views.c.user_id == user_id, views.c.idea_id.in_(idea_ids)
    )
    muted = select(mutes.c.educator_id, true()).where(mutes.c.user_id == user_id)
    seen_ids: set[int] = set()
    muted_ids: set[int] = set()
    for mark in (await db.execute(union_all(seen, muted))).mappings():
        (muted_ids if mark["muted"] else seen_ids).add(mark["id"])
    return SeenMarks(
        forex_until=_seen_until(state, "forex"),
        crypto_until=_seen_until(state, "crypto"),
        idea_ids=frozenset(seen_ids),
        notify_forex=state is None or state.notify_forex,
        notify_crypto=state is None or state.notify_crypto,
        muted_educators=frozenset(muted_ids),
    )


async def present_one(db: AsyncSession, idea: TradeIdea, viewer: Viewer) -> IdeaOut:
    """The idea as the API shows it, read back through the session (so with its pending changes) like a list row."""
    row = (await db.execute(_shown_ideas().where(_IDEAS.c.id == idea.id))).mappings().one_or_none()
    if row is None:  # pragma: no cover - the foreign key forbids it
        raise NotFound(IDEA_NOT_FOUND)
    pictures = await pictures_by_idea(db, [idea.id])
    is_new = None
    if viewer.is_customer:
        marks = await seen_marks(db, viewer.user_id, [idea.id])
        is_new = marks.is_new(idea.id, row["market"], row["created_at"], never_new(row), row["educator_id"])
    verification = await price_checks.verification_of(db, idea.id)
    return IdeaOut.model_validate(shown_idea(row, pictures.get(idea.id, NO_PICTURES), is_new, verification))


# ---------------------------------------------------------------- the list, read through the driver


def _encode_cursor(created_at: datetime, idea_id: int, invalidated_part: bool = False) -> str:
    """Where a page ended; on the active list, past its live ideas into the invalidated ones, "|1" says so."""
    raw = f"{created_at.isoformat()}|{idea_id}{'|1' if invalidated_part else ''}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _decode_cursor(cursor: str) -> tuple[datetime, int, int]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        at, idea_id, *part = raw.split("|")
        created_at = datetime.fromisoformat(at)
        created_at = (created_at if created_at.tzinfo else created_at.replace(tzinfo=UTC)).astimezone(UTC)
        last_id = int(idea_id)
        group = int(part[0]) if part else 0
    except (binascii.Error, UnicodeDecodeError, ValueError, OverflowError) as exc:
        raise Invalid("Invalid cursor", code="invalid_cursor") from exc
    if not 0 < last_id <= MAX_ID or group not in (0, 1) or len(part) > 1:
        raise Invalid("Invalid cursor", code="invalid_cursor")
    return created_at, last_id, group


def _listed_last() -> Any:
    """1 for an invalidated idea, 0 for a live one: the active list's first sort key. Its constants are written out,
    never bound, so the databases match it to `ix_trade_ideas_open_feed`'s expression (`models.LISTED_LAST_SQL`)."""
    invalidated = literal_column(f"'{IdeaStatus.INVALIDATED.value}'", String)
    return case((_IDEAS.c.status == invalidated, literal_column("1", Integer)), else_=literal_column("0", Integer))


# A list request's statement: the market, status (as the kind of condition it makes) and idea type it filters on,
# whether it filters on an educator, a time frame, a closing day, having a lesson and a setup, where its cursor is
# (None: no cursor; on the active list 1 past the live ideas, among the invalidated ones, else 0), and how many rows
# it reads.
_PageShape = tuple[str | None, str | None, str | None, bool, bool, bool, bool, bool, int | None, int]
_STATUS_KINDS = {"active": "active", "completed": "completed", "closed": "closed"}
_PAGE_QUERIES: dict[_PageShape, DriverQuery] = {}
# A page reads the smallest of these that holds `limit` rows, plus one to tell whether more follow.
PAGE_READ_SIZES = (10, 25, 50, MAX_LIMIT)


def _page_read_size(limit: int) -> int:
    return next(size for size in PAGE_READ_SIZES if size >= limit)


def _written_in(name: str, value: str | int, type_: type[String] | type[Integer]) -> BindParameter[Any]:
    """A value written into the statement's text rather than bound (decision 0046). PostgreSQL plans a prepared
    statement anew on every execution whenever it costs its generic plan, made without the values, above the
    plans made for them: with the page size bound it assumed a tenth of the table, and with the market and idea type
    bound it misjudged how many ideas match; either way planning cost more than running the page. These come from
    closed sets (the sizes above, two markets, two idea types), so the statements stay few."""
    return bindparam(name, value=value, type_=type_, literal_execute=True)


def _newest_first(statement: Select[Any], after_cursor: bool, rows: BindParameter[Any]) -> Select[Any]:
    """`statement` from the cursor on (when `after_cursor`), newest first on (created_at, id), `rows` of it."""
    ideas = _IDEAS.c
    if after_cursor:
        at, last_id = bindparam("cursor_at", type_=UTCDateTime), bindparam("cursor_id", type_=Integer)
        # `created_at <= at` bounds the index range; the OR keeps the keyset exact among equal times.
        after = or_(ideas.created_at < at, and_(ideas.created_at == at, ideas.id < last_id))
        statement = statement.where(ideas.created_at <= at, after)
    return statement.order_by(ideas.created_at.desc(), ideas.id.desc()).limit(rows)


def _active_page(statement: Select[Any], cursor: int | None, rows: BindParameter[Any]) -> Select[Any]:
    """The active list (issue #26): every live open idea first, then the invalidated ones shown for 24 h after they
    were invalidated (`shown_since` = now - 24 h), each part newest first. The parts are read apart, each in the
    order of `ix_trade_ideas_open_feed` and at most a page long, and joined (decision 0090): ordering both by the
    sort key at once made PostgreSQL sort every open idea of the market."""
    ideas = _IDEAS.c
    listed_last = _listed_last()
    statement = statement.where(ideas.completed == false())
    invalidated = statement.where(
        listed_last == literal_column("1", Integer),
        or_(ideas.closed_at.is_(None), ideas.closed_at > bindparam("shown_since", type_=UTCDateTime)),
    ).add_columns(literal_column("1", Integer).label("listed_last"))
    if cursor == 1:  # past every live idea
        return _newest_first(invalidated, True, rows)
    live = statement.where(listed_last == literal_column("0", Integer)).add_columns(
        literal_column("0", Integer).label("listed_last")
    )
    parts = [
        _newest_first(live, cursor is not None, rows).subquery("live"),
        _newest_first(invalidated, False, rows).subquery("invalidated"),
    ]
    page = union_all(*(select(part) for part in parts)).subquery("page")
    # The outer order sorts at most two parts of a page each, never the market's open ideas.
    return select(page).order_by(page.c.listed_last, page.c.created_at.desc(), page.c.id.desc()).limit(rows)


def _page_query(shape: _PageShape) -> DriverQuery:
    """The page statement for one shape (at most 17,280 of them), built and compiled once, so a request neither builds
    nor compiles SQL; the educator, the cursor and an exact status stay parameters."""
    query = _PAGE_QUERIES.get(shape)
    if query is not None:
        return query
    market, status, idea_type, has_educator, has_time_frame, has_since, has_lesson, has_setup, cursor, read_size = shape
    ideas = _IDEAS.c
    statement = _shown_ideas()
    if market is not None:
        statement = statement.where(ideas.market == _written_in("market", market, String))
    if status == "completed":
        statement = statement.where(ideas.completed == true())
    elif status == "closed":
        statement = statement.where(ideas.closed_at.is_not(None))
    elif status == "exact":
        statement = statement.where(ideas.status == bindparam("status", type_=String))
    if idea_type is not None:
        statement = statement.where(ideas.idea_type == _written_in("idea_type", idea_type, String))
    if has_educator:
        statement = statement.where(ideas.educator_id == bindparam("educator_id", type_=Integer))
    if has_time_frame:
        statement = statement.where(func.lower(ideas.time_frame) == bindparam("time_frame", type_=String))
    if has_since:
        statement = statement.where(ideas.closed_at >= bindparam("since", type_=UTCDateTime))
    if has_lesson:
        statement = statement.where(ideas.lesson_at.is_not(None))
    if has_setup:
        statement = statement.where(ideas.setup_id == bindparam("setup_id", type_=Integer))
    rows = _written_in("rows", read_size + 1, Integer)
    if status == "active":
        statement = _active_page(statement, cursor, rows)
    else:
        statement = _newest_first(statement, cursor is not None, rows)
    return _PAGE_QUERIES.setdefault(shape, DriverQuery(statement))


def _pictures_statement(dialect: str) -> Select[Any]:
    return (
        select(*_PICTURE_COLUMNS)
        .join_from(_IMAGES, _MEDIA, _MEDIA.c.id == _IMAGES.c.media_id)
        .where(id_in(_IMAGES.c.idea_id, "ids", dialect))
        .order_by(_IMAGES.c.idea_id, _IMAGES.c.position)
    )


_PICTURES = DriverQuery(_pictures_statement)


@dataclass(frozen=True, slots=True)
class PageRows:
    """A page of ideas as read: rows of `_shown_ideas` (use `shown_idea`), their pictures and the next cursor."""

    rows: Sequence[NamedRow]
    pictures: dict[int, Pictures]
    next_cursor: str | None
    verifications: dict[int, dict[str, Any]]  # price checks (`verification`), per idea id


def page_statement(filters: IdeaListQuery, now: datetime) -> tuple[DriverQuery, dict[str, Any]]:
    """The statement that reads a page of `filters` and its parameters (also what the plan tests explain)."""
    limit = max(1, min(filters.limit, MAX_LIMIT))
    params: dict[str, Any] = {}
    status = filters.status
    kind = None if status is None else _STATUS_KINDS.get(status, "exact")
    if kind == "exact":
        assert status is not None
        params["status"] = normalise_status(status).value
    if filters.educator_id is not None:
        params["educator_id"] = filters.educator_id
    if filters.time_frame is not None:
        params["time_frame"] = filters.time_frame.lower()
    if filters.setup is not None:
        params["setup_id"] = filters.setup
    if filters.since is not None:
        params["since"] = start_of_day(date.fromisoformat(filters.since))
    if kind == "active":
        params["shown_since"] = now - INVALIDATED_SHOWN
    cursor = None
    if filters.cursor:
        params["cursor_at"], params["cursor_id"], group = _decode_cursor(filters.cursor)
        cursor = group if kind == "active" else 0
    idea_type = None if filters.idea_type is None else filters.idea_type.capitalize()
    shape = (
        filters.market,
        kind,
        idea_type,
        filters.educator_id is not None,
        filters.time_frame is not None,
        filters.since is not None,
        bool(filters.lesson),
        filters.setup is not None,
        cursor,
        _page_read_size(limit),
    )
    return _page_query(shape), params


async def read_page(reader: DriverReader, filters: IdeaListQuery, now: datetime) -> PageRows:
    """Ideas newest first, keyset-paginated on (created_at, id), and their pictures: two round trips.

    The active list puts invalidated ideas after every live one and leaves out those invalidated 24 h before `now`.
    """
    limit = max(1, min(filters.limit, MAX_LIMIT))
    query, params = page_statement(filters, now)
    rows = await reader.rows(query, **params)
    next_cursor = None
    if len(rows) > limit:
        rows = rows[:limit]
        last = rows[-1]
        invalidated_part = filters.status == "active" and last["status"] == IdeaStatus.INVALIDATED
        next_cursor = _encode_cursor(last["created_at"], last["id"], invalidated_part)
    ids = [row["id"] for row in rows]
    pictures = _group_pictures(await reader.rows(_PICTURES, ids=ids)) if rows else {}
    verifications = await price_checks.read_verifications(reader, ids)
    return PageRows(rows, pictures, next_cursor, verifications)


def _seen_statement() -> CompoundSelect[Any]:
    """A customer's seen state in one statement: the state row (kind 0), seen ideas (1) and muted educators (2)."""
    states, views, mutes = CustomerIdeaState.__table__, IdeaView.__table__, MutedEducator.__table__
    user_id = bindparam("user_id", type_=Integer)
    state = select(
        literal_column("0", Integer).label("kind"),
        null().label("marked_id"),
        states.c.forex_seen_until,
        states.c.crypto_seen_until,
        states.c.notify_forex,
        states.c.notify_crypto,
    ).where(states.c.user_id == user_id)
    seen = select(literal_column("1", Integer), views.c.idea_id, null(), null(), null(), null())
    muted = select(literal_column("2", Integer), mutes.c.educator_id, null(), null(), null(), null())
    return union_all(state, seen.where(views.c.user_id == user_id), muted.where(mutes.c.user_id == user_id))


_SEEN = DriverQuery(_seen_statement())


async def read_seen_marks(reader: DriverReader, user_id: int) -> SeenMarks:
    """The customer's watermarks and every per-idea mark: one round trip."""
    state = None
    seen_ids: set[int] = set()
    muted_ids: set[int] = set()
    for row in await reader.rows(_SEEN, user_id=user_id):
        kind = row["kind"]
        if kind == 1:
            seen_ids.add(row["marked_id"])
        elif kind == 2:
            muted_ids.add(row["marked_id"])
        else:
            state = row
    return SeenMarks(
        forex_until=None if state is None else state["forex_seen_until"],
        crypto_until=None if state is None else state["crypto_seen_until"],
        idea_ids=frozenset(seen_ids),
        notify_forex=state is None or state["notify_forex"],
        notify_crypto=state is None or state["notify_crypto"],
        muted_educators=frozenset(muted_ids),
    )


async def get_idea(db: AsyncSession, idea_id: int) -> TradeIdea:
    idea = await db.get(TradeIdea, idea_id)
    if idea is None:
        raise NotFound(IDEA_NOT_FOUND)
    return idea


async def list_revisions(db: AsyncSession, idea_id: int) -> list[RevisionOut]:
    await get_idea(db, idea_id)
    rows = await db.execute(
        select(IdeaRevision, User)
        .outerjoin(User, User.id == IdeaRevision.editor_id)
        .where(IdeaRevision.idea_id == idea_id)
        .order_by(IdeaRevision.created_at.desc(), IdeaRevision.id.desc())
    )
    return [
        RevisionOut(
            id=rev.id,
            idea_id=rev.idea_id,
            field=rev.field,
            old_value=rev.old_value,
            new_value=rev.new_value,
            editor_id=rev.editor_id,
            editor_name=user.display_name if user else None,
            created_at=rev.created_at,
        )
        for rev, user in rows.all()
    ]


async def recorded_levels(db: AsyncSession, idea: TradeIdea) -> Levels:
    """The levels as they stood at the end of the correction window: later edits are undone, newest first."""
    levels = Levels(
        order_type=idea.order_type,
        entry1=idea.entry1,
        entry2=idea.entry2,
        invalidation_level=idea.invalidation_level,
        exit1=idea.exit1,
        exit2=idea.exit2,
        exit3=idea.exit3,
    )
    later = await db.execute(
        select(IdeaRevision.field, IdeaRevision.old_value)
        .where(
            IdeaRevision.idea_id == idea.id,
            IdeaRevision.field.in_(list(LEVEL_FIELDS)),
            IdeaRevision.created_at > idea.created_at + CORRECTION_WINDOW,
        )
        .order_by(IdeaRevision.created_at.desc(), IdeaRevision.id.desc())
    )
    for field, old_value in later.all():
        levels = levels.with_field(field, old_value)
    return levels


# ---------------------------------------------------------------- customers' seen state


async def unseen_counts(db: AsyncSession, user_id: int, educators: frozenset[int] | None = None) -> UnseenCounts:
    """Open ideas the customer has not seen, per market, counted only where notifications are on (and, with
    `educators`, only those educators' ideas: the ones the customer's plans open)."""
    state = await db.get(CustomerIdeaState, user_id)
    counts: dict[str, int] = {"forex": 0, "crypto": 0}
    for market in ("forex", "crypto"):
        enabled = state is None or (state.notify_forex if market == "forex" else state.notify_crypto)
        if not enabled:
            continue
        unseen = select(TradeIdea.id).where(
            TradeIdea.market == market,
            TradeIdea.completed == false(),
            TradeIdea.status != IdeaStatus.INVALIDATED,
            ~exists().where(IdeaView.user_id == user_id, IdeaView.idea_id == TradeIdea.id),
            # Switched-off educators: one primary-key probe per idea, like the seen marks above.
            ~exists().where(MutedEducator.user_id == user_id, MutedEducator.educator_id == TradeIdea.educator_id),
        )
        until = _seen_until(state, market)
        if until is not None:
            unseen = unseen.where(TradeIdea.created_at > until)
        if educators is not None:
            unseen = unseen.where(TradeIdea.educator_id.in_(sorted(educators)))
        # Counted up to the cap (badges show "99+" beyond it): the cost stays bounded however many ideas
        # a customer has not seen (a new customer, or one back after months), not by the table's size.
        query = select(func.count()).select_from(unseen.limit(UNSEEN_COUNT_CAP).subquery())
        counts[market] = (await db.execute(query)).scalar_one()
    return UnseenCounts(forex=counts["forex"], crypto=counts["crypto"], total=counts["forex"] + counts["crypto"])


def viewer_of(user_id: int, role: str) -> Viewer:
    return Viewer(user_id=user_id, is_customer=role == Role.CUSTOMER)
