"""media: since when an upload is unused, so housekeeping can delete it 24 hours later

Revision ID: 0009
Revises: 0008
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import tradeideas.db

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Existing rows start unmarked: the first housekeeping run marks the unused ones, so nothing that
    # exists today is deleted sooner than 24 hours after that run.
    with op.batch_alter_table("media_files", schema=None) as batch_op:
        batch_op.add_column(sa.Column("orphaned_at", tradeideas.db.UTCDateTime(timezone=True), nullable=True))
        batch_op.create_index(batch_op.f("ix_media_files_orphaned_at"), ["orphaned_at"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("media_files", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_media_files_orphaned_at"))
        batch_op.drop_column("orphaned_at")
