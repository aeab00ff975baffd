"""Idea lists and sessions are served from memory; every change must still show on the very next request."""

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select

from tests.conftest import DEMO_PASSWORD, login_client, make_client
from tests.ideas.test_ideas import create
from tradeideas.auth import service as auth_service
from tradeideas.auth.cache import Login, SessionCache
from tradeideas.auth.models import Role, User
from tradeideas.billing import service as billing_service
from tradeideas.core.access import EducatorAccess
from tradeideas.core.cache import DEGRADED_TTL_SECONDS, EventGuardedCache
from tradeideas.ideas.cache import CachedPage, IdeaCache, SeenMarks

ACTIVE_FOREX = "/api/trade-ideas?market=forex&status=active"


def _listed(response: httpx.Response) -> dict[int, dict[str, object]]:
    assert response.status_code == 200, response.text
    return {item["id"]: item for item in response.json()["items"]}


@pytest.fixture
async def second_customer(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    email = "second.customer@example.com"
    async with app.state.db.sessionmaker() as s, s.begin():
        if (await s.execute(select(User.id).where(User.email == email))).first() is None:
            user = await auth_service.add_user(
                s, email=email, password=DEMO_PASSWORD, role=Role.CUSTOMER, first_name="Second", last_name="Customer"
            )
            await billing_service.add_complimentary(s, None, user.id, None, None)  # sees every educator
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

    # Completed ideas cannot be deleted (track record); reopened, it leaves the history and can go.
    await educator_a.put(f"/api/trade-ideas/{idea['id']}", json={"status": "pending"})
    assert idea["id"] not in _listed(await customer.get("/api/trade-ideas?market=forex&status=completed"))
    await educator_a.delete(f"/api/trade-ideas/{idea['id']}")
    assert idea["id"] not in _listed(await customer.get(ACTIVE_FOREX))


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


def _login(session_id: int = 1) -> Login:
    now = datetime.now(UTC)
    user = {"id": 7, "email": "u@example.com", "role": Role.CUSTOMER, "first_name": "U", "last_name": "V"}
    return Login(session_id=session_id, refreshed_at=now, expires_at=now + timedelta(days=30), user_columns=user)


def test_while_events_cannot_arrive_entries_live_only_seconds() -> None:
    live, now = False, [0.0]
    cache = EventGuardedCache(100, 600, lambda: live, timer=lambda: now[0])
    store = cache.store()
    store["stored while degraded"] = 1
    live = True
    store["stored while live"] = 2
    now[0] = DEGRADED_TTL_SECONDS + 0.1
    assert "stored while degraded" not in store and store["stored while live"] == 2
    cache.clear()  # what the app does when the LISTEN connection drops or comes back
    assert not store


def test_a_full_store_drops_the_entry_read_least_recently() -> None:
    now = [0.0]
    store = EventGuardedCache(2, 600, lambda: True, timer=lambda: now[0]).store()
    store["a"], store["b"] = 1, 2
    assert store.get("a") == 1  # read: "b" is now the least recently used
    store["c"] = 3
    assert "b" not in store and store.get("a") == 1 and store.get("c") == 3
    now[0] = 600.0  # every entry lives `max_age_seconds`
    assert store.get("a") is None and list(store) == []


def test_a_read_that_overlaps_a_change_is_not_stored() -> None:
    sessions = SessionCache(100, 60, lambda: True)
    started = sessions.generation
    sessions.forget_user(7)  # a change commits while the reader is still reading
    sessions.put("h", _login(), started)
    assert sessions.get("h") is None


def test_a_kept_answer_serves_only_the_same_page_marks_and_access() -> None:
    cache = IdeaCache(100, 600, lambda: True)
    page = CachedPage(ideas=(), next_cursor=None, shared_json=b"{}")
    marks = SeenMarks(forex_until=None, crypto_until=None, idea_ids=frozenset())
    one = EducatorAccess(everything=False, educators=frozenset({1}))
    cache.put_answer("forex", 7, page, marks, one, b"educator 1 only")
    # An equal access (the access rule answers a new object after its cache expires) is the same answer.
    assert cache.answer("forex", 7, page, marks, EducatorAccess(False, frozenset({1}))) == b"educator 1 only"
    assert cache.answer("forex", 7, page, marks, EducatorAccess(False, frozenset({1, 2}))) is None  # a new grant
    assert cache.answer("forex", 7, page, marks, EducatorAccess(everything=True)) is None
    assert cache.answer("forex", 7, CachedPage((), None, b"{}"), marks, one) is None  # the page was read again
    assert cache.answer("forex", 7, page, SeenMarks(None, None, frozenset()), one) is None  # the marks changed
    assert cache.answer("forex", 8, page, marks, one) is None  # another customer


def test_zero_entries_turns_the_caches_off() -> None:
    sessions = SessionCache(0, 60, lambda: True)
    sessions.put("h", _login(), sessions.generation)
    assert sessions.get("h") is None


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
