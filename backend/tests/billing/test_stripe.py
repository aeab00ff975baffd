"""Paid access against a local server that answers like Stripe's API: plans backed by Products and Prices,
checkout, signed webhooks (duplicated, reordered, forged, stale), failures and hostile answers."""

import json
import time
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
from asgi_lifespan import LifespanManager
from fastapi import FastAPI

from tests.billing.fakestripe import DAY, FakeStripe, sign
from tests.conftest import DEMO_PASSWORD, login_client
from tradeideas.app import create_app
from tradeideas.settings import Settings

SECRET = "whsec_test_secret"
MEMBER = "member@example.com"  # holds Alex Morgan's plan only (educator 1)
ACTIVE_FOREX = "/api/trade-ideas?market=forex&status=active&limit=100"


@pytest.fixture(scope="module")
def stripe_server() -> Iterator[FakeStripe]:
    fake = FakeStripe()
    yield fake
    fake.close()


@pytest.fixture
async def paid_app(settings: Settings, app: FastAPI, stripe_server: FakeStripe) -> AsyncIterator[FastAPI]:
    """The tests' database served by an app with billing configured (against the local Stripe)."""
    configured = settings.model_copy(
        update={"stripe_secret_key": "sk_test_x", "stripe_webhook_secret": SECRET, "stripe_api_url": stripe_server.url}
    )
    billing_app = create_app(configured)
    async with LifespanManager(billing_app):
        yield billing_app


async def send(
    app: FastAPI, event: dict[str, object], *, secret: str = SECRET, at: int | None = None
) -> httpx.Response:
    payload = json.dumps(event).encode()
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as client:
        return await client.post(
            "/api/billing/webhook", content=payload, headers={"stripe-signature": sign(payload, secret, at)}
        )


async def new_plan(admin: httpx.AsyncClient, educator_id: int, trial: int = 0) -> dict[str, object]:
    body = {"name": f"Plan {educator_id} {time.time_ns()}", "scope": "educator", "educatorId": educator_id,
            "unitAmount": 2500, "currency": "usd", "interval": "month", "trialDays": trial}  # fmt: skip
    r = await admin.post("/api/admin/plans", json=body)
    assert r.status_code == 201, r.text
    plan: dict[str, object] = r.json()
    return plan


async def test_a_plan_is_backed_by_a_product_and_a_price_made_once(
    paid_app: FastAPI, stripe_server: FakeStripe
) -> None:
    admin = await login_client(paid_app, "admin@example.com", "admin")
    plan = await new_plan(admin, 3)
    assert str(plan["stripePriceId"]).startswith("price_")
    posts = [(path, key) for method, path, _, key in stripe_server.requests if method == "POST"]
    assert ("/v1/products", f"plan-{plan['id']}-product") in posts
    r = await admin.patch(f"/api/admin/plans/{plan['id']}", json={"unitAmount": 3500})
    assert r.status_code == 200 and r.json()["stripePriceId"] not in (None, plan["stripePriceId"])
    await admin.aclose()


async def test_checkout_then_webhooks_in_any_order_and_twice_converge_to_stripes_state(
    paid_app: FastAPI, stripe_server: FakeStripe
) -> None:
    admin = await login_client(paid_app, "admin@example.com", "admin")
    educator = await login_client(paid_app, "educator7@example.com", "educator")
    plan = await new_plan(admin, 7, trial=7)
    idea = await educator.post("/api/trade-ideas", json={"marketType": "Forex", "orderType": "BUY",
        "ideaType": "Leverage", "pair": "EUR/SEK", "timeFrame": "4H", "entry1": "11.10",
        "invalidationLevel": "11.00", "exit1": "11.30"})  # fmt: skip
    assert idea.status_code == 201, idea.text
    member = await login_client(paid_app, MEMBER)
    assert idea.json()["id"] not in {i["id"] for i in (await member.get(ACTIVE_FOREX)).json()["items"]}
    r = await member.post("/api/billing/checkout", json={"planId": plan["id"]})
    assert r.status_code == 200, r.text
    session_id = r.json()["url"].rsplit("/", 1)[1]
    form = stripe_server.objects[session_id]["_form"]
    assert form["mode"] == "subscription" and form["allow_promotion_codes"] == "true"
    assert form["subscription_data[trial_period_days]"] == "7"
    assert form["success_url"].endswith("/billing/done?session_id={CHECKOUT_SESSION_ID}")
    subscription = stripe_server.pay(session_id)
    # The subscription's "updated" arrives before the checkout's completion: nothing to attach yet.
    early = await send(paid_app, stripe_server.event("customer.subscription.updated", subscription))
    assert early.status_code == 200 and early.json()["handled"] is False
    completed = stripe_server.event("checkout.session.completed", stripe_server.objects[session_id])
    assert (await send(paid_app, completed)).json()["handled"] is True
    assert (await send(paid_app, completed)).json()["handled"] is False  # the same event id: once
    assert idea.json()["id"] in {i["id"] for i in (await member.get(ACTIVE_FOREX)).json()["items"]}
    mine = [g for g in (await member.get("/api/me/billing")).json()["grants"] if g["planId"] == plan["id"]]
    assert mine[0]["status"] == "trialing" and mine[0]["isOpen"]
    # A payment fails: past_due from the renewal, open through the grace period.
    now = int(time.time())
    stripe_server.set_subscription(subscription["id"], status="past_due", current_period_start=now - 3 * DAY)
    await send(paid_app, stripe_server.event("invoice.payment_failed", {"subscription": subscription["id"]}))
    mine = [g for g in (await member.get("/api/me/billing")).json()["grants"] if g["planId"] == plan["id"]]
    assert mine[0]["status"] == "past_due" and mine[0]["isOpen"] and mine[0]["graceEndsAt"]
    # A stale "trialing" event arrives late: the state is read from Stripe, so it stays past_due.
    stale = stripe_server.event("customer.subscription.updated", {**subscription, "status": "trialing"})
    await send(paid_app, stale)
    mine = [g for g in (await member.get("/api/me/billing")).json()["grants"] if g["planId"] == plan["id"]]
    assert mine[0]["status"] == "past_due"
    # Canceled in Stripe: the ideas leave.
    stripe_server.set_subscription(subscription["id"], status="canceled")
    await send(paid_app, stripe_server.event("customer.subscription.deleted", {"id": subscription["id"]}))
    assert idea.json()["id"] not in {i["id"] for i in (await member.get(ACTIVE_FOREX)).json()["items"]}
    for client in (admin, educator, member):
        await client.aclose()


