"""ledger: each day's fingerprint row is kept by the database when an entry is inserted

Revision ID: 0016_ledger_day_trigger
Revises: 0015_journal_keys_and_price_text

Appending an entry wrote the entry and then upserted its day's row (`ledger_days`: first and last seq, count, the
last entry's hash) in a second statement, a round trip on the path of every change to an idea. A row trigger on
`ledger_entries` now does the upsert inside the insert (docs/decisions/0058-ledger-days-kept-by-a-trigger.md). The
day is the UTC date the entry's `at` names (its first ten characters, `YYYY-MM-DD`), as the service computed it.
Existing rows already hold their days, so nothing is rewritten.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0016_ledger_day_trigger"
down_revision: str | None = "0015_journal_keys_and_price_text"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

POSTGRES_UP = [
    """
    CREATE FUNCTION ledger_keep_day() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        -- Appends take turns (the ledger's advisory lock), so the newest entry is always the day's last.
        INSERT INTO ledger_days (day, first_seq, last_seq, entries, hash)
        VALUES (CAST(substr(NEW.at, 1, 10) AS date), NEW.seq, NEW.seq, 1, NEW.hash)
        ON CONFLICT (day) DO UPDATE
            SET last_seq = EXCLUDED.last_seq, hash = EXCLUDED.hash, entries = ledger_days.entries + 1;
        RETURN NULL;
    END
    $$
    """,
    "CREATE TRIGGER ledger_keep_day AFTER INSERT ON ledger_entries FOR EACH ROW EXECUTE FUNCTION ledger_keep_day()",
]

POSTGRES_DOWN = [
    "DROP TRIGGER IF EXISTS ledger_keep_day ON ledger_entries",
    "DROP FUNCTION IF EXISTS ledger_keep_day()",
]

SQLITE_UP = """
CREATE TRIGGER ledger_keep_day AFTER INSERT ON ledger_entries FOR EACH ROW
BEGIN
    INSERT INTO ledger_days (day, first_seq, last_seq, entries, hash)
    VALUES (substr(NEW.at, 1, 10), NEW.seq, NEW.seq, 1, NEW.hash)
    ON CONFLICT (day) DO UPDATE
        SET last_seq = excluded.last_seq, hash = excluded.hash, entries = ledger_days.entries + 1;
END
"""


def upgrade() -> None:
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
        op.execute("DROP TRIGGER IF EXISTS ledger_keep_day")
