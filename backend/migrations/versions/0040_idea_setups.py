"""ideas: educators' setups, and the setup and reason an idea names (issue #42)

Revision ID: 0040_idea_setups
Revises: 0030_event_educator_scope

Each educator keeps named setups (`idea_setups`); an idea names one (`trade_ideas.setup_id`) and says why it was
taken (`trade_ideas.reason`). Both are identity fields, frozen with the pair 15 minutes after publishing and
recorded in the ledger (docs/decisions/0170-setups-and-reasons-are-identity.md). Existing ideas name none.

On SQLite the columns are added in place (ALTER TABLE ADD COLUMN with its REFERENCES clause): a batch copy of
`trade_ideas` would drop the expression index `ix_trade_ideas_open_feed`, which reflection cannot read back.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from tradeideas.db import UTCDateTime

revision: str = "0040_idea_setups"
down_revision: str | None = "0030_event_educator_scope"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "idea_setups",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("educator_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("description", sa.Text(), nullable=True),
        sa.Column("created_at", UTCDateTime(timezone=True), nullable=False),
        sa.Column("updated_at", UTCDateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_idea_setups_educator", "idea_setups", ["educator_id", "id"])
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE trade_ideas ADD COLUMN setup_id INTEGER REFERENCES idea_setups (id)")
    else:
        op.add_column("trade_ideas", sa.Column("setup_id", sa.Integer(), nullable=True))
        op.create_foreign_key("trade_ideas_setup_id_fkey", "trade_ideas", "idea_setups", ["setup_id"], ["id"])
    op.add_column("trade_ideas", sa.Column("reason", sa.Text(), nullable=True))
    op.create_index("ix_trade_ideas_setup_id", "trade_ideas", ["setup_id"])


def downgrade() -> None:
    op.drop_index("ix_trade_ideas_setup_id", table_name="trade_ideas")
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE trade_ideas DROP COLUMN reason")
        op.execute("ALTER TABLE trade_ideas DROP COLUMN setup_id")
    else:
        op.drop_column("trade_ideas", "reason")
        op.drop_constraint("trade_ideas_setup_id_fkey", "trade_ideas", type_="foreignkey")
        op.drop_column("trade_ideas", "setup_id")
    op.drop_index("ix_idea_setups_educator", table_name="idea_setups")
    op.drop_table("idea_setups")
