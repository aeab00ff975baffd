"""The admin area: portals, members list, invitations, resets, disabling, sign-out and the audit log."""

import asyncio
import uuid
from datetime import datetime, timedelta
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from pydantic import ValidationError
from sqlalchemy import func, select, update

from tests.conftest import ADMIN, CUSTOMER, DEMO_PASSWORD, EDUCATOR_A, make_client
from tests.ideas.test_ideas import create
from tests.realtime.conftest import LiveServer, SSEClient, login_token
from tests.realtime.conftest import live as live  # the fixture
from tests.test_cli import _cli
from tradeideas.admin.models import AccountToken, AuditEntry
from tradeideas.auth.models import User
from tradeideas.db import utcnow
from tradeideas.settings import Settings


def _email(prefix: str = "member") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}@example.com"


async def _login(app: FastAPI, email: str, password: str = DEMO_PASSWORD, role: str = "customer") -> httpx.Response:
    async with make_client(app) as c:
        return await c.post("/api/auth/login", json={"email": email, "password": password, "selectedRole": role})


async def _invite(admin: httpx.AsyncClient, email: str, **names: str) -> dict[str, Any]:
    r = await admin.post("/api/admin/invites", json={"email": email, **names})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def _token(url: str) -> str:
    return url.rsplit("/", 1)[1]


async def _member(app: FastAPI, password: str = "member-pass-1") -> tuple[str, int, httpx.AsyncClient]:
    """A new active customer, logged in (through an invitation, like a real one)."""
    email = _email()
    async with make_client(app) as admin_client:
        await admin_client.post(
            "/api/auth/login", json={"email": ADMIN, "password": DEMO_PASSWORD, "selectedRole": "admin"}
        )
        invite = await _invite(admin_client, email)
    client = make_client(app)
    r = await client.post(f"/api/invites/{_token(invite['inviteUrl'])}/accept", json={"password": password})
    assert r.status_code == 200, r.text
    return email, invite["member"]["id"], client


async def _audit(admin: httpx.AsyncClient) -> list[dict[str, Any]]:
    r = await admin.get("/api/admin/audit-log")
    assert r.status_code == 200
    items: list[dict[str, Any]] = r.json()["items"]
    return items


# ---- portals --------------------------------------------------------------------------------------
async def test_admins_log_in_only_at_the_admin_portal(app: FastAPI) -> None:
    r = await _login(app, ADMIN, role="admin")
    assert r.status_code == 200 and r.json()["user"]["role"] == "admin"
    for role in ("customer", "educator"):
        r = await _login(app, ADMIN, role=role)
        assert r.status_code == 403, r.text
        assert r.json()["message"] == "Administrators sign in at /admin/login."
    for email in (CUSTOMER, EDUCATOR_A):
        r = await _login(app, email, role="admin")
        assert r.status_code == 403
        assert r.json()["message"] == "Access denied: Only administrators can sign in here."


async def test_admin_cannot_use_customer_or_educator_routes(admin: httpx.AsyncClient) -> None:
    assert (await admin.get("/api/auth/user")).json()["role"] == "admin"
    r = await admin.get("/api/trade-ideas", params={"market": "forex"})
    assert r.status_code == 403 and r.json()["code"] == "not_for_admins"


# ---- members list ---------------------------------------------------------------------------------
async def test_members_list_searches_filters_and_pages(admin: httpx.AsyncClient) -> None:
    r = await admin.get("/api/admin/members")
    assert r.status_code == 200
    body = r.json()
    assert body["total"] >= 9 and body["pageSize"] == 25
    item = body["items"][0]
    assert set(item) == {"id", "email", "firstName", "lastName", "role", "state", "createdAt", "lastSeenAt"}

    educators = (await admin.get("/api/admin/members", params={"role": "educator"})).json()
    assert educators["total"] == 7 and {m["role"] for m in educators["items"]} == {"educator"}

    by_name = (await admin.get("/api/admin/members", params={"query": "alex morg"})).json()
    assert [m["email"] for m in by_name["items"]] == [EDUCATOR_A]
    by_mail = (await admin.get("/api/admin/members", params={"query": "CUSTOMER@example"})).json()
    assert CUSTOMER in [m["email"] for m in by_mail["items"]]
    assert (await admin.get("/api/admin/members", params={"query": "%"})).json()["total"] == 0

    email = _email("invited")
    await _invite(admin, email)
    invited = (await admin.get("/api/admin/members", params={"state": "invited"})).json()
    assert email in [m["email"] for m in invited["items"]]
    assert {m["state"] for m in invited["items"]} == {"invited"}
    active = (await admin.get("/api/admin/members", params={"state": "active", "query": email})).json()
    assert active["total"] == 0

    page2 = await admin.get("/api/admin/members", params={"page": 2})
    assert page2.status_code == 200 and page2.json()["page"] == 2
    assert (await admin.get("/api/admin/members", params={"state": "gone"})).status_code == 422


