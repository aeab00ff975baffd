"""The daily billing sync against the local Stripe: a change whose webhook never came is repaired, an unchanged
subscription counts no drift, every page of the list is read, and a failing Stripe leaves the grants as they were
until the next run; the leading process runs it once a grant was last read a day ago."""

import asyncio
import json
import uuid
from datetime import timedelta

import httpx
import pytest
from fastapi import FastAPI
from prometheus_client import REGISTRY
from sqlalchemy import select, update

from tests.billing.fakestripe import FakeStripe
from tests.billing.test_stripe import new_plan, paid_app, send, stripe_server  # noqa: F401 - fixtures
from tests.conftest import customer_client, login_client
from tests.ideas.test_ideas import create
from tests.test_cli import _cli
from tradeideas import housekeeping
from tradeideas.admin.models import AuditEntry
from tradeideas.billing.gateway import Gateway, PaymentsUnavailable
from tradeideas.billing.models import AccessGrant
from tradeideas.billing.sync import SYNC_ACTION, sync
from tradeideas.core.deps import component_of
from tradeideas.core.leader import Leader
from tradeideas.db import Database, utcnow
from tradeideas.settings import Settings

ACTIVE_FOREX = "/api/trade-ideas?market=forex&status=active&limit=100"


def drift() -> float:
    return REGISTRY.get_sample_value("billing_drift_total") or 0.0


def gateway_of(app: FastAPI) -> Gateway:
    return Gateway(app.state.settings)


async def subscriber(app: FastAPI, fake: FakeStripe, educator_id: int) -> tuple[httpx.AsyncClient, int, str]:
    """A new customer who bought a plan for the educator (the checkout's webhook delivered): client, plan, sub id."""
    admin = await login_client(app, "admin@example.com", "admin")
    plan = await new_plan(admin, educator_id)
    await admin.aclose()
    member = await customer_client(app, f"sync-{uuid.uuid4().hex[:8]}@example.com", "Sync", "Member", access=False)
    r = await member.post("/api/billing/checkout", json={"planId": plan["id"]})
    assert r.status_code == 200, r.text
    session_id = r.json()["url"].rsplit("/", 1)[1]
    subscription = fake.pay(session_id)
    completed = await send(app, fake.event("checkout.session.completed", fake.objects[session_id]))
    assert completed.json()["handled"] is True
    return member, int(str(plan["id"])), str(subscription["id"])


async def status_of(member: httpx.AsyncClient, plan_id: int) -> str:
    grants = (await member.get("/api/me/billing")).json()["grants"]
    return str(next(g["status"] for g in grants if g["planId"] == plan_id))


async def test_a_change_whose_webhook_never_came_is_repaired_and_an_unchanged_one_counts_no_drift(
    paid_app: FastAPI,  # noqa: F811
    stripe_server: FakeStripe,  # noqa: F811
) -> None:
    educator = await login_client(paid_app, "educator5@example.com", "educator")
    idea = await create(educator, pair="AUD/CAD")
    changed, changed_plan, changed_sub = await subscriber(paid_app, stripe_server, 5)
    steady, steady_plan, _ = await subscriber(paid_app, stripe_server, 5)
    assert idea["id"] in {i["id"] for i in (await changed.get(ACTIVE_FOREX)).json()["items"]}
    # Canceled in Stripe, and the webhook is lost: the member still has access until the sync.
    stripe_server.set_subscription(changed_sub, status="canceled")
    before = drift()
    report = await sync(paid_app.state.db, gateway_of(paid_app))
    assert report.corrected == 1 and report.checked >= 2
    assert drift() == before + 1
    assert await status_of(changed, changed_plan) == "canceled"
    assert idea["id"] not in {i["id"] for i in (await changed.get(ACTIVE_FOREX)).json()["items"]}
    assert await status_of(steady, steady_plan) == "active"
    assert idea["id"] in {i["id"] for i in (await steady.get(ACTIVE_FOREX)).json()["items"]}
    # Nothing differs now: no correction, no drift; a canceled subscription is final and not compared again.
    again = await sync(paid_app.state.db, gateway_of(paid_app))
    assert again.corrected == 0 and again.checked == report.checked - 1
    assert drift() == before + 1
    for client in (educator, changed, steady):
        await client.aclose()


async def test_every_page_of_the_list_is_read(
    paid_app: FastAPI,  # noqa: F811
    stripe_server: FakeStripe,  # noqa: F811
) -> None:
    member, plan_id, sub_id = await subscriber(paid_app, stripe_server, 6)
    # 150 newer subscriptions of others: ours is on the second page of 100 (newest first).
    for _ in range(150):
        stripe_server.subscribe("price_other")
    stripe_server.set_subscription(sub_id, status="past_due")
    stripe_server.requests.clear()
    report = await sync(paid_app.state.db, gateway_of(paid_app))
    assert report.corrected >= 1 and sub_id not in report.missing
    assert await status_of(member, plan_id) == "past_due"
    pages = [form for method, path, form, _ in stripe_server.requests if (method, path) == ("GET", "/v1/subscriptions")]
    assert len(pages) >= 2 and "starting_after" not in pages[0]
    assert all(page["status"] == "all" and page["limit"] == "100" for page in pages)
    newest_first = [o["id"] for o in reversed(stripe_server.objects.values()) if o.get("object") == "subscription"]
    assert pages[1]["starting_after"] == newest_first[99]
    await member.aclose()


