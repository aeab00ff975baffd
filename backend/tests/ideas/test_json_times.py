"""The list's datetimes are written by orjson (`OPT_UTC_Z`), single reads by pydantic: the same text for every
UTC datetime the database can hand back, with and without microseconds."""

from datetime import UTC, datetime, timedelta, timezone

import orjson
import pytest
from pydantic import TypeAdapter

from tradeideas.ideas.pages import dump_page

PYDANTIC = TypeAdapter(datetime)
BASE = datetime(2026, 11, 25, 17, 6, 5, tzinfo=UTC)


@pytest.mark.parametrize(
    "at",
    [
        BASE,
        BASE + timedelta(microseconds=1),
        BASE + timedelta(microseconds=500),
        BASE + timedelta(microseconds=120000),
        BASE + timedelta(microseconds=999999),
        datetime(1970, 1, 1, tzinfo=UTC),
        datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
        BASE.replace(tzinfo=timezone(timedelta(0))),  # UTC as asyncpg writes it (datetime.timezone.utc)
    ],
)
def test_orjson_writes_a_utc_datetime_as_pydantic_does(at: datetime) -> None:
    page = orjson.loads(dump_page([{"createdAt": at}], None))
    assert page["items"][0]["createdAt"] == orjson.loads(PYDANTIC.dump_json(at))
