"""ledger: one round trip takes the append turn and reads the head (PostgreSQL)

Revision ID: 0019_ledger_turn_and_head
Revises: 0018_verifications_by_educator

An append took the ledger's advisory lock in one statement and read the chain's head in the next: the head must be
read after the lock is held, and a statement sees the database as it was when the statement began, so the two could
not share one. A VOLATILE PL/pgSQL function takes a fresh snapshot for each query it runs, so `ledger_head_after_turn`
takes the lock, then reads the head as it is once the turn is this transaction's: one round trip fewer on the path of
every change to an idea (docs/decisions/0068-the-append-turn-and-the-head-in-one-call.md). SQLite has nothing to add.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0019_ledger_turn_and_head"
down_revision: str | None = "0018_verifications_by_educator"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# VOLATILE is the default, spelled out because the function is only correct with it: a STABLE function would read
# the head with the snapshot of the calling statement, taken before the lock was waited for.
CREATE = """
CREATE FUNCTION ledger_head_after_turn(lock_key bigint) RETURNS TABLE (seq bigint, hash varchar)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(lock_key);
    RETURN QUERY SELECT e.seq, e.hash FROM ledger_entries AS e ORDER BY e.seq DESC LIMIT 1;
END
$$
"""


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(CREATE)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS ledger_head_after_turn(bigint)")
