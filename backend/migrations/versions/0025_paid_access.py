"""billing: plans, access grants, handled Stripe events and checkout sessions; existing customers keep everything

Revision ID: 0025_paid_access
Revises: 0024_edited_means_levels

Every customer who exists when paid access arrives gets a complimentary all-access grant, so nobody loses what
they saw before the upgrade (issue #40); from then on, access comes from a plan or an admin's grant.
"""

from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision: str = "0025_paid_access"
down_revision: str | None = "0024_edited_means_levels"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "plans",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("scope", sa.String(16), nullable=False),
        sa.Column("educator_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="RESTRICT"), nullable=True),
        sa.Column("unit_amount", sa.Integer(), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("interval", sa.String(8), nullable=False),
        sa.Column("trial_days", sa.Integer(), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("stripe_product_id", sa.String(255), nullable=True),
        sa.Column("stripe_price_id", sa.String(255), nullable=True),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("updated_at", WHEN, nullable=False),
    )
    grants = op.create_table(
        "access_grants",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("plan_id", sa.Integer(), sa.ForeignKey("plans.id", ondelete="SET NULL"), nullable=True),
        sa.Column("educator_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=True),
        sa.Column("status", sa.String(24), nullable=False),
        sa.Column("ends_at", WHEN, nullable=True),
        sa.Column("trial_end", WHEN, nullable=True),
        sa.Column("current_period_start", WHEN, nullable=True),
        sa.Column("current_period_end", WHEN, nullable=True),
        sa.Column("cancel_at_period_end", sa.Boolean(), nullable=False),
        sa.Column("revoked_at", WHEN, nullable=True),
        sa.Column("stripe_subscription_id", sa.String(255), nullable=True, unique=True),
        sa.Column("stripe_customer_id", sa.String(255), nullable=True),
        sa.Column("synced_at", WHEN, nullable=True),
        sa.Column("granted_by_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("updated_at", WHEN, nullable=False),
    )
    op.create_index("ix_access_grants_user", "access_grants", ["user_id"])
    op.create_table(
        "stripe_events",
        sa.Column("id", sa.String(255), primary_key=True),
        sa.Column("type", sa.String(100), nullable=False),
        sa.Column("received_at", WHEN, nullable=False),
    )
    op.create_table(
        "checkout_sessions",
        sa.Column("id", sa.String(255), primary_key=True),
        sa.Column("plan_id", sa.Integer(), sa.ForeignKey("plans.id", ondelete="CASCADE"), nullable=False),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=True),
        sa.Column("claim_hash", sa.String(64), nullable=True),
        sa.Column("claimed_by_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
        sa.Column("created_at", WHEN, nullable=False),
    )
    now = datetime.now(UTC)
    customers = op.get_bind().execute(sa.text("SELECT id FROM users WHERE role = 'customer'")).scalars().all()
    if customers:
        op.bulk_insert(
            grants,
            [
                {
                    "user_id": user_id,
                    "kind": "complimentary",
                    "status": "complimentary",
                    "cancel_at_period_end": False,
                    "created_at": now,
                    "updated_at": now,
                }
                for user_id in customers
            ],
        )


def downgrade() -> None:
    op.drop_table("checkout_sessions")
    op.drop_table("stripe_events")
    op.drop_index("ix_access_grants_user", table_name="access_grants")
    op.drop_table("access_grants")
    op.drop_table("plans")
