"""The notification matrix: markets, educators and events decide what is queued; quiet hours hold and summarise."""

import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import delete, select, update

from tests.ideas.test_ideas import create
from tests.push.conftest import Browser, FakePushService
from tests.push.test_push import add_subscription, idea_out, publish_idea
from tradeideas.auth.models import Role, User
from tradeideas.billing import service as billing_service
from tradeideas.core.deps import component_of
from tradeideas.db import utcnow
from tradeideas.ideas.cache import IdeaCache
from tradeideas.ideas.models import TradeIdea
from tradeideas.notifications.models import CustomerIdeaState, MutedEducator
from tradeideas.notifications.quiet import quiet_until
from tradeideas.push import service
from tradeideas.push.models import DeliveryStatus, PushDelivery, PushSubscription
from tradeideas.push.worker import PushRuntime

BERLIN_QUIET = {"start": "22:00", "end": "07:00", "timezone": "Europe/Berlin"}


# ---- settings API ---------------------------------------------------------------------------------
async def test_settings_have_every_switch_with_defaults(customer: httpx.AsyncClient) -> None:
    await customer.put(
        "/api/me/notification-settings",
        json={"forex": True, "crypto": True, "educators": {str(i): True for i in range(1, 8)},
              "events": {"newIdea": True, "ideaClosed": True, "chatMessage": False}, "quietHours": None},
    )  # fmt: skip
    body = (await customer.get("/api/me/notification-settings")).json()
    assert body == {
        "forex": True,
        "crypto": True,
        "educators": {str(i): True for i in range(1, 8)},
        "events": {"newIdea": True, "ideaClosed": True, "chatMessage": False},
        "quietHours": None,
    }


async def test_settings_change_only_what_is_named(customer: httpx.AsyncClient) -> None:
    try:
        r = await customer.put(
            "/api/me/notification-settings",
            json={"forex": True, "crypto": True, "educators": {"2": False}, "quietHours": BERLIN_QUIET},
        )
        assert r.status_code == 200, r.text
        assert r.json()["educators"]["2"] is False and r.json()["educators"]["1"] is True
        assert r.json()["quietHours"] == BERLIN_QUIET
        # Markets only (the old client): educators and quiet hours stay as they were.
        r = await customer.put("/api/me/notification-settings", json={"forex": False, "crypto": True})
        assert r.json()["educators"]["2"] is False and r.json()["quietHours"] == BERLIN_QUIET
        r = await customer.put(
            "/api/me/notification-settings",
            json={"forex": True, "crypto": True, "quietHours": None, "events": {"newIdea": False}},
        )
        assert r.json()["quietHours"] is None
        assert r.json()["events"] == {"newIdea": False, "ideaClosed": True, "chatMessage": False}
    finally:
        await customer.put(
            "/api/me/notification-settings",
            json={"forex": True, "crypto": True, "educators": {"2": True}, "events": {}, "quietHours": None},
        )


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"quietHours": {**BERLIN_QUIET, "timezone": "Mars/Olympus"}}, "Unknown time zone 'Mars/Olympus'"),
        ({"quietHours": {**BERLIN_QUIET, "timezone": "CEST"}}, "Unknown time zone"),
        ({"quietHours": {**BERLIN_QUIET, "start": "24:00"}}, "quietHours.start"),
        ({"quietHours": {**BERLIN_QUIET, "end": "22:00"}}, "must end at a different time"),
        ({"educators": {"999": False}}, "No educator with id 999"),
        ({"educators": {"8": False}}, "No educator with id 8"),  # the demo customer is not an educator
        ({"events": {"newIdea": "yes"}}, "events.newIdea"),
        ({"events": {"sms": True}}, "events.sms"),
    ],
)
async def test_bad_settings_are_refused_and_nothing_changes(
    customer: httpx.AsyncClient, body: dict[str, Any], message: str
) -> None:
    before = (await customer.get("/api/me/notification-settings")).json()
    r = await customer.put("/api/me/notification-settings", json={"forex": False, "crypto": False, **body})
    assert r.status_code == 422 and message in r.json()["message"], r.text
    assert (await customer.get("/api/me/notification-settings")).json() == before


# ---- NEW badges and unseen counts follow the educator switch ----------------------------------------
async def test_unseen_counts_and_new_tags_skip_switched_off_educators(
    customer: httpx.AsyncClient, educator_a: httpx.AsyncClient, educator_b: httpx.AsyncClient
) -> None:
    await customer.post("/api/trade-ideas/seen", json={"market": "forex"})
    try:
        mine = await create(educator_a, pair="GBP/USD")
        muted = await create(educator_b, pair="USD/JPY")
        assert (await customer.get("/api/me/unseen-counts")).json()["forex"] == 2
        r = await customer.put(
            "/api/me/notification-settings", json={"forex": True, "crypto": True, "educators": {"2": False}}
        )
        assert r.status_code == 200
        assert (await customer.get("/api/me/unseen-counts")).json()["forex"] == 1
        items = (await customer.get("/api/trade-ideas", params={"market": "forex"})).json()["items"]
        flags = {item["id"]: item["isNew"] for item in items}
        assert flags[mine["id"]] is True and flags[muted["id"]] is False
    finally:
        await customer.put(
            "/api/me/notification-settings", json={"forex": True, "crypto": True, "educators": {"2": True}}
        )
        await customer.post("/api/trade-ideas/seen", json={"market": "forex"})


