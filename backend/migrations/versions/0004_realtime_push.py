"""realtime events outbox, push subscriptions and deliveries

Revision ID: 0004
Revises: 0003
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import tradeideas.db

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("type", sa.String(length=64), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("audience", sa.String(length=32), nullable=False),
        sa.Column("created_at", tradeideas.db.UTCDateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_events")),
    )
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.create_index("ix_events_created_at", ["created_at"], unique=False)

    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("endpoint", sa.String(length=1000), nullable=False),
        sa.Column("p256dh", sa.String(length=200), nullable=False),
        sa.Column("auth", sa.String(length=100), nullable=False),
        sa.Column("created_at", tradeideas.db.UTCDateTime(timezone=True), nullable=False),
        sa.Column("updated_at", tradeideas.db.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_push_subscriptions_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_push_subscriptions")),
        sa.UniqueConstraint("endpoint", name=op.f("uq_push_subscriptions_endpoint")),
    )
    with op.batch_alter_table("push_subscriptions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_push_subscriptions_user_id"), ["user_id"], unique=False)

    op.create_table(
        "push_deliveries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("channel", sa.String(length=16), nullable=False),
        sa.Column("subscription_id", sa.Integer(), nullable=True),
        sa.Column("idea_id", sa.Integer(), nullable=True),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", tradeideas.db.UTCDateTime(timezone=True), nullable=False),
        sa.Column("last_error", sa.String(length=500), nullable=True),
        sa.Column("created_at", tradeideas.db.UTCDateTime(timezone=True), nullable=False),
        sa.Column("updated_at", tradeideas.db.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["subscription_id"],
            ["push_subscriptions.id"],
            name=op.f("fk_push_deliveries_subscription_id_push_subscriptions"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["idea_id"],
            ["trade_ideas.id"],
            name=op.f("fk_push_deliveries_idea_id_trade_ideas"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_push_deliveries")),
    )
    with op.batch_alter_table("push_deliveries", schema=None) as batch_op:
        batch_op.create_index("ix_push_deliveries_due", ["status", "next_attempt_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_push_deliveries_subscription_id"), ["subscription_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_push_deliveries_idea_id"), ["idea_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("push_deliveries", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_push_deliveries_idea_id"))
        batch_op.drop_index(batch_op.f("ix_push_deliveries_subscription_id"))
        batch_op.drop_index("ix_push_deliveries_due")
    op.drop_table("push_deliveries")
    with op.batch_alter_table("push_subscriptions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_push_subscriptions_user_id"))
    op.drop_table("push_subscriptions")
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.drop_index("ix_events_created_at")
    op.drop_table("events")
