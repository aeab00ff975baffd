"""Database engine, the declarative base and the session factory (the per-request session is in core.deps)."""

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import DateTime, MetaData, TypeDecorator, event
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlalchemy.orm import DeclarativeBase

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


def make_engine(settings: Settings) -> AsyncEngine:
    url = settings.resolved_database_url
    kwargs: dict[str, Any] = {"pool_pre_ping": True}
    if settings.is_sqlite:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        kwargs = {"connect_args": {"timeout": 30}}
    else:
        kwargs.update(pool_size=10, max_overflow=20)
    engine = create_async_engine(url, **kwargs)
    event.listen(engine.sync_engine, "before_cursor_execute", _without_nul_characters, retval=True)
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
