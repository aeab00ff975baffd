"""track_record_totals.rewrite_token: which full rewrite of an educator's totals the whole row comes from

Revision ID: 0017_record_rewrite_token
Revises: 0016_ledger_day_trigger

A process keeps its walk of each filtered record's closed ideas and, after a completion, reads only the ideas
closed since (`trackrecords.service.track_record`). That is exact only while no counted idea changed: every change
other than an idea closing after all the others rewrites the totals whole, and each whole rewrite writes a new token
here. Rows written before are null: no walk is extended until the educator's next change gives them one.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017_record_rewrite_token"
down_revision: str | None = "0016_ledger_day_trigger"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("track_record_totals", sa.Column("rewrite_token", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("track_record_totals") as batch:
        batch.drop_column("rewrite_token")