async def test_last_seen_is_set_at_login(app: FastAPI, admin: httpx.AsyncClient) -> None:
    await _login(app, CUSTOMER)
    members = (await admin.get("/api/admin/members", params={"query": CUSTOMER})).json()["items"]
    assert members[0]["lastSeenAt"] is not None


# ---- invitations ----------------------------------------------------------------------------------
async def test_invitation_is_accepted_once_and_logs_the_customer_in(app: FastAPI, admin: httpx.AsyncClient) -> None:
    email = _email("ann")
    invite = await _invite(admin, email, firstName="Ann", lastName="Lee")
    assert invite["inviteUrl"].startswith("http://testserver/invite/")
    assert invite["member"]["state"] == "invited" and invite["member"]["role"] == "customer"
    token = _token(invite["inviteUrl"])
    # Not usable for logging in before it is accepted.
    assert (await _login(app, email, "not-a-real-password")).status_code == 401

    async with make_client(app) as anon:
        info = await anon.get(f"/api/invites/{token}")
        assert info.status_code == 200 and info.json()["email"] == email and info.json()["firstName"] == "Ann"
        weak = await anon.post(f"/api/invites/{token}/accept", json={"password": "short"})
        assert weak.status_code == 422 and "at least 8" in weak.json()["message"]
        r = await anon.post(f"/api/invites/{token}/accept", json={"password": "ann-chosen-1"})
        assert r.status_code == 200, r.text
        assert r.json()["user"]["email"] == email and r.json()["user"]["role"] == "customer"
        assert "session=" in r.headers["set-cookie"]
        assert (await anon.get("/api/auth/user")).json()["email"] == email  # the cookie works
        again = await anon.post(f"/api/invites/{token}/accept", json={"password": "ann-chosen-2"})
        assert again.status_code == 410 and "already used" in again.json()["message"]
        assert (await anon.get(f"/api/invites/{token}")).status_code == 410
        unknown = await anon.post("/api/invites/not-a-token/accept", json={"password": "whatever-1"})
        assert unknown.status_code == 404 and "not valid" in unknown.json()["message"]
    assert (await _login(app, email, "ann-chosen-1")).status_code == 200
    member = (await admin.get("/api/admin/members", params={"query": email})).json()["items"][0]
    assert member["state"] == "active"


async def test_expired_invitation_is_gone(app: FastAPI, admin: httpx.AsyncClient) -> None:
    invite = await _invite(admin, _email())
    token = _token(invite["inviteUrl"])
    async with app.state.db.sessionmaker() as session, session.begin():
        await session.execute(
            update(AccountToken)
            .where(AccountToken.user_id == invite["member"]["id"])
            .values(expires_at=utcnow() - timedelta(seconds=1))
        )
    async with make_client(app) as anon:
        r = await anon.post(f"/api/invites/{token}/accept", json={"password": "too-late-123"})
        assert r.status_code == 410 and r.json()["code"] == "link_gone"


async def test_invitation_lasts_seven_days_and_a_new_one_replaces_it(admin: httpx.AsyncClient, app: FastAPI) -> None:
    email = _email()
    first = await _invite(admin, email)
    second = await _invite(admin, email)  # still invited: a fresh link
    assert first["member"]["id"] == second["member"]["id"]
    async with make_client(app) as anon:
        assert (await anon.get(f"/api/invites/{_token(first['inviteUrl'])}")).status_code == 404
        info = (await anon.get(f"/api/invites/{_token(second['inviteUrl'])}")).json()
    expires = datetime.fromisoformat(info["expiresAt"])
    assert timedelta(days=6, hours=23) < expires - utcnow() <= timedelta(days=7)


