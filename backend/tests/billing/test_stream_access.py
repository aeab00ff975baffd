"""Paid access on the event stream and the push queue (issue #40): an educator's open ideas reach only members whose
grants open that educator, in every state a grant can be in; a grant made, revoked or run out by the clock reaches
the member's open stream as `billing.access`, and the stream carries that educator's ideas from then on, or stops."""

import asyncio
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from fastapi import FastAPI
from sqlalchemy import select

from tests.conftest import DEMO_PASSWORD, EDUCATOR_A, EDUCATOR_B
from tests.ideas.test_ideas import create
from tests.realtime.conftest import LiveServer, SSEClient, SSEEvent, login_token
from tests.realtime.conftest import live as live  # the fixture
from tests.realtime.test_events import emit
from tradeideas.auth import service as auth_service
from tradeideas.auth.models import Role, User
from tradeideas.billing.models import AccessGrant
from tradeideas.housekeeping import announce_access_ended
from tradeideas.push.models import PushDelivery, PushSubscription
from tradeideas.settings import Settings

DAY = timedelta(days=1)
LASTS = timedelta(seconds=8)  # a complimentary grant that runs out during a test (logins take a while here)
P256DH = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"


@dataclass(frozen=True)
class Case:
    grant: dict[str, Any] | None  # the grant's columns, dates relative to now; None: no grant at all
    opens_a: bool  # opens educator A (the one who publishes here)


def paid(status: str, **fields: Any) -> dict[str, Any]:
    return {
        "kind": "subscription",
        "status": status,
        "current_period_start": -10,
        "current_period_end": 20,
        "cancel_at_period_end": False,
        **fields,
    }


def free(**fields: Any) -> dict[str, Any]:
    return {"kind": "complimentary", "status": "complimentary", **fields}


# The educator plans name educator A (`"educator": "A"`) or B; dates are days from now.
CASES = {
    "no grant": Case(None, False),
    "plan for educator A": Case(paid("active", educator="A"), True),
    "plan for educator B": Case(paid("active", educator="B"), False),
    "all-access plan": Case(paid("active"), True),
    "trialing": Case(paid("trialing", educator="A", trial_end=4), True),
    "past_due within grace": Case(paid("past_due", educator="A", current_period_start=-13), True),
    "past_due after grace": Case(paid("past_due", educator="A", current_period_start=-15), False),
    "canceled at period end, before it": Case(paid("active", educator="A", cancel_at_period_end=True), True),
    "canceled at period end, after it": Case(
        paid("active", educator="A", cancel_at_period_end=True, current_period_start=-31, current_period_end=-1),
        False,
    ),
    "canceled": Case(paid("canceled", educator="A"), False),
    "complimentary": Case(free(), True),
    "expired complimentary": Case(free(ends_at=-1), False),
}


async def user_id(app: FastAPI, email: str) -> int:
    async with app.state.db.sessionmaker() as session:
        return int((await session.execute(select(User.id).where(User.email == email))).scalar_one())


async def member_with(app: FastAPI, grant: dict[str, Any] | None, now: datetime) -> tuple[str, int]:
    """A new customer holding `grant`, with a push subscription; their e-mail and id."""
    educators = {"A": await user_id(app, EDUCATOR_A), "B": await user_id(app, EDUCATOR_B)}
    email = f"stream-{uuid.uuid4().hex[:10]}@example.com"
    async with app.state.db.sessionmaker() as session, session.begin():
        user = await auth_service.add_user(
            session, email=email, password=DEMO_PASSWORD, role=Role.CUSTOMER, first_name="S", last_name="Tream"
        )
        if grant is not None:
            columns = {key: value for key, value in grant.items() if key != "educator"}
            for key in ("current_period_start", "current_period_end", "ends_at", "trial_end"):
                if key in columns:
                    columns[key] = now + columns[key] * DAY
            educator = grant.get("educator")
            session.add(
                AccessGrant(user_id=user.id, educator_id=None if educator is None else educators[educator], **columns)
            )
        session.add(
            PushSubscription(
                user_id=user.id,
                endpoint=f"https://fcm.googleapis.com/fcm/send/{uuid.uuid4().hex}",
                p256dh=P256DH,
                auth="tBHItJI5svbpez7KI4CCXg",
            )
        )
        user_id_ = user.id
    return email, user_id_


