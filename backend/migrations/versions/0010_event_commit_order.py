"""events: a stream position (`seq`) given at commit, so streams deliver and replay in commit order

Revision ID: 0010
Revises: 0009

`events.id` comes from a sequence when the row is inserted, but transactions commit in another order: a
stream resumed after id N would never get an event with a lower id that committed later (issue #22). `seq`
is given when the row's transaction commits instead (see docs/decisions/0047-events-in-commit-order.md):

- PostgreSQL: a deferred constraint trigger runs just before commit, takes a transaction-level advisory
  lock and draws `seq` from its own sequence. The lock is released only after the transaction is visible,
  so positions are drawn in commit order and the committed positions always form a prefix.
- SQLite: one writer at a time, so insert order is commit order: `seq` is the row id.

Existing rows keep their place: seq = id, and new positions start above them.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

POSTGRES_UP = [
    "CREATE SEQUENCE events_seq_seq AS BIGINT OWNED BY events.seq",
    "SELECT setval('events_seq_seq', COALESCE((SELECT max(id) FROM events), 0) + 1, false)",
    # The advisory lock's key is "events" in ASCII, used by nothing else (housekeeping's is 7370421012).
    """
    CREATE FUNCTION events_take_position() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        -- Runs just before this transaction commits (deferred). Held until the commit is visible, so
        -- no later transaction draws a position before this one can be seen.
        PERFORM pg_advisory_xact_lock(111559182283891);
        UPDATE events SET seq = nextval('events_seq_seq') WHERE id = NEW.id AND seq IS NULL;
        RETURN NULL;
    END
    $$
    """,
    """
    CREATE CONSTRAINT TRIGGER events_commit_order AFTER INSERT ON events
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION events_take_position()
    """,
]

POSTGRES_DOWN = [
    "DROP TRIGGER IF EXISTS events_commit_order ON events",
    "DROP FUNCTION IF EXISTS events_take_position()",
]

SQLITE_UP = """
CREATE TRIGGER events_commit_order AFTER INSERT ON events FOR EACH ROW WHEN NEW.seq IS NULL
BEGIN
    UPDATE events SET seq = NEW.id WHERE id = NEW.id;
END
"""


def upgrade() -> None:
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.add_column(sa.Column("seq", sa.BigInteger(), nullable=True))
    op.execute("UPDATE events SET seq = id")
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_events_seq"), ["seq"], unique=True)
    if op.get_bind().dialect.name == "postgresql":
        for statement in POSTGRES_UP:
            op.execute(statement)
    else:
        op.execute(SQLITE_UP)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for statement in POSTGRES_DOWN:
            op.execute(statement)
    else:
        op.execute("DROP TRIGGER IF EXISTS events_commit_order")
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_events_seq"))
        batch_op.drop_column("seq")  # on PostgreSQL this drops the sequence it owns too