async def test_stripe_failing_part_way_leaves_the_grants_as_they_were_until_the_next_run(
    paid_app: FastAPI,  # noqa: F811
    stripe_server: FakeStripe,  # noqa: F811
) -> None:
    member, plan_id, sub_id = await subscriber(paid_app, stripe_server, 7)
    for _ in range(120):
        stripe_server.subscribe("price_other")
    stripe_server.set_subscription(sub_id, status="past_due")
    before = drift()
    limited = json.dumps({"error": {"type": "rate_limit_error", "message": "Too many requests"}}).encode()
    Answer = tuple[int, dict[str, str], bytes]
    server_error: Answer = (500, {}, b'{"error": {"type": "api_error"}}')
    unfit: Answer = (200, {}, b'{"object": "list", "data": [{"id": "sub_1", "status": "frozen"}]}')
    failures: list[list[Answer]] = [
        [(429, {"retry-after": "30"}, limited)],  # rate limited on the first page
        [server_error] * 3,  # the SDK's retries spent
        [unfit],  # an answer that does not fit
    ]
    for failure in failures:
        stripe_server.script.extend(failure)
        with pytest.raises(PaymentsUnavailable):
            await sync(paid_app.state.db, gateway_of(paid_app))
        assert await status_of(member, plan_id) == "active"
        assert drift() == before
    # Part way: the first page read, the second refused: still nothing written.
    stripe_server.script.extend([None, server_error, server_error, server_error])
    with pytest.raises(PaymentsUnavailable):
        await sync(paid_app.state.db, gateway_of(paid_app))
    assert not stripe_server.script  # the second page was asked for, three times
    assert await status_of(member, plan_id) == "active" and drift() == before
    # The next run, with Stripe answering, repairs it.
    report = await sync(paid_app.state.db, gateway_of(paid_app))
    assert report.corrected >= 1 and await status_of(member, plan_id) == "past_due"
    assert drift() >= before + 1
    await member.aclose()


async def test_the_leading_process_syncs_once_a_grant_was_last_read_a_day_ago(
    app: FastAPI,
    paid_app: FastAPI,  # noqa: F811
    stripe_server: FakeStripe,  # noqa: F811
) -> None:
    member, plan_id, sub_id = await subscriber(paid_app, stripe_server, 4)
    stripe_server.set_subscription(sub_id, cancel_at_period_end=True)
    often = paid_app.state.settings.model_copy(update={"housekeeping_interval_seconds": 0.05})
    leader = component_of(app, Leader)  # the campaign of the background work beside the tests' app
    for _ in range(250):
        if leader.is_leader:
            break
        await asyncio.sleep(0.02)
    scheduled = housekeeping.Housekeeping(paid_app.state.db, often, leader)
    await scheduled.start()
    try:
        # Read from Stripe just now: not due, so the lost change waits.
        await asyncio.sleep(0.3)
        grants = (await member.get("/api/me/billing")).json()["grants"]
        assert next(g for g in grants if g["planId"] == plan_id)["cancelAtPeriodEnd"] is False
        # A day later it is due, and the leader repairs it.
        async with paid_app.state.db.sessionmaker() as s, s.begin():
            await s.execute(
                update(AccessGrant)
                .where(AccessGrant.stripe_subscription_id == sub_id)
                .values(synced_at=utcnow() - timedelta(days=1, minutes=1))
            )
        for _ in range(100):
            async with paid_app.state.db.sessionmaker() as s:
                grant = (
                    await s.execute(select(AccessGrant).where(AccessGrant.stripe_subscription_id == sub_id))
                ).scalar_one()
            if grant.cancel_at_period_end:
                break
            await asyncio.sleep(0.05)
        assert grant.cancel_at_period_end
    finally:
        await scheduled.stop()
    await member.aclose()


async def test_tradeideas_billing_sync_repairs_on_demand(
    settings: Settings,
    paid_app: FastAPI,  # noqa: F811
    stripe_server: FakeStripe,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    off = await _cli(settings, "billing", "sync")
    assert off.returncode == 1 and "Payments are not set up yet" in off.stderr
    member, plan_id, sub_id = await subscriber(paid_app, stripe_server, 3)
    stripe_server.set_subscription(sub_id, status="unpaid")
    monkeypatch.setenv("STRIPE_SECRET_KEY", "sk_test_x")
    monkeypatch.setenv("STRIPE_API_URL", stripe_server.url)
    stripe_server.script.extend([(503, {}, b'{"error": {"type": "api_error"}}')] * 3)  # the SDK retries twice
    down = await _cli(settings, "billing", "sync")
    assert down.returncode == 1 and "Payments are unavailable right now" in down.stderr
    assert await status_of(member, plan_id) == "active"
    done = await _cli(settings, "billing", "sync")
    assert done.returncode == 0, done.stderr
    assert "corrected 1." in done.stdout
    assert await status_of(member, plan_id) == "unpaid"
    # The command's session runs the server's subscribers: its correction is in the audit log like a webhook's.
    async with component_of(paid_app, Database).sessionmaker() as db:
        audited = (await db.execute(select(AuditEntry.detail).where(AuditEntry.action == SYNC_ACTION))).scalars().all()
    assert f"Subscription {sub_id} is unpaid" in audited
    await member.aclose()
