"""Changing trade ideas: publish, edit with revisions, status, delete, and customers' seen marks.

Services never commit (the request session does, once); each change publishes its event in the same transaction.
"""

from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.core.errors import AppError
from tradeideas.db import utcnow
from tradeideas.ideas.events import (
    IdeaCreated,
    IdeaDeleted,
    IdeaRecordChanged,
    IdeasSeen,
    IdeaStatusChanged,
    IdeaUpdated,
    IdeaWithdrawn,
)
from tradeideas.ideas.markets import Market, listing_market
from tradeideas.ideas.models import (
    COMPLETED_STATUSES,
    IdeaImage,
    IdeaRevision,
    IdeaStatus,
    IdeaView,
    TradeIdea,
)
from tradeideas.ideas.outcomes import (
    CORRECTION_WINDOW,
    LEVEL_FIELDS,
    check_manual_close,
    identity_fixed_at,
    lesson_fixed_at,
    manual_status,
    normalise_close_price,
    r_multiple,
    resolve_outcome,
    result_fixed_at,
)
from tradeideas.ideas.queries import (
    PUBLIC_VIEWER,
    Viewer,
    normalise_status,
    present_one,
    recorded_levels,
    unseen_counts,
)
from tradeideas.ideas.schemas import (
    IdeaCreate,
    IdeaOut,
    IdeaUpdate,
    LessonIn,
    UnseenCounts,
)
from tradeideas.ideas.setups import check_idea_setup
from tradeideas.media import service as media_service
from tradeideas.notifications import service as notifications
from tradeideas.realtime.service import publish

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
    "setup_id": "setupId",
    "reason": "reason",
}
COMPLETED_NOT_DELETABLE = "Completed ideas are part of the track record and cannot be deleted."
RESULT_FIXED = "This idea's result is part of the track record and can no longer be changed."
IDENTITY_FIXED = (
    "This idea is published: its market, pair, direction, type, time frame, setup and reason can no longer be changed."
)
LESSON_NOT_COMPLETED = "A lesson can be added once the idea is completed."
LESSON_FIXED = "This idea's lesson is part of the track record and can no longer be changed."
# What an idea is: fixed once the correction window after publishing has passed (`identity_fixed_at`). The setup
# and the reason are what it teaches, fixed with the pair (decision 0170).
IDENTITY_FIELDS = ("market_type", "pair", "order_type", "idea_type", "time_frame", "setup_id", "reason")


# ---------------------------------------------------------------- writing


async def _set_images(db: AsyncSession, idea: TradeIdea, owner_id: int, image_ids: list[int]) -> None:
    await media_service.owned_media(db, owner_id, image_ids)
    await db.execute(delete(IdeaImage).where(IdeaImage.idea_id == idea.id))
    for position, media_id in enumerate(image_ids):
        db.add(IdeaImage(idea_id=idea.id, position=position, media_id=media_id))
    await db.flush()


async def _audio_url(db: AsyncSession, owner_id: int, audio_id: int | None) -> str | None:
    """The URL of the educator's own voice note `audio_id` (None removes it)."""
    return None if audio_id is None else (await media_service.owned_audio(db, owner_id, audio_id)).url


async def create_idea(db: AsyncSession, educator_id: int, body: IdeaCreate, now: datetime | None = None) -> TradeIdea:
    """Publish an idea (status active) with its images, in the caller's transaction."""
    assert body.market_type and body.order_type and body.idea_type  # guaranteed by IdeaCreate
    assert body.pair and body.time_frame and body.entry1 and body.invalidation_level and body.exit1
    image_ids = body.image_ids or []
    await check_idea_setup(db, educator_id, body.setup_id)
    await media_service.owned_media(db, educator_id, image_ids)
    now = now or utcnow()
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
        setup_id=body.setup_id,
        reason=body.reason,
        status=IdeaStatus.ACTIVE,
        completed=False,
        video_url=body.video_url,
        audio_url=await _audio_url(db, educator_id, body.audio_id),
        edited=False,
        created_at=now,
        updated_at=now,
    )
    db.add(idea)
    await db.flush()
    for position, media_id in enumerate(image_ids):
        db.add(IdeaImage(idea_id=idea.id, position=position, media_id=media_id))
    await db.flush()
    await _publish(db, IdeaCreated, idea)
    return idea


async def _publish(
    db: AsyncSession, event_class: type[IdeaCreated | IdeaUpdated | IdeaStatusChanged], idea: TradeIdea
) -> None:
    """Publish the change, in this transaction, with the idea as the API shows it to everyone."""
    shown = await present_one(db, idea, PUBLIC_VIEWER)
    await publish(db, event_class.model_validate(shown.model_dump()))
    db.info.setdefault(_PUBLISHED_FORM, {})[idea.id] = shown


# The form each idea's change event carried, by idea id, on the session that published it.
_PUBLISHED_FORM = "tradeideas.ideas.published_form"


