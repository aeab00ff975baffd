"""Lessons after the close (issue #42): once an idea is completed its educator adds "What happened" and "Lesson";
they can be corrected for 15 minutes, then they are frozen like the result. Every change is an `idea.lesson` ledger
entry, reaches clients as the idea's `idea.updated` event, and `verify-ledger` holds the table against the ledger.
In the ledger's own database, which also holds the demo's lessons."""

import json
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select, update

from tests.conftest import ADMIN, CUSTOMER, EDUCATOR_B, login_client, make_client
from tests.ledger.test_ledger import IDEA
from tradeideas.core.clock import Clock
from tradeideas.core.deps import component_of
from tradeideas.ideas.commands import LESSON_FIXED, LESSON_NOT_COMPLETED
from tradeideas.ideas.models import TradeIdea
from tradeideas.ledger.models import LedgerEntry
from tradeideas.ledger.verify import verify
from tradeideas.realtime.models import Event

LESSON = {
    "whatHappened": "Price spiked through the stop on the CPI release.",
    "lesson": "Stand aside before high-impact news.",
}


@pytest.fixture
async def clock(ledger_app: FastAPI) -> AsyncIterator[Clock]:
    app_clock = component_of(ledger_app, Clock)
    yield app_clock
    app_clock.reset()


async def _completed(teacher: httpx.AsyncClient, pair: str, status: str = "unsuccessful") -> dict[str, Any]:
    idea = (await teacher.post("/api/trade-ideas", json={**IDEA, "pair": pair})).json()
    r = await teacher.put(f"/api/trade-ideas/{idea['id']}", json={"status": status})
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


async def _lesson_entries(app: FastAPI, idea_id: int) -> list[dict[str, Any]]:
    async with app.state.db.sessionmaker() as s:
        rows = await s.execute(
            select(LedgerEntry.payload)
            .where(LedgerEntry.subject_id == idea_id, LedgerEntry.kind == "idea.lesson")
            .order_by(LedgerEntry.seq)
        )
        return [json.loads(text) for text in rows.scalars()]


async def _problems(app: FastAPI) -> list[str]:
    async with app.state.db.sessionmaker() as s:
        return (await verify(s)).problems


async def test_an_educator_adds_a_lesson_corrects_it_and_it_freezes_after_15_minutes(
    ledger_app: FastAPI, teacher: httpx.AsyncClient, clock: Clock
) -> None:
    idea = await _completed(teacher, "NZD/CHF")
    assert idea["lesson"] is None
    url = f"/api/trade-ideas/{idea['id']}/lesson"
    added = await teacher.put(url, json={"whatHappened": "  " + LESSON["whatHappened"], "lesson": LESSON["lesson"]})
    assert added.status_code == 200, added.text
    lesson = added.json()["lesson"]
    assert (lesson["whatHappened"], lesson["lesson"]) == (LESSON["whatHappened"], LESSON["lesson"])
    # Members read it on the idea; it was not an edit of the idea.
    member = await login_client(ledger_app, CUSTOMER)
    shown = (await member.get(f"/api/trade-ideas/{idea['id']}")).json()
    assert shown["lesson"] == lesson and shown["edited"] is False
    clock.advance(timedelta(minutes=10))
    corrected = await teacher.put(url, json={**LESSON, "lesson": "Stand aside 30 minutes around high-impact news."})
    assert corrected.status_code == 200, corrected.text
    # The window runs from when it was first added, not from the correction.
    assert corrected.json()["lesson"]["fixedAt"] == lesson["fixedAt"]
    clock.advance(timedelta(minutes=6))
    late = await teacher.put(url, json=LESSON)
    assert late.status_code == 409 and late.json() == {"message": LESSON_FIXED, "code": "lesson_fixed"}
    # Repeating the frozen lesson is not a change.
    same = await teacher.put(url, json={**LESSON, "lesson": "Stand aside 30 minutes around high-impact news."})
    assert same.status_code == 200
    shown = (await member.get(f"/api/trade-ideas/{idea['id']}")).json()["lesson"]
    assert shown["lesson"] == "Stand aside 30 minutes around high-impact news."
    await member.aclose()
    # Each change is an entry of the ledger; the repeat is none.
    assert [(e["whatHappened"], e["lesson"]) for e in await _lesson_entries(ledger_app, idea["id"])] == [
        (LESSON["whatHappened"], LESSON["lesson"]),
        (LESSON["whatHappened"], "Stand aside 30 minutes around high-impact news."),
    ]
    assert await _problems(ledger_app) == []


