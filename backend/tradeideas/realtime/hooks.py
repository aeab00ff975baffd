"""After-commit delivery: events reach the app's `EventBus` only once their transaction has really committed.

`publish` marks its session with the events it recorded; when that session commits, the bus the session
was made with (see `Database`) hears them once, in order. A rollback drops the marks.
"""

from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from tradeideas.core.events import DomainEvent, EventBus
from tradeideas.db import BUS_KEY

_MARKS = "tradeideas.committed_events"


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
