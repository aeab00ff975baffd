"""What paid access opens, over the routes and the push queue: a member sees only the open ideas of the educators
their grants cover; completed ideas, records and profiles stay open; an admin's grant opens at once."""

import uuid
from typing import Any

import httpx
from fastapi import FastAPI
from sqlalchemy import func, select

from tests.conftest import customer_client, login_client
from tests.ideas.test_ideas import create
from tradeideas.auth.models import User
from tradeideas.push.models import PushDelivery, PushSubscription

MEMBER = "member@example.com"  # the demo member: Alex Morgan's plan (educator 1) only
ACTIVE_FOREX = "/api/trade-ideas?market=forex&status=active&limit=100"


async def nobody(app: FastAPI) -> httpx.AsyncClient:
    """A new customer with no grant at all."""
    return await customer_client(app, f"nogrant-{uuid.uuid4().hex[:8]}@example.com", "No", "Grant", access=False)


def educators_listed(page: dict[str, Any], open_only: bool = True) -> set[int]:
    return {i["educatorId"] for i in page["items"] if not open_only or i["status"] == "active"}


async def test_a_member_sees_the_open_ideas_of_their_plans_educators_only(
    app: FastAPI, educator_a: httpx.AsyncClient, educator_b: httpx.AsyncClient, customer: httpx.AsyncClient
) -> None:
    mine = await create(educator_a, pair="EUR/GBP")
    other = await create(educator_b, pair="USD/CHF")
    member = await login_client(app, MEMBER)
    page = (await member.get(ACTIVE_FOREX)).json()
    ids = {i["id"] for i in page["items"]}
    assert mine["id"] in ids and other["id"] not in ids
    assert educators_listed(page) == {1}
    assert page["lockedEducators"] >= 1
    # The demo customer holds complimentary access to everyone: both ideas, nothing locked.
    everything = (await customer.get(ACTIVE_FOREX)).json()
    assert {mine["id"], other["id"]} <= {i["id"] for i in everything["items"]}
    assert everything["lockedEducators"] == 0
    # The idea page, its revisions and candles of an open idea follow the same rule.
    assert (await member.get(f"/api/trade-ideas/{mine['id']}")).status_code == 200
    for path in ("", "/revisions", "/candles"):
        r = await member.get(f"/api/trade-ideas/{other['id']}{path}")
        assert r.status_code == 403, (path, r.text)
        assert r.json()["code"] == "no_access"
    # Educators always see everything (their own, and as before the others').
    assert other["id"] in {i["id"] for i in (await educator_a.get(ACTIVE_FOREX)).json()["items"]}
    await member.aclose()


async def test_completed_ideas_stay_open_to_every_member(app: FastAPI, educator_b: httpx.AsyncClient) -> None:
    idea = await create(educator_b, pair="NZD/USD")
    r = await educator_b.put(f"/api/trade-ideas/{idea['id']}", json={"status": "successful", "outcome": "exit1"})
    assert r.status_code == 200, r.text
    client = await nobody(app)
    assert (await client.get(f"/api/trade-ideas/{idea['id']}")).status_code == 200
    history = (await client.get("/api/trade-ideas?market=forex&status=completed&limit=100")).json()
    assert idea["id"] in {i["id"] for i in history["items"]}
    assert (await client.get("/api/educators/track-records")).status_code == 200
    assert (await client.get("/api/plans")).status_code == 200
    await client.aclose()


async def test_without_a_grant_nothing_open_shows_and_the_rooms_stay_closed(
    app: FastAPI, educator_a: httpx.AsyncClient
) -> None:
    await create(educator_a, pair="EUR/CHF")
    client = await nobody(app)
    page = (await client.get(ACTIVE_FOREX)).json()
    assert [i for i in page["items"] if i["status"] == "active"] == []
    assert page["lockedEducators"] >= 1
    counts = (await client.get("/api/me/unseen-counts")).json()
    assert counts == {"forex": 0, "crypto": 0, "total": 0}
    rooms = (await client.get("/api/chat/rooms")).json()
    r = await client.get(f"/api/chat/rooms/{rooms[0]['id']}/messages")
    assert r.status_code == 403 and r.json()["code"] == "no_access"
    await client.aclose()


