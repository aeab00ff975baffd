"""What reaches a customer: their switches (markets, educators, events), quiet hours, and the one rule that
chooses who gets a push, used by the push queue for ideas and chat alike.

Services never commit (the request session does, once).
"""

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import ColumnElement, Select, delete, exists, func, select, true
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.auth import service as auth_service
from tradeideas.core.errors import Invalid
from tradeideas.notifications.events import NotificationSettingsChanged
from tradeideas.notifications.models import CustomerIdeaState, MutedEducator
from tradeideas.notifications.schemas import EventSwitches, NotificationSettings, QuietHours
from tradeideas.realtime.service import publish

Market = Literal["forex", "crypto"]
# The events a customer switches on or off (the names of `EventSwitches` in camelCase).
PushEvent = Literal["newIdea", "ideaClosed", "chatMessage"]


async def _state(db: AsyncSession, user_id: int) -> CustomerIdeaState:
    state = await db.get(CustomerIdeaState, user_id)
    if state is None:
        try:
            # The first row made twice at once (a kept settings write repeated on reconnect) meets on the key.
            async with db.begin_nested():
                state = CustomerIdeaState(user_id=user_id, notify_forex=True, notify_crypto=True)
                db.add(state)
        except IntegrityError:
            state = await db.get(CustomerIdeaState, user_id)
            assert state is not None, "the row that won the race"
    return state


async def mark_market_seen(db: AsyncSession, user_id: int, market: Market, now: datetime) -> None:
    """Every idea of `market` created up to `now` counts as seen by the customer (they opened its card)."""
    state = await _state(db, user_id)
    if market == "forex":
        state.forex_seen_until = now
    else:
        state.crypto_seen_until = now


async def get_settings(db: AsyncSession, user_id: int) -> NotificationSettings:
    """The customer's switches; everything is on by default except chat messages."""
    state = await db.get(CustomerIdeaState, user_id)
    muted = set((await db.execute(select(MutedEducator.educator_id).where(MutedEducator.user_id == user_id))).scalars())
    educators = {educator_id: educator_id not in muted for educator_id in await auth_service.educator_ids(db)}
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


async def _set_educator_switches(db: AsyncSession, user_id: int, switches: dict[int, bool]) -> None:
    unknown = sorted(set(switches) - set(await auth_service.educator_ids(db, among=switches)))
    if unknown:
        raise Invalid(f"No educator with id {unknown[0]}", code="unknown_educator")
    await db.execute(
        delete(MutedEducator).where(MutedEducator.user_id == user_id, MutedEducator.educator_id.in_(list(switches)))
    )
    for educator_id in sorted(e for e, on in switches.items() if not on):
        try:
            async with db.begin_nested():  # the same switch saved twice at once: one row, as asked
                db.add(MutedEducator(user_id=user_id, educator_id=educator_id))
        except IntegrityError:
            pass


async def set_settings(db: AsyncSession, user_id: int, body: NotificationSettings) -> NotificationSettings:
    """Markets always; educators, events and quiet hours only when the body names them (null quiet hours: off)."""
    state = await _state(db, user_id)
    state.notify_forex = body.forex
    state.notify_crypto = body.crypto
    if body.educators is not None:
        await _set_educator_switches(db, user_id, body.educators)
    if body.events is not None:
        state.notify_new_idea = body.events.new_idea
        state.notify_idea_closed = body.events.idea_closed
        state.notify_chat = body.events.chat_message
    if "quiet_hours" in body.model_fields_set:
        quiet = body.quiet_hours
        state.quiet_start = quiet.start if quiet else None
        state.quiet_end = quiet.end if quiet else None
        state.quiet_timezone = quiet.timezone if quiet else None
    await db.flush()
    # Counts and NEW tags follow the markets and educators a customer hears about: the ideas domain recounts
    # in this transaction (wired in `runtime.subscribe`).
    await publish(db, NotificationSettingsChanged(user_id=user_id))
    return await get_settings(db, user_id)


# ---- who gets a push ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Push:
    """What a push is about, in the terms customers switch: the event, its educator and its market (None: a
    chat message, which spans both markets, so the market switches do not apply; decision 0038)."""

    event: PushEvent
    educator_id: int
    market: Market | None = None


def audience(push: Push) -> Select[Any]:
    """The customers who get `push`, with their quiet hours: columns `user_id`, `quiet_start`, `quiet_end`,
    `quiet_timezone` (null start: no quiet hours).

    The one rule: an enabled customer account whose switches for the push's market, event and educator are all
    on; a customer who never saved settings has the defaults (every switch on, chat messages off).
    """
    customers = auth_service.active_customer_ids().subquery()
    user_id = customers.c.id
    allowed: list[ColumnElement[bool]] = [
        ~exists().where(MutedEducator.user_id == user_id, MutedEducator.educator_id == push.educator_id)
    ]
    if push.market is not None:
        market_switch = CustomerIdeaState.notify_forex if push.market == "forex" else CustomerIdeaState.notify_crypto
        allowed.append(func.coalesce(market_switch, true()))
    if push.event == "chatMessage":  # off by default: only those who switched it on
        allowed.append(CustomerIdeaState.notify_chat.is_(True))
    else:
        closed = push.event == "ideaClosed"
        event_switch = CustomerIdeaState.notify_idea_closed if closed else CustomerIdeaState.notify_new_idea
        allowed.append(func.coalesce(event_switch, true()))
    return (
        select(
            user_id.label("user_id"),
            CustomerIdeaState.quiet_start,
            CustomerIdeaState.quiet_end,
            CustomerIdeaState.quiet_timezone,
        )
        .select_from(customers)
        .outerjoin(CustomerIdeaState, CustomerIdeaState.user_id == user_id)
        .where(*allowed)
    )
