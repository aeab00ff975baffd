"""trade ideas, idea images, revisions, seen state and media files

Revision ID: 0002
Revises: 0001
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import tradeideas.db

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "media_files",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=False),
        sa.Column("file_name", sa.String(length=64), nullable=False),
        sa.Column("width", sa.Integer(), nullable=False),
        sa.Column("height", sa.Integer(), nullable=False),
        sa.Column("created_at", tradeideas.db.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["owner_id"], ["users.id"], name=op.f("fk_media_files_owner_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_media_files")),
        sa.UniqueConstraint("file_name", name=op.f("uq_media_files_file_name")),
    )
    op.create_index(op.f("ix_media_files_owner_id"), "media_files", ["owner_id"], unique=False)

    op.create_table(
        "trade_ideas",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("educator_id", sa.Integer(), nullable=False),
        sa.Column("market_type", sa.String(length=8), nullable=False),
        sa.Column("market", sa.String(length=8), nullable=False),
        sa.Column("order_type", sa.String(length=4), nullable=False),
        sa.Column("idea_type", sa.String(length=8), nullable=False),
        sa.Column("pair", sa.String(length=32), nullable=False),
        sa.Column("time_frame", sa.String(length=32), nullable=False),
        sa.Column("entry_1", sa.String(length=64), nullable=False),
        sa.Column("entry_2", sa.String(length=64), nullable=True),
        sa.Column("invalidation_level", sa.String(length=64), nullable=False),
        sa.Column("exit_1", sa.String(length=64), nullable=False),
        sa.Column("exit_2", sa.String(length=64), nullable=True),
        sa.Column("exit_3", sa.String(length=64), nullable=True),
        sa.Column("notes", sa.Text(), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("completed", sa.Boolean(), nullable=False),
        sa.Column("video_url", sa.String(length=500), nullable=True),
        sa.Column("audio_url", sa.String(length=500), nullable=True),
        sa.Column("edited", sa.Boolean(), nullable=False),
        sa.Column("created_at", tradeideas.db.UTCDateTime(timezone=True), nullable=False),
        sa.Column("updated_at", tradeideas.db.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["educator_id"], ["users.id"], name=op.f("fk_trade_ideas_educator_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_trade_ideas")),
    )
    op.create_index("ix_trade_ideas_market_feed", "trade_ideas", ["market", "completed", "created_at", "id"])
    op.create_index(
        "ix_trade_ideas_market_type_feed", "trade_ideas", ["market", "completed", "idea_type", "created_at", "id"]
    )
    op.create_index("ix_trade_ideas_educator_feed", "trade_ideas", ["educator_id", "created_at", "id"])
    op.create_index("ix_trade_ideas_feed", "trade_ideas", ["created_at", "id"])

    op.create_table(
        "idea_images",
        sa.Column("idea_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("media_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["idea_id"], ["trade_ideas.id"], name=op.f("fk_idea_images_idea_id_trade_ideas"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["media_id"], ["media_files.id"], name=op.f("fk_idea_images_media_id_media_files"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("idea_id", "position", name=op.f("pk_idea_images")),
    )
    op.create_index(op.f("ix_idea_images_media_id"), "idea_images", ["media_id"], unique=False)

    op.create_table(
        "idea_revisions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("idea_id", sa.Integer(), nullable=False),
        sa.Column("editor_id", sa.Integer(), nullable=True),
        sa.Column("field", sa.String(length=32), nullable=False),
        sa.Column("old_value", sa.Text(), nullable=True),
        sa.Column("new_value", sa.Text(), nullable=True),
        sa.Column("created_at", tradeideas.db.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["editor_id"], ["users.id"], name=op.f("fk_idea_revisions_editor_id_users"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["idea_id"], ["trade_ideas.id"], name=op.f("fk_idea_revisions_idea_id_trade_ideas"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_idea_revisions")),
    )
    op.create_index("ix_idea_revisions_idea_created", "idea_revisions", ["idea_id", "created_at", "id"])
    op.create_index(op.f("ix_idea_revisions_editor_id"), "idea_revisions", ["editor_id"], unique=False)

    op.create_table(
        "idea_views",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("idea_id", sa.Integer(), nullable=False),
        sa.Column("seen_at", tradeideas.db.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["idea_id"], ["trade_ideas.id"], name=op.f("fk_idea_views_idea_id_trade_ideas"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_idea_views_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("user_id", "idea_id", name=op.f("pk_idea_views")),
    )
    op.create_index(op.f("ix_idea_views_idea_id"), "idea_views", ["idea_id"], unique=False)

    op.create_table(
        "customer_idea_state",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("notify_forex", sa.Boolean(), nullable=False),
        sa.Column("notify_crypto", sa.Boolean(), nullable=False),
        sa.Column("forex_seen_until", tradeideas.db.UTCDateTime(timezone=True), nullable=True),
        sa.Column("crypto_seen_until", tradeideas.db.UTCDateTime(timezone=True), nullable=True),
        sa.Column("updated_at", tradeideas.db.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_customer_idea_state_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_customer_idea_state")),
    )


def downgrade() -> None:
    op.drop_table("customer_idea_state")
    op.drop_index(op.f("ix_idea_views_idea_id"), table_name="idea_views")
    op.drop_table("idea_views")
    op.drop_index(op.f("ix_idea_revisions_editor_id"), table_name="idea_revisions")
    op.drop_index("ix_idea_revisions_idea_created", table_name="idea_revisions")
    op.drop_table("idea_revisions")
    op.drop_index(op.f("ix_idea_images_media_id"), table_name="idea_images")
    op.drop_table("idea_images")
    op.drop_index("ix_trade_ideas_feed", table_name="trade_ideas")
    op.drop_index("ix_trade_ideas_educator_feed", table_name="trade_ideas")
    op.drop_index("ix_trade_ideas_market_type_feed", table_name="trade_ideas")
    op.drop_index("ix_trade_ideas_market_feed", table_name="trade_ideas")
    op.drop_table("trade_ideas")
    op.drop_index(op.f("ix_media_files_owner_id"), table_name="media_files")
    op.drop_table("media_files")
