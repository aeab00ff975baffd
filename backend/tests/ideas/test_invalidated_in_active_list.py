"""An invalidated idea on the active list (issue #26): kept with its INVALID tag, but after every live idea, never
NEW, never counted as unseen, and gone 24 hours after it was invalidated, from cached pages too (time moved by the
app's clock)."""

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from tests.ideas.test_ideas import create
from tradeideas.core.clock import Clock
from tradeideas.core.deps import component_of
from tradeideas.ideas.cache import IdeaCache

ACTIVE = "/api/trade-ideas?market=forex&status=active&limit=100"


@pytest.fixture
def clock(app: FastAPI) -> Iterator[Clock]:
    clock = component_of(app, Clock)
    yield clock
    clock.reset()


@pytest.fixture(params=["cached", "uncached"])
def caches(request: pytest.FixtureRequest, app: FastAPI, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "uncached":
        monkeypatch.setattr(component_of(app, IdeaCache), "usable", lambda: False)
    return str(request.param)


async def active(client: httpx.AsyncClient, url: str = ACTIVE) -> list[dict[str, Any]]:
    """The whole list, page after page: other tests may leave more than a page of live ideas before these."""
    return await walk(client, url)


async def walk(client: httpx.AsyncClient, base: str) -> list[dict[str, Any]]:
    """Every page of a list, one idea a page, following the cursors."""
    seen: list[dict[str, Any]] = []
    url = base
    while True:
        r = await client.get(url)
        assert r.status_code == 200, r.text
        seen += r.json()["items"]
        cursor = r.json()["nextCursor"]
        if cursor is None:
            return seen
        url = f"{base}&cursor={cursor}"


async def test_invalidated_ideas_sort_last_are_never_new_and_leave_after_24_hours(
    app: FastAPI, customer: httpx.AsyncClient, educator_a: httpx.AsyncClient, clock: Clock, caches: str
) -> None:
    # Unseen counts stop at 99+: start from none, whatever other tests left unseen.
    assert (await customer.post("/api/trade-ideas/seen", json={"market": "forex"})).status_code == 200
    older = await create(educator_a, timeFrame="INV-older")
    broken = await create(educator_a, timeFrame="INV-broken")
    newest = await create(educator_a, timeFrame="INV-newest")
    counts_before = (await customer.get("/api/me/unseen-counts")).json()
    r = await educator_a.put(f"/api/trade-ideas/{broken['id']}", json={"status": "invalidated"})
    assert r.status_code == 200, r.text

    items = await active(customer)
    ids = [i["id"] for i in items]
    assert ids.index(newest["id"]) < ids.index(older["id"]) < ids.index(broken["id"])
    live = [n for n, i in enumerate(items) if i["status"] != "invalidated"]
    invalid = [n for n, i in enumerate(items) if i["status"] == "invalidated"]
    assert invalid and max(live) < min(invalid), "every live idea comes before every invalidated one"
    shown = next(i for i in items if i["id"] == broken["id"])
    assert shown["status"] == "invalidated" and shown["isNew"] is False
    assert next(i for i in items if i["id"] == newest["id"])["isNew"] is True
    counts = (await customer.get("/api/me/unseen-counts")).json()
    assert counts["forex"] == counts_before["forex"] - 1  # it was counted while live, and no longer is

    # Paged one at a time, the walk crosses from the live ideas into the invalidated ones and back to none.
    assert [i["id"] for i in await walk(customer, ACTIVE.replace("limit=100", "limit=1"))] == ids

    # 23 h later it is still there; 24 h after it was invalidated it has left the active list (and only that list).
    clock.advance(timedelta(hours=23))
    assert broken["id"] in [i["id"] for i in await active(customer)]
    clock.advance(timedelta(hours=1, minutes=1))
    after = [i["id"] for i in await active(customer)]
    assert broken["id"] not in after and newest["id"] in after and older["id"] in after
    assert [i["id"] for i in await walk(customer, ACTIVE.replace("limit=100", "limit=1"))] == after
    invalidated = await active(customer, "/api/trade-ideas?market=forex&status=invalidated&limit=100")
    assert broken["id"] in [i["id"] for i in invalidated]
    # Educators' own lists are not the customers' active list: their idea stays there.
    own = await active(educator_a, f"/api/trade-ideas?educatorId={older['educatorId']}&limit=100")
    assert broken["id"] in [i["id"] for i in own]


async def test_a_cached_active_page_is_read_again_once_an_invalidated_idea_on_it_expires(
    app: FastAPI, customer: httpx.AsyncClient, educator_a: httpx.AsyncClient, clock: Clock
) -> None:
    broken = await create(educator_a, timeFrame="INV-cached")
    assert (await educator_a.put(f"/api/trade-ideas/{broken['id']}", json={"status": "invalidated"})).status_code == 200
    assert broken["id"] in [i["id"] for i in await active(customer)]  # now cached
    cache = component_of(app, IdeaCache)
    assert cache.usable()
    clock.advance(timedelta(hours=24, seconds=1))
    # No event marks the moment: the cached page itself knows when it stops being true.
    assert broken["id"] not in [i["id"] for i in await active(customer)]
    assert broken["id"] not in [i["id"] for i in await active(educator_a)]
