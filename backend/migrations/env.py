"""Alembic environment: runs migrations on the app's configured database (async drivers)."""

import asyncio

from alembic import context
from sqlalchemy.engine import Connection

from tradeideas.db import make_engine
from tradeideas.models import Base
from tradeideas.settings import Settings, get_settings

target_metadata = Base.metadata


def _settings() -> Settings:
    provided = context.config.attributes.get("settings")
    return provided if isinstance(provided, Settings) else get_settings()


def _run(connection: Connection) -> None:
    sqlite = connection.dialect.name == "sqlite"
    if sqlite:
        # SQLite changes a table by copying it and dropping the old one ("batch" mode). With foreign keys
        # enforced, dropping e.g. `users` deletes every row that cascades from it (ideas, messages...), so
        # they are off while migrating and checked afterwards. The pragma only works outside a transaction.
        connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
        connection.commit()
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=sqlite,
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()
    if sqlite:
        broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
        connection.commit()
        connection.exec_driver_sql("PRAGMA foreign_keys=ON")
        connection.commit()
        if broken:
            raise RuntimeError(f"migration left rows pointing at missing rows: {broken[:5]}")


async def _run_async() -> None:
    engine = make_engine(_settings())
    async with engine.connect() as connection:
        await connection.run_sync(_run)
    await engine.dispose()


def run_migrations_online() -> None:
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _run(connection)
    else:
        asyncio.run(_run_async())


if context.is_offline_mode():
    raise SystemExit("Offline migrations are not supported; run against a database.")
run_migrations_online()
