"""Trade-idea rules and queries: create, edit with revisions, status, delete, lists, seen state.

Services never commit (the request session does, once). Writers return the changed `TradeIdea`
so a realtime publisher can be hooked in later without touching the rules.
"""

import base64
import binascii
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import and_, delete, exists, false, func, or_, select, true
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.auth.models import Role, User
from tradeideas.core.errors import Invalid, NotFound
from tradeideas.db import utcnow
from tradeideas.ideas.cache import SEEN_CHANGED, CachedIdea, CachedPage, IdeaCache, SeenMarks
from tradeideas.ideas.markets import Market, listing_market
from tradeideas.ideas.models import (
    COMPLETED_STATUSES,
    CustomerIdeaState,
    IdeaImage,
    IdeaRevision,
    IdeaStatus,
    IdeaView,
    TradeIdea,
)
from tradeideas.ideas.schemas import (
    IdeaCreate,
    IdeaOut,
    IdeaUpdate,
    NotificationSettings,
    RevisionOut,
    UnseenCounts,
)
from tradeideas.media import service as media_service
from tradeideas.media.models import MediaFile, media_url
from tradeideas.push.service import enqueue_idea_push
from tradeideas.realtime.service import record_event

IDEA_NOT_FOUND = "Trade idea not found"
INVALID_STATUS = "Status must be one of active, successful, unsuccessful or invalidated"
DEFAULT_LIMIT = 20
MAX_LIMIT = 100

STATUS_ALIASES: dict[str, IdeaStatus] = {
    "active": IdeaStatus.ACTIVE,
    "pending": IdeaStatus.ACTIVE,
    "reset": IdeaStatus.ACTIVE,
    "successful": IdeaStatus.SUCCESSFUL,
    "success": IdeaStatus.SUCCESSFUL,
    "unsuccessful": IdeaStatus.UNSUCCESSFUL,
    "failure": IdeaStatus.UNSUCCESSFUL,
    "failed": IdeaStatus.UNSUCCESSFUL,
    "invalidated": IdeaStatus.INVALIDATED,
    "invalid": IdeaStatus.INVALIDATED,
}

# Editable attributes and the names their revisions carry (the JSON field names).
EDITABLE_FIELDS: dict[str, str] = {
    "market_type": "marketType",
    "order_type": "orderType",
    "idea_type": "ideaType",
    "pair": "pair",
    "time_frame": "timeFrame",
    "entry1": "entry1",
    "entry2": "entry2",
    "invalidation_level": "invalidationLevel",
    "exit1": "exit1",
    "exit2": "exit2",
    "exit3": "exit3",
    "notes": "notes",
    "video_url": "videoUrl",
    "audio_url": "audioUrl",
}


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


async def _images_by_idea(db: AsyncSession, ids: Sequence[int]) -> dict[int, list[tuple[int, str]]]:
    out: dict[int, list[tuple[int, str]]] = {}
    if not ids:
        return out
    rows = await db.execute(
        select(IdeaImage.idea_id, MediaFile.id, MediaFile.file_name)
        .join(MediaFile, MediaFile.id == IdeaImage.media_id)
        .where(IdeaImage.idea_id.in_(ids))
        .order_by(IdeaImage.idea_id, IdeaImage.position)
    )
    for idea_id, media_id, name in rows:
        out.setdefault(idea_id, []).append((media_id, media_url(name)))
    return out


def _seen_until(state: CustomerIdeaState | None, market: str) -> datetime | None:
    if state is None:
        return None
    return state.forex_seen_until if market == "forex" else state.crypto_seen_until


async def _seen_marks(db: AsyncSession, user_id: int, idea_ids: Sequence[int] | None = None) -> SeenMarks:
    """The customer's watermarks and per-idea marks (all of them, or only those among `idea_ids`)."""
    state = await db.get(CustomerIdeaState, user_id)
    query = select(IdeaView.idea_id).where(IdeaView.user_id == user_id)
    if idea_ids is not None:
        query = query.where(IdeaView.idea_id.in_(idea_ids))
    return SeenMarks(
        forex_until=_seen_until(state, "forex"),
        crypto_until=_seen_until(state, "crypto"),
        idea_ids=frozenset((await db.execute(query)).scalars()),
    )