@pytest.fixture(autouse=True)
async def _drop_test_ideas(app: FastAPI) -> AsyncIterator[None]:
    """Ideas written straight to the table here (some dated years ahead) must not reach other tests' lists."""
    yield
    async with app.state.db.sessionmaker() as session, session.begin():
        await session.execute(delete(TradeIdea).where(TradeIdea.id.in_([7001, 7101, 7102, 7103])))
    component_of(app, IdeaCache).clear()


# ---- which deliveries are queued --------------------------------------------------------------------
async def _customer_with(app: FastAPI, **state: Any) -> int:
    muted: list[int] = state.pop("muted", [])
    async with app.state.db.sessionmaker() as session, session.begin():
        user = User(email=f"{uuid.uuid4().hex}@example.com", password_hash="x", role=Role.CUSTOMER)
        session.add(user)
        await session.flush()
        await billing_service.add_complimentary(session, None, user.id, None, None)  # every educator opens
        if state or muted:
            session.add(CustomerIdeaState(user_id=user.id, **state))
        for educator_id in muted:
            session.add(MutedEducator(user_id=user.id, educator_id=educator_id))
        return user.id


async def _subscribed(app: FastAPI, push_service: FakePushService, name: str, **state: Any) -> Browser:
    browser = push_service.browser(name)
    await add_subscription(app, await _customer_with(app, **state), browser)
    return browser


async def _queued_for(app: FastAPI) -> dict[str, str]:
    async with app.state.db.sessionmaker() as session:
        rows = await session.execute(
            select(PushDelivery.status, PushDelivery.subscription_id).where(PushDelivery.subscription_id.is_not(None))
        )
        endpoints = dict((await session.execute(select(PushSubscription.id, PushSubscription.endpoint))).all())
    return {endpoints[sub].rsplit("/", 1)[1]: status for status, sub in rows}


async def test_a_delivery_is_queued_only_when_market_educator_and_event_allow(
    app: FastAPI, push_service: FakePushService
) -> None:
    await _subscribed(app, push_service, "all-on")
    await _subscribed(app, push_service, "defaults-row", notify_forex=True, notify_crypto=True)
    await _subscribed(app, push_service, "forex-off", notify_forex=False)
    await _subscribed(app, push_service, "educator-off", muted=[1])
    await _subscribed(app, push_service, "other-educator-off", muted=[2])
    await _subscribed(app, push_service, "new-ideas-off", notify_new_idea=False)
    assert await publish_idea(app, idea_out(id=7001, educator_id=1)) == 3
    assert await _queued_for(app) == {
        "all-on": "pending",
        "defaults-row": "pending",
        "other-educator-off": "pending",
    }
    await push_service.wait_for(lambda: len(push_service.received) == 3)
    assert set(push_service.received) == {"all-on", "defaults-row", "other-educator-off"}


# ---- quiet hours ------------------------------------------------------------------------------------
def test_quiet_until_spans_midnight_in_the_customers_zone() -> None:
    def at(text: str) -> datetime:
        return datetime.fromisoformat(text).replace(tzinfo=UTC)

    # Berlin is UTC+1 in November: 22:00-07:00 local is 21:00-06:00 UTC.
    assert quiet_until("22:00", "07:00", "Europe/Berlin", at("2026-11-23T20:59")) is None
    assert quiet_until("22:00", "07:00", "Europe/Berlin", at("2026-11-23T21:00")) == at("2026-11-24T06:00")
    assert quiet_until("22:00", "07:00", "Europe/Berlin", at("2026-11-24T03:00")) == at("2026-11-24T06:00")
    assert quiet_until("22:00", "07:00", "Europe/Berlin", at("2026-11-24T06:00")) is None
    # Summer time: UTC+2.
    assert quiet_until("22:00", "07:00", "Europe/Berlin", at("2026-07-01T21:00")) == at("2026-07-02T05:00")
    # Within one day.
    assert quiet_until("12:00", "13:30", "America/New_York", at("2026-11-23T17:15")) == at("2026-11-23T18:30")
    assert quiet_until("12:00", "13:30", "America/New_York", at("2026-11-23T18:30")) is None