async def test_invite_refuses_existing_members_and_bad_emails(admin: httpx.AsyncClient) -> None:
    r = await admin.post("/api/admin/invites", json={"email": CUSTOMER})
    assert r.status_code == 409 and CUSTOMER in r.json()["message"]
    r = await admin.post("/api/admin/invites", json={"email": "not an email"})
    assert r.status_code == 422 and r.json()["message"] == "Enter a valid e-mail address"


async def test_bulk_invite_creates_nothing_when_a_row_is_wrong(app: FastAPI, admin: httpx.AsyncClient) -> None:
    good, other = _email("bulk"), _email("bulk")
    csv = f"email,first name,last name\n{good},Bo,Bulk\nnope,,\n{good},Dup,Licate\n{CUSTOMER},,\n{other}\n"
    async with app.state.db.sessionmaker() as session:
        before = (await session.execute(select(func.count()).select_from(User))).scalar_one()
    r = await admin.post("/api/admin/invites/bulk", json={"csv": csv})
    assert r.status_code == 422, r.text
    rows = {row["line"]: row for row in r.json()["rows"]}
    assert rows[2]["error"] is None
    assert rows[3]["error"] == "Enter a valid e-mail address"
    assert rows[4]["error"] == "Duplicate of line 2"
    assert rows[5]["error"] == "Already a member"
    assert rows[6]["error"] is None and all(row["inviteUrl"] is None for row in rows.values())
    async with app.state.db.sessionmaker() as session:
        after = (await session.execute(select(func.count()).select_from(User))).scalar_one()
    assert after == before

    r = await admin.post("/api/admin/invites/bulk", json={"csv": f"{good},Bo,Bulk\n\n{other},Ola\n"})
    assert r.status_code == 201, r.text
    rows_out = r.json()["rows"]
    assert [row["email"] for row in rows_out] == [good, other]
    assert all(row["inviteUrl"] and row["error"] is None for row in rows_out)
    assert rows_out[1]["firstName"] == "Ola"
    assert (await admin.post("/api/admin/invites/bulk", json={"csv": "\n\n"})).status_code == 422


# ---- disable, enable, sign out, reset ---------------------------------------------------------------
async def test_disable_ends_sessions_keeps_data_and_enable_restores(app: FastAPI, admin: httpx.AsyncClient) -> None:
    email, member_id, client = await _member(app)
    try:
        r = await admin.post(f"/api/admin/members/{member_id}/disable")
        assert r.status_code == 200 and r.json()["state"] == "disabled"
        # The open session learns why, in the member's words (issue #39), on every route.
        gone = await client.get("/api/auth/user")
        assert gone.status_code == 401
        assert gone.json() == {"message": "This account was disabled.", "code": "account_disabled"}
        assert (await client.get("/api/trade-ideas")).json()["code"] == "account_disabled"
        # The right password learns why; a wrong one reads as usual, so a guesser learns nothing (issue #26).
        right = await _login(app, email, "member-pass-1")
        assert right.status_code == 403
        assert right.json() == {
            "message": "This account is disabled. Contact support at support@example.com.",
            "code": "account_disabled",
        }
        wrong = await _login(app, email, "not-the-password-1")
        assert wrong.status_code == 401 and wrong.json()["message"] == "Invalid email or password"
        r = await admin.post(f"/api/admin/members/{member_id}/enable")
        assert r.status_code == 200 and r.json()["state"] == "active"
        # Enabling brings no earlier session back.
        stale = await client.get("/api/auth/user")
        assert stale.status_code == 401 and stale.json()["code"] != "account_disabled"
        assert (await _login(app, email, "member-pass-1")).status_code == 200
    finally:
        await client.aclose()
    me = (await admin.get("/api/auth/user")).json()
    r = await admin.post(f"/api/admin/members/{me['id']}/disable")
    assert r.status_code == 422 and r.json()["message"] == "You cannot disable your own account"
    assert (await admin.post("/api/admin/members/999999/disable")).status_code == 404


