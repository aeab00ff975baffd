"""server_keys: the keys the server generates (the Web Push VAPID key) live in the database, not on a node's disk

Revision ID: 0027_server_keys
Revises: 0025_paid_access

A node that starts against a database another node created must serve the same push key (issue #41). The first
start after this migration moves an existing DATA_DIR/vapid_private_key.pem into the table once (push/vapid.py);
without one, the first node to start generates the key there (docs/decisions/0141-server-keys-in-the-database.md).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from tradeideas.db import UTCDateTime

revision: str = "0027_server_keys"
down_revision: str | None = "0025_paid_access"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "server_keys",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("created_at", UTCDateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("server_keys")