async def test_clients_get_the_lesson_as_the_ideas_update_event(
    ledger_app: FastAPI, teacher: httpx.AsyncClient
) -> None:
    idea = await _completed(teacher, "AUD/NZD", "successful")
    assert (await teacher.put(f"/api/trade-ideas/{idea['id']}/lesson", json=LESSON)).status_code == 200
    async with ledger_app.state.db.sessionmaker() as s:
        event = (await s.execute(select(Event).order_by(Event.id.desc()).limit(1))).scalar_one()
    assert event.type == "idea.updated" and event.audience == "all" and event.educator_id is None
    assert event.payload["id"] == idea["id"]
    assert event.payload["lesson"]["whatHappened"] == LESSON["whatHappened"]


async def test_only_a_completed_idea_takes_a_lesson_of_bounded_length(
    ledger_app: FastAPI, teacher: httpx.AsyncClient
) -> None:
    open_idea = (await teacher.post("/api/trade-ideas", json={**IDEA, "pair": "CAD/CHF"})).json()
    r = await teacher.put(f"/api/trade-ideas/{open_idea['id']}/lesson", json=LESSON)
    assert r.status_code == 409 and r.json() == {"message": LESSON_NOT_COMPLETED, "code": "idea_not_completed"}
    idea = await _completed(teacher, "CAD/JPY")
    url = f"/api/trade-ideas/{idea['id']}/lesson"
    for field in ("whatHappened", "lesson"):
        r = await teacher.put(url, json={**LESSON, field: "x" * 1001})
        assert r.status_code == 422, r.text
        assert [e["field"] for e in r.json()["errors"]] == [field]
        r = await teacher.put(url, json={**LESSON, field: "   "})
        assert r.status_code == 422 and [e["field"] for e in r.json()["errors"]] == [field]
    assert (await teacher.put(url, json={"lesson": "Only half"})).status_code == 422
    assert (await teacher.put(url, json={**LESSON, "extra": 1})).status_code == 422
    # Nothing half-saved; exactly 1,000 characters are fine.
    assert (await teacher.get(f"/api/trade-ideas/{idea['id']}")).json()["lesson"] is None
    full = await teacher.put(url, json={"whatHappened": "w" * 1000, "lesson": "l" * 1000})
    assert full.status_code == 200 and len(full.json()["lesson"]["lesson"]) == 1000


async def test_only_the_ideas_own_educator_writes_its_lesson(ledger_app: FastAPI, teacher: httpx.AsyncClient) -> None:
    idea = await _completed(teacher, "GBP/NZD")
    url = f"/api/trade-ideas/{idea['id']}/lesson"
    others = {
        "anonymous": make_client(ledger_app),
        "customer": await login_client(ledger_app, CUSTOMER),
        "educator B": await login_client(ledger_app, EDUCATOR_B, "educator"),
        "admin": await login_client(ledger_app, ADMIN, "admin"),
    }
    expected = {"anonymous": 401, "customer": 403, "educator B": 403, "admin": 403}
    for name, client in others.items():
        assert (await client.put(url, json=LESSON)).status_code == expected[name], name
        await client.aclose()
    assert (await teacher.put("/api/trade-ideas/99999999/lesson", json=LESSON)).status_code == 404
    assert (await teacher.get(f"/api/trade-ideas/{idea['id']}")).json()["lesson"] is None