async def test_sign_out_everywhere_ends_every_session(app: FastAPI, admin: httpx.AsyncClient) -> None:
    email, member_id, first = await _member(app)
    second = make_client(app)
    try:
        await second.post("/api/auth/login", json={"email": email, "password": "member-pass-1"})
        assert (await second.get("/api/auth/user")).status_code == 200
        assert (await admin.post(f"/api/admin/members/{member_id}/sign-out")).status_code == 200
        assert (await first.get("/api/auth/user")).status_code == 401
        assert (await second.get("/api/auth/user")).status_code == 401
    finally:
        await first.aclose()
        await second.aclose()


async def test_links_start_with_the_public_address_when_one_is_set(
    app: FastAPI, admin: httpx.AsyncClient, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Behind a proxy the request reaches the app at an internal address; people must get the public one.
    monkeypatch.setattr(settings, "public_url", "https://ideas.example.com")
    invite = await _invite(admin, _email("proxied"))
    assert invite["inviteUrl"].startswith("https://ideas.example.com/invite/")
    _, member_id, member = await _member(app)
    await member.aclose()
    reset = (await admin.post(f"/api/admin/members/{member_id}/password-reset")).json()
    assert reset["resetUrl"].startswith("https://ideas.example.com/reset/")


def test_public_url_must_be_a_web_address() -> None:
    assert Settings(public_url="https://ideas.example.com/").public_url == "https://ideas.example.com"
    assert Settings(public_url="").public_url is None
    with pytest.raises(ValidationError, match="PUBLIC_URL must be an http"):
        Settings(public_url="ideas.example.com")


async def test_password_reset_link_sets_password_once_and_ends_other_sessions(
    app: FastAPI, admin: httpx.AsyncClient
) -> None:
    email, member_id, old_session = await _member(app)
    try:
        r = await admin.post(f"/api/admin/members/{member_id}/password-reset")
        assert r.status_code == 201, r.text
        reset = r.json()
        assert "/reset/" in reset["resetUrl"]
        token = _token(reset["resetUrl"])
        async with make_client(app) as browser:
            assert (await browser.get(f"/api/password-resets/{token}")).json()["email"] == email
            r = await browser.post(f"/api/password-resets/{token}", json={"password": "brand-new-pass-1"})
            assert r.status_code == 200 and r.json()["user"]["email"] == email
            assert (await browser.get("/api/auth/user")).status_code == 200  # this browser is logged in
            again = await browser.post(f"/api/password-resets/{token}", json={"password": "another-pass-1"})
            assert again.status_code == 410
        assert (await old_session.get("/api/auth/user")).status_code == 401
        assert (await _login(app, email, "member-pass-1")).status_code == 401
        assert (await _login(app, email, "brand-new-pass-1")).status_code == 200
    finally:
        await old_session.aclose()


async def test_disabling_revokes_an_outstanding_reset_link_for_good(app: FastAPI, admin: httpx.AsyncClient) -> None:
    """A reset link issued before "Disable" must not work again after "Enable": the admin disabled the member
    because someone else might hold their access, and that includes a link sent out earlier."""
    email, member_id, session = await _member(app)
    await session.aclose()
    reset = (await admin.post(f"/api/admin/members/{member_id}/password-reset")).json()
    token = _token(reset["resetUrl"])
    assert (await admin.post(f"/api/admin/members/{member_id}/disable")).json()["state"] == "disabled"
    async with make_client(app) as browser:
        # While disabled, the link says so, as the login does, not that it expired.
        info = await browser.get(f"/api/password-resets/{token}")
        assert info.status_code == 410
        assert info.json() == {
            "message": "This account is disabled. Contact support at support@example.com.",
            "code": "account_disabled",
        }
    assert (await admin.post(f"/api/admin/members/{member_id}/enable")).json()["state"] == "active"
    async with make_client(app) as browser:
        info = await browser.get(f"/api/password-resets/{token}")
        assert info.status_code == 410 and info.json() == {
            "message": "This password reset link has expired or was already used. Ask for a new one.",
            "code": "link_gone",
        }
        r = await browser.post(f"/api/password-resets/{token}", json={"password": "taken-over-pass-1"})
        assert r.status_code == 410 and r.json()["code"] == "link_gone"
    assert (await _login(app, email, "taken-over-pass-1")).status_code == 401
    assert (await _login(app, email, "member-pass-1")).status_code == 200
    # A link issued after enabling works as usual.
    fresh = _token((await admin.post(f"/api/admin/members/{member_id}/password-reset")).json()["resetUrl"])
    async with make_client(app) as browser:
        assert (await browser.get(f"/api/password-resets/{fresh}")).status_code == 200


async def test_the_cli_disable_revokes_outstanding_links_too(
    app: FastAPI, admin: httpx.AsyncClient, settings: Settings
) -> None:
    email, member_id, session = await _member(app)
    await session.aclose()
    token = _token((await admin.post(f"/api/admin/members/{member_id}/password-reset")).json()["resetUrl"])
    assert (await _cli(settings, "disable-user", "--email", email)).returncode == 0
    assert (await admin.post(f"/api/admin/members/{member_id}/enable")).json()["state"] == "active"
    async with make_client(app) as browser:
        assert (await browser.get(f"/api/password-resets/{token}")).status_code == 410


async def test_disabling_an_invited_member_revokes_the_invitation(app: FastAPI, admin: httpx.AsyncClient) -> None:
    invite = await _invite(admin, _email())
    member_id, token = invite["member"]["id"], _token(invite["inviteUrl"])
    await admin.post(f"/api/admin/members/{member_id}/disable")
    assert (await admin.post(f"/api/admin/members/{member_id}/enable")).json()["state"] == "invited"
    async with make_client(app) as anon:
        r = await anon.post(f"/api/invites/{token}/accept", json={"password": "late-accept-1"})
        assert r.status_code == 410 and r.json()["code"] == "link_gone"
    again = await _invite(admin, invite["member"]["email"])  # the admin can send a new one
    async with make_client(app) as anon:
        assert (await anon.get(f"/api/invites/{_token(again['inviteUrl'])}")).status_code == 200


async def test_admin_can_reset_and_disable_an_educator_but_not_invite_one(
    app: FastAPI, admin: httpx.AsyncClient
) -> None:
    educator = (await admin.get("/api/admin/members", params={"query": "educator7@"})).json()["items"][0]
    assert (await admin.post(f"/api/admin/members/{educator['id']}/password-reset")).status_code == 201
    assert (await admin.post(f"/api/admin/members/{educator['id']}/disable")).json()["state"] == "disabled"
    assert (await _login(app, "educator7@example.com", role="educator")).status_code == 403
    assert (await admin.post(f"/api/admin/members/{educator['id']}/enable")).json()["state"] == "active"
    assert (await _login(app, "educator7@example.com", role="educator")).status_code == 200
    # The invite body has no role: whatever is sent, the member is a customer.
    invite = await admin.post("/api/admin/invites", json={"email": _email(), "role": "educator"})
    assert invite.json()["member"]["role"] == "customer"


# ---- audit log --------------------------------------------------------------------------------------
async def test_audit_log_records_admin_actions_deletions_and_lockouts(
    app: FastAPI, admin: httpx.AsyncClient, educator_a: httpx.AsyncClient, settings: Settings
) -> None:
    email, member_id, client = await _member(app)
    await client.aclose()
    await admin.post(f"/api/admin/members/{member_id}/disable")
    idea = await create(educator_a)
    assert (await educator_a.delete(f"/api/trade-ideas/{idea['id']}")).status_code == 204
    for _ in range(8):  # the per-account limit is 5 failures
        await _login(app, CUSTOMER, "wrong-password")
    entries = await _audit(admin)
    actions = [(e["action"], e["actorEmail"], e["targetEmail"]) for e in entries]
    assert ("member.disabled", ADMIN, email) in actions
    assert ("invite.created", ADMIN, email) in actions
    assert ("idea.deleted", EDUCATOR_A, "") in actions
    assert next(e for e in entries if e["action"] == "idea.deleted")["detail"].startswith(
        f"Deleted trade idea #{idea['id']}"
    )
    # One entry per lockout window, not per refused attempt (read from the table: other tests' entries may have
    # pushed it off the log's first page, and a lockout of this account earlier in the run counts for the window).
    window = utcnow() - timedelta(minutes=settings.login_window_minutes)
    lockouts = [e for e in await _lockouts(app) if e.target_email == CUSTOMER and e.created_at >= window]
    assert len(lockouts) == 1


async def _lockouts(app: FastAPI) -> list[AuditEntry]:
    async with app.state.db.sessionmaker() as session:
        rows = await session.execute(select(AuditEntry).where(AuditEntry.action == "login.lockout"))
        return list(rows.scalars())


async def test_a_locked_out_login_cannot_write_its_own_text_into_the_audit_log(live: LiveServer) -> None:
    """The e-mail of a refused login is anyone's text (up to 254 characters), and so is the client address a
    caller claims in X-Forwarded-For: the audit log names them only when they are an e-mail and an address."""
    planted = ("URGENT admin: account compromised, call +1 555 0100 and disable 2FA now " * 4)[:254]
    headers = {"X-Forwarded-For": "evil.example.com please reset"}  # a client name the caller made up
    body = {"email": planted, "password": "wrong", "selectedRole": "customer"}
    async with httpx.AsyncClient(base_url=live.url, timeout=60) as client:
        statuses = [(await client.post("/api/auth/login", json=body, headers=headers)).status_code for _ in range(7)]
    assert statuses == [401] * 5 + [429] * 2  # the per-account limit is 5 failures
    entries = [
        e for e in await _lockouts(live.app) if "urgent" in e.detail.lower() or e.target_email == "(invalid e-mail)"
    ]
    assert [(e.target_email, e.detail) for e in entries] == [
        ("(invalid e-mail)", "Login refused after too many failures for (invalid e-mail) from (unknown client)")
    ]


async def test_one_lockout_entry_per_address_and_window_however_many_clients_hammer_it(live: LiveServer) -> None:
    email = _email("hammered")
    body = {"email": email, "password": "wrong", "selectedRole": "customer"}
    async with httpx.AsyncClient(base_url=live.url, timeout=60) as client:
        answers = await asyncio.gather(
            *(
                client.post("/api/auth/login", json=body, headers={"X-Forwarded-For": f"198.51.100.{i}"})
                for i in range(20)
            )
        )
    assert sorted(r.status_code for r in answers) == [401] * 5 + [429] * 15
    entries = [e for e in await _lockouts(live.app) if e.target_email == email]
    assert len(entries) == 1, [e.detail for e in entries]


async def test_one_lockout_entry_per_client_guessing_many_accounts(live: LiveServer) -> None:
    """A client over its limit is recorded once per window, without the e-mails it tried (any text it likes)."""
    async with httpx.AsyncClient(base_url=live.url, timeout=60) as client:
        for i in range(36):  # the per-client limit is 30 failures
            body = {"email": _email(f"guess{i}"), "password": "wrong", "selectedRole": "customer"}
            await client.post("/api/auth/login", json=body, headers={"X-Forwarded-For": "192.0.2.7"})
    entries = [e for e in await _lockouts(live.app) if "192.0.2.7" in e.detail]
    assert [(e.target_email, e.detail) for e in entries] == [
        ("", "Login refused after too many failures from 192.0.2.7")
    ]


async def test_audit_log_is_append_only(admin: httpx.AsyncClient) -> None:
    for method in ("PUT", "PATCH", "DELETE"):
        assert (await admin.request(method, "/api/admin/audit-log")).status_code == 405


# ---- live streams -----------------------------------------------------------------------------------
async def test_disabling_a_member_closes_their_open_event_stream(live: LiveServer) -> None:
    email, member_id, client = await _member(live.app)
    await client.aclose()
    async with httpx.AsyncClient(base_url=live.url) as c:
        r = await c.post("/api/auth/login", json={"email": email, "password": "member-pass-1"})
        token = r.json()["sessionToken"]
    stream = await SSEClient(live.url, token).__aenter__()
    try:
        admin_token = await login_token(live.url, ADMIN, "admin")
        async with httpx.AsyncClient(base_url=live.url, headers={"Authorization": f"Bearer {admin_token}"}) as a:
            assert (await a.post(f"/api/admin/members/{member_id}/disable")).status_code == 200
        assert await stream.ended(wait=2)
    finally:
        await stream.__aexit__()