async def test_an_admins_grant_opens_at_once_and_a_revocation_closes_at_once(
    app: FastAPI, admin: httpx.AsyncClient, educator_b: httpx.AsyncClient
) -> None:
    idea = await create(educator_b, pair="GBP/CHF")
    email = f"granted-{uuid.uuid4().hex[:8]}@example.com"
    client = await customer_client(app, email, "Gra", "Nted", access=False)
    assert idea["id"] not in {i["id"] for i in (await client.get(ACTIVE_FOREX)).json()["items"]}  # cached now
    r = await admin.post("/api/admin/grants", json={"email": email, "educatorId": 2})
    assert r.status_code == 201, r.text
    grant = r.json()
    assert grant["isOpen"] and grant["kind"] == "complimentary" and grant["educatorId"] == 2
    assert idea["id"] in {i["id"] for i in (await client.get(ACTIVE_FOREX)).json()["items"]}
    mine = (await client.get("/api/me/billing")).json()
    assert [g["id"] for g in mine["grants"]] == [grant["id"]] and mine["paymentsEnabled"] is False
    r = await admin.delete(f"/api/admin/grants/{grant['id']}")
    assert r.status_code == 200 and r.json()["isOpen"] is False
    assert idea["id"] not in {i["id"] for i in (await client.get(ACTIVE_FOREX)).json()["items"]}
    audit = (await admin.get("/api/admin/audit-log")).json()["items"]
    actions = [(a["action"], a["targetEmail"]) for a in audit[:5]]
    assert ("grant.created", email) in actions and ("grant.revoked", email) in actions
    await client.aclose()


async def test_grants_refuse_bad_input_and_store_nothing(app: FastAPI, admin: httpx.AsyncClient) -> None:
    cases = [
        ({"email": "nobody-here@example.com"}, 404),
        ({"email": "educator1@example.com"}, 422),  # customers only
        ({"email": "customer@example.com", "educatorId": 999}, 422),
        ({"email": "customer@example.com", "endsAt": "2001-01-01T00:00:00Z"}, 422),
        ({"email": "not an e-mail"}, 422),
    ]
    async with app.state.db.sessionmaker() as s:
        before = (await s.execute(select(func.count()).select_from(User))).scalar_one()
    for body, status in cases:
        r = await admin.post("/api/admin/grants", json=body)
        assert r.status_code == status, (body, r.text)
        assert set(r.json()) >= {"message", "code"}
    assert (await admin.delete("/api/admin/grants/999999")).status_code == 404
    async with app.state.db.sessionmaker() as s:
        assert (await s.execute(select(func.count()).select_from(User))).scalar_one() == before


async def test_pushes_reach_only_members_whose_plans_open_the_educator(
    app: FastAPI, educator_b: httpx.AsyncClient
) -> None:
    endpoint = "https://fcm.googleapis.com/fcm/send/"
    subscribed: dict[str, int] = {}
    for name, access in (("with", True), ("without", False)):
        client = await customer_client(app, f"push-{name}-{uuid.uuid4().hex[:8]}@example.com", "P", name, access=access)
        body = {"endpoint": endpoint + uuid.uuid4().hex, "keys": {"p256dh": P256DH, "auth": "tBHItJI5svbpez7KI4CCXg"}}
        r = await client.post("/api/push/subscriptions", json=body)
        assert r.status_code == 201, r.text
        async with app.state.db.sessionmaker() as s:
            subscribed[name] = (
                await s.execute(select(PushSubscription.id).where(PushSubscription.endpoint == body["endpoint"]))
            ).scalar_one()
        await client.aclose()
    idea = await create(educator_b, pair="AUD/NZD")
    async with app.state.db.sessionmaker() as s:
        queued = set(
            (await s.execute(select(PushDelivery.subscription_id).where(PushDelivery.idea_id == idea["id"]))).scalars()
        )
    assert subscribed["with"] in queued and subscribed["without"] not in queued


# A valid P-256 public key (uncompressed point, base64url), as browsers send.
P256DH = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"
