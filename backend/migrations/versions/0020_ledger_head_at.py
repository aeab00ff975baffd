"""ledger: the append turn also reads the head's `at`, so an entry is never dated before the one it follows

Revision ID: 0020_ledger_head_at
Revises: 0019_ledger_turn_and_head

An entry is dated when the ledger records it, and never before the chain's head, so a UTC day that has ended gains
no entries and the fingerprint posted for it stays its fingerprint
(docs/decisions/0070-an-entry-is-dated-when-it-is-recorded.md). `ledger_head_after_turn` returns the head's `at`
beside its position and hash; a function's result type cannot be altered in place, so it is dropped and created
again. SQLite has nothing to change.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0020_ledger_head_at"
down_revision: str | None = "0019_ledger_turn_and_head"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

DROP = "DROP FUNCTION IF EXISTS ledger_head_after_turn(bigint)"
# VOLATILE, as in 0019: a STABLE function would read the head with a snapshot taken before the lock was waited for.
FUNCTION = """
CREATE FUNCTION ledger_head_after_turn(lock_key bigint) RETURNS TABLE ({columns})
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(lock_key);
    RETURN QUERY SELECT {values} FROM ledger_entries AS e ORDER BY e.seq DESC LIMIT 1;
END
$$
"""
CREATE = FUNCTION.format(columns="seq bigint, hash varchar, at varchar", values="e.seq, e.hash, e.at")
CREATE_0019 = FUNCTION.format(columns="seq bigint, hash varchar", values="e.seq, e.hash")


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(DROP)
        op.execute(CREATE)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(DROP)
        op.execute(CREATE_0019)
