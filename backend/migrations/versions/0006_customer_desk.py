"""customer desk: risk settings, journal entries, large images and voice notes in media_files

Revision ID: 0006
Revises: 0004
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import tradeideas.db

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "risk_settings",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("account_size", sa.Float(), nullable=False),
        sa.Column("account_currency", sa.String(length=8), nullable=False),
        sa.Column("risk_percent", sa.Float(), nullable=False),
        sa.Column("leverage", sa.Float(), nullable=False),
        sa.Column("updated_at", tradeideas.db.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_risk_settings_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_risk_settings")),
    )
    op.create_table(
        "journal_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("idea_id", sa.Integer(), nullable=True),
        sa.Column("educator_name", sa.String(length=200), nullable=False),
        sa.Column("market", sa.String(length=8), nullable=False),
        sa.Column("pair", sa.String(length=32), nullable=False),
        sa.Column("order_type", sa.String(length=4), nullable=False),
        sa.Column("idea_type", sa.String(length=8), nullable=False),
        sa.Column("entry1", sa.String(length=64), nullable=False),
        sa.Column("entry2", sa.String(length=64), nullable=True),
        sa.Column("invalidation_level", sa.String(length=64), nullable=False),
        sa.Column("exit1", sa.String(length=64), nullable=False),
        sa.Column("exit2", sa.String(length=64), nullable=True),
        sa.Column("exit3", sa.String(length=64), nullable=True),
        sa.Column("fill_price", sa.Float(), nullable=False),
        sa.Column("size", sa.Float(), nullable=True),
        sa.Column("exit_price", sa.Float(), nullable=True),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("risk_amount", sa.Float(), nullable=False),
        sa.Column("account_currency", sa.String(length=8), nullable=False),
        sa.Column("created_at", tradeideas.db.UTCDateTime(timezone=True), nullable=False),
        sa.Column("closed_at", tradeideas.db.UTCDateTime(timezone=True), nullable=True),
        sa.Column("updated_at", tradeideas.db.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["idea_id"], ["trade_ideas.id"], name=op.f("fk_journal_entries_idea_id_trade_ideas"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_journal_entries_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_journal_entries")),
    )
    with op.batch_alter_table("journal_entries", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_journal_entries_idea_id"), ["idea_id"], unique=False)
        batch_op.create_index("ix_journal_entries_user_created", ["user_id", "created_at", "id"], unique=False)

    with op.batch_alter_table("media_files", schema=None) as batch_op:
        batch_op.add_column(sa.Column("kind", sa.String(length=8), server_default="image", nullable=False))
        batch_op.add_column(sa.Column("full_file_name", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("duration_seconds", sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("media_files", schema=None) as batch_op:
        batch_op.drop_column("duration_seconds")
        batch_op.drop_column("full_file_name")
        batch_op.drop_column("kind")

    with op.batch_alter_table("journal_entries", schema=None) as batch_op:
        batch_op.drop_index("ix_journal_entries_user_created")
        batch_op.drop_index(batch_op.f("ix_journal_entries_idea_id"))

    op.drop_table("journal_entries")
    op.drop_table("risk_settings")
