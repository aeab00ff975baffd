"""Idea lists and sessions are served from memory; every change must still show on the very next request."""

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select

from tests.conftest import CUSTOMER, DEMO_PASSWORD, EDUCATOR_A, login_client, make_client
from tests.ideas.test_ideas import create
from tradeideas.auth import service as auth_service
from tradeideas.auth.cache import SessionCache
from tradeideas.auth.models import Role, Session, User
from tradeideas.ideas.cache import CachedPage, IdeaCache
from tradeideas.ideas.memory import _list_from_memory, parse_list_query
from tradeideas.ideas.service import IdeaFilter

ACTIVE_FOREX = "/api/trade-ideas?market=forex&status=active"


def _listed(response: httpx.Response) -> dict[int, dict[str, object]]:
    assert response.status_code == 200, response.text
    return {item["id"]: item for item in response.json()["items"]}


@pytest.fixture
async def second_customer(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    email = "second.customer@example.com"
    async with app.state.db.sessionmaker() as s, s.begin():
        if (await s.execute(select(User.id).where(User.email == email))).first() is None:
            await auth_service.add_user(
                s, email=email, password=DEMO_PASSWORD, role=Role.CUSTOMER, first_name="Second", last_name="Customer"
            )
    client = await login_client(app, email)
    yield client
    await client.aclose()


async def test_cached_list_shows_every_change_at_once(
    customer: httpx.AsyncClient, educator_a: httpx.AsyncClient
) -> None:
    before = _listed(await customer.get(ACTIVE_FOREX))  # fills the cache
    idea = await create(educator_a, pair="AUD/CAD")
    listed = _listed(await customer.get(ACTIVE_FOREX))
    assert idea["id"] in listed and idea["id"] not in before
    assert listed[idea["id"]]["isNew"] is True

    await educator_a.patch(f"/api/trade-ideas/{idea['id']}", json={"notes": "Moved my stop"})
    assert _listed(await customer.get(ACTIVE_FOREX))[idea["id"]]["notes"] == "Moved my stop"

    await educator_a.put(f"/api/trade-ideas/{idea['id']}", json={"status": "successful"})
    assert idea["id"] not in _listed(await customer.get(ACTIVE_FOREX))
    history = _listed(await customer.get("/api/trade-ideas?market=forex&status=completed"))
    assert history[idea["id"]]["status"] == "successful"

    await educator_a.delete(f"/api/trade-ideas/{idea['id']}")
    assert idea["id"] not in _listed(await customer.get("/api/trade-ideas?market=forex&status=completed"))


async def test_new_flags_are_each_customers_own_on_a_shared_page(
    customer: httpx.AsyncClient, second_customer: httpx.AsyncClient, educator_a: httpx.AsyncClient
) -> None:
    idea = await create(educator_a, pair="NZD/CHF")
    assert _listed(await customer.get(ACTIVE_FOREX))[idea["id"]]["isNew"] is True
    assert _listed(await second_customer.get(ACTIVE_FOREX))[idea["id"]]["isNew"] is True

    await customer.post("/api/trade-ideas/seen", json={"ideaIds": [idea["id"]]})
    assert _listed(await customer.get(ACTIVE_FOREX))[idea["id"]]["isNew"] is False
    assert _listed(await second_customer.get(ACTIVE_FOREX))[idea["id"]]["isNew"] is True

    await second_customer.post("/api/trade-ideas/seen", json={"market": "forex"})
    assert _listed(await second_customer.get(ACTIVE_FOREX))[idea["id"]]["isNew"] is False
    # Educators see the same page without NEW flags.
    assert _listed(await educator_a.get(ACTIVE_FOREX))[idea["id"]]["isNew"] is None


async def test_list_matches_the_uncached_shape(customer: httpx.AsyncClient, educator_a: httpx.AsyncClient) -> None:
    idea = await create(educator_a, pair="EUR/CHF", notes='Quotes "and" <b>tags</b> - ünïcode')
    one = (await customer.get(f"/api/trade-ideas/{idea['id']}")).json()
    for _ in range(2):  # from the database, then from memory
        listed = _listed(await customer.get(ACTIVE_FOREX))[idea["id"]]
        assert listed == one


async def test_educator_rename_shows_on_cached_pages(
    customer: httpx.AsyncClient, educator_a: httpx.AsyncClient
) -> None:
    idea = await create(educator_a, pair="USD/SGD")
    old = _listed(await customer.get(ACTIVE_FOREX))[idea["id"]]["educatorName"]
    r = await educator_a.put("/api/me/profile", json={"firstName": "Renamed", "lastName": "Educator"})
    assert r.status_code == 200, r.text
    try:
        assert _listed(await customer.get(ACTIVE_FOREX))[idea["id"]]["educatorName"] == "Renamed Educator"
        assert (await educator_a.get("/api/auth/user")).json()["displayName"] == "Renamed Educator"
    finally:
        first, _, last = str(old).partition(" ")
        await educator_a.put("/api/me/profile", json={"firstName": first, "lastName": last})


async def test_logout_ends_a_cached_session_at_once(app: FastAPI) -> None:
    client = await login_client(app, "customer@example.com")
    token = client.cookies["session"]
    bearer = make_client(app)
    bearer.headers["Authorization"] = f"Bearer {token}"
    try:
        assert (await bearer.get(ACTIVE_FOREX)).status_code == 200  # cached now
        assert (await client.post("/api/auth/logout", headers={"Origin": "http://testserver"})).status_code == 204
        assert (await bearer.get(ACTIVE_FOREX)).status_code == 401
    finally:
        await client.aclose()
        await bearer.aclose()


# ---------------------------------------------------------------- the caches' own guarantees


def _session(session_id: int = 1) -> Session:
    now = datetime.now(UTC)
    return Session(id=session_id, user_id=7, token_hash="h", refreshed_at=now, expires_at=now + timedelta(days=30))


def _user() -> User:
    return User(id=7, email="u@example.com", password_hash="x", role=Role.CUSTOMER, first_name="U", last_name="V")


def test_nothing_is_cached_or_served_while_events_cannot_arrive() -> None:
    live = False
    sessions = SessionCache(100, 60, lambda: live)
    ideas = IdeaCache(100, 60, lambda: live)
    sessions.put("h", _session(), _user(), sessions.generation)
    ideas.put_page("k", CachedPage((), None), ideas.generation)
    live = True
    assert sessions.get("h") is None and ideas.page("k") is None
    sessions.put("h", _session(), _user(), sessions.generation)
    ideas.put_page("k", CachedPage((), None), ideas.generation)
    assert sessions.get("h") is not None and ideas.page("k") is not None
    live = False  # e.g. the LISTEN connection dropped: entries may be stale now
    assert sessions.get("h") is None and ideas.page("k") is None


def test_a_read_that_overlaps_a_change_is_not_stored() -> None:
    sessions = SessionCache(100, 60, lambda: True)
    started = sessions.generation
    sessions.forget_user(7)  # a change commits while the reader is still reading
    sessions.put("h", _session(), _user(), started)
    assert sessions.get("h") is None


def test_zero_entries_turns_the_caches_off() -> None:
    sessions = SessionCache(0, 60, lambda: True)
    sessions.put("h", _session(), _user(), sessions.generation)
    assert sessions.get("h") is None


# ---------------------------------------------------------------- the in-memory fast path


LIST_QUERIES = [
    "market=forex&status=active",
    "market=crypto&status=active",
    "market=forex&status=completed",
    "market=forex&ideaType=leverage&status=completed",
    "status=active&limit=2",
    "educatorId=2&limit=100",
    "",
    "market=forex&status=active&_=1700000000",  # unknown parameters are ignored, as by the route
]


def _scope(client: httpx.AsyncClient, app: FastAPI, query: str) -> dict[str, object]:
    headers = [(b"authorization", client.headers["Authorization"].encode())]
    return {"type": "http", "method": "GET", "path": "/api/trade-ideas", "query_string": query.encode(),
            "headers": headers, "app": app}  # fmt: skip


@pytest.mark.parametrize("role", ["customer", "educator"])
async def test_memory_answers_exactly_like_the_route(app: FastAPI, role: str) -> None:
    email = CUSTOMER if role == "customer" else EDUCATOR_A
    client = await login_client(app, email, role)
    client.headers["Authorization"] = f"Bearer {client.cookies['session']}"
    client.cookies.clear()
    try:
        next_cursor = (await client.get("/api/trade-ideas?limit=2")).json()["nextCursor"]
        assert next_cursor
        for query in [*LIST_QUERIES, f"limit=2&cursor={next_cursor}"]:
            from_route = await client.get(f"/api/trade-ideas?{query}")
            assert from_route.status_code == 200, (query, from_route.text)
            from_memory = _list_from_memory(_scope(client, app, query))
            assert from_memory == from_route.content, query
            again = await client.get(f"/api/trade-ideas?{query}")
            assert again.content == from_route.content
            assert again.headers["content-type"] == from_route.headers["content-type"] == "application/json"
            assert again.headers["x-content-type-options"] == "nosniff"  # still behind the security headers
    finally:
        await client.aclose()


async def test_bad_queries_still_get_the_routes_errors_when_pages_are_cached(customer: httpx.AsyncClient) -> None:
    assert (await customer.get("/api/trade-ideas?market=forex&status=active")).status_code == 200
    for query in ["market=stocks", "limit=0", "limit=101", "limit=ten", "status=done", f"cursor={'x' * 201}"]:
        r = await customer.get(f"/api/trade-ideas?{query}")
        assert r.status_code == 422, query
        assert r.json()["message"], query
    r = await customer.get("/api/trade-ideas?cursor=not-a-cursor")
    assert r.status_code == 422 and r.json()["message"] == "Invalid cursor"


async def test_anonymous_never_gets_a_cached_page(app: FastAPI, customer: httpx.AsyncClient) -> None:
    assert (await customer.get("/api/trade-ideas?market=forex&status=active")).status_code == 200
    async with make_client(app) as anon:
        r = await anon.get("/api/trade-ideas?market=forex&status=active")
        assert r.status_code == 401 and r.json()["message"] == "Authentication required"
        r = await anon.get("/api/trade-ideas?market=forex&status=active", headers={"Authorization": "Bearer forged"})
        assert r.status_code == 401


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("", IdeaFilter()),
        ("market=crypto&status=completed&ideaType=exchange", IdeaFilter("crypto", "exchange", "completed")),
        ("educatorId=3&limit=100&cursor=abc", IdeaFilter(educator_id=3, limit=100, cursor="abc")),
        ("limit=007&other=1", IdeaFilter(limit=7)),
        ("market=Forex", None),  # the route answers 422
        ("market=forex&market=crypto", None),  # repeated: left to the route
        ("limit=0", None),
        ("limit=-1", None),
        ("limit=1e2", None),
        ("educatorId=²", None),
        ("status=", None),
    ],
)
def test_parse_list_query(query: str, expected: IdeaFilter | None) -> None:
    assert parse_list_query(query.encode()) == expected
