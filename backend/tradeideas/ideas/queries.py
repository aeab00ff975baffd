"""Reading trade ideas: presenting them as the API shows them, list pages, revisions, customers' seen state."""

import base64
import binascii
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, NamedTuple

from sqlalchemy import Row, RowMapping, Select, and_, exists, false, func, or_, select, true, union_all
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from tradeideas.auth.models import Role, User, avatar_url, display_name
from tradeideas.core.errors import Invalid, NotFound
from tradeideas.core.schemas import MAX_ID
from tradeideas.ideas.cache import SeenMarks
from tradeideas.ideas.models import (
    CustomerIdeaState,
    IdeaImage,
    IdeaRevision,
    IdeaStatus,
    IdeaView,
    MutedEducator,
    TradeIdea,
)
from tradeideas.ideas.outcomes import CORRECTION_WINDOW, LEVEL_FIELDS, Levels
from tradeideas.ideas.schemas import (
    MAX_LIMIT,
    EventSwitches,
    IdeaListQuery,
    IdeaOut,
    NotificationSettings,
    QuietHours,
    RevisionOut,
    UnseenCounts,
)
from tradeideas.media.models import MediaFile, media_url

IDEA_NOT_FOUND = "Trade idea not found"
# Unseen counts stop here; the badges show "99+" for anything above 99.
UNSEEN_COUNT_CAP = 100
INVALID_STATUS = "Status must be one of active, pending, successful, unsuccessful or invalidated"
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

# Reads run on the request's session (which flushes pending changes first) or on a bare connection (the list).
Reader = AsyncSession | AsyncConnection

_IDEAS = TradeIdea.__table__
_USERS = User.__table__
# What an idea is shown with, as plain columns (no ORM entities: building objects cost more than the query):
# every column of the idea, named as the model's attributes (`entry_1` reads as `entry1`), and its educator's card.
_SHOWN_COLUMNS = (
    *(column.label(key) for key, column in TradeIdea.__mapper__.columns.items()),
    _USERS.c.first_name.label("educator_first_name"),
    _USERS.c.last_name.label("educator_last_name"),
    _USERS.c.role.label("educator_role"),
    _USERS.c.slug.label("educator_slug"),
    _USERS.c.avatar_path.label("educator_avatar_path"),
    _USERS.c.specialty.label("educator_specialty"),
)


def _shown_ideas() -> Select[Any]:
    return select(*_SHOWN_COLUMNS).join_from(_IDEAS, _USERS, _USERS.c.id == _IDEAS.c.educator_id)


class Picture(NamedTuple):
    media_id: int
    url: str
    full_url: str


def _json_time(at: datetime | None) -> str | None:
    """As pydantic writes a UTC datetime in JSON: ISO 8601 with `Z`, microseconds only when there are some."""
    return None if at is None else at.isoformat().replace("+00:00", "Z")


def shown_idea(row: RowMapping, pictures: Sequence[Picture], is_new: bool | None) -> dict[str, Any]:
    """A row of `_shown_ideas` as `IdeaOut` dumps it (`model_dump(mode="json", by_alias=True)`): the same keys in
    the same order, the same formats. Built directly because a model per idea cost more than the whole query, and
    read by column name because attribute access on a row costs several times more (100 rows of 40 columns).
    `IdeaOut` stays the documented shape and single reads validate this dict into it, so the field list lives
    here alone (tests/ideas/test_list_bytes.py holds the list to IdeaOut's bytes)."""
    urls = [picture.url for picture in pictures]
    return {
        "id": row["id"],
        "educatorId": row["educator_id"],
        "educatorName": display_name(row["educator_first_name"], row["educator_last_name"], row["educator_role"]),
        "educatorSlug": row["educator_slug"],
        "educatorImage": avatar_url(row["educator_avatar_path"]),
        "specialty": row["educator_specialty"],
        "pair": row["pair"],
        "timeFrame": row["time_frame"],
        "orderType": row["order_type"],
        "ideaType": row["idea_type"],
        "marketType": row["market_type"],
        "market": row["market"],
        "entry1": row["entry1"],
        "entry2": row["entry2"],
        "invalidationLevel": row["invalidation_level"],
        "exit1": row["exit1"],
        "exit2": row["exit2"],
        "exit3": row["exit3"],
        "notes": row["notes"],
        "status": row["status"],
        "completed": row["completed"],
        "imageIds": [picture.media_id for picture in pictures],
        "imageUrls": urls,
        "imageFullUrls": [picture.full_url for picture in pictures],
        "chartUrl": urls[0] if urls else None,
        "videoUrl": row["video_url"],
        "audioUrl": row["audio_url"],
        "createdAt": _json_time(row["created_at"]),
        "updatedAt": _json_time(row["updated_at"]),
        "edited": row["edited"],
        "editedAfterPublish": row["edited_after_publish"],
        "outcome": row["outcome"],
        "closePrice": row["close_price"],
        "closedAt": _json_time(row["closed_at"]),
        "rMultiple": row["r_multiple"],
        "isNew": is_new,
    }


