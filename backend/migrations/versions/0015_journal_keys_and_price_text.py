"""journal: an idempotency key per entry (unique per member) and prices kept as the text typed

Revision ID: 0015_journal_keys_and_price_text
Revises: 0014_idea_taken

A "I took this" kept on a phone while offline carries a key its device chose once; a repeat after a reconnect finds
the entry the first one made (docs/decisions/0057-idempotent-journal-entries.md). Fill and exit prices become text,
like an idea's levels, so 1.0850 stays 1.0850; existing numbers become their shortest text (1.085, 150).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015_journal_keys_and_price_text"
down_revision: str | None = "0014_idea_taken"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

UNIQUE_KEY = "uq_journal_entries_user_idempotency_key"


def _text(value: float | str | None) -> str | None:
    """A stored number as the shortest text that reads back as it (1.085, not 1.0849999999999999; 150, not 150.0)."""
    if value is None:
        return None
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


def upgrade() -> None:
    with op.batch_alter_table("journal_entries") as batch:
        batch.add_column(sa.Column("idempotency_key", sa.String(128), nullable=True))
        batch.add_column(sa.Column("fill_price_text", sa.String(32), nullable=True))
        batch.add_column(sa.Column("exit_price_text", sa.String(32), nullable=True))
        batch.create_unique_constraint(UNIQUE_KEY, ["user_id", "idempotency_key"])
    bind = op.get_bind()
    rows = bind.execute(sa.text("SELECT id, fill_price, exit_price FROM journal_entries")).all()
    for entry_id, fill, exit_price in rows:
        bind.execute(
            sa.text("UPDATE journal_entries SET fill_price_text = :fill, exit_price_text = :exit WHERE id = :id"),
            {"fill": _text(fill), "exit": _text(exit_price), "id": entry_id},
        )
    with op.batch_alter_table("journal_entries") as batch:
        batch.drop_column("fill_price")
        batch.drop_column("exit_price")
    with op.batch_alter_table("journal_entries") as batch:
        batch.alter_column("fill_price_text", new_column_name="fill_price", nullable=False)
        batch.alter_column("exit_price_text", new_column_name="exit_price")


def downgrade() -> None:
    with op.batch_alter_table("journal_entries") as batch:
        batch.drop_constraint(UNIQUE_KEY, type_="unique")
        batch.drop_column("idempotency_key")
        batch.alter_column("fill_price", type_=sa.Float(), postgresql_using="fill_price::double precision")
        batch.alter_column("exit_price", type_=sa.Float(), postgresql_using="exit_price::double precision")
