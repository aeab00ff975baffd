"""Writing events into the outbox (in the caller's transaction) and reading them back for streams.

Services call `publish` with an event object in the same transaction as their change. Nothing is published before
that transaction commits: on PostgreSQL the one `pg_notify` the session's before-commit hook issues for the
transaction's events (`hooks.py`) is delivered by the server only on commit; the session's after-commit hook hands
the events to this process's broker at once (on SQLite that is how it learns of them). A rollback emits nothing.

Streams read events by `Event.seq`, the position the database gives each row when its transaction commits
(decision 0047): in that order every reader sees events in the order they became visible, so reading on
from the last position seen never skips one that committed later.
"""

from collections.abc import Sequence
from datetime import timedelta

from sqlalchemy import delete, func, insert, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.core.access import FULL_ACCESS, EducatorAccess
from tradeideas.core.events import ALL, CUSTOMERS, EDUCATORS, SERVER, DomainEvent
from tradeideas.db import utcnow
from tradeideas.realtime.hooks import after_commit, bus_of
from tradeideas.realtime.models import Event


def _audience(value: str) -> str:
    if value in (ALL, EDUCATORS, CUSTOMERS, SERVER) or value.isdigit():
        return value
    raise ValueError(f"unknown event audience {value!r}")


async def publish(db: AsyncSession, domain_event: DomainEvent) -> Event:
    """Store the event in the caller's transaction and run the bus's in-transaction subscribers.

    Clients and after-commit subscribers hear it only once that transaction commits.
    """
    row = Event(
        type=domain_event.type,
        payload=domain_event.data(),
        audience=_audience(domain_event.audience()),
        educator_id=domain_event.educator_scope(),
        created_at=utcnow(),
    )
    db.add(row)
    await db.flush()
    bus = bus_of(db)
    if bus is not None:
        await bus.run_during(db, domain_event)
    # This process hears its own events at commit, before the response leaves: its caches are never
    # behind its own writes (on SQLite this also wakes the broker, the only way it learns of them).
    after_commit(db, row.id, domain_event)
    return row


async def publish_many(db: AsyncSession, domain_events: Sequence[DomainEvent], batch: int = 1000) -> None:
    """`publish` for many events at once (a background job's batch): one insert per `batch` events, with the same
    in-transaction subscribers and after-commit delivery, in order."""
    if not domain_events:
        return
    now = utcnow()
    stmt = insert(Event).returning(Event.id, sort_by_parameter_order=True)
    for start in range(0, len(domain_events), batch):
        chunk = domain_events[start : start + batch]
        rows = [
            {
                "type": e.type,
                "payload": e.data(),
                "audience": _audience(e.audience()),
                "educator_id": e.educator_scope(),
                "created_at": now,
            }
            for e in chunk
        ]
        ids = list((await db.execute(stmt, rows)).scalars())
        bus = bus_of(db)
        for event_id, domain_event in zip(ids, chunk, strict=True):
            if bus is not None:
                await bus.run_during(db, domain_event)
            after_commit(db, event_id, domain_event)


def audiences_for(user_id: int, is_educator: bool) -> list[str]:
    """The audience values a user may receive."""
    return [*shared_audiences(is_educator), str(user_id)]


def shared_audiences(is_educator: bool) -> list[str]:
    """The audiences a user shares with others: what other people's changes reach them by."""
    return [ALL, EDUCATORS if is_educator else CUSTOMERS]


async def events_after(
    db: AsyncSession,
    position: int,
    limit: int,
    audiences: list[str] | None = None,
    access: EducatorAccess = FULL_ACCESS,
) -> list[Event]:
    """Committed events after stream position `position`, in commit order, optionally only for the given audiences
    and the educators `access` opens."""
    stmt = select(Event).where(Event.seq > position)
    if audiences is not None:
        stmt = stmt.where(or_(Event.audience.in_(audiences)))
    if not access.everything:
        stmt = stmt.where(or_(Event.educator_id.is_(None), Event.educator_id.in_(access.scopes())))
    rows = await db.execute(stmt.order_by(Event.seq).limit(limit))
    return list(rows.scalars())


async def last_event_id(db: AsyncSession) -> int:
    """The stream position of the last committed event (0 when there is none): what a `resync` resumes from."""
    latest = (await db.execute(select(func.max(Event.seq)))).scalar_one()
    return int(latest or 0)


async def prune_events(db: AsyncSession, keep_days: float) -> int:
    """Delete events older than `keep_days`; a client away longer than that reloads its lists instead."""
    result = await db.execute(delete(Event).where(Event.created_at < utcnow() - timedelta(days=keep_days)))
    return int(getattr(result, "rowcount", 0) or 0)
