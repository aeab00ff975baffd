"""ideas: "edited" marks only changes to what a trader acts on (levels, notes, media), never a result

Revision ID: 0024_edited_means_levels
Revises: 0022_idea_taken_medians

Recording, correcting or reopening a result set `trade_ideas.edited` as well, so cards whose levels never changed
said "edited" (issue #39). Results are listed on their own now; this recomputes the flag from the revisions: an idea
is edited when one of its revisions is of a field other than `status`, `outcome` and `closePrice`
(docs/decisions/0122-edited-means-what-a-trader-acts-on.md). `edited_after_publish` was already set by levels only.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0024_edited_means_levels"
down_revision: str | None = "0022_idea_taken_medians"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute(
        "UPDATE trade_ideas SET edited = EXISTS (SELECT 1 FROM idea_revisions r WHERE r.idea_id = trade_ideas.id"
        " AND r.field NOT IN ('status', 'outcome', 'closePrice'))"
    )


def downgrade() -> None:
    op.execute(
        "UPDATE trade_ideas SET edited = EXISTS (SELECT 1 FROM idea_revisions r WHERE r.idea_id = trade_ideas.id)"
    )
