"""admin role: invitations, password resets, audit log, last seen; notification matrix and quiet hours

Revision ID: 0007
Revises: 0004
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import tradeideas.db

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("invited", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch_op.add_column(sa.Column("last_seen_at", tradeideas.db.UTCDateTime(timezone=True), nullable=True))

    op.create_table(
        "account_tokens",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_by_id", sa.Integer(), nullable=True),
        sa.Column("created_at", tradeideas.db.UTCDateTime(timezone=True), nullable=False),
        sa.Column("expires_at", tradeideas.db.UTCDateTime(timezone=True), nullable=False),
        sa.Column("used_at", tradeideas.db.UTCDateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_account_tokens_user_id_users"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["created_by_id"], ["users.id"], name=op.f("fk_account_tokens_created_by_id_users"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_account_tokens")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_account_tokens_token_hash")),
    )
    with op.batch_alter_table("account_tokens", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_account_tokens_user_id"), ["user_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_account_tokens_expires_at"), ["expires_at"], unique=False)

    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("created_at", tradeideas.db.UTCDateTime(timezone=True), nullable=False),
        sa.Column("actor_id", sa.Integer(), nullable=True),
        sa.Column("actor_email", sa.String(length=254), nullable=False),
        sa.Column("action", sa.String(length=64), nullable=False),
        sa.Column("target_id", sa.Integer(), nullable=True),
        sa.Column("target_email", sa.String(length=254), nullable=False),
        sa.Column("detail", sa.String(length=500), nullable=False),
        sa.ForeignKeyConstraint(
            ["actor_id"], ["users.id"], name=op.f("fk_audit_log_actor_id_users"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["target_id"], ["users.id"], name=op.f("fk_audit_log_target_id_users"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_log")),
    )
    with op.batch_alter_table("audit_log", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_audit_log_created_at"), ["created_at"], unique=False)

    with op.batch_alter_table("customer_idea_state", schema=None) as batch_op:
        batch_op.add_column(sa.Column("notify_new_idea", sa.Boolean(), nullable=False, server_default=sa.true()))
        batch_op.add_column(sa.Column("notify_idea_closed", sa.Boolean(), nullable=False, server_default=sa.true()))
        batch_op.add_column(sa.Column("notify_chat", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch_op.add_column(sa.Column("quiet_start", sa.String(length=5), nullable=True))
        batch_op.add_column(sa.Column("quiet_end", sa.String(length=5), nullable=True))
        batch_op.add_column(sa.Column("quiet_timezone", sa.String(length=64), nullable=True))

    op.create_table(
        "customer_muted_educators",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("educator_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_customer_muted_educators_user_id_users"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["educator_id"],
            ["users.id"],
            name=op.f("fk_customer_muted_educators_educator_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("user_id", "educator_id", name=op.f("pk_customer_muted_educators")),
    )


def downgrade() -> None:
    op.drop_table("customer_muted_educators")
    with op.batch_alter_table("customer_idea_state", schema=None) as batch_op:
        for column in ("quiet_timezone", "quiet_end", "quiet_start", "notify_chat", "notify_idea_closed"):
            batch_op.drop_column(column)
        batch_op.drop_column("notify_new_idea")
    with op.batch_alter_table("audit_log", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_audit_log_created_at"))
    op.drop_table("audit_log")
    with op.batch_alter_table("account_tokens", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_account_tokens_expires_at"))
        batch_op.drop_index(batch_op.f("ix_account_tokens_user_id"))
    op.drop_table("account_tokens")
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("last_seen_at")
        batch_op.drop_column("invited")