async def test_forged_stale_and_foreign_webhooks_change_nothing(paid_app: FastAPI, stripe_server: FakeStripe) -> None:
    event = stripe_server.event("customer.subscription.updated", {"id": "sub_never_sold"})
    assert (await send(paid_app, event, secret="whsec_wrong")).status_code == 400
    assert (await send(paid_app, event, at=int(time.time()) - 301)).status_code == 400
    bad = await send(paid_app, event)  # signed, but a subscription no checkout of ours sold
    assert bad.status_code == 200 and bad.json()["handled"] is False
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=paid_app), base_url="http://t") as client:
        r = await client.post("/api/billing/webhook", content=b"{}")
        assert r.status_code == 400 and r.json()["code"] == "bad_signature"


async def test_an_inactive_plan_is_not_sold(paid_app: FastAPI) -> None:
    admin = await login_client(paid_app, "admin@example.com", "admin")
    plan = await new_plan(admin, 5)
    await admin.patch(f"/api/admin/plans/{plan['id']}", json={"active": False})
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=paid_app), base_url="http://t") as client:
        r = await client.post("/api/billing/checkout", json={"planId": plan["id"]})
    assert r.status_code == 422 and r.json()["code"] == "plan_inactive"
    await admin.aclose()


async def test_rate_limits_are_retried_and_5xx_and_hostile_answers_are_refused_clearly(
    paid_app: FastAPI, stripe_server: FakeStripe
) -> None:
    admin = await login_client(paid_app, "admin@example.com", "admin")
    plan = await new_plan(admin, 6)
    limited = json.dumps({"error": {"type": "rate_limit_error", "message": "Too many requests"}}).encode()
    # A 429 Stripe says to retry (as it does for lock timeouts) is retried by the SDK after its Retry-After ...
    stripe_server.script.append((429, {"retry-after": "1", "stripe-should-retry": "true"}, limited))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=paid_app), base_url="http://t") as client:
        r = await client.post("/api/billing/checkout", json={"planId": plan["id"]})
        assert r.status_code == 200, r.text
        # ... any other 429 is a clear 503 to the browser, with nothing stored.
        stripe_server.script.append((429, {"retry-after": "30"}, limited))
        r = await client.post("/api/billing/checkout", json={"planId": plan["id"]})
        assert r.status_code == 503 and r.json()["code"] == "payments_unavailable"
        stripe_server.script.extend([(500, {}, b'{"error": {"type": "api_error"}}')] * 3)
        r = await client.post("/api/billing/checkout", json={"planId": plan["id"]})
        assert r.status_code == 503 and r.json()["code"] == "payments_unavailable"
        hostile = json.dumps({"id": "cs_1", "object": "checkout.session", "url": "javascript:alert(1)"}).encode()
        stripe_server.script.append((200, {}, hostile))
        r = await client.post("/api/billing/checkout", json={"planId": plan["id"]})
        assert r.status_code == 503 and r.json()["code"] == "payments_unavailable"
    await admin.aclose()


def visitor(app: FastAPI) -> httpx.AsyncClient:
    """A browser nobody signed in on; it keeps cookies (the checkout's claim)."""
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver")


async def visitor_checkout(app: FastAPI, client: httpx.AsyncClient, admin: httpx.AsyncClient) -> str:
    plan = await new_plan(admin, 4, trial=3)
    r = await client.post("/api/billing/checkout", json={"planId": plan["id"]})
    assert r.status_code == 200, r.text
    return str(r.json()["url"]).rsplit("/", 1)[1]


