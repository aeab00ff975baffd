"""What a change costs the database: the request that changes an idea reads it back as the API shows it once (the
form its event carried is the answer), and its transaction wakes the other processes with one NOTIFY, however many
events it recorded. A completion waits for each of these round trips behind every read the worker is serving."""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
from fastapi import FastAPI
from sqlalchemy import event

from tests.ideas.test_ideas import create

# The start of the statement that reads an idea as the API shows it (`queries.present_one`).
SHOWN_IDEA = "SELECT trade_ideas.id, trade_ideas.educator_id, users.first_name"


@contextmanager
def statements(app: FastAPI) -> Iterator[list[str]]:
    seen: list[str] = []
    engine = app.state.db.engine.sync_engine

    def record(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        seen.append(" ".join(statement.split()))

    event.listen(engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", record)


async def test_a_completion_reads_its_idea_once_and_notifies_once(
    app: FastAPI, educator_a: httpx.AsyncClient, tf: str
) -> None:
    idea = await create(educator_a, timeFrame=tf, entry1="100", invalidationLevel="90", exit1="120")
    with statements(app) as seen:
        r = await educator_a.put(f"/api/trade-ideas/{idea['id']}", json={"status": "successful", "outcome": "exit1"})
    assert r.status_code == 200, r.text
    assert (r.json()["status"], r.json()["outcome"], r.json()["rMultiple"]) == ("successful", "exit1", 2.0)
    assert sum(s.startswith(SHOWN_IDEA) for s in seen) == 1
    events = sum(s.startswith("INSERT INTO events") for s in seen)
    assert events >= 2  # the idea's change and the record's
    notifies = sum("pg_notify" in s for s in seen)
    assert notifies == (1 if app.state.db.engine.dialect.name == "postgresql" else 0)


async def test_the_answer_after_a_change_is_what_a_read_shows(
    app: FastAPI, educator_a: httpx.AsyncClient, customer: httpx.AsyncClient, tf: str
) -> None:
    idea = await create(educator_a, timeFrame=tf)
    r = await educator_a.patch(f"/api/trade-ideas/{idea['id']}", json={"notes": "Moved the stop to break-even"})
    assert r.status_code == 200, r.text
    assert r.json() == (await educator_a.get(f"/api/trade-ideas/{idea['id']}")).json()
    unchanged = await educator_a.patch(f"/api/trade-ideas/{idea['id']}", json={"notes": "Moved the stop to break-even"})
    assert unchanged.json() == r.json()
    done = await educator_a.put(f"/api/trade-ideas/{idea['id']}", json={"status": "unsuccessful"})
    assert done.json() == (await educator_a.get(f"/api/trade-ideas/{idea['id']}")).json()
    assert done.json()["status"] == "unsuccessful" and done.json()["edited"] is True
