"""Database engine, the declarative base and the session factory (the per-request session is in core.deps), and
reads through the driver's own connection for the busiest requests (`DriverQuery`, `Database.reader`)."""

import asyncio
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from threading import Lock
from time import monotonic
from typing import Any, Protocol, cast

import orjson
from sqlalchemy import (
    Boolean,
    ColumnElement,
    DateTime,
    Float,
    Integer,
    MetaData,
    String,
    Text,
    TypeDecorator,
    any_,
    bindparam,
    event,
    exc,
    func,
    literal_column,
    select,
    text,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.pool import ConnectionPoolEntry, PoolProxiedConnection
from sqlalchemy.sql import ClauseElement, Subquery
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.sqltypes import NullType
from sqlalchemy.util import greenlet_spawn

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


def start_of_day(day: date) -> datetime:
    """The UTC midnight that starts `day`: where a period filter "since DAY" begins (ideas, records)."""
    return datetime.combine(day, time.min, UTC)


async def lock_until_commit(db: AsyncSession, lock_class: int, key: int) -> None:
    """Wait for the PostgreSQL advisory lock (`lock_class`, `key`), held until the transaction ends: one writer of
    whatever it guards at a time, and each then reads what the one before committed. Each user picks its own
    `lock_class`. SQLite has one writer at a time already: nothing to take."""
    if db.get_bind().dialect.name == "postgresql":
        await db.execute(text("SELECT pg_advisory_xact_lock(:class, :key)"), {"class": lock_class, "key": key})


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
        # A fixed set of connections, none opened beyond it (decision 0046): an overflow connection is closed when
        # handed back, so a busy process reopened one every few requests (a PostgreSQL backend, asyncpg's setup and
        # its prepared statements each time); and more connections than the cores can serve only make PostgreSQL's
        # backends take turns.
        kwargs.update(pool_size=settings.database_pool_size, max_overflow=0)
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


async def _hand_back(pooled: PoolProxiedConnection) -> None:
    """Return a connection to its pool, to the end even if the request is cancelled meanwhile (the client went
    away): the pool opens no connections beyond its size, so one abandoned halfway back would be lost to it. The
    cancellation is raised again once the connection is back (as SQLAlchemy's own `AsyncConnection` does)."""
    # Returning it may roll back or close the driver's connection, which SQLAlchemy runs in a greenlet.
    returning = asyncio.ensure_future(greenlet_spawn(pooled.close))
    cancelled: asyncio.CancelledError | None = None
    while True:
        try:
            await asyncio.shield(returning)
        except asyncio.CancelledError as error:
            if returning.done():
                raise
            cancelled = error
        else:
            break
    if cancelled is not None:
        raise cancelled


class Database:
    """Holds the engine and session factory for one app instance."""

    def __init__(self, settings: Settings, bus: object | None = None) -> None:
        self.engine = make_engine(settings)
        # Sessions carry the app's event bus (`core.events.EventBus`, opaque here: the database layer sits below
        # it), so what they publish reaches its subscribers (see realtime.hooks).
        info = {} if bus is None else {BUS_KEY: bus}
        self.sessionmaker = async_sessionmaker(self.engine, expire_on_commit=False, info=info)

    @asynccontextmanager
    async def reader(self) -> AsyncIterator["DriverReader"]:
        """A pooled connection for `DriverQuery` reads, handed back when the block ends. Its statements run outside
        any transaction (each sees what is committed); use it for reads only.

        The pool's own connection, without SQLAlchemy's `Connection` around it, which cost more than a short read:
        a checkout and return took ~45 µs that way, ~30 µs this way (decision 0046)."""
        pooled = await self.engine.raw_connection()
        try:
            yield _driver_for(self.engine.dialect, pooled.driver_connection)
        finally:
            await _hand_back(pooled)

    async def dispose(self) -> None:
        await self.engine.dispose()


# ---------------------------------------------------------------- reads through the driver's connection
#
# The busiest reads (a page of ideas, the session lookup) run below SQLAlchemy's execution layer, which costs
# more than the queries themselves: a statement built, cache-keyed and compiled on every request, a result
# processor per value, greenlet switches. `DriverQuery` compiles a Core statement once per dialect and runs it
# on the connection the pool hands out (`driver_reader`), through one small adapter per driver.

# Column types whose values asyncpg already decodes as SQLAlchemy would return them (UTCDateTime: asyncpg gives
# timestamptz as an aware datetime in UTC), so PostgreSQL rows need no processing at all.
_ASYNCPG_NATIVE = (Integer, String, Text, Boolean, Float, UTCDateTime, NullType)


@dataclass(frozen=True, slots=True)
class _Compiled:
    sql: str
    names: tuple[str, ...]  # the positional parameters' names, in order
    defaults: Mapping[str, Any]  # values the statement itself binds (e.g. SQLite's OFFSET 0)
    bind: Mapping[str, Callable[[Any], Any]]  # SQLAlchemy's bind processors (e.g. datetimes as SQLite text)
    convert: tuple[tuple[int, Callable[[Any], Any]], ...]  # result processors by column (SQLite only)

    def arguments(self, params: Mapping[str, Any]) -> list[Any]:
        values = []
        for name in self.names:
            value = params[name] if name in params else self.defaults[name]
            process = self.bind.get(name)
            values.append(value if process is None or value is None else process(value))
        return values


class DriverQuery:
    """A SELECT compiled once per dialect and run through the driver (`DriverReader.rows`).

    `statement` is the Core statement, or a function of the dialect's name for the few reads written differently
    per database (a list of ids: `= ANY(array)` on PostgreSQL, `json_each` on SQLite). Parameters are
    `bindparam`s, given by name; a `bindparam` marked `literal_execute` (with its value) is written into the
    statement's text instead. Rows are read by column name (`row["pair"]`; label a column whose name would
    repeat), with values of the Python types SQLAlchemy would return: asyncpg's `Record` on PostgreSQL, a dict on
    SQLite.
    """

    def __init__(self, statement: ClauseElement | Callable[[str], ClauseElement]) -> None:
        self._statement = statement
        self._compiled: dict[str, _Compiled] = {}
        self._lock = Lock()

    def compiled(self, dialect: Dialect) -> _Compiled:
        found = self._compiled.get(dialect.name)
        if found is None:
            with self._lock:
                found = self._compiled.setdefault(dialect.name, self._compile(dialect))
        return found

    def _compile(self, dialect: Dialect) -> _Compiled:
        statement = self._statement if isinstance(self._statement, ClauseElement) else self._statement(dialect.name)
        compiled = cast(SQLCompiler, statement.compile(dialect=dialect))
        sql, names = compiled.string, tuple(compiled.positiontup or ())
        if compiled.literal_execute_params:
            # Values the statement carries as `literal_execute` bindparams are written into its text once, here, by
            # SQLAlchemy's literal rendering (quoted and escaped per dialect); the rest stay parameters.
            unbound = {name: None for name in names if compiled.binds[name].required}  # given per call, not here
            expanded = compiled.construct_expanded_state(unbound)
            sql, names = expanded.statement, tuple(expanded.positiontup or ())
        binds = {name: compiled.binds[name] for name in names}
        bind = {}
        for name, param in binds.items():
            process = param.type.dialect_impl(dialect).bind_processor(dialect)
            if process is not None:
                bind[name] = process
        defaults = {name: param.value for name, param in binds.items() if not param.required}
        columns = [column.type for column in getattr(statement, "selected_columns", ())]
        convert: list[tuple[int, Callable[[Any], Any]]] = []
        for index, type_ in enumerate(columns):
            if dialect.name == "postgresql":
                assert isinstance(type_, _ASYNCPG_NATIVE), f"{type_!r} may need processing on asyncpg"
                continue
            process = type_.dialect_impl(dialect).result_processor(dialect, None)
            if process is not None:
                convert.append((index, process))
        return _Compiled(sql, names, defaults, bind, tuple(convert))


class _IdList(TypeDecorator[list[int]]):
    """A list of ids bound as one parameter: an integer array on PostgreSQL, a JSON array (text) on SQLite."""

    impl = String
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> Any:
        return dialect.type_descriptor(ARRAY(Integer) if dialect.name == "postgresql" else String())

    def process_bind_param(self, value: Sequence[int] | None, dialect: Dialect) -> Any:
        if value is None or dialect.name == "postgresql":
            return value
        return orjson.dumps(list(value)).decode()


def id_in(column: ColumnElement[int], name: str, dialect: str) -> ColumnElement[bool]:
    """`column` is one of the ids bound as `name`: one statement however many ids (no expanding IN, which is
    rendered anew for every count), `= ANY(array)` on PostgreSQL, `IN (SELECT value FROM json_each(...))` on
    SQLite."""
    ids = bindparam(name, type_=_IdList())
    if dialect == "postgresql":
        return column == any_(ids)
    return column.in_(select(literal_column("value", Integer)).select_from(func.json_each(ids)))


def id_rows(name: str, dialect: str) -> Subquery:
    """The ids bound as `name` as rows of one column, `id` (to join or correlate with): `unnest(array)` on
    PostgreSQL, `json_each(...)` on SQLite."""
    ids = bindparam(name, type_=_IdList())
    if dialect == "postgresql":
        return select(func.unnest(ids).label("id")).subquery()
    return select(literal_column("value", Integer).label("id")).select_from(func.json_each(ids)).subquery()


class NamedRow(Protocol):
    """A row of a `DriverQuery`, read by column name."""

    def __getitem__(self, column: str, /) -> Any: ...


class DriverReader(Protocol):
    """Runs `DriverQuery`s on one connection's driver (asyncpg or aiosqlite)."""

    async def rows(self, query: DriverQuery, **params: Any) -> Sequence[NamedRow]: ...


class _Driver:
    def __init__(self, dialect: Dialect, connection: Any) -> None:
        self._dialect = dialect
        self._connection = connection


class _Asyncpg(_Driver):
    async def rows(self, query: DriverQuery, **params: Any) -> Sequence[NamedRow]:
        compiled = query.compiled(self._dialect)
        # asyncpg prepares each statement once per connection (its statement cache) and reuses it; its records
        # are read by column name.
        rows: Sequence[NamedRow] = await self._connection.fetch(compiled.sql, *compiled.arguments(params))
        return rows


class _Aiosqlite(_Driver):
    async def rows(self, query: DriverQuery, **params: Any) -> Sequence[NamedRow]:
        compiled = query.compiled(self._dialect)
        async with self._connection.execute(compiled.sql, compiled.arguments(params)) as cursor:
            rows = await cursor.fetchall()
            names = [column[0] for column in cursor.description]
        if not compiled.convert:
            return [dict(zip(names, row, strict=True)) for row in rows]
        out = []
        for row in rows:
            values = list(row)
            for index, process in compiled.convert:
                values[index] = process(values[index])
            out.append(dict(zip(names, values, strict=True)))
        return out


def _driver_for(dialect: Dialect, driver_connection: Any) -> DriverReader:
    if dialect.name == "postgresql":
        return _Asyncpg(dialect, driver_connection)
    return _Aiosqlite(dialect, driver_connection)