async def until_marker(stream: SSEClient, marker: str) -> list[SSEEvent]:
    """The stream's events up to the marker event every stream receives (events arrive in commit order)."""
    seen: list[SSEEvent] = []
    while True:
        event = await stream.next(20)
        if event.type == "test.marker" and event.data.get("marker") == marker:
            return seen
        seen.append(event)


async def mark(app: FastAPI) -> str:
    marker = uuid.uuid4().hex
    await emit(app, "test.marker", {"marker": marker})
    return marker


def idea_ids(events: list[SSEEvent], type: str = "idea.created") -> set[int]:
    return {e.data["id"] for e in events if e.type == type}


async def test_an_educators_open_ideas_reach_only_streams_and_pushes_of_members_with_access(
    app: FastAPI, live: LiveServer, educator_a: httpx.AsyncClient
) -> None:
    now = datetime.now(UTC)
    members = {name: await member_with(app, case.grant, now) for name, case in CASES.items()}
    tokens = {name: await login_token(live.url, email, "customer") for name, (email, _) in members.items()}
    tokens["educator B"] = await login_token(live.url, EDUCATOR_B, "educator")
    streams = {name: SSEClient(live.url, token) for name, token in tokens.items()}
    for stream in streams.values():
        await stream.__aenter__()
    try:
        idea = await create(educator_a, pair="EUR/NOK")
        marker = await mark(app)
        received = {
            name: idea["id"] in idea_ids(await until_marker(stream, marker)) for name, stream in streams.items()
        }
    finally:
        for stream in streams.values():
            await stream.__aexit__()
    expected = {name: case.opens_a for name, case in CASES.items()} | {"educator B": True}
    assert received == expected
    # Pushes are queued for the same members, and no others.
    async with app.state.db.sessionmaker() as session:
        pushed = set(
            (
                await session.execute(
                    select(PushSubscription.user_id)
                    .join(PushDelivery, PushDelivery.subscription_id == PushSubscription.id)
                    .where(PushDelivery.idea_id == idea["id"])
                )
            ).scalars()
        )
    assert {name for name, (_, member) in members.items() if member in pushed} == {
        name for name, case in CASES.items() if case.opens_a
    }


async def test_a_replay_and_a_first_stream_leave_out_ideas_the_member_cannot_open(
    app: FastAPI, live: LiveServer, educator_a: httpx.AsyncClient
) -> None:
    email, _ = await member_with(app, paid("active", educator="B"), datetime.now(UTC))
    token = await login_token(live.url, email, "customer")
    before = await emit(app, "test.marker", {"marker": "before"})
    idea = await create(educator_a, pair="EUR/SEK")
    # A first stream from data read before the idea: nothing the member may see changed since, so no resync.
    async with SSEClient(live.url, token, since=str(before)) as first:
        marker = await mark(app)
        assert [e.type for e in await until_marker(first, marker)] == []
    async with SSEClient(live.url, token, last_event_id=str(before)) as replayed:
        events = await until_marker(replayed, marker)
        assert idea["id"] not in idea_ids(events) and "idea.created" not in {e.type for e in events}


