"""ideas: the lesson an educator adds once an idea is completed (issue #42)

Revision ID: 0041_idea_lessons
Revises: 0040_idea_setups

"What happened" and "Lesson" (`lesson_what_happened`, `lesson_text`), when the lesson was first written (its
15-minute correction window starts then, `lesson_at`) and when it was last changed (`lesson_updated_at`); see
docs/decisions/0171-lessons-are-frozen-and-ledgered.md. Existing ideas have none.

On SQLite the columns are added in place (ALTER TABLE ADD COLUMN), never by a batch copy of `trade_ideas`, which
would drop the expression index `ix_trade_ideas_open_feed` (as in 0040).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from tradeideas.db import UTCDateTime

revision: str = "0041_idea_lessons"
down_revision: str | None = "0040_idea_setups"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = ("lesson_what_happened", "lesson_text", "lesson_at", "lesson_updated_at")


def upgrade() -> None:
    op.add_column("trade_ideas", sa.Column("lesson_what_happened", sa.Text(), nullable=True))
    op.add_column("trade_ideas", sa.Column("lesson_text", sa.Text(), nullable=True))
    op.add_column("trade_ideas", sa.Column("lesson_at", UTCDateTime(timezone=True), nullable=True))
    op.add_column("trade_ideas", sa.Column("lesson_updated_at", UTCDateTime(timezone=True), nullable=True))


def downgrade() -> None:
    for column in reversed(COLUMNS):
        if op.get_bind().dialect.name == "sqlite":
            op.execute(f"ALTER TABLE trade_ideas DROP COLUMN {column}")
        else:
            op.drop_column("trade_ideas", column)
