"""Logging in and out, sessions and their cookie, brute-force limits."""

from datetime import timedelta

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select, update

from tests.conftest import CUSTOMER, DEMO_PASSWORD, EDUCATOR_A, forget_cached_sessions, make_client
from tradeideas.auth.models import Session
from tradeideas.auth.service import hash_token
from tradeideas.db import utcnow

GENERIC_401 = "Invalid email or password"


async def _login(
    c: httpx.AsyncClient, email: str, password: str = DEMO_PASSWORD, role: str = "customer"
) -> httpx.Response:
    return await c.post("/api/auth/login", json={"email": email, "password": password, "selectedRole": role})


async def test_customer_login_returns_user_token_and_strict_httponly_cookie(anon: httpx.AsyncClient) -> None:
    r = await _login(anon, "  Customer@Example.com ")
    assert r.status_code == 200
    body = r.json()
    assert body["user"]["email"] == CUSTOMER
    assert body["user"]["role"] == "customer"
    assert body["user"]["firstName"] == "Demo"
    assert "passwordHash" not in body["user"]
    assert len(body["sessionToken"]) >= 22  # >= 128 bits of url-safe base64
    cookie = r.headers["set-cookie"].lower()
    assert "session=" in cookie and "httponly" in cookie and "samesite=strict" in cookie
    assert "max-age=2592000" in cookie  # 30 days
    me = await anon.get("/api/auth/user")
    assert me.status_code == 200 and me.json()["email"] == CUSTOMER


async def test_educator_login_through_educator_portal(anon: httpx.AsyncClient) -> None:
    r = await _login(anon, EDUCATOR_A, role="educator")
    assert r.status_code == 200
    user = r.json()["user"]
    assert user["role"] == "educator" and user["id"] == 1 and user["slug"] == "alex-morgan"


async def test_customer_account_cannot_use_educator_portal(anon: httpx.AsyncClient) -> None:
    r = await _login(anon, CUSTOMER, role="educator")
    assert r.status_code == 403
    assert r.json() == {
        "message": "Access denied: Only authorized educators can access this portal.",
        "code": "educator_only",
    }
    assert "set-cookie" not in r.headers
    assert (await anon.get("/api/auth/user")).status_code == 401


@pytest.mark.parametrize(("email", "password"), [("nobody@example.com", DEMO_PASSWORD), (CUSTOMER, "wrong-pass")])
async def test_wrong_email_or_password_gives_one_generic_401(
    anon: httpx.AsyncClient, email: str, password: str
) -> None:
    r = await _login(anon, email, password)
    assert r.status_code == 401
    assert r.json() == {"message": GENERIC_401, "code": "invalid_credentials"}


async def test_missing_fields_are_422_with_message(anon: httpx.AsyncClient) -> None:
    r = await anon.post("/api/auth/login", json={"email": "", "password": "x"})
    assert r.status_code == 422
    assert r.json()["message"] == "Email is required"
    r = await anon.post("/api/auth/login", json={"email": "a@b.c"})
    assert r.status_code == 422 and r.json()["code"] == "validation_error"


async def test_every_login_issues_a_new_token(app: FastAPI) -> None:
    async with make_client(app) as a, make_client(app) as b:
        t1 = (await _login(a, CUSTOMER)).json()["sessionToken"]
        t2 = (await _login(b, CUSTOMER)).json()["sessionToken"]
        assert t1 != t2
        assert (await a.get("/api/auth/user")).status_code == 200
        assert (await b.get("/api/auth/user")).status_code == 200


async def test_bearer_token_works_and_logout_revokes_it_at_once(app: FastAPI) -> None:
    async with make_client(app) as c, make_client(app) as bearer:
        token = (await _login(c, CUSTOMER)).json()["sessionToken"]
        headers = {"Authorization": f"Bearer {token}"}
        assert (await bearer.get("/api/auth/user", headers=headers)).status_code == 200
        old_cookie = c.cookies.get("session")
        out = await c.post("/api/auth/logout")
        assert out.status_code == 204
        assert (await bearer.get("/api/auth/user", headers=headers)).status_code == 401
        # Replaying the old cookie after logout must fail too.
        async with make_client(app) as replay:
            replay.cookies.set("session", old_cookie or "")
            r = await replay.get("/api/auth/user")
            assert r.status_code == 401
            assert r.json() == {"message": "Authentication required", "code": "unauthorized"}