async def test_access_given_and_revoked_by_an_admin_reaches_the_open_stream(
    app: FastAPI, live: LiveServer, admin: httpx.AsyncClient, educator_a: httpx.AsyncClient
) -> None:
    email, member = await member_with(app, None, datetime.now(UTC))
    async with SSEClient(live.url, await login_token(live.url, email, "customer")) as stream:
        before = await create(educator_a, pair="GBP/NOK")
        r = await admin.post("/api/admin/grants", json={"email": email, "educatorId": await user_id(app, EDUCATOR_A)})
        assert r.status_code == 201, r.text
        granted = await create(educator_a, pair="GBP/SEK")
        events = await until_marker(stream, await mark(app))
        assert [e.type for e in events] == ["billing.access", "idea.created"]
        assert events[0].data["userId"] == member and events[0].data["action"] == "grant.created"
        assert idea_ids(events) == {granted["id"]} and before["id"] not in idea_ids(events)
        r = await admin.delete(f"/api/admin/grants/{r.json()['id']}")
        assert r.status_code == 200, r.text
        after = await create(educator_a, pair="CHF/NOK")
        events = await until_marker(stream, await mark(app))
        assert [(e.type, e.data.get("action")) for e in events] == [("billing.access", "grant.revoked")]
        assert after["id"] not in idea_ids(events)


async def test_access_that_runs_out_by_the_clock_is_announced_once_and_leaves_the_stream(
    app: FastAPI, live: LiveServer, educator_a: httpx.AsyncClient, settings: Settings
) -> None:
    now = datetime.now(UTC)
    email, member = await member_with(app, free(ends_at=LASTS.total_seconds() / 86400), now)
    async with SSEClient(live.url, await login_token(live.url, email, "customer")) as stream:
        still = await create(educator_a, pair="AUD/NOK")
        assert idea_ids(await until_marker(stream, await mark(app))) == {still["id"]}
        await asyncio.sleep(max(0.0, (now + LASTS - datetime.now(UTC)).total_seconds()))
        later = datetime.now(UTC)
        assert await announce_access_ended(app.state.db, settings, later) >= 1
        assert await announce_access_ended(app.state.db, settings, later) == 0  # each end once
        gone = await create(educator_a, pair="AUD/SEK")
        events = await until_marker(stream, await mark(app))
        assert [(e.type, e.data["userId"], e.data["action"]) for e in events] == [
            ("billing.access", member, "grant.ended")
        ]
        assert gone["id"] not in idea_ids(events)


async def test_the_rooms_reach_only_streams_of_members_whom_some_grant_opens(
    app: FastAPI, live: LiveServer, educator_a: httpx.AsyncClient
) -> None:
    now = datetime.now(UTC)
    members = {name: await member_with(app, case.grant, now) for name, case in CASES.items()}
    tokens = {name: await login_token(live.url, email, "customer") for name, (email, _) in members.items()}
    tokens["educator B"] = await login_token(live.url, EDUCATOR_B, "educator")
    streams = {name: SSEClient(live.url, token) for name, token in tokens.items()}
    room = (await educator_a.get("/api/chat/rooms")).json()[0]
    before = await emit(app, "test.marker", {"marker": "before the chat"})
    for stream in streams.values():
        await stream.__aenter__()
    try:
        posted = await educator_a.post(f"/api/chat/rooms/{room['id']}/messages", json={"message": "For members"})
        assert posted.status_code == 201, posted.text
        message = posted.json()["id"]
        marker = await mark(app)
        received = {
            name: message in idea_ids(await until_marker(stream, marker), "chat.message.created")
            for name, stream in streams.items()
        }
    finally:
        for stream in streams.values():
            await stream.__aexit__()
    # Any grant that opens an educator opens the rooms: a plan for educator B too, not one that has ended.
    expected = {name: case.opens_a or name == "plan for educator B" for name, case in CASES.items()}
    assert received == expected | {"educator B": True}
    # A replay leaves the rooms out for a member without a grant, as the live stream does.
    async with SSEClient(live.url, tokens["no grant"], last_event_id=str(before)) as replayed:
        events = await until_marker(replayed, marker)
        assert not [e for e in events if e.type.startswith("chat.")]