async def shown_after_change(db: AsyncSession, idea: TradeIdea, viewer: Viewer) -> IdeaOut:
    """The idea as the changing request answers it: the form its event just carried when nothing changed since and
    the viewer sees what everyone sees (no NEW flag), so a change reads the idea back once, not twice."""
    published: IdeaOut | None = db.info.get(_PUBLISHED_FORM, {}).get(idea.id)
    if published is None or viewer.is_customer or published.updated_at != idea.updated_at or idea in db.dirty:
        return await present_one(db, idea, viewer)
    return published


def _revision(
    idea: TradeIdea, editor_id: int, field: str, old: str | None, new: str | None, at: datetime | None = None
) -> IdeaRevision:
    return IdeaRevision(
        idea_id=idea.id, editor_id=editor_id, field=field, old_value=old, new_value=new, created_at=at or utcnow()
    )


def _revision_text(value: object) -> str | None:
    """A revision keeps text: a setup's id is written as its digits."""
    return None if value is None else str(value)


def _closing_day(idea: TradeIdea) -> list[datetime]:
    return [idea.closed_at] if idea.closed_at is not None else []


async def update_idea(
    db: AsyncSession, idea: TradeIdea, editor_id: int, body: IdeaUpdate, now: datetime | None = None
) -> TradeIdea:
    """Apply the given fields; every changed field is kept as a revision.

    After the correction window the idea's identity (`IDENTITY_FIELDS`) is fixed: changing it is a 409 and
    nothing is saved. Notes, media and levels stay editable (the record keeps the levels' recorded values).
    """
    now = now or utcnow()
    if now > identity_fixed_at(idea.created_at) and any(
        attr in body.model_fields_set and getattr(body, attr) != getattr(idea, attr) for attr in IDENTITY_FIELDS
    ):
        raise AppError(IDENTITY_FIXED, code="identity_fixed", status_code=409)
    if "setup_id" in body.model_fields_set and body.setup_id != idea.setup_id:
        await check_idea_setup(db, idea.educator_id, body.setup_id)
    revisions: list[IdeaRevision] = []
    for attr, label in EDITABLE_FIELDS.items():
        if attr not in body.model_fields_set:
            continue
        old, new = getattr(idea, attr), getattr(body, attr)
        if old != new:
            setattr(idea, attr, new)
            revisions.append(_revision(idea, editor_id, label, _revision_text(old), _revision_text(new), now))
    if "audio_id" in body.model_fields_set:
        audio_url = await _audio_url(db, editor_id, body.audio_id)
        if audio_url != idea.audio_url:
            revisions.append(_revision(idea, editor_id, "audioUrl", idea.audio_url, audio_url, now))
            idea.audio_url = audio_url
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
                    now,
                )
            )
    if revisions:
        idea.market = listing_market(idea.pair, idea.market_type)
        idea.edited = True
        late = now > idea.created_at + CORRECTION_WINDOW
        if late and any(r.field in LEVEL_FIELDS for r in revisions):
            idea.edited_after_publish = True
        idea.updated_at = now
        db.add_all(revisions)
        await db.flush()
        if idea.outcome is not None:
            # Corrections within the window still count; later edits are undone by `recorded_levels`. The
            # record is refreshed either way: market, type or time frame may have moved it to another group.
            idea.r_multiple = r_multiple(await recorded_levels(db, idea), idea.outcome, idea.close_price)
            await db.flush()
        await _publish(db, IdeaUpdated, idea)
        if idea.closed_at is not None:
            await publish(db, IdeaRecordChanged(educator_id=idea.educator_id, days=[idea.closed_at.date()]))
    return idea


async def set_status(
    db: AsyncSession,
    idea: TradeIdea,
    editor_id: int,
    value: str,
    outcome: str | None = None,
    close_price: str | None = None,
    now: datetime | None = None,
) -> TradeIdea:
    """successful / unsuccessful complete the idea, invalidated marks it INVALID, pending (or active) reopens it.

    Completing records the outcome (defaults: exit1, invalidation, not_triggered), the closing time and R;
    reopening clears them. The educator's track record follows in the same transaction (`IdeaRecordChanged`).
    A recorded result can be corrected (re-graded or reopened) within the correction window after it was
    recorded; later, any change is a 409 (repeating the recorded result is not a change).
    """
    status = normalise_status(value)
    exits = {"exit1": idea.exit1, "exit2": idea.exit2, "exit3": idea.exit3}
    chosen, price = resolve_outcome(status, outcome, normalise_close_price(close_price), exits)
    r = None
    if chosen is not None:  # reopening records no R, so it needs no levels
        levels = await recorded_levels(db, idea)
        if chosen == "manual" and price is not None:
            check_manual_close(levels, price)
        r = r_multiple(levels, chosen, price)
    if chosen == "manual":
        status = manual_status(status, r)
    if (idea.status, idea.outcome, idea.close_price) == (status.value, chosen, price):
        return idea
    now = now or utcnow()
    fixed_at = result_fixed_at(idea.closed_at)
    if fixed_at is not None and now > fixed_at:
        raise AppError(RESULT_FIXED, code="result_fixed", status_code=409)
    for label, old, new in (
        ("status", idea.status, status.value),
        ("outcome", idea.outcome, chosen),
        ("closePrice", idea.close_price, price),
    ):
        if old != new:
            db.add(_revision(idea, editor_id, label, old, new, now))
    days = {at.date() for at in _closing_day(idea)}
    was_open = idea.closed_at is None
    idea.status = status
    idea.completed = status in COMPLETED_STATUSES
    idea.outcome, idea.close_price, idea.r_multiple = chosen, price, r
    # A re-graded idea keeps the moment it closed; a reopened one has none.
    idea.closed_at = None if chosen is None else (idea.closed_at or now)
    days |= {at.date() for at in _closing_day(idea)}
    # A result is not an edit: "edited" marks changes to what a trader acts on (decision 0122).
    idea.updated_at = now
    await db.flush()
    await _publish(db, IdeaStatusChanged, idea)
    if days:
        closed_now = idea.id if was_open and idea.closed_at is not None else None
        await publish(db, IdeaRecordChanged(educator_id=idea.educator_id, days=sorted(days), closed_idea_id=closed_now))
    return idea


