"""A change committed by another process reaches this process's track-record answers through the outbox: the answer
it served is kept while one build of the next runs in the background, in a session of its own (decision 0062)."""

import asyncio
from typing import Any

import httpx
from asgi_lifespan import LifespanManager
from fastapi import FastAPI

from tests.conftest import EDUCATOR_A, login_client
from tests.trackrecords.test_track_records_api import buy, complete
from tradeideas.app import create_app
from tradeideas.core.deps import component_of
from tradeideas.realtime.broker import Broker
from tradeideas.settings import Settings


async def test_a_completion_in_another_process_shows_here_after_a_background_build(
    app: FastAPI, settings: Settings, customer: httpx.AsyncClient, educator_a: httpx.AsyncClient, tf: str
) -> None:
    me = (await educator_a.get("/api/auth/user")).json()["id"]
    record = f"/api/educators/{me}/track-record?timeFrame={tf}"
    await complete(educator_a, await buy(educator_a, tf), status="successful")  # made here: shown at once
    served = (await customer.get(record)).json()
    assert (served["completed"], served["wins"]) == (1, 1)

    other = create_app(settings)  # a second process on the same database
    async with LifespanManager(other):
        elsewhere = await login_client(other, EDUCATOR_A, "educator")
        try:
            await complete(elsewhere, await buy(elsewhere, tf), status="unsuccessful")
        finally:
            await elsewhere.aclose()
    component_of(app, Broker).notify()  # PostgreSQL's NOTIFY does this by itself; SQLite has none

    seen: list[dict[str, Any]] = []
    for _ in range(200):
        seen.append((await customer.get(record)).json())
        if seen[-1]["losses"] == 1:
            break
        await asyncio.sleep(0.02)
    # Until the new answer was built, readers got the one served before, never a half-built or failed one.
    assert all(answer == served for answer in seen[:-1])
    assert (seen[-1]["completed"], seen[-1]["wins"], seen[-1]["losses"]) == (2, 1, 1)