async def pictures_by_idea(db: Reader, ids: Sequence[int]) -> dict[int, list[Picture]]:
    """Per idea, in order, its images: one query for a whole page."""
    out: dict[int, list[Picture]] = {}
    if not ids:
        return out
    images, media = IdeaImage.__table__, MediaFile.__table__
    rows = await db.execute(
        select(images.c.idea_id, media.c.id, media.c.file_name, media.c.full_file_name)
        .join_from(images, media, media.c.id == images.c.media_id)
        .where(images.c.idea_id.in_(ids))
        .order_by(images.c.idea_id, images.c.position)
    )
    for idea_id, media_id, name, full_name in rows:
        out.setdefault(idea_id, []).append(Picture(media_id, media_url(name), media_url(full_name or name)))
    return out


def _seen_until(state: CustomerIdeaState | Row[*tuple[Any, ...]] | None, market: str) -> datetime | None:
    if state is None:
        return None
    return state.forex_seen_until if market == "forex" else state.crypto_seen_until


async def seen_marks(db: Reader, user_id: int, idea_ids: Sequence[int] | None = None) -> SeenMarks:
    """The customer's watermarks and per-idea marks (all of them, or only those among `idea_ids`).

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
    seen = select(views.c.idea_id.label("id"), false().label("muted")).where(views.c.user_id == user_id)
    if idea_ids is not None:
        seen = seen.where(views.c.idea_id.in_(idea_ids))
    muted = select(mutes.c.educator_id, true()).where(mutes.c.user_id == user_id)
    seen_ids: set[int] = set()
    muted_ids: set[int] = set()
    for marked_id, is_muted in await db.execute(union_all(seen, muted)):
        (muted_ids if is_muted else seen_ids).add(marked_id)
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
        is_new = marks.is_new(idea.id, row["market"], row["created_at"], row["completed"], row["educator_id"])
    return IdeaOut.model_validate(shown_idea(row, pictures.get(idea.id, []), is_new))


# ---------------------------------------------------------------- reading


def _encode_cursor(created_at: datetime, idea_id: int) -> str:
    raw = f"{created_at.isoformat()}|{idea_id}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _decode_cursor(cursor: str) -> tuple[datetime, int]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        at, _, idea_id = raw.partition("|")
        created_at = datetime.fromisoformat(at)
        created_at = (created_at if created_at.tzinfo else created_at.replace(tzinfo=UTC)).astimezone(UTC)
        last_id = int(idea_id)
    except (binascii.Error, UnicodeDecodeError, ValueError, OverflowError) as exc:
        raise Invalid("Invalid cursor", code="invalid_cursor") from exc
    if not 0 < last_id <= MAX_ID:
        raise Invalid("Invalid cursor", code="invalid_cursor")
    return created_at, last_id


async def page_rows(db: Reader, filters: IdeaListQuery) -> tuple[Sequence[RowMapping], str | None]:
    """Rows of `_shown_ideas`, newest first, keyset-paginated on (created_at, id)."""
    limit = max(1, min(filters.limit, MAX_LIMIT))
    ideas = _IDEAS.c
    query = _shown_ideas()
    if filters.market is not None:
        query = query.where(ideas.market == filters.market)
    if filters.status == "active":
        query = query.where(ideas.completed == false())
    elif filters.status == "completed":
        query = query.where(ideas.completed == true())
    elif filters.status == "closed":
        query = query.where(ideas.closed_at.is_not(None))
    elif filters.status is not None:
        query = query.where(ideas.status == normalise_status(filters.status))
    if filters.idea_type is not None:
        query = query.where(ideas.idea_type == filters.idea_type.capitalize())
    if filters.educator_id is not None:
        query = query.where(ideas.educator_id == filters.educator_id)
    if filters.cursor:
        at, last_id = _decode_cursor(filters.cursor)
        query = query.where(
            ideas.created_at <= at,
            or_(ideas.created_at < at, and_(ideas.created_at == at, ideas.id < last_id)),
        )
    query = query.order_by(ideas.created_at.desc(), ideas.id.desc()).limit(limit + 1)
    rows = (await db.execute(query)).mappings().all()
    if len(rows) <= limit:
        return rows, None
    last = rows[limit - 1]
    return rows[:limit], _encode_cursor(last["created_at"], last["id"])


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


async def unseen_counts(db: AsyncSession, user_id: int) -> UnseenCounts:
    """Open ideas the customer has not seen, per market, counted only where notifications are on."""
    state = await db.get(CustomerIdeaState, user_id)
    counts: dict[str, int] = {"forex": 0, "crypto": 0}
    for market in ("forex", "crypto"):
        enabled = state is None or (state.notify_forex if market == "forex" else state.notify_crypto)
        if not enabled:
            continue
        unseen = select(TradeIdea.id).where(
            TradeIdea.market == market,
            TradeIdea.completed == false(),
            ~exists().where(IdeaView.user_id == user_id, IdeaView.idea_id == TradeIdea.id),
            # Switched-off educators: one primary-key probe per idea, like the seen marks above.
            ~exists().where(MutedEducator.user_id == user_id, MutedEducator.educator_id == TradeIdea.educator_id),
        )
        until = _seen_until(state, market)
        if until is not None:
            unseen = unseen.where(TradeIdea.created_at > until)
        # Counted up to the cap (badges show "99+" beyond it): the cost stays bounded however many ideas
        # a customer has not seen (a new customer, or one back after months), not by the table's size.
        query = select(func.count()).select_from(unseen.limit(UNSEEN_COUNT_CAP).subquery())
        counts[market] = (await db.execute(query)).scalar_one()
    return UnseenCounts(forex=counts["forex"], crypto=counts["crypto"], total=counts["forex"] + counts["crypto"])


async def muted_educators(db: AsyncSession, user_id: int) -> frozenset[int]:
    rows = await db.execute(select(MutedEducator.educator_id).where(MutedEducator.user_id == user_id))
    return frozenset(rows.scalars())


async def get_notification_settings(db: AsyncSession, user_id: int) -> NotificationSettings:
    state = await db.get(CustomerIdeaState, user_id)
    muted = await muted_educators(db, user_id)
    educator_ids = (await db.execute(select(User.id).where(User.role == Role.EDUCATOR).order_by(User.id))).scalars()
    educators = {educator_id: educator_id not in muted for educator_id in educator_ids}
    if state is None:
        return NotificationSettings(forex=True, crypto=True, educators=educators, events=EventSwitches())
    quiet = None
    if state.quiet_start and state.quiet_end and state.quiet_timezone:
        quiet = QuietHours(start=state.quiet_start, end=state.quiet_end, timezone=state.quiet_timezone)
    return NotificationSettings(
        forex=state.notify_forex,
        crypto=state.notify_crypto,
        educators=educators,
        events=EventSwitches(
            new_idea=state.notify_new_idea, idea_closed=state.notify_idea_closed, chat_message=state.notify_chat
        ),
        quiet_hours=quiet,
    )


def viewer_of(user_id: int, role: str) -> Viewer:
    return Viewer(user_id=user_id, is_customer=role == Role.CUSTOMER)