async def test_a_visitor_pays_sets_a_password_and_is_signed_in_with_stripes_email(
    paid_app: FastAPI, stripe_server: FakeStripe
) -> None:
    admin = await login_client(paid_app, "admin@example.com", "admin")
    browser, stranger = visitor(paid_app), visitor(paid_app)
    session_id = await visitor_checkout(paid_app, browser, admin)
    state = await browser.get(f"/api/billing/checkout/{session_id}")
    assert state.status_code == 200 and state.json()["next"] == "wait", state.text
    email = f"buyer-{time.time_ns()}@example.com"
    stripe_server.pay(session_id, email=email)
    state = (await browser.get(f"/api/billing/checkout/{session_id}")).json()
    assert (state["status"], state["email"], state["next"]) == ("complete", email, "set_password")
    # The session id alone is not enough: another browser (no claim), or any made-up id, is 404.
    for client, sid in ((stranger, session_id), (browser, "cs_test_unknown")):
        r = await client.get(f"/api/billing/checkout/{sid}")
        assert r.status_code == 404 and r.json()["code"] == "not_found", r.text
    r = await stranger.post(f"/api/billing/checkout/{session_id}/account", json={"password": "long enough 1"})
    assert r.status_code == 404
    r = await browser.post(f"/api/billing/checkout/{session_id}/account", json={"password": "short"})
    assert r.status_code == 422
    r = await browser.post(f"/api/billing/checkout/{session_id}/account", json={"password": "long enough 1"})
    assert r.status_code == 200, r.text
    assert r.json()["user"]["email"] == email and r.json()["user"]["role"] == "customer"
    # Signed in by the cookie the answer set: the plan is theirs, trialing.
    mine = (await browser.get("/api/me/billing")).json()["grants"]
    assert [(g["status"], g["isOpen"]) for g in mine] == [("trialing", True)]
    assert (await browser.get(f"/api/billing/checkout/{session_id}")).json()["next"] == "attached"
    again = await browser.post(f"/api/billing/checkout/{session_id}/account", json={"password": "long enough 1"})
    assert again.status_code == 409 and again.json()["code"] == "account_exists"
    for client in (admin, browser, stranger):
        await client.aclose()


async def test_a_checkout_with_an_existing_email_attaches_only_after_signing_in(
    paid_app: FastAPI, stripe_server: FakeStripe
) -> None:
    admin = await login_client(paid_app, "admin@example.com", "admin")
    browser = visitor(paid_app)
    session_id = await visitor_checkout(paid_app, browser, admin)
    stripe_server.pay(session_id, email=MEMBER)
    member = await login_client(paid_app, MEMBER)
    before = (await member.get("/api/me/billing")).json()["grants"]
    assert (await browser.get(f"/api/billing/checkout/{session_id}")).json()["next"] == "sign_in"
    # No account takeover: a password cannot be set for an e-mail that has an account, and nothing is stored.
    r = await browser.post(f"/api/billing/checkout/{session_id}/account", json={"password": "long enough 1"})
    assert r.status_code == 409 and r.json()["code"] == "account_exists"
    assert (await member.get("/api/me/billing")).json()["grants"] == before
    # The member signs in on the browser that paid: the subscription attaches to their account.
    r = await browser.post(
        "/api/auth/login", json={"email": MEMBER, "password": DEMO_PASSWORD, "selectedRole": "customer"}
    )
    assert r.status_code == 200, r.text
    assert (await browser.get(f"/api/billing/checkout/{session_id}")).json()["next"] == "attached"
    after = (await member.get("/api/me/billing")).json()["grants"]
    assert len(after) == len(before) + 1 and after[0]["status"] == "trialing"
    # Someone else signed in (without this browser's claim) finds nothing.
    other = await login_client(paid_app, "customer@example.com")
    assert (await other.get(f"/api/billing/checkout/{session_id}")).status_code == 404
    for client in (admin, browser, member, other):
        await client.aclose()


async def test_manage_billing_opens_a_portal_session_for_the_members_stripe_customer(
    paid_app: FastAPI, stripe_server: FakeStripe
) -> None:
    admin = await login_client(paid_app, "admin@example.com", "admin")
    browser = visitor(paid_app)
    session_id = await visitor_checkout(paid_app, browser, admin)
    subscription = stripe_server.pay(session_id, email=f"portal-{time.time_ns()}@example.com")
    r = await browser.post(f"/api/billing/checkout/{session_id}/account", json={"password": "long enough 1"})
    assert r.status_code == 200, r.text
    r = await browser.post("/api/billing/portal")
    assert r.status_code == 200 and r.json()["url"] == f"{stripe_server.url}/portal", r.text
    sent = [form for method, path, form, _ in stripe_server.requests if path == "/v1/billing_portal/sessions"]
    assert sent[-1]["customer"] == subscription["customer"]
    assert sent[-1]["return_url"].endswith("/customer/billing")
    # A member with no subscription (the demo customer's access is complimentary) has nothing to manage.
    customer = await login_client(paid_app, "customer@example.com")
    r = await customer.post("/api/billing/portal")
    assert r.status_code == 404 and r.json()["message"] == "You have no subscription to manage"
    for client in (admin, browser, customer):
        await client.aclose()
