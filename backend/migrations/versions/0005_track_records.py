"""track records: idea outcomes and R, per-day record figures, withdrawn ideas

Existing completed ideas get the default outcomes (successful: exit1, unsuccessful: invalidation,
invalidated: not_triggered), closed at their last change, with R from the levels as they stood at the
end of the correction window.

Revision ID: 0005
Revises: 0004
"""

from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

import tradeideas.db
from tradeideas.ideas.outcomes import CORRECTION_WINDOW, LEVEL_FIELDS, Levels, r_multiple
from tradeideas.trackrecords.figures import Tally

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

DEFAULT_OUTCOMES = {"successful": "exit1", "unsuccessful": "invalidation", "invalidated": "not_triggered"}


def upgrade() -> None:
    with op.batch_alter_table("trade_ideas", schema=None) as batch_op:
        batch_op.add_column(sa.Column("outcome", sa.String(length=16), nullable=True))
        batch_op.add_column(sa.Column("close_price", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("closed_at", tradeideas.db.UTCDateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("r_multiple", sa.Float(), nullable=True))
        batch_op.add_column(sa.Column("edited_after_publish", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch_op.create_index("ix_trade_ideas_educator_closed", ["educator_id", "closed_at"], unique=False)

    op.create_table(
        "track_record_days",
        sa.Column("educator_id", sa.Integer(), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("market", sa.String(length=8), nullable=False),
        sa.Column("idea_type", sa.String(length=8), nullable=False),
        sa.Column("time_frame", sa.String(length=32), nullable=False),
        sa.Column("first_closed_at", tradeideas.db.UTCDateTime(timezone=True), nullable=False),
        sa.Column("last_closed_at", tradeideas.db.UTCDateTime(timezone=True), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("losses", sa.Integer(), nullable=False),
        sa.Column("not_triggered", sa.Integer(), nullable=False),
        sa.Column("r_count", sa.Integer(), nullable=False),
        sa.Column("sum_r", sa.Float(), nullable=False),
        sa.Column("gain_r", sa.Float(), nullable=False),
        sa.Column("loss_r", sa.Float(), nullable=False),
        sa.Column("best_r", sa.Float(), nullable=True),
        sa.Column("worst_r", sa.Float(), nullable=True),
        sa.Column("peak_r", sa.Float(), nullable=False),
        sa.Column("low_r", sa.Float(), nullable=False),
        sa.Column("drawdown_r", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["educator_id"], ["users.id"], name=op.f("fk_track_record_days_educator_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint(
            "educator_id", "day", "market", "idea_type", "time_frame", name=op.f("pk_track_record_days")
        ),
    )
    op.create_table(
        "withdrawn_ideas",
        sa.Column("idea_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("educator_id", sa.Integer(), nullable=False),
        sa.Column("market", sa.String(length=8), nullable=False),
        sa.Column("idea_type", sa.String(length=8), nullable=False),
        sa.Column("time_frame", sa.String(length=32), nullable=False),
        sa.Column("published_at", tradeideas.db.UTCDateTime(timezone=True), nullable=False),
        sa.Column("deleted_at", tradeideas.db.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["educator_id"], ["users.id"], name=op.f("fk_withdrawn_ideas_educator_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("idea_id", name=op.f("pk_withdrawn_ideas")),
    )
    with op.batch_alter_table("withdrawn_ideas", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_withdrawn_ideas_educator_id"), ["educator_id"], unique=False)
    _backfill()


def _utc(value: datetime | str) -> datetime:
    moment = datetime.fromisoformat(value) if isinstance(value, str) else value
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _backfill() -> None:
    """Default outcomes, closing times and R for ideas completed before track records existed; their day rows."""
    conn = op.get_bind()
    ideas = conn.execute(
        sa.text(
            "SELECT id, educator_id, market, idea_type, time_frame, status, order_type, entry_1, entry_2,"
            " invalidation_level, exit_1, exit_2, exit_3, created_at, updated_at FROM trade_ideas"
            " WHERE status IN ('successful', 'unsuccessful', 'invalidated') ORDER BY updated_at, id"
        )
    ).all()
    tallies: dict[tuple[int, object, str, str, str], tuple[Tally, datetime, datetime]] = {}
    for row in ideas:
        created, closed = _utc(row.created_at), _utc(row.updated_at)
        levels = Levels(row.order_type, row.entry_1, row.entry_2, row.invalidation_level, row.exit_1, row.exit_2,
                        row.exit_3)  # fmt: skip
        later = conn.execute(
            sa.text(
                "SELECT field, old_value, created_at FROM idea_revisions WHERE idea_id = :id"
                " ORDER BY created_at DESC, id DESC"
            ),
            {"id": row.id},
        ).all()
        for field, old_value, at in later:
            if field in LEVEL_FIELDS and _utc(at) > created + CORRECTION_WINDOW:
                levels = levels.with_field(field, old_value)
        outcome = DEFAULT_OUTCOMES[row.status]
        r = r_multiple(levels, outcome, None)
        conn.execute(
            sa.text("UPDATE trade_ideas SET outcome = :o, closed_at = updated_at, r_multiple = :r WHERE id = :id"),
            {"o": outcome, "r": r, "id": row.id},
        )
        key = (row.educator_id, closed.date(), row.market, row.idea_type, row.time_frame)
        tally, first, _ = tallies.get(key) or (Tally(), closed, closed)
        tally.add(row.status, r)
        tallies[key] = (tally, first, closed)
    moment = tradeideas.db.UTCDateTime(timezone=True)
    days = sa.table(
        "track_record_days",
        sa.column("educator_id", sa.Integer()),
        sa.column("day", sa.Date()),
        *(sa.column(c, sa.String()) for c in ("market", "idea_type", "time_frame")),
        sa.column("first_closed_at", moment),
        sa.column("last_closed_at", moment),
        *(sa.column(c, sa.Integer() if isinstance(v, int) else sa.Float()) for c, v in Tally().values().items()),
    )
    rows = [
        {"educator_id": e, "day": d, "market": m, "idea_type": t, "time_frame": tf, "first_closed_at": first,
         "last_closed_at": last, **tally.values()}
        for (e, d, m, t, tf), (tally, first, last) in tallies.items()
    ]  # fmt: skip
    if rows:
        op.bulk_insert(days, rows)


def downgrade() -> None:
    with op.batch_alter_table("withdrawn_ideas", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_withdrawn_ideas_educator_id"))
    op.drop_table("withdrawn_ideas")
    op.drop_table("track_record_days")
    with op.batch_alter_table("trade_ideas", schema=None) as batch_op:
        batch_op.drop_index("ix_trade_ideas_educator_closed")
        batch_op.drop_column("edited_after_publish")
        batch_op.drop_column("r_multiple")
        batch_op.drop_column("closed_at")
        batch_op.drop_column("outcome")
        batch_op.drop_column("close_price")
