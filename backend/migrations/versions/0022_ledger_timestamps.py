"""ledger: RFC 3161 time-stamps of the chain's hashes, and how each time-stamp authority last answered

Revision ID: 0022_ledger_timestamps
Revises: 0021_open_feed_index

Each finished UTC day's fingerprint and the running head every hour are time-stamped by the authorities in
TSA_URLS (docs/decisions/0100-rfc-3161-time-stamps-of-the-chain.md); the tokens are kept as DER, one per authority
and position.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0022_ledger_timestamps"
down_revision: str | None = "0021_open_feed_index"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "ledger_timestamps",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("authority", sa.String(length=500), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("token", sa.LargeBinary(), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger_timestamps")),
        sa.UniqueConstraint("authority", "seq", name=op.f("uq_ledger_timestamps_authority")),
    )
    op.create_index("ix_ledger_timestamps_seq", "ledger_timestamps", ["seq"])
    op.create_table(
        "timestamp_authorities",
        sa.Column("url", sa.String(length=500), nullable=False),
        sa.Column("last_success", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_failure", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("next_try_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("url", name=op.f("pk_timestamp_authorities")),
    )


def downgrade() -> None:
    op.drop_table("timestamp_authorities")
    op.drop_index("ix_ledger_timestamps_seq", table_name="ledger_timestamps")
    op.drop_table("ledger_timestamps")
