"""ideas: an index that orders the active list's two parts (live ideas, then invalidated ones) per market

Revision ID: 0021_open_feed_index
Revises: 0020_ledger_head_at

The active list put invalidated ideas last with `ORDER BY CASE WHEN status = ... END, created_at DESC, id DESC`,
which no index served: PostgreSQL sorted every open idea of the market on each request (312 ms at 100,000 ideas).
The list now reads its two parts apart, each in index order (docs/decisions/0090-the-active-list-in-two-index-
ordered-parts.md), from this index on the market, `completed`, the sort key (1 for an invalidated idea) and the
keyset columns. The expression is the one `tradeideas.ideas.models.LISTED_LAST_SQL` writes into the statements,
copied here so that the migration stays what it was when it ran.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0021_open_feed_index"
down_revision: str | None = "0020_ledger_head_at"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LISTED_LAST_SQL = "CASE WHEN status = 'invalidated' THEN 1 ELSE 0 END"


def upgrade() -> None:
    op.create_index(
        "ix_trade_ideas_open_feed",
        "trade_ideas",
        ["market", "completed", sa.text(f"({LISTED_LAST_SQL})"), "created_at", "id"],
    )


def downgrade() -> None:
    op.drop_index("ix_trade_ideas_open_feed", table_name="trade_ideas")
