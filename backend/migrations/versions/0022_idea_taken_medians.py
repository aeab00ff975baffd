"""desk: an idea's "taken" shows the median of members' R, so a few accounts cannot skew it

Revision ID: 0022_idea_taken_medians
Revises: 0022_ledger_timestamps

`idea_taken` kept only sums, so `taken` showed means: five accounts with a fill of 0.000001 and an exit of 99999999
made an idea's realised R +1,111,111 (issue #37). The row now also keeps the median entry slippage and the median
realised R of the idea's journal entries, which the idea list reads in its page statement as it read the sums
(docs/decisions/0101-members-figures-are-medians.md). Existing rows are filled from the journal.
"""

from collections.abc import Sequence
from statistics import median

import sqlalchemy as sa
from alembic import op

revision: str = "0022_idea_taken_medians"
down_revision: str | None = "0022_ledger_timestamps"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _number(text: str | None) -> float | None:
    if text is None:
        return None
    try:
        value = float(text.strip().replace(",", ""))
    except ValueError:
        return None
    return value if value > 0 and value != float("inf") else None


def upgrade() -> None:
    op.add_column("idea_taken", sa.Column("slippage_median_r", sa.Float(), nullable=True))
    op.add_column("idea_taken", sa.Column("realised_median_r", sa.Float(), nullable=True))
    bind = op.get_bind()
    entries = bind.execute(
        sa.text(
            "SELECT idea_id, order_type, entry1, invalidation_level, fill_price, exit_price"
            " FROM journal_entries WHERE idea_id IS NOT NULL"
        )
    )
    slips: dict[int, list[float]] = {}
    results: dict[int, list[float]] = {}
    for row in entries.mappings():
        fill, stop = _number(row["fill_price"]), _number(row["invalidation_level"])
        entry, exit_price = _number(row["entry1"]), _number(row["exit_price"])
        sign = 1 if row["order_type"] == "BUY" else -1
        if fill is not None and entry is not None and stop is not None and entry != stop:
            slips.setdefault(row["idea_id"], []).append(sign * (entry - fill) / abs(entry - stop))
        if fill is not None and exit_price is not None and stop is not None and stop != fill:
            results.setdefault(row["idea_id"], []).append(sign * (exit_price - fill) / abs(fill - stop))
    for idea_id in set(slips) | set(results):
        bind.execute(
            sa.text("UPDATE idea_taken SET slippage_median_r = :s, realised_median_r = :r WHERE idea_id = :i"),
            {
                "i": idea_id,
                "s": median(slips[idea_id]) if idea_id in slips else None,
                "r": median(results[idea_id]) if idea_id in results else None,
            },
        )


def downgrade() -> None:
    op.drop_column("idea_taken", "realised_median_r")
    op.drop_column("idea_taken", "slippage_median_r")
