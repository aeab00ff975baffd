"""Migration 0005: ideas completed before track records get the default outcomes, R and day rows."""

import sqlite3
from pathlib import Path

from alembic import command

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
    command.upgrade(config, "head")
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
