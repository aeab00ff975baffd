"""The bus's commit stages: the one place where SQLAlchemy's session events reach the app's `EventBus`.

`publish` marks its session with the events it recorded. As that session commits, the bus the session was made with
(see `Database`) runs its before-commit handlers for them, in order, still inside the transaction (the ledger's
appends); once it has really committed, the bus hears them once, in order. A rollback drops the marks.
"""

from typing import Any

from sqlalchemy import event, text
from sqlalchemy.ext.asyncio import AsyncSession, async_session
from sqlalchemy.orm import Session
from sqlalchemy.util import await_only

from tradeideas.core.events import DomainEvent, EventBus
from tradeideas.db import BUS_KEY

_MARKS = "tradeideas.committed_events"
NOTIFY_CHANNEL = "events"


def bus_of(db: AsyncSession) -> EventBus | None:
    """The bus of the app that made this session (None in programs that wire no subscribers, like the CLI)."""
    bus = db.info.get(BUS_KEY)
    return bus if isinstance(bus, EventBus) else None


def after_commit(db: AsyncSession, event_id: int, domain_event: DomainEvent) -> None:
    db.info.setdefault(_MARKS, []).append((event_id, domain_event))
    bus = bus_of(db)
    if bus is not None:
        # Known as this process's own before the commit: the broker may read the row back from the outbox (woken by
        # the NOTIFY that the commit sends) before the committing code resumes and runs the hook below.
        bus.recorded([event_id])


@event.listens_for(Session, "before_commit")
def _run_before_commit(session: Session) -> None:
    if session.in_nested_transaction():  # a savepoint released: the transaction goes on
        return
    if not session.info.get(_MARKS):
        return
    bus = session.info.get(BUS_KEY)
    if isinstance(bus, EventBus):
        _run_handlers(session, bus)
    marks: list[tuple[int, DomainEvent]] = session.info[_MARKS]  # with what the handlers published
    if session.get_bind().dialect.name == "postgresql":
        # One wake-up per transaction, delivered by PostgreSQL to every listening process when (and only if) it
        # commits: the brokers read on by position. The last event's id is for processes of the previous release
        # during a rolling restart (they load events by id).
        session.execute(text("SELECT pg_notify(:channel, :id)"), {"channel": NOTIFY_CHANNEL, "id": str(marks[-1][0])})


def _run_handlers(session: Session, bus: EventBus) -> None:
    events = [domain_event for _, domain_event in session.info[_MARKS] if bus.runs_before_commit(domain_event)]
    if not events:
        return
    db = async_session(session)
    if db is None:  # events are published only through an AsyncSession
        raise RuntimeError("events were published on a session without its AsyncSession")
    # The commit runs in SQLAlchemy's greenlet (AsyncSession.commit): the handlers are awaited from here.
    await_only(bus.run_before_commit(db, events))


@event.listens_for(Session, "after_commit")
def _run_after_commit(session: Session) -> None:
    root = session.get_transaction()
    if root is not None and root.is_active:
        # SQLAlchemy also signals after_commit when a savepoint (begin_nested) is released; the outer
        # transaction is still open then, and its changes are not visible to other connections yet.
        return
    marks: list[tuple[int, DomainEvent]] | None = session.info.pop(_MARKS, None)
    bus = session.info.get(BUS_KEY)
    if marks and isinstance(bus, EventBus):
        bus.local_commit(marks)


@event.listens_for(Session, "after_rollback")
def _drop_marks(session: Session, *_: Any) -> None:
    marks: list[tuple[int, DomainEvent]] | None = session.info.pop(_MARKS, None)
    bus = session.info.get(BUS_KEY)
    if marks and isinstance(bus, EventBus):
        bus.rolled_back([event_id for event_id, _ in marks])  # SQLite may give these ids to later rows
