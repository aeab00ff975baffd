"""Migrations 0005 (default outcomes, R and day rows) and 0008 (stored totals in closing order)."""

import asyncio
import json
import os
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from alembic import command
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from tests.conftest import POSTGRES_URL
from tradeideas.cli import alembic_config
from tradeideas.settings import Settings

IDEA_COLUMNS = (
    "educator_id, market_type, market, order_type, idea_type, pair, time_frame, entry_1, invalidation_level,"
    " exit_1, exit_2, status, completed, edited, created_at, updated_at"
)


def test_existing_completed_ideas_get_default_outcomes(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, database_url=f"sqlite+aiosqlite:///{tmp_path / 'old.db'}")
    config = alembic_config(settings)
    command.upgrade(config, "0004")
    with sqlite3.connect(tmp_path / "old.db") as db:
        db.execute(
            "INSERT INTO users (id, email, password_hash, role, first_name, last_name, bio, years_experience,"
            " is_public, disabled, created_at, updated_at) VALUES (1, 'e@x', 'h', 'educator', 'A', 'B', '', 0, 1, 0,"
            " '2026-01-01 00:00:00.000000', '2026-01-01 00:00:00.000000')"
        )
        ideas = [
            ("BUY", "100", "90", "120", "successful", 1, "2026-01-02 10:00:00.000000"),
            ("SELL", "100", "110", "80", "unsuccessful", 1, "2026-01-02 12:00:00.000000"),
            ("BUY", "100", "90", "120", "invalidated", 0, "2026-01-03 09:00:00.000000"),
            ("BUY", "100", "90", "120", "active", 0, "2026-01-03 09:30:00.000000"),
        ]
        for order, entry, stop, target, status, completed, changed in ideas:
            db.execute(
                f"INSERT INTO trade_ideas ({IDEA_COLUMNS}) VALUES"
                " (1, 'Forex', 'forex', ?, 'Leverage', 'EUR/USD', '4H', ?, ?, ?, '130', ?, ?, 0,"
                " '2026-01-01 08:00:00.000000', ?)",
                (order, entry, stop, target, status, completed, changed),
            )
    command.upgrade(config, "0007")
    with sqlite3.connect(tmp_path / "old.db") as db:
        rows = db.execute("SELECT status, outcome, r_multiple, closed_at FROM trade_ideas ORDER BY id").fetchall()
        days = db.execute(
            "SELECT day, wins, losses, not_triggered, sum_r FROM track_record_days ORDER BY day"
        ).fetchall()
    assert rows == [
        ("successful", "exit1", 2.0, "2026-01-02 10:00:00.000000"),
        ("unsuccessful", "invalidation", -1.0, "2026-01-02 12:00:00.000000"),
        ("invalidated", "not_triggered", None, "2026-01-03 09:00:00.000000"),
        ("active", None, None, None),
    ]
    assert days == [("2026-01-02", 1, 1, 0, 1.0), ("2026-01-03", 0, 0, 1, 0.0)]


@pytest.fixture
def database_url(tmp_path: Path) -> Iterator[str]:
    """An empty database of the kind the run tests (TEST_DB), for migrating step by step."""
    if os.environ.get("TEST_DB", "sqlite") != "postgres":
        yield f"sqlite+aiosqlite:///{tmp_path / 'old.db'}"
        return
    name = f"tradeideas_migration_{os.getpid()}"
    admin_dsn = POSTGRES_URL.replace("postgresql+asyncpg://", "postgresql://")

    async def admin(sql: str) -> None:
        conn = await asyncpg.connect(admin_dsn)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    asyncio.run(admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
    asyncio.run(admin(f"CREATE DATABASE {name}"))
    yield POSTGRES_URL.rsplit("/", 1)[0] + f"/{name}"
    asyncio.run(admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))


def _sql(url: str, statement: str, rows: list[dict[str, Any]] | None = None) -> list[Any]:
    async def run() -> list[Any]:
        engine = create_async_engine(url)
        try:
            async with engine.begin() as conn:
                result = await conn.execute(text(statement), rows) if rows else await conn.execute(text(statement))
                return list(result.all()) if result.returns_rows else []
        finally:
            await engine.dispose()

    return asyncio.run(run())


def test_totals_are_filled_in_closing_order_and_downgrade_restores_day_rows(tmp_path: Path, database_url: str) -> None:
    settings = Settings(data_dir=tmp_path, database_url=database_url)
    config = alembic_config(settings)
    command.upgrade(config, "0007")
    pg = database_url.startswith("postgresql")

    def at(hour: int) -> datetime | str:  # how each database stores a UTC moment
        moment = datetime(2026, 1, 2, hour, tzinfo=UTC)
        return moment if pg else moment.strftime("%Y-%m-%d %H:%M:%S.%f")

    _sql(
        database_url,
        "INSERT INTO users (id, email, password_hash, role, first_name, last_name, bio, years_experience, is_public,"
        " disabled, invited, created_at, updated_at) VALUES (1, 'e@x', 'h', 'educator', 'A', 'B', '', 0, true, false,"
        " false, :at, :at)",
        [{"at": at(0)}],
    )
    # Two groups closing on one day: forex -1, crypto +2, forex -1. In closing order the cumulative R is
    # -1, +1, 0: the largest fall is 1 (day rows combined group by group made it 2).
    ideas = [("forex", "Forex", "unsuccessful", "invalidation", -1.0, 10), ("crypto", "Crypto", "successful",
             "exit1", 2.0, 11), ("forex", "Forex", "unsuccessful", "invalidation", -1.0, 12),
             ("forex", "Forex", "invalidated", "not_triggered", None, 13)]  # fmt: skip
    _sql(
        database_url,
        "INSERT INTO trade_ideas (educator_id, market_type, market, order_type, idea_type, pair, time_frame, entry_1,"
        " invalidation_level, exit_1, status, completed, edited, edited_after_publish, outcome, r_multiple,"
        " closed_at, created_at, updated_at) VALUES (1, :market_type, :market, 'BUY', 'Leverage', 'EUR/USD', '4H',"
        " '100', '90', '120', :status, :completed, false, false, :outcome, :r, :at, :opened, :at)",
        [
            {
                "market": m,
                "market_type": mt,
                "status": st,
                "completed": st != "invalidated",
                "outcome": o,
                "r": r,
                "at": at(h),
                "opened": at(1),
            }
            for m, mt, st, o, r, h in ideas
        ],
    )
    command.upgrade(config, "0008")
    totals = _sql(
        database_url,
        "SELECT grouping, key, wins, losses, not_triggered, sum_r, drawdown_r FROM track_record_totals"
        " ORDER BY grouping, key",
    )
    assert [tuple(row) for row in totals] == [
        ("all", "", 1, 2, 1, 0.0, 1.0),
        ("idea_type", "Leverage", 1, 2, 1, 0.0, 1.0),
        ("market", "crypto", 1, 0, 0, 2.0, 0.0),
        ("market", "forex", 0, 2, 1, -2.0, 2.0),
        ("time_frame", "4H", 1, 2, 1, 0.0, 1.0),
    ]
    (line,) = _sql(database_url, "SELECT sparkline FROM track_record_totals WHERE grouping = 'all'")[0]
    line = json.loads(line) if isinstance(line, str) else line
    assert [r for _, r in line] == [-1.0, 1.0, 0.0]
    command.downgrade(config, "0007")
    days = _sql(database_url, "SELECT wins, losses, not_triggered, sum_r FROM track_record_days ORDER BY market")
    assert [tuple(row) for row in days] == [(1, 0, 0, 2.0), (0, 2, 1, -2.0)]
