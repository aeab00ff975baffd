"""ledger: hash-chained entries of every change that shapes the track record, and one fingerprint per UTC day

Revision ID: 0012
Revises: 0011_price_checks

Ideas that exist before the ledger get their entries here, so an old database verifies too: each idea's
publication (current levels, open) and, when it has one, its result, in the order they happened
(`tradeideas.ledger.chain.entries_for_existing`; docs/decisions/0051-hash-chained-ledger.md).
"""

from collections.abc import Sequence
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import sqlalchemy as sa
from alembic import op

import tradeideas.db
from tradeideas.ledger.chain import GENESIS, Entry, canonical, entries_for_existing, format_at

revision: str = "0012"
down_revision: str | None = "0011_price_checks"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

MOMENT = tradeideas.db.UTCDateTime(timezone=True)
IDEA_COLUMNS = (
    "id, educator_id, pair, market_type, order_type, idea_type, time_frame, entry_1 AS entry1, entry_2 AS entry2,"
    " invalidation_level, exit_1 AS exit1, exit_2 AS exit2, exit_3 AS exit3, status, outcome, close_price,"
    " r_multiple, created_at, updated_at, closed_at"
)


def _utc(value: datetime | str | None) -> datetime | None:
    if value is None:
        return None
    moment = datetime.fromisoformat(value) if isinstance(value, str) else value
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _existing_ideas() -> list[Any]:
    query = sa.text(f"SELECT {IDEA_COLUMNS} FROM trade_ideas ORDER BY id")  # noqa: S608 - constant column list
    rows = op.get_bind().execute(query).mappings()
    # Ideas of that time named no setup, gave no reason (the columns came with 0040) and had no lesson (0041), as
    # the payload now says.
    return [
        SimpleNamespace(
            **{**row, **{k: _utc(row[k]) for k in ("created_at", "updated_at", "closed_at")}},
            setup_id=None,
            reason=None,
            lesson_what_happened=None,
            lesson_text=None,
            lesson_at=None,
        )
        for row in rows
    ]


def upgrade() -> None:
    op.create_table(
        "ledger_entries",
        sa.Column("seq", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("at", sa.String(length=32), nullable=False),
        sa.Column("kind", sa.String(length=24), nullable=False),
        sa.Column("subject_id", sa.Integer(), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("prev_hash", sa.String(length=64), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.Column("recorded_at", MOMENT, nullable=False),
        sa.PrimaryKeyConstraint("seq", name=op.f("pk_ledger_entries")),
    )
    op.create_index("ix_ledger_entries_subject", "ledger_entries", ["subject_id", "seq"], unique=False)
    op.create_table(
        "ledger_days",
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("first_seq", sa.BigInteger(), nullable=False),
        sa.Column("last_seq", sa.BigInteger(), nullable=False),
        sa.Column("entries", sa.Integer(), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.Column("posted_at", MOMENT, nullable=True),
        sa.PrimaryKeyConstraint("day", name=op.f("pk_ledger_days")),
    )
    now = datetime.now(UTC)
    entries: list[dict[str, Any]] = []
    days: dict[Any, dict[str, Any]] = {}
    prev = GENESIS
    for seq, planned in enumerate(entries_for_existing(_existing_ideas()), 1):
        entry = Entry(seq, format_at(planned.at), planned.kind, planned.subject_id, planned.payload, prev)
        prev = entry.hash()
        entries.append(
            {
                "seq": seq,
                "at": entry.at,
                "kind": entry.kind,
                "subject_id": entry.subject_id,
                "payload": canonical(entry.payload),
                "prev_hash": entry.prev_hash,
                "hash": prev,
                "recorded_at": now,
            }
        )
        on = planned.at.astimezone(UTC).date()
        day = days.setdefault(on, {"day": on, "first_seq": seq, "entries": 0, "posted_at": None})
        day.update(last_seq=seq, hash=prev, entries=day["entries"] + 1)
    if entries:
        texts = ("at", "kind", "payload", "prev_hash", "hash")
        table = sa.table(
            "ledger_entries",
            sa.column("seq", sa.BigInteger()),
            sa.column("subject_id", sa.Integer()),
            *(sa.column(c, sa.Text()) for c in texts),
            sa.column("recorded_at", MOMENT),
        )
        op.bulk_insert(table, entries)
        day_table = sa.table(
            "ledger_days",
            sa.column("day", sa.Date()),
            *(sa.column(c, sa.BigInteger()) for c in ("first_seq", "last_seq", "entries")),
            sa.column("hash", sa.Text()),
            sa.column("posted_at", MOMENT),
        )
        op.bulk_insert(day_table, list(days.values()))


def downgrade() -> None:
    op.drop_table("ledger_days")
    op.drop_index("ix_ledger_entries_subject", table_name="ledger_entries")
    op.drop_table("ledger_entries")
