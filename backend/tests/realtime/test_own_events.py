"""A process hears each of its own events once, at commit, even when its broker reads the row back from the outbox
first (woken by the NOTIFY the commit sends, before the committing code resumes)."""

from fastapi import FastAPI
from sqlalchemy.ext.asyncio import async_sessionmaker

from tradeideas.core.events import EventBus
from tradeideas.db import BUS_KEY
from tradeideas.ideas.events import IdeasSeen
from tradeideas.realtime.broker import Broker
from tradeideas.realtime.models import Event
from tradeideas.realtime.service import publish
from tradeideas.runtime import EVENTS
from tradeideas.settings import Settings


def read_back(row: Event, seq: int) -> Event:
    """The row as the broker reads it from the outbox once committed."""
    return Event(
        id=row.id, seq=seq, type=row.type, payload=row.payload, audience=row.audience, created_at=row.created_at
    )


async def test_an_own_event_read_back_before_the_commit_hook_is_heard_once(app: FastAPI, settings: Settings) -> None:
    bus = EventBus(EVENTS)
    broker = Broker(app.state.db, settings, bus)  # not started: fed by hand
    heard: list[int] = []
    bus.after_commit(IdeasSeen, lambda event: heard.append(event.user_id))
    sessions = async_sessionmaker(app.state.db.engine, expire_on_commit=False, info={BUS_KEY: bus})

    async with sessions() as session, session.begin():
        row = await publish(session, IdeasSeen(user_id=41, forex=1, crypto=0, total=1))
        broker.deliver([read_back(row, 1)])  # the broker won the race
        assert heard == []
    assert heard == [41]  # at commit, once

    async with sessions() as session, session.begin():
        rolled = await publish(session, IdeasSeen(user_id=42, forex=0, crypto=0, total=0))
        await session.rollback()
    # A later row given the same id (SQLite reuses the ids of rolled-back rows) is another's: heard when read.
    broker.deliver([read_back(rolled, 2)])
    assert heard == [41, 42]