async def test_quiet_hours_hold_pushes_and_send_one_summary_when_they_end(
    app: FastAPI, push_service: FakePushService
) -> None:
    quiet = {"quiet_start": "22:00", "quiet_end": "07:00", "quiet_timezone": "Europe/Berlin"}
    await _subscribed(app, push_service, "sleeper", **quiet)
    await _subscribed(app, push_service, "awake")
    # A controlled clock, years ahead, so the running push worker leaves these rows alone until told.
    night = datetime(2030, 1, 15, 22, 30, tzinfo=UTC)  # 23:30 in Berlin
    async with app.state.db.sessionmaker() as session, session.begin():
        for idea_id, pair in ((7101, "EUR/USD"), (7102, "GBP/USD"), (7103, "USD/JPY")):
            session.add(
                TradeIdea(
                    id=idea_id, educator_id=1, market_type="Forex", market="forex", order_type="BUY",
                    idea_type="Leverage", pair=pair, time_frame="4H", entry1="1", invalidation_level="0.9",
                    exit1="1.2", status="active", completed=False, edited=False, created_at=night, updated_at=night,
                )
            )  # fmt: skip
            await session.flush()
            await service.enqueue_idea_push(session, idea_out(id=idea_id, pair=pair), app.state.settings, night)
    assert await _queued_for(app) == {"awake": "pending", "sleeper": "held"}
    async with app.state.db.sessionmaker() as session:
        rows = list((await session.execute(select(PushDelivery))).scalars())
    assert len(rows) == 6
    held_until = {row.next_attempt_at for row in rows if row.status == DeliveryStatus.HELD}
    assert held_until == {datetime(2030, 1, 16, 6, 0, tzinfo=UTC)}  # 07:00 in Berlin

    async with app.state.db.sessionmaker() as session, session.begin():
        assert await service.release_held(session, datetime(2030, 1, 16, 5, 59, tzinfo=UTC)) == 0
    async with app.state.db.sessionmaker() as session, session.begin():
        # The moment quiet hours end the three held pushes become one.
        assert await service.release_held(session, datetime(2030, 1, 16, 6, 0, tzinfo=UTC)) == 1
    assert await _queued_for(app) == {"awake": "pending", "sleeper": "pending"}
    async with app.state.db.sessionmaker() as session, session.begin():  # back to the real clock: send now
        await session.execute(update(PushDelivery).values(next_attempt_at=utcnow()))
    component_of(app, PushRuntime).wake()
    await push_service.wait_for(lambda: "sleeper" in push_service.received)
    assert push_service.received["sleeper"] == [
        {
            "title": "3 new ideas while you were away",
            "body": "EUR/USD, GBP/USD, USD/JPY",
            "url": "/customer/dashboard",
            "tag": "quiet-hours-summary",
            "kind": "summary",
        }
    ]
    await push_service.wait_for(lambda: len(push_service.received.get("awake", [])) == 3)


async def test_customer_test_notification_reports_success_or_the_exact_failure(
    customer: httpx.AsyncClient, push_service: FakePushService
) -> None:
    r = await customer.post("/api/push/test-notification")
    assert r.status_code == 200
    assert r.json()["success"] is False
    assert (
        r.json()["details"]["error"]
        == "No push subscription for this account: allow notifications in this browser first."
    )
    browser = push_service.browser("phone")
    assert (await customer.post("/api/push/subscriptions", json=browser.subscription)).status_code == 201
    r = await customer.post("/api/push/test-notification")
    assert r.json()["success"] is True and r.json()["details"]["sent"] == 1
    assert push_service.received["phone"][0]["kind"] == "test"
    push_service.always["phone"] = 400
    r = await customer.post("/api/push/test-notification")
    assert r.json()["success"] is False and r.json()["details"]["errors"] == ["HTTP 400:"]


async def test_closing_an_idea_pushes_how_it_ended_to_those_who_want_it(
    app: FastAPI, educator_a: httpx.AsyncClient, push_service: FakePushService
) -> None:
    await _subscribed(app, push_service, "wants-closed")
    await _subscribed(app, push_service, "no-closed", notify_idea_closed=False)
    idea = await create(educator_a, pair="EUR/USD", orderType="BUY", exit2="1.0960")
    await push_service.wait_for(lambda: len(push_service.received) == 2)  # both hear of the new idea
    r = await educator_a.put(f"/api/trade-ideas/{idea['id']}", json={"status": "pending"})
    assert r.status_code == 200
    r = await educator_a.put(f"/api/trade-ideas/{idea['id']}", json={"status": "successful", "outcome": "exit2"})
    assert r.status_code == 200, r.text
    await push_service.wait_for(lambda: len(push_service.received["wants-closed"]) == 2)
    closed = push_service.received["wants-closed"][1]
    assert closed["title"] == "EUR/USD BUY closed: exit 2 reached"
    assert closed["url"] == f"/customer/ideas/{idea['id']}" and closed["ideaId"] == idea["id"]
    assert len(push_service.received["no-closed"]) == 1  # only the new-idea push
    await educator_a.delete(f"/api/trade-ideas/{idea['id']}")
