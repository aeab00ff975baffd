"""Migration 0010: existing events keep their place in the stream, new ones come after them."""

from datetime import UTC, datetime
from pathlib import Path

from alembic import command

from tests.trackrecords.test_migration import _sql, database_url  # noqa: F401 - fixture
from tradeideas.cli import alembic_config
from tradeideas.settings import Settings


def test_existing_events_keep_their_ids_as_positions_and_new_ones_follow(tmp_path: Path, database_url: str) -> None:  # noqa: F811
    settings = Settings(data_dir=tmp_path, database_url=database_url)
    config = alembic_config(settings)
    command.upgrade(config, "0009")
    pg = database_url.startswith("postgresql")
    moment = datetime(2026, 1, 2, tzinfo=UTC)
    at = moment if pg else moment.strftime("%Y-%m-%d %H:%M:%S.%f")
    insert = "INSERT INTO events (type, payload, audience, created_at) VALUES ('idea.created', '{}', 'all', :at)"
    for _ in range(3):
        _sql(database_url, insert, [{"at": at}])
    _sql(database_url, "DELETE FROM events WHERE id = 2")  # a hole, as pruning and rollbacks leave

    command.upgrade(config, "0010")
    assert _sql(database_url, "SELECT id, seq FROM events ORDER BY id") == [(1, 1), (3, 3)]
    _sql(database_url, insert, [{"at": at}])
    _sql(database_url, insert, [{"at": at}])
    rows = _sql(database_url, "SELECT id, seq FROM events ORDER BY id")
    assert [seq for _, seq in rows[:2]] == [1, 3]
    assert rows[2][1] > 3 and rows[3][1] > rows[2][1]  # given at commit, after every existing position

    command.downgrade(config, "0009")
    _sql(database_url, insert, [{"at": at}])
    assert len(_sql(database_url, "SELECT id FROM events")) == 5
    command.upgrade(config, "0010")  # and up again
    assert _sql(database_url, "SELECT count(*) FROM events WHERE seq IS NULL") == [(0,)]