async def set_lesson(db: AsyncSession, idea: TradeIdea, body: LessonIn, now: datetime | None = None) -> TradeIdea:
    """Add or correct a completed idea's lesson. It can be corrected for the correction window after it was first
    written, then it is frozen like the result (409); repeating it unchanged is not a change. Every change is shown
    to everyone like any other (`IdeaUpdated`), and the ledger records it as `idea.lesson` (decision 0171)."""
    if not idea.completed:
        raise AppError(LESSON_NOT_COMPLETED, code="idea_not_completed", status_code=409)
    if (idea.lesson_what_happened, idea.lesson_text) == (body.what_happened, body.lesson):
        return idea
    now = now or utcnow()
    fixed_at = lesson_fixed_at(idea.lesson_at)
    if fixed_at is not None and now > fixed_at:
        raise AppError(LESSON_FIXED, code="lesson_fixed", status_code=409)
    idea.lesson_what_happened, idea.lesson_text = body.what_happened, body.lesson
    idea.lesson_at = idea.lesson_at or now
    idea.lesson_updated_at = now
    # A lesson is not an edit: "edited" marks changes to what a trader acts on (decision 0122).
    idea.updated_at = now
    await db.flush()
    await _publish(db, IdeaUpdated, idea)
    return idea


async def delete_idea(db: AsyncSession, idea: TradeIdea, now: datetime | None = None) -> TradeIdea:
    """Remove an open idea; its images links, revisions, seen rows and queued notifications go with it (CASCADE).

    Completed ideas stay (409). An open idea deleted after the correction window stays counted in the
    educator's record as "deleted after publishing" (`IdeaWithdrawn`); within the window it leaves no trace.
    """
    if idea.outcome is not None or idea.completed:
        raise AppError(COMPLETED_NOT_DELETABLE, code="completed_idea", status_code=409)
    now = now or utcnow()
    if now > idea.created_at + CORRECTION_WINDOW:
        await publish(
            db,
            IdeaWithdrawn(
                id=idea.id,
                educator_id=idea.educator_id,
                market=idea.market,
                idea_type=idea.idea_type,
                time_frame=idea.time_frame,
                published_at=idea.created_at,
                deleted_at=now,
            ),
        )
    deleted = IdeaDeleted(
        id=idea.id,
        market=idea.market,
        idea_type=idea.idea_type,
        educator_id=idea.educator_id,
        pair=idea.pair,
        deleted_at=now,
    )
    # Announced before the row goes: the domains whose rows its delete cascades to lock them first, in their order.
    await publish(db, deleted.of_invalidated_idea() if idea.status == IdeaStatus.INVALIDATED else deleted)
    await db.execute(delete(TradeIdea).where(TradeIdea.id == idea.id))
    db.expunge(idea)
    return idea


# ---------------------------------------------------------------- customers' seen state


async def mark_seen(
    db: AsyncSession, user_id: int, idea_ids: list[int], market: Market | None, educators: frozenset[int] | None = None
) -> UnseenCounts:
    """Mark ideas seen by id and/or every current idea of a market (opening its card)."""
    if market is not None:
        await notifications.mark_market_seen(db, user_id, market, utcnow())
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
    return await recount_unseen(db, user_id, educators)


async def recount_unseen(db: AsyncSession, user_id: int, educators: frozenset[int] | None = None) -> UnseenCounts:
    """Count the customer's unseen ideas again and announce them: their other tabs and devices update their
    badges, every server process drops its cached seen marks. Also after they changed their notification switches,
    which decide what counts (`NotificationSettingsChanged`, wired in `runtime.subscribe`). `educators`: only the
    ideas of these count (a member whose plans open some educators; None: every educator)."""
    counts = await unseen_counts(db, user_id, educators)
    await publish(db, IdeasSeen(user_id=user_id, **counts.model_dump()))
    return counts
