"""Migration 0024: "edited" is recomputed from the revisions, leaving out results (issue #39)."""

from datetime import UTC, datetime
from pathlib import Path

from alembic import command

from tests.trackrecords.test_migration import _sql, database_url  # noqa: F401 - the fixture is used by name
from tradeideas.cli import alembic_config
from tradeideas.settings import Settings


def test_only_levels_notes_or_media_leave_an_idea_edited(tmp_path: Path, database_url: str) -> None:  # noqa: F811
    settings = Settings(data_dir=tmp_path, database_url=database_url)
    config = alembic_config(settings)
    command.upgrade(config, "0022_idea_taken_medians")
    pg = database_url.startswith("postgresql")
    moment = datetime(2026, 1, 2, 10, tzinfo=UTC)
    at = moment if pg else moment.strftime("%Y-%m-%d %H:%M:%S.%f")
    _sql(
        database_url,
        "INSERT INTO users (id, email, password_hash, role, first_name, last_name, bio, years_experience, is_public,"
        " disabled, invited, created_at, updated_at) VALUES (1, 'e@x', 'h', 'educator', 'A', 'B', '', 0, true, false,"
        " false, :at, :at)",
        [{"at": at}],
    )
    _sql(
        database_url,
        "INSERT INTO trade_ideas (id, educator_id, market_type, market, order_type, idea_type, pair, time_frame,"
        " entry_1, invalidation_level, exit_1, status, completed, edited, edited_after_publish, created_at,"
        " updated_at) VALUES (:id, 1, 'Forex', 'forex', 'BUY', 'Leverage', 'EUR/USD', '4H', '100', '90', '120',"
        " 'pending', false, true, false, :at, :at)",
        [{"id": i, "at": at} for i in (1, 2, 3)],
    )
    # 1: a result recorded and reopened; 2: a level moved and a result; 3: nothing but a new photo.
    revisions = [(1, "status"), (1, "outcome"), (1, "closePrice"), (2, "exit1"), (2, "status"), (3, "imageIds")]
    _sql(
        database_url,
        "INSERT INTO idea_revisions (idea_id, field, old_value, new_value, created_at) VALUES (:idea, :field, 'a',"
        " 'b', :at)",
        [{"idea": idea, "field": field, "at": at} for idea, field in revisions],
    )
    command.upgrade(config, "0024_edited_means_levels")
    rows = _sql(database_url, "SELECT id, edited FROM trade_ideas ORDER BY id")
    assert [(i, bool(e)) for i, e in rows] == [(1, False), (2, True), (3, True)]
    command.downgrade(config, "0022_idea_taken_medians")
    rows = _sql(database_url, "SELECT id, edited FROM trade_ideas ORDER BY id")
    assert [(i, bool(e)) for i, e in rows] == [(1, True), (2, True), (3, True)]