async def test_the_history_filters_to_ideas_with_a_lesson(ledger_app: FastAPI, teacher: httpx.AsyncClient) -> None:
    with_lesson = await _completed(teacher, "EUR/NOK")
    without = await _completed(teacher, "EUR/DKK")
    assert (await teacher.put(f"/api/trade-ideas/{with_lesson['id']}/lesson", json=LESSON)).status_code == 200
    member = await login_client(ledger_app, CUSTOMER)
    query = {"status": "completed", "educatorId": with_lesson["educatorId"], "limit": 100}
    every = (await member.get("/api/trade-ideas", params=query)).json()["items"]
    lessons = (await member.get("/api/trade-ideas", params={**query, "lesson": "true"})).json()["items"]
    await member.aclose()
    assert {without["id"], with_lesson["id"]} <= {i["id"] for i in every}
    assert with_lesson["id"] in {i["id"] for i in lessons} and without["id"] not in {i["id"] for i in lessons}
    assert lessons and all(i["lesson"] is not None for i in lessons)
    assert len(lessons) == sum(1 for i in every if i["lesson"] is not None)


async def test_a_third_of_the_completed_demo_ideas_have_lessons_in_the_ledger(ledger_app: FastAPI) -> None:
    async with ledger_app.state.db.sessionmaker() as s:
        completed = (await s.execute(select(func.count()).where(TradeIdea.completed.is_(True)))).scalar_one()
        with_lesson = (
            await s.execute(select(func.count()).where(TradeIdea.completed.is_(True), TradeIdea.lesson_at.is_not(None)))
        ).scalar_one()
    assert completed > 30
    assert abs(with_lesson - completed / 3) <= 0.05 * completed


async def test_verify_names_a_lesson_changed_behind_the_apps_back(
    ledger_app: FastAPI, teacher: httpx.AsyncClient
) -> None:
    idea = await _completed(teacher, "USD/SEK")
    assert (await teacher.put(f"/api/trade-ideas/{idea['id']}/lesson", json=LESSON)).status_code == 200
    async with ledger_app.state.db.sessionmaker() as s, s.begin():
        await s.execute(update(TradeIdea).where(TradeIdea.id == idea["id"]).values(lesson_text="Nothing to learn."))
    try:
        assert await _problems(ledger_app) == [
            f"Idea #{idea['id']} USD/SEK's lesson differs from the ledger (seq "
            f"{(await _last_seq(ledger_app, idea['id']))}): trade_ideas.lesson_text 'Nothing to learn.' "
            f"(ledger: {LESSON['lesson']!r})"
        ]
        async with ledger_app.state.db.sessionmaker() as s, s.begin():
            await s.execute(
                update(TradeIdea)
                .where(TradeIdea.id == idea["id"])
                .values(lesson_what_happened=None, lesson_text=None, lesson_at=None, lesson_updated_at=None)
            )
        problems = await _problems(ledger_app)
        assert len(problems) == 1 and problems[0].startswith(f"Idea #{idea['id']} USD/SEK has no lesson, but the")
    finally:
        async with ledger_app.state.db.sessionmaker() as s, s.begin():
            await s.execute(
                update(TradeIdea)
                .where(TradeIdea.id == idea["id"])
                .values(
                    lesson_what_happened=LESSON["whatHappened"],
                    lesson_text=LESSON["lesson"],
                    lesson_at=TradeIdea.closed_at,
                    lesson_updated_at=TradeIdea.closed_at,
                )
            )
    assert await _problems(ledger_app) == []


async def _last_seq(app: FastAPI, idea_id: int) -> int:
    async with app.state.db.sessionmaker() as s:
        return int(
            (
                await s.execute(
                    select(func.max(LedgerEntry.seq)).where(
                        LedgerEntry.subject_id == idea_id, LedgerEntry.kind == "idea.lesson"
                    )
                )
            ).scalar_one()
        )