async def present(db: AsyncSession, rows: Sequence[tuple[TradeIdea, User]], viewer: Viewer) -> list[IdeaOut]:
    """API shapes for ideas with their educators' current names, images and (customers) NEW flags."""
    ids = [idea.id for idea, _ in rows]
    images = await _images_by_idea(db, ids)
    marks = await _seen_marks(db, viewer.user_id, ids) if viewer.is_customer and ids else None
    out = []
    for idea, educator in rows:
        is_new = marks.is_new(idea.id, idea.market, idea.created_at, idea.completed) if marks else None
        pictures = images.get(idea.id, [])
        urls = [url for _, url in pictures]
        out.append(
            IdeaOut(
                id=idea.id,
                educator_id=idea.educator_id,
                educator_name=educator.display_name,
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
                image_ids=[media_id for media_id, _ in pictures],
                image_urls=urls,
                chart_url=urls[0] if urls else None,
                video_url=idea.video_url,
                audio_url=idea.audio_url,
                created_at=idea.created_at,
                updated_at=idea.updated_at,
                edited=idea.edited,
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
        return datetime.fromisoformat(at), int(idea_id)
    except (binascii.Error, UnicodeDecodeError, ValueError) as exc:
        raise Invalid("Invalid cursor", code="invalid_cursor") from exc


@dataclass(frozen=True)
class IdeaFilter:
    """Which ideas a list shows. status: `active` lists open ideas (active and invalidated, shown as
    INVALID), `completed` the history (successful and unsuccessful); an exact status value filters on it alone."""

    market: Market | None = None
    idea_type: str | None = None
    status: str | None = None
    educator_id: int | None = None
    limit: int = DEFAULT_LIMIT
    cursor: str | None = None


async def list_ideas_json(db: AsyncSession, cache: IdeaCache, viewer: Viewer, filters: IdeaFilter) -> bytes:
    """One page of ideas, newest first, as the JSON of `IdeaPage`; served from memory when nothing changed.

    The page (the same for everyone) and the customer's seen marks are cached separately, so a customer
    gets their own NEW flags on a page shared with everyone else.
    """
    page = cache.page(filters)
    if page is None:
        generation = cache.generation
        rows, next_cursor = await _page_rows(db, filters)
        shown = await present(db, rows, PUBLIC_VIEWER)
        page = CachedPage(
            ideas=tuple(
                CachedIdea(
                    id=idea.id,
                    market=idea.market,
                    created_at=idea.created_at,
                    completed=idea.completed,
                    json_head=out.model_dump_json(by_alias=True, exclude={"is_new"}).encode()[:-1],
                )
                for (idea, _), out in zip(rows, shown, strict=True)
            ),
            next_cursor=next_cursor,
        )
        cache.put_page(filters, page, generation)
    marks: SeenMarks | None = None
    if viewer.is_customer and page.ideas:
        marks = cache.seen(viewer.user_id)
        if marks is None:
            generation = cache.generation
            marks = await _seen_marks(db, viewer.user_id)
            cache.put_seen(viewer.user_id, marks, generation)
    return _page_json(page, marks)


def list_ideas_from_memory(cache: IdeaCache, viewer: Viewer, filters: IdeaFilter) -> bytes | None:
    """`list_ideas_json` when the page and the customer's seen marks are both in memory, else None."""
    page = cache.page(filters)
    if page is None:
        return None
    marks: SeenMarks | None = None
    if viewer.is_customer and page.ideas:
        marks = cache.seen(viewer.user_id)
        if marks is None:
            return None
    return _page_json(page, marks)


def _page_json(page: CachedPage, marks: SeenMarks | None) -> bytes:
    items = b",".join(
        idea.json_head
        + (
            _IS_NEW_NULL
            if marks is None
            else _IS_NEW_TRUE
            if marks.is_new(idea.id, idea.market, idea.created_at, idea.completed)
            else _IS_NEW_FALSE
        )
        for idea in page.ideas
    )
    return b'{"items":[%s],"nextCursor":%s}' % (items, json.dumps(page.next_cursor).encode())


_IS_NEW_TRUE = b',"isNew":true}'
_IS_NEW_FALSE = b',"isNew":false}'
_IS_NEW_NULL = b',"isNew":null}'


async def _page_rows(db: AsyncSession, filters: IdeaFilter) -> tuple[list[tuple[TradeIdea, User]], str | None]:
    """Newest first, keyset-paginated on (created_at, id)."""
    limit = max(1, min(filters.limit, MAX_LIMIT))
    query = select(TradeIdea, User).join(User, User.id == TradeIdea.educator_id)
    if filters.market is not None:
        query = query.where(TradeIdea.market == filters.market)
    if filters.status == "active":
        query = query.where(TradeIdea.completed == false())
    elif filters.status == "completed":
        query = query.where(TradeIdea.completed == true())
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


# ---------------------------------------------------------------- writing


async def _set_images(db: AsyncSession, idea: TradeIdea, owner_id: int, image_ids: list[int]) -> None:
    await media_service.owned_media(db, owner_id, image_ids)
    await db.execute(delete(IdeaImage).where(IdeaImage.idea_id == idea.id))
    for position, media_id in enumerate(image_ids):
        db.add(IdeaImage(idea_id=idea.id, position=position, media_id=media_id))
    await db.flush()


async def create_idea(db: AsyncSession, educator_id: int, body: IdeaCreate) -> TradeIdea:
    """Publish an idea (status active) with its images, in the caller's transaction."""
    assert body.market_type and body.order_type and body.idea_type  # guaranteed by IdeaCreate
    assert body.pair and body.time_frame and body.entry1 and body.invalidation_level and body.exit1
    image_ids = body.image_ids or []
    await media_service.owned_media(db, educator_id, image_ids)
    now = utcnow()
    idea = TradeIdea(
        educator_id=educator_id,
        market_type=body.market_type,
        market=listing_market(body.pair, body.market_type),
        order_type=body.order_type,
        idea_type=body.idea_type,
        pair=body.pair,
        time_frame=body.time_frame,
        entry1=body.entry1,
        entry2=body.entry2,
        invalidation_level=body.invalidation_level,
        exit1=body.exit1,
        exit2=body.exit2,
        exit3=body.exit3,
        notes=body.notes,
        status=IdeaStatus.ACTIVE,
        completed=False,
        video_url=body.video_url,
        audio_url=body.audio_url,
        edited=False,
        created_at=now,
        updated_at=now,
    )
    db.add(idea)
    await db.flush()
    for position, media_id in enumerate(image_ids):
        db.add(IdeaImage(idea_id=idea.id, position=position, media_id=media_id))
    await db.flush()
    published = await _publish(db, "idea.created", idea)
    await enqueue_idea_push(db, published)
    return idea


async def _publish(db: AsyncSession, event_type: str, idea: TradeIdea) -> IdeaOut:
    """Record the change for live clients, in this transaction, as the API shows it to everyone."""
    published = await present_one(db, idea, PUBLIC_VIEWER)
    await record_event(db, event_type, published)
    return published


def _revision(idea: TradeIdea, editor_id: int, field: str, old: str | None, new: str | None) -> IdeaRevision:
    return IdeaRevision(idea_id=idea.id, editor_id=editor_id, field=field, old_value=old, new_value=new)


async def update_idea(db: AsyncSession, idea: TradeIdea, editor_id: int, body: IdeaUpdate) -> TradeIdea:
    """Apply the given fields; every changed field is kept as a revision."""
    revisions: list[IdeaRevision] = []
    for attr, label in EDITABLE_FIELDS.items():
        if attr not in body.model_fields_set:
            continue
        old, new = getattr(idea, attr), getattr(body, attr)
        if old != new:
            setattr(idea, attr, new)
            revisions.append(_revision(idea, editor_id, label, old, new))
    if "image_ids" in body.model_fields_set:
        new_ids = body.image_ids or []
        old_ids = list(
            (
                await db.execute(
                    select(IdeaImage.media_id).where(IdeaImage.idea_id == idea.id).order_by(IdeaImage.position)
                )
            ).scalars()
        )
        if old_ids != new_ids:
            await _set_images(db, idea, editor_id, new_ids)
            revisions.append(
                _revision(
                    idea,
                    editor_id,
                    "imageIds",
                    ",".join(map(str, old_ids)) or None,
                    ",".join(map(str, new_ids)) or None,
                )
            )
    if revisions:
        idea.market = listing_market(idea.pair, idea.market_type)
        idea.edited = True
        idea.updated_at = utcnow()
        db.add_all(revisions)
        await db.flush()
        await _publish(db, "idea.updated", idea)
    return idea


async def set_status(db: AsyncSession, idea: TradeIdea, editor_id: int, value: str) -> TradeIdea:
    """successful / unsuccessful complete the idea, invalidated marks it INVALID, active resets it."""
    status = normalise_status(value)
    if idea.status != status:
        db.add(_revision(idea, editor_id, "status", idea.status, status.value))
        idea.status = status
        idea.completed = status in COMPLETED_STATUSES
        idea.edited = True
        idea.updated_at = utcnow()
        await db.flush()
        await _publish(db, "idea.status", idea)
    return idea


async def delete_idea(db: AsyncSession, idea: TradeIdea) -> TradeIdea:
    """Remove the idea; its images links, revisions, seen rows and queued notifications go with it (CASCADE)."""
    await db.execute(delete(TradeIdea).where(TradeIdea.id == idea.id))
    await record_event(db, "idea.deleted", {"id": idea.id, "market": idea.market, "ideaType": idea.idea_type})
    db.expunge(idea)
    return idea


# ---------------------------------------------------------------- customers' seen state


async def _state(db: AsyncSession, user_id: int) -> CustomerIdeaState:
    state = await db.get(CustomerIdeaState, user_id)
    if state is None:
        state = CustomerIdeaState(user_id=user_id, notify_forex=True, notify_crypto=True)
        db.add(state)
        await db.flush()
    return state


async def unseen_counts(db: AsyncSession, user_id: int) -> UnseenCounts:
    """Open ideas the customer has not seen, per market, counted only where notifications are on."""
    state = await db.get(CustomerIdeaState, user_id)
    counts: dict[str, int] = {"forex": 0, "crypto": 0}
    for market in ("forex", "crypto"):
        enabled = state is None or (state.notify_forex if market == "forex" else state.notify_crypto)
        if not enabled:
            continue
        query = (
            select(func.count())
            .select_from(TradeIdea)
            .where(
                TradeIdea.market == market,
                TradeIdea.completed == false(),
                ~exists().where(IdeaView.user_id == user_id, IdeaView.idea_id == TradeIdea.id),
            )
        )
        until = _seen_until(state, market)
        if until is not None:
            query = query.where(TradeIdea.created_at > until)
        counts[market] = (await db.execute(query)).scalar_one()
    return UnseenCounts(forex=counts["forex"], crypto=counts["crypto"], total=counts["forex"] + counts["crypto"])


async def mark_seen(db: AsyncSession, user_id: int, idea_ids: list[int], market: Market | None) -> UnseenCounts:
    """Mark ideas seen by id and/or every current idea of a market (opening its card)."""
    if market is not None:
        state = await _state(db, user_id)
        now = utcnow()
        if market == "forex":
            state.forex_seen_until = now
        else:
            state.crypto_seen_until = now
        # Per-idea rows of that market are now implied by the watermark.
        await db.execute(
            delete(IdeaView).where(
                IdeaView.user_id == user_id,
                IdeaView.idea_id.in_(select(TradeIdea.id).where(TradeIdea.market == market)),
            )
        )
    wanted = set(idea_ids)
    if wanted:
        existing = sorted((await db.execute(select(TradeIdea.id).where(TradeIdea.id.in_(wanted)))).scalars())
        if existing:
            # ON CONFLICT DO NOTHING: two tabs marking the same idea at once must not fail.
            insert = pg_insert if db.get_bind().dialect.name == "postgresql" else sqlite_insert
            now = utcnow()
            await db.execute(
                insert(IdeaView)
                .values([{"user_id": user_id, "idea_id": i, "seen_at": now} for i in existing])
                .on_conflict_do_nothing()
            )
    await db.flush()
    counts = await unseen_counts(db, user_id)
    # The customer's other tabs and devices update their badges; every server process drops their cached marks.
    await record_event(db, SEEN_CHANGED, {"userId": user_id, **counts.model_dump(by_alias=True)}, audience=user_id)
    return counts


async def get_notification_settings(db: AsyncSession, user_id: int) -> NotificationSettings:
    state = await db.get(CustomerIdeaState, user_id)
    if state is None:
        return NotificationSettings(forex=True, crypto=True)
    return NotificationSettings(forex=state.notify_forex, crypto=state.notify_crypto)


async def set_notification_settings(db: AsyncSession, user_id: int, body: NotificationSettings) -> NotificationSettings:
    state = await _state(db, user_id)
    state.notify_forex = body.forex
    state.notify_crypto = body.crypto
    await db.flush()
    return NotificationSettings(forex=state.notify_forex, crypto=state.notify_crypto)


def viewer_of(user_id: int, role: str) -> Viewer:
    return Viewer(user_id=user_id, is_customer=role == Role.CUSTOMER)
