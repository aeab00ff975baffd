"""track records: one stored row per educator's whole record and per market / idea type / time frame

Replaces the per-day rows of 0005 (every read combined thousands of them) with totals rewritten from the
educator's closed ideas in closing order, so max drawdown is exact; filled here from the existing ideas.

Revision ID: 0008
Revises: 0007
"""

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from alembic import op

import tradeideas.db
from tradeideas.trackrecords.figures import STORED_GROUPINGS, Book, Tally, total_rows

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

MOMENT = tradeideas.db.UTCDateTime(timezone=True)
TALLY_COLUMNS: list[tuple[str, Any, bool]] = [
    ("wins", sa.Integer(), False),
    ("losses", sa.Integer(), False),
    ("not_triggered", sa.Integer(), False),
    ("r_count", sa.Integer(), False),
    ("sum_r", sa.Float(), False),
    ("gain_r", sa.Float(), False),
    ("loss_r", sa.Float(), False),
    ("best_r", sa.Float(), True),
    ("worst_r", sa.Float(), True),
    ("peak_r", sa.Float(), False),
    ("low_r", sa.Float(), False),
    ("drawdown_r", sa.Float(), False),
]
DAY_KEYS = ("educator_id", "day", "market", "idea_type", "time_frame")


def _tally_columns() -> list[sa.Column[object]]:
    return [sa.Column(name, kind, nullable=nullable) for name, kind, nullable in TALLY_COLUMNS]


def _utc(value: datetime | str) -> datetime:
    moment = datetime.fromisoformat(value) if isinstance(value, str) else value
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _closed_ideas() -> list[Any]:
    return list(
        op.get_bind().execute(
            sa.text(
                "SELECT educator_id, id, market, idea_type, time_frame, status, r_multiple, closed_at FROM trade_ideas"
                " WHERE closed_at IS NOT NULL ORDER BY educator_id, closed_at, id"
            )
        )
    )


def upgrade() -> None:
    op.create_table(
        "track_record_totals",
        sa.Column("educator_id", sa.Integer(), nullable=False),
        sa.Column("grouping", sa.String(length=16), nullable=False),
        sa.Column("key", sa.String(length=32), nullable=False),
        *_tally_columns(),
        sa.Column("sparkline", sa.JSON(), nullable=True),
        sa.Column("last_closed_at", MOMENT, nullable=True),
        sa.Column("last_idea_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["educator_id"], ["users.id"], name=op.f("fk_track_record_totals_educator_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("educator_id", "grouping", "key", name=op.f("pk_track_record_totals")),
    )
    books: dict[int, Book] = {}
    for educator_id, idea_id, market, idea_type, time_frame, status, r, closed_at in _closed_ideas():
        book = books.setdefault(educator_id, Book(STORED_GROUPINGS))
        book.add(idea_id, market, idea_type, time_frame, status, r, _utc(closed_at))
    totals = sa.table(
        "track_record_totals",
        sa.column("educator_id", sa.Integer()),
        sa.column("grouping", sa.String()),
        sa.column("key", sa.String()),
        *(sa.column(name, kind) for name, kind, _ in TALLY_COLUMNS),
        sa.column("sparkline", sa.JSON()),
        sa.column("last_closed_at", MOMENT),
        sa.column("last_idea_id", sa.Integer()),
    )
    rows = [row for educator_id, book in books.items() for row in total_rows(educator_id, book)]
    if rows:
        op.bulk_insert(totals, rows)
    op.drop_table("track_record_days")


def downgrade() -> None:
    op.create_table(
        "track_record_days",
        sa.Column("educator_id", sa.Integer(), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("market", sa.String(length=8), nullable=False),
        sa.Column("idea_type", sa.String(length=8), nullable=False),
        sa.Column("time_frame", sa.String(length=32), nullable=False),
        sa.Column("first_closed_at", MOMENT, nullable=False),
        sa.Column("last_closed_at", MOMENT, nullable=False),
        *_tally_columns(),
        sa.ForeignKeyConstraint(
            ["educator_id"], ["users.id"], name=op.f("fk_track_record_days_educator_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint(*DAY_KEYS, name=op.f("pk_track_record_days")),
    )
    days: dict[tuple[object, ...], tuple[Tally, datetime, datetime]] = {}
    for educator_id, _id, market, idea_type, time_frame, status, r, closed_at in _closed_ideas():
        closed = _utc(closed_at)
        key = (educator_id, closed.date(), market, idea_type, time_frame)
        tally, first, _ = days.get(key) or (Tally(), closed, closed)
        tally.add(status, r)
        days[key] = (tally, first, closed)
    table = sa.table(
        "track_record_days",
        *(sa.column(name) for name in DAY_KEYS),
        sa.column("first_closed_at", MOMENT),
        sa.column("last_closed_at", MOMENT),
        *(sa.column(name, kind) for name, kind, _ in TALLY_COLUMNS),
    )
    rows = [
        {**dict(zip(DAY_KEYS, key, strict=True)), "first_closed_at": first, "last_closed_at": last, **tally.values()}
        for key, (tally, first, last) in days.items()
    ]
    if rows:
        op.bulk_insert(table, rows)
    op.drop_table("track_record_totals")
