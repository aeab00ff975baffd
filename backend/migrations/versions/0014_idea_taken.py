"""idea_taken: the stored "called versus taken" sums of members' journal entries, one row per idea; and the
running statistics of each whole track record (track_record_totals.statistics)

Revision ID: 0014_idea_taken
Revises: 0012

Journal entries written before this table get their sums here, by the same rule the desk applies to every new
change (`tradeideas.desk.taken.sums_of`; docs/decisions/0056-called-versus-taken.md).
"""

from collections import defaultdict
from collections.abc import Sequence
from types import SimpleNamespace

import sqlalchemy as sa
from alembic import op

from tradeideas.desk.taken import sums_of

revision: str = "0014_idea_taken"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    table = op.create_table(
        "idea_taken",
        sa.Column("idea_id", sa.Integer(), sa.ForeignKey("trade_ideas.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("members", sa.Integer(), nullable=False),
        sa.Column("slippage_count", sa.Integer(), nullable=False),
        sa.Column("slippage_sum_r", sa.Float(), nullable=False),
        sa.Column("realised_count", sa.Integer(), nullable=False),
        sa.Column("realised_sum_r", sa.Float(), nullable=False),
    )
    assert table is not None
    entries = op.get_bind().execute(
        sa.text(
            "SELECT idea_id, user_id, order_type, entry1, invalidation_level, fill_price, exit_price"
            " FROM journal_entries WHERE idea_id IS NOT NULL"
        )
    )
    by_idea: dict[int, list[SimpleNamespace]] = defaultdict(list)
    for row in entries.mappings():
        # Prices are numbers until 0015 keeps them as typed text; the rule reads the text form.
        prices = {k: None if row[k] is None else str(row[k]) for k in ("fill_price", "exit_price")}
        by_idea[row["idea_id"]].append(SimpleNamespace(**{**row, **prices}))
    rows = []
    for idea_id, its_entries in by_idea.items():
        sums = sums_of(its_entries)
        rows.append({"idea_id": idea_id, **sums._asdict()})
    if rows:
        op.bulk_insert(table, rows)

    # The educators list shows each record's statistics from its whole row; rows written before are null until
    # the educator's next change, and computed when read meanwhile.
    op.add_column("track_record_totals", sa.Column("statistics", sa.JSON(), nullable=True))


def downgrade() -> None:
    op.drop_column("track_record_totals", "statistics")
    op.drop_table("idea_taken")