async def test_tokens_are_stored_hashed(app: FastAPI, anon: httpx.AsyncClient) -> None:
    token = (await _login(anon, CUSTOMER)).json()["sessionToken"]
    async with app.state.db.sessionmaker() as s:
        hashes = set((await s.execute(select(Session.token_hash))).scalars())
    assert token not in hashes
    assert hash_token(token) in hashes


async def _refreshed_two_days_ago(app: FastAPI, token: str) -> None:
    two_days_ago = utcnow() - timedelta(days=2)
    async with app.state.db.sessionmaker() as s, s.begin():
        await s.execute(
            update(Session)
            .where(Session.token_hash == hash_token(token))
            .values(refreshed_at=two_days_ago, expires_at=two_days_ago + timedelta(days=30))
        )


async def test_session_slides_forward_once_a_day(app: FastAPI, anon: httpx.AsyncClient) -> None:
    token = (await _login(anon, CUSTOMER)).json()["sessionToken"]
    r = await anon.get("/api/auth/user")
    assert "set-cookie" not in r.headers  # fresh session: nothing to refresh yet
    await _refreshed_two_days_ago(app, token)
    forget_cached_sessions(app)  # the row was changed behind the app's back (no event)
    r = await anon.get("/api/auth/user")
    assert r.status_code == 200
    assert "max-age=2592000" in r.headers["set-cookie"].lower()
    async with app.state.db.sessionmaker() as s:
        session = (await s.execute(select(Session).where(Session.token_hash == hash_token(token)))).scalar_one()
    assert session.expires_at > utcnow() + timedelta(days=29)


async def test_session_slides_forward_on_the_idea_list_too(app: FastAPI, anon: httpx.AsyncClient) -> None:
    """The market page's list answers with bytes from memory through the fast lane (`core.fastlane`); the renewed
    cookie that the permission dependency sets must still reach the browser."""
    token = (await _login(anon, CUSTOMER)).json()["sessionToken"]
    await _refreshed_two_days_ago(app, token)
    forget_cached_sessions(app)
    r = await anon.get("/api/trade-ideas", params={"market": "forex", "status": "active"})
    assert r.status_code == 200 and isinstance(r.json()["items"], list)
    assert "max-age=2592000" in r.headers["set-cookie"].lower()
    assert r.headers["content-type"] == "application/json"


async def test_expired_session_is_rejected(app: FastAPI, anon: httpx.AsyncClient) -> None:
    token = (await _login(anon, CUSTOMER)).json()["sessionToken"]
    async with app.state.db.sessionmaker() as s, s.begin():
        await s.execute(
            update(Session)
            .where(Session.token_hash == hash_token(token))
            .values(expires_at=utcnow() - timedelta(seconds=1))
        )
    assert (await anon.get("/api/auth/user")).status_code == 401


async def test_five_failures_for_one_account_answer_429_with_retry_after(anon: httpx.AsyncClient) -> None:
    for _ in range(5):
        assert (await _login(anon, CUSTOMER, "bad-password")).status_code == 401
    r = await _login(anon, CUSTOMER)  # even the right password waits out the window
    assert r.status_code == 429
    assert r.json()["code"] == "too_many_requests"
    retry_after = int(r.headers["retry-after"])
    assert 0 < retry_after <= 15 * 60
    # Another account from the same client is not locked by this one's failures.
    assert (await _login(anon, EDUCATOR_A, role="educator")).status_code == 200


async def test_thirty_failures_from_one_client_answer_429(anon: httpx.AsyncClient) -> None:
    for i in range(30):
        r = await _login(anon, f"guess{i}@example.com", "x")
        assert r.status_code == 401
    r = await _login(anon, CUSTOMER)
    assert r.status_code == 429 and "retry-after" in r.headers


async def test_success_clears_earlier_failures(anon: httpx.AsyncClient) -> None:
    for _ in range(4):
        await _login(anon, CUSTOMER, "bad")
    assert (await _login(anon, CUSTOMER)).status_code == 200
    for _ in range(4):
        assert (await _login(anon, CUSTOMER, "bad")).status_code == 401
    assert (await _login(anon, CUSTOMER)).status_code == 200
