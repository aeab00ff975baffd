"""chat messages and reactions

Revision ID: 0003
Revises: 0002
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import tradeideas.db

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("message", sa.Text(), nullable=False),
        sa.Column("image_id", sa.Integer(), nullable=True),
        sa.Column("is_edited", sa.Boolean(), nullable=False),
        sa.Column("is_deleted", sa.Boolean(), nullable=False),
        sa.Column("created_at", tradeideas.db.UTCDateTime(timezone=True), nullable=False),
        sa.Column("updated_at", tradeideas.db.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["image_id"], ["media_files.id"], name=op.f("fk_chat_messages_image_id_media_files"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["room_id"], ["chat_rooms.id"], name=op.f("fk_chat_messages_room_id_chat_rooms"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_chat_messages_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_messages")),
    )
    with op.batch_alter_table("chat_messages", schema=None) as batch_op:
        batch_op.create_index("ix_chat_messages_room_id_id", ["room_id", "id"], unique=False)
        batch_op.create_index(batch_op.f("ix_chat_messages_user_id"), ["user_id"], unique=False)

    op.create_table(
        "chat_reactions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("message_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("created_at", tradeideas.db.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["message_id"],
            ["chat_messages.id"],
            name=op.f("fk_chat_reactions_message_id_chat_messages"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_chat_reactions_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_reactions")),
        sa.UniqueConstraint("message_id", "user_id", "kind", name="uq_chat_reactions_message_user_kind"),
    )
    with op.batch_alter_table("chat_reactions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_chat_reactions_user_id"), ["user_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("chat_reactions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_chat_reactions_user_id"))
    op.drop_table("chat_reactions")
    with op.batch_alter_table("chat_messages", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_chat_messages_user_id"))
        batch_op.drop_index("ix_chat_messages_room_id_id")
    op.drop_table("chat_messages")
