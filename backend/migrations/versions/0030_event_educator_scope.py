"""event_educator_scope: an event names the educator whose open ideas it shows; a grant remembers which end of its
access was announced

Revision ID: 0030_event_educator_scope
Revises: 0027_server_keys

Paid access reaches the event stream (issue #40): an open idea's events go only to readers whose grants open its
educator, so the outbox stores that educator beside the audience (older rows: null, everyone in the audience). The
leading process announces a grant's end by the clock once (`AccessChanged`) and records the moment it announced
(docs/decisions/0150-access-on-the-event-stream.md).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from tradeideas.db import UTCDateTime

revision: str = "0030_event_educator_scope"
down_revision: str | None = "0027_server_keys"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Plain ADD COLUMN (nullable), which SQLite supports in place: a batch copy of `events` would lose the trigger
    # that gives each committed row its stream position (migration 0010).
    op.add_column("events", sa.Column("educator_id", sa.Integer(), nullable=True))
    op.add_column("access_grants", sa.Column("end_announced_for", UTCDateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("access_grants") as batch:
        batch.drop_column("end_announced_for")
    op.drop_column("events", "educator_id")
