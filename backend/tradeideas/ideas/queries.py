"""Reading trade ideas: presenting them as the API shows them, list pages, revisions, customers' seen state."""

import base64
import binascii
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import and_, exists, false, func, or_, select, true
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.auth.models import Role, User
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


async def _images_by_idea(db: AsyncSession, ids: Sequence[int]) -> dict[int, list[tuple[int, str, str]]]:
    """Per idea, in order: (media id, card URL, large URL)."""
    out: dict[int, list[tuple[int, str, str]]] = {}
    if not ids:
        return out
    rows = await db.execute(
        select(IdeaImage.idea_id, MediaFile.id, MediaFile.file_name, MediaFile.full_file_name)
        .join(MediaFile, MediaFile.id == IdeaImage.media_id)
        .where(IdeaImage.idea_id.in_(ids))
        .order_by(IdeaImage.idea_id, IdeaImage.position)
    )
    for idea_id, media_id, name, full_name in rows:
        out.setdefault(idea_id, []).append((media_id, media_url(name), media_url(full_name or name)))
    return out


def _seen_until(state: CustomerIdeaState | None, market: str) -> datetime | None:
    if state is None:
        return None
    return state.forex_seen_until if market == "forex" else state.crypto_seen_until


async def seen_marks(db: AsyncSession, user_id: int, idea_ids: Sequence[int] | None = None) -> SeenMarks:
    """The customer's watermarks and per-idea marks (all of them, or only those among `idea_ids`)."""
    state = await db.get(CustomerIdeaState, user_id)
    query = select(IdeaView.idea_id).where(IdeaView.user_id == user_id)
    if idea_ids is not None:
        query = query.where(IdeaView.idea_id.in_(idea_ids))
    return SeenMarks(
        forex_until=_seen_until(state, "forex"),
        crypto_until=_seen_until(state, "crypto"),
        idea_ids=frozenset((await db.execute(query)).scalars()),
        notify_forex=state is None or state.notify_forex,
        notify_crypto=state is None or state.notify_crypto,
        muted_educators=await muted_educators(db, user_id),
    )


async def present(db: AsyncSession, rows: Sequence[tuple[TradeIdea, User]], viewer: Viewer) -> list[IdeaOut]:
    """API shapes for ideas with their educators' current names, images and (customers) NEW flags."""
    ids = [idea.id for idea, _ in rows]
    images = await _images_by_idea(db, ids)
    marks = await seen_marks(db, viewer.user_id, ids) if viewer.is_customer and ids else None
    out = []
    for idea, educator in rows:
        is_new = (
            marks.is_new(idea.id, idea.market, idea.created_at, idea.completed, idea.educator_id) if marks else None
        )
        pictures = images.get(idea.id, [])
        urls = [url for _, url, _ in pictures]
        out.append(
            IdeaOut(
                id=idea.id,
                educator_id=idea.educator_id,
                educator_name=educator.display_name,
                educator_slug=educator.slug,
                educator_image=educator.avatar_url,
                specialty=educator.specialty,
                pair=idea.pair,
                time_frame=idea.time_frame,
                order_type=idea.order_type,
                idea_type=idea.idea_type,
                market_type=idea.market_type,
                market=idea.market,
                entry1=idea.entry1,
                entry2=idea.entry2,
                invalidation_level=idea.invalidation_level,
                exit1=idea.exit1,
                exit2=idea.exit2,
                exit3=idea.exit3,
                notes=idea.notes,
                status=idea.status,
                completed=idea.completed,
                image_ids=[media_id for media_id, _, _ in pictures],
                image_urls=urls,
                image_full_urls=[full for _, _, full in pictures],
                chart_url=urls[0] if urls else None,
                video_url=idea.video_url,
                audio_url=idea.audio_url,
                created_at=idea.created_at,
                updated_at=idea.updated_at,
                edited=idea.edited,
                edited_after_publish=idea.edited_after_publish,
                outcome=idea.outcome,
                close_price=idea.close_price,
                closed_at=idea.closed_at,
                r_multiple=idea.r_multiple,
                is_new=is_new,
            )
        )
    return out


async def present_one(db: AsyncSession, idea: TradeIdea, viewer: Viewer) -> IdeaOut:
    educator = await db.get(User, idea.educator_id)
    if educator is None:  # pragma: no cover - the foreign key forbids it
        raise NotFound(IDEA_NOT_FOUND)
    return (await present(db, [(idea, educator)], viewer))[0]


# ---------------------------------------------------------------- reading


def _encode_cursor(idea: TradeIdea) -> str:
    raw = f"{idea.created_at.isoformat()}|{idea.id}".encode()
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


async def page_rows(db: AsyncSession, filters: IdeaListQuery) -> tuple[list[tuple[TradeIdea, User]], str | None]:
    """Newest first, keyset-paginated on (created_at, id)."""
    limit = max(1, min(filters.limit, MAX_LIMIT))
    query = select(TradeIdea, User).join(User, User.id == TradeIdea.educator_id)
    if filters.market is not None:
        query = query.where(TradeIdea.market == filters.market)
    if filters.status == "active":
        query = query.where(TradeIdea.completed == false())
    elif filters.status == "completed":
        query = query.where(TradeIdea.completed == true())
    elif filters.status == "closed":
        query = query.where(TradeIdea.closed_at.is_not(None))
    elif filters.status is not None:
        query = query.where(TradeIdea.status == normalise_status(filters.status))
    if filters.idea_type is not None:
        query = query.where(TradeIdea.idea_type == filters.idea_type.capitalize())
    if filters.educator_id is not None:
        query = query.where(TradeIdea.educator_id == filters.educator_id)
    if filters.cursor:
        at, last_id = _decode_cursor(filters.cursor)
        query = query.where(
            TradeIdea.created_at <= at,
            or_(TradeIdea.created_at < at, and_(TradeIdea.created_at == at, TradeIdea.id < last_id)),
        )
    query = query.order_by(TradeIdea.created_at.desc(), TradeIdea.id.desc()).limit(limit + 1)
    rows = [(idea, user) for idea, user in (await db.execute(query)).all()]
    next_cursor = _encode_cursor(rows[limit - 1][0]) if len(rows) > limit else None
    return rows[:limit], next_cursor


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
