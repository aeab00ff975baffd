"""Database engine, the declarative base and the session factory (the per-request session is in core.deps)."""

from collections.abc import Callable
from datetime import UTC, datetime
from time import monotonic
from typing import Any

from sqlalchemy import DateTime, MetaData, TypeDecorator, event, exc
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.pool import ConnectionPoolEntry, PoolProxiedConnection

from tradeideas.core.events import EventBus
from tradeideas.settings import Settings

BUS_KEY = "tradeideas.event_bus"

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class UTCDateTime(TypeDecorator[datetime]):
    """Timezone-aware UTC datetimes on both SQLite (which drops the zone) and PostgreSQL."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


def utcnow() -> datetime:
    return datetime.now(UTC)


def _has_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(map(_has_nul, value.values()))
    if isinstance(value, list | tuple):
        return any(map(_has_nul, value))
    return False


def _without_nul(value: Any) -> Any:
    """The same bound value (a string, a row of them as tuple/list/dict, or a list of rows) without NUL."""
    if isinstance(value, str):
        return value.replace("\x00", "")
    if isinstance(value, dict):
        return {k: _without_nul(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_without_nul(v) for v in value)
    return value


def _without_nul_characters(
    conn: Any, cursor: Any, statement: str, parameters: Any, context: Any, executemany: bool
) -> tuple[str, Any]:
    """PostgreSQL text cannot hold a NUL character (the statement fails), and no text a person types has one:
    drop it from every bound string, on both databases alike, so such input is stored without it instead of
    ending in a 500. Bound values are only rebuilt when one holds a NUL."""
    if _has_nul(parameters):
        parameters = _without_nul(parameters)
    return statement, parameters


# A pooled PostgreSQL connection idle longer than this is pinged before it is handed out (see `_checkout`).
PING_AFTER_IDLE_SECONDS = 10.0
_CHECKED_IN_AT = "tradeideas.checked_in_at"


def _checked_in(_dbapi_connection: Any, record: ConnectionPoolEntry) -> None:
    record.info[_CHECKED_IN_AT] = monotonic()


def _checkout(dialect: Dialect) -> Callable[[Any, ConnectionPoolEntry, PoolProxiedConnection], None]:
    """The pool's check of a PostgreSQL connection before handing it out, in place of `pool_pre_ping` (which costs
    three round trips on every checkout with asyncpg: BEGIN, a ping, ROLLBACK).

    asyncpg learns at once when the server ends a connection (a restart, `pg_terminate_backend`, a crashed backend:
    the socket closes and the event loop sees it), so a connection known closed is replaced without a round trip.
    A connection that sat unused for a while is pinged as before, for the failures no socket reports (a network
    path that silently dropped it). Either failure invalidates the whole pool, as a failed pre-ping does.
    """

    def check(dbapi_connection: Any, record: ConnectionPoolEntry, _proxy: PoolProxiedConnection) -> None:
        if record.driver_connection is None or record.driver_connection.is_closed():
            raise exc.InvalidatePoolError("the connection was closed")
        checked_in_at = record.info.get(_CHECKED_IN_AT)
        if checked_in_at is None or monotonic() - checked_in_at < PING_AFTER_IDLE_SECONDS:
            return  # fresh, or in use moments ago
        try:
            dialect.do_ping(dbapi_connection)
        except Exception as error:
            if record.driver_connection.is_closed():  # what the asyncpg dialect counts as a disconnect
                raise exc.InvalidatePoolError("the ping failed") from error
            raise

    return check


def make_engine(settings: Settings) -> AsyncEngine:
    url = settings.resolved_database_url
    kwargs: dict[str, Any] = {}
    if settings.is_sqlite:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        kwargs = {"connect_args": {"timeout": 30}}
    else:
        # At most 30 connections per process as before, but 20 of them kept: with 10 kept, a busy process (64
        # requests at once) closed and reopened a connection every ~17 requests, each costing a PostgreSQL
        # backend, asyncpg's setup and its prepared statements again (bench/RESULTS.md).
        kwargs.update(pool_size=20, max_overflow=10)
    engine = create_async_engine(url, **kwargs)
    event.listen(engine.sync_engine, "before_cursor_execute", _without_nul_characters, retval=True)
    if not settings.is_sqlite:
        event.listen(engine.sync_engine.pool, "checkin", _checked_in)
        event.listen(engine.sync_engine.pool, "checkout", _checkout(engine.dialect))
    if settings.is_sqlite:

        @event.listens_for(engine.sync_engine, "connect")
        def _sqlite_pragmas(dbapi_conn: Any, _: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

    return engine


class Database:
    """Holds the engine and session factory for one app instance."""

    def __init__(self, settings: Settings, bus: EventBus | None = None) -> None:
        self.engine = make_engine(settings)
        # Sessions carry the app's event bus, so what they publish reaches its subscribers (see realtime.hooks).
        info = {} if bus is None else {BUS_KEY: bus}
        self.sessionmaker = async_sessionmaker(self.engine, expire_on_commit=False, info=info)

    async def dispose(self) -> None:
        await self.engine.dispose()
