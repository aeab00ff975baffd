"""price checks: candles per feed, symbol and granularity; one verification row per idea (decision 0050)

Revision ID: 0011_price_checks
Revises: 0010

Existing ideas get their rows from the poller (it adopts every idea without one), so nothing is backfilled here.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import tradeideas.db

revision: str = "0011_price_checks"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "price_candles",
        sa.Column("feed", sa.String(16), primary_key=True),
        sa.Column("symbol", sa.String(32), primary_key=True),
        sa.Column("granularity", sa.String(4), primary_key=True),
        sa.Column("time", sa.BigInteger(), primary_key=True),
        sa.Column("open", sa.String(32), nullable=False),
        sa.Column("high", sa.String(32), nullable=False),
        sa.Column("low", sa.String(32), nullable=False),
        sa.Column("close", sa.String(32), nullable=False),
        sa.Column("ask_open", sa.String(32), nullable=True),
        sa.Column("ask_high", sa.String(32), nullable=True),
        sa.Column("ask_low", sa.String(32), nullable=True),
        sa.Column("ask_close", sa.String(32), nullable=True),
        sa.Column("complete", sa.Boolean(), nullable=False),
    )
    op.create_table(
        "idea_verifications",
        sa.Column("idea_id", sa.Integer(), sa.ForeignKey("trade_ideas.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("educator_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("feed", sa.String(16), nullable=True),
        sa.Column("symbol", sa.String(32), nullable=True),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("done", sa.Boolean(), nullable=False),
        sa.Column("outcome", sa.String(16), nullable=True),
        sa.Column("r_multiple", sa.Float(), nullable=True),
        sa.Column("settlement_price", sa.String(32), nullable=True),
        sa.Column("triggered_at", tradeideas.db.UTCDateTime(timezone=True), nullable=True),
        sa.Column("settled_at", tradeideas.db.UTCDateTime(timezone=True), nullable=True),
        sa.Column("mae_r", sa.Float(), nullable=True),
        sa.Column("mfe_r", sa.Float(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("receipts", sa.JSON(), nullable=False),
        sa.Column("progress", sa.JSON(), nullable=False),
        sa.Column("levels", sa.JSON(), nullable=False),
        sa.Column("published_at", tradeideas.db.UTCDateTime(timezone=True), nullable=False),
        sa.Column("levels_fixed", sa.Boolean(), nullable=False),
        sa.Column("educator_outcome", sa.String(16), nullable=True),
        sa.Column("shown", sa.Text(), nullable=True),
        sa.Column("updated_at", tradeideas.db.UTCDateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_idea_verifications_open", "idea_verifications", ["done", "feed", "symbol"])


def downgrade() -> None:
    op.drop_index("ix_idea_verifications_open", table_name="idea_verifications")
    op.drop_table("idea_verifications")
    op.drop_table("price_candles")
