"""Unseen counts are counted from the cached pages of newest open ideas when those settle them, and in the
database otherwise: both ways give the same numbers, whatever the customer's watermarks, marks and switches."""

from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime, timedelta

import pytest
from fastapi import FastAPI
from sqlalchemy import delete, insert, update

from tests.factories import open_idea
from tradeideas.auth import service as auth_service
from tradeideas.auth.models import Role
from tradeideas.billing import service as billing_service
from tradeideas.core.deps import component_of
from tradeideas.ideas.cache import IdeaCache
from tradeideas.ideas.models import IdeaView, TradeIdea
from tradeideas.ideas.pages import IdeaPages
from tradeideas.ideas.queries import UNSEEN_COUNT_CAP, unseen_counts
from tradeideas.ideas.schemas import UnseenCounts
from tradeideas.notifications.models import CustomerIdeaState, MutedEducator

IDEAS = UNSEEN_COUNT_CAP + 30


@pytest.fixture
async def forex_ideas(app: FastAPI) -> AsyncIterator[list[TradeIdea]]:
    """More open forex ideas than a page holds, newer than any other test's, one a minute, from two educators."""
    start = datetime.now(UTC) + timedelta(days=1)
    async with app.state.db.sessionmaker() as s, s.begin():
        ideas = [
            open_idea(educator_id=1 + n % 2, pair=f"UNS{n}/USD", created_at=start + timedelta(minutes=n))
            for n in range(IDEAS)
        ]
        s.add_all(ideas)
    component_of(app, IdeaCache).clear()  # inserted behind the app's back: no event dropped its pages
    yield ideas
    async with app.state.db.sessionmaker() as s, s.begin():
        await s.execute(delete(TradeIdea).where(TradeIdea.id.in_([idea.id for idea in ideas])))
    component_of(app, IdeaCache).clear()


@pytest.fixture
async def customer_id(app: FastAPI) -> AsyncIterator[int]:
    async with app.state.db.sessionmaker() as s, s.begin():
        user = await auth_service.add_user(
            s,
            email=f"unseen.{datetime.now(UTC).timestamp()}@example.com",
            password="irrelevant-here-1",
            role=Role.CUSTOMER,
            first_name="Unseen",
            last_name="Counter",
        )
        await billing_service.add_complimentary(s, None, user.id, None, None)  # sees every educator
    yield user.id


async def _set_state(
    app: FastAPI,
    user_id: int,
    *,
    forex_until: datetime | None = None,
    notify_forex: bool = True,
    seen: Sequence[int] = (),
    muted: Sequence[int] = (),
) -> None:
    async with app.state.db.sessionmaker() as s, s.begin():
        s.add(CustomerIdeaState(user_id=user_id, forex_seen_until=forex_until, notify_forex=notify_forex))
        if seen:
            await s.execute(insert(IdeaView), [{"user_id": user_id, "idea_id": idea_id} for idea_id in seen])
        for educator_id in muted:
            s.add(MutedEducator(user_id=user_id, educator_id=educator_id))
    component_of(app, IdeaCache).forget_seen(user_id)


async def _both_ways(app: FastAPI, user_id: int) -> tuple[UnseenCounts, UnseenCounts | None, UnseenCounts]:
    """What the route answers, what the pages alone settle (None: not settled), what the database counts."""
    pages = component_of(app, IdeaPages)
    answered = await pages.unseen_counts(user_id)
    from_pages = await pages._count_from_pages(user_id)
    async with app.state.db.sessionmaker() as s:
        counted = await unseen_counts(s, user_id)
    return answered, from_pages, counted


async def test_a_customer_who_never_looked_counts_to_the_cap_from_memory(
    app: FastAPI, forex_ideas: list[TradeIdea], customer_id: int
) -> None:
    answered, from_pages, counted = await _both_ways(app, customer_id)
    assert answered == from_pages == counted and counted.forex == UNSEEN_COUNT_CAP


async def test_a_watermark_inside_the_page_settles_the_count(
    app: FastAPI, forex_ideas: list[TradeIdea], customer_id: int
) -> None:
    # Opened the market when the 100th of these ideas was the newest: the 30 after it are unseen.
    await _set_state(app, customer_id, forex_until=forex_ideas[UNSEEN_COUNT_CAP - 1].created_at)
    answered, from_pages, counted = await _both_ways(app, customer_id)
    assert answered == from_pages == counted and counted.forex == 30


async def test_marks_that_leave_unseen_ideas_beyond_the_page_are_counted_in_the_database(
    app: FastAPI, forex_ideas: list[TradeIdea], customer_id: int
) -> None:
    # Watermark older than the page's last idea and the 90 newest seen one by one: the page shows 10 unseen
    # and cannot tell what lies beyond it (19 more).
    await _set_state(
        app, customer_id, forex_until=forex_ideas[10].created_at, seen=[idea.id for idea in forex_ideas[40:]]
    )
    answered, from_pages, counted = await _both_ways(app, customer_id)
    assert from_pages is None
    assert answered == counted and counted.forex == 29


async def test_switched_off_educators_and_markets_count_the_same_both_ways(
    app: FastAPI, forex_ideas: list[TradeIdea], customer_id: int
) -> None:
    await _set_state(app, customer_id, forex_until=forex_ideas[UNSEEN_COUNT_CAP - 1].created_at, muted=[1])
    answered, from_pages, counted = await _both_ways(app, customer_id)
    assert answered == from_pages == counted and counted.forex == 15  # the other educator's half

    async with app.state.db.sessionmaker() as s, s.begin():
        await s.execute(delete(CustomerIdeaState).where(CustomerIdeaState.user_id == customer_id))
    await _set_state(app, customer_id, notify_forex=False)
    answered, from_pages, counted = await _both_ways(app, customer_id)
    assert answered == from_pages == counted and counted.forex == 0


async def test_invalidated_ideas_are_never_new_nor_unseen_either_way(
    app: FastAPI, forex_ideas: list[TradeIdea], customer_id: int
) -> None:
    """Issue #26: an invalidated idea stays listed with its INVALID tag but is neither NEW nor counted."""
    await _set_state(app, customer_id, forex_until=forex_ideas[UNSEEN_COUNT_CAP - 1].created_at)
    invalidated = [idea.id for idea in forex_ideas[-5:]]
    async with app.state.db.sessionmaker() as s, s.begin():
        await s.execute(update(TradeIdea).where(TradeIdea.id.in_(invalidated)).values(status="invalidated"))
    component_of(app, IdeaCache).clear()
    answered, from_pages, counted = await _both_ways(app, customer_id)
    assert answered == from_pages == counted and counted.forex == 25
