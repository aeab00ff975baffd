"""The outbox and the event stream: same-transaction writes, live delivery, audiences and replay."""

import asyncio
import os
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from pydantic import ConfigDict
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.types import Message

from tests.conftest import CUSTOMER
from tests.realtime.conftest import HTTP_TIMEOUT, LiveServer, SSEClient, login_token
from tradeideas.auth.models import User
from tradeideas.core.deps import component_of
from tradeideas.core.events import DomainEvent, EventBus
from tradeideas.realtime.models import Event
from tradeideas.realtime.service import publish
from tradeideas.realtime.subscriber import Subscriber
from tradeideas.settings import Settings


class RawEvent(DomainEvent):
    """Any type tag, audience and data: the outbox and stream do not depend on the domains' models."""

    model_config = ConfigDict(extra="allow")
    to: str = "all"

    def audience(self) -> str:
        return self.to

    def data(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude={"type", "to"})


def raw(type: str, payload: dict[str, Any], audience: str | int = "all") -> RawEvent:
    return RawEvent(type=type, to=str(audience), **payload)


async def emit(app: FastAPI, type: str, payload: dict[str, Any], audience: str | int = "all") -> int:
    """Commit one event; returns its stream position (its SSE id), which the database gives at commit."""
    async with app.state.db.sessionmaker() as session:
        async with session.begin():
            event = await publish(session, raw(type, payload, audience))
        return await position_of(session, event.id)


async def position_of(session: AsyncSession, event_id: int) -> int:
    seq = (await session.execute(select(Event.seq).where(Event.id == event_id))).scalar_one()
    assert seq is not None, "a committed event has its stream position"
    return int(seq)


async def customer_id(app: FastAPI) -> int:
    async with app.state.db.sessionmaker() as session:
        return int((await session.execute(select(User.id).where(User.email == CUSTOMER))).scalar_one())


async def test_event_row_is_part_of_the_callers_transaction(app: FastAPI) -> None:
    async with app.state.db.sessionmaker() as session:
        event = await publish(session, raw("idea.created", {"id": -1}))
        assert event.id is not None
        await session.rollback()
    async with app.state.db.sessionmaker() as session:
        assert (await session.execute(select(func.count()).where(Event.id == event.id))).scalar_one() == 0
    committed = await emit(app, "idea.created", {"id": -2})
    async with app.state.db.sessionmaker() as session:
        row = (await session.execute(select(Event).where(Event.seq == committed))).scalar_one()
        assert row.payload == {"id": -2} and row.audience == "all"


async def test_stream_receives_event_committed_after_connecting(
    app: FastAPI, live: LiveServer, customer_token: str
) -> None:
    async with SSEClient(live.url, customer_token) as client:
        event_id = await emit(app, "idea.created", {"id": 123, "pair": "EUR/USD"})
        event = await client.next()
        assert (event.id, event.type, event.data) == (str(event_id), "idea.created", {"id": 123, "pair": "EUR/USD"})


async def test_rolled_back_change_emits_nothing(app: FastAPI, live: LiveServer, customer_token: str) -> None:
    async with SSEClient(live.url, customer_token) as client:
        async with app.state.db.sessionmaker() as session:
            await publish(session, raw("idea.deleted", {"id": "rolled-back"}))
            await session.rollback()
        marker = await emit(app, "idea.updated", {"id": "marker"})
        event = await client.next()
        assert event.data == {"id": "marker"} and event.id == str(marker)


@pytest.mark.skipif(os.environ.get("TEST_DB") != "postgres", reason="SQLite commits one writer at a time, in id order")
async def test_an_event_that_commits_later_comes_later_though_inserted_first(
    app: FastAPI, live: LiveServer, customer_token: str
) -> None:
    """Issue #22: stream ids follow commit order, so resuming after one seen never skips one committed later."""
    async with SSEClient(live.url, customer_token) as client:
        async with app.state.db.sessionmaker() as slow:
            inserted_first = await publish(slow, raw("idea.created", {"n": "inserted first"}))
            fast = await emit(app, "idea.created", {"n": "committed first"})
            async with app.state.db.sessionmaker() as session:
                fast_row = (await session.execute(select(Event.id).where(Event.seq == fast))).scalar_one()
            assert inserted_first.id < fast_row
            event = await client.next()
            assert (event.id, event.data) == (str(fast), {"n": "committed first"})
            await slow.commit()
            late = await position_of(slow, inserted_first.id)
        assert late > fast
        event = await client.next()
        assert (event.id, event.data) == (str(late), {"n": "inserted first"})
    async with SSEClient(live.url, customer_token, last_event_id=str(fast)) as resumed:
        event = await resumed.next()
        assert (event.id, event.data) == (str(late), {"n": "inserted first"})


async def test_audience_filtering(
    app: FastAPI, live: LiveServer, customer_token: str, educator_token: str, settings: Settings
) -> None:
    me = await customer_id(app)
    educator2_token = await login_token(live.url, "educator2@example.com", "educator")
    async with (
        SSEClient(live.url, customer_token) as customer,
        SSEClient(live.url, educator_token) as educator,
        SSEClient(live.url, educator2_token) as educator2,
    ):
        await emit(app, "idea.updated", {"secret": "educators"}, "educators")
        await emit(app, "chat.reaction.updated", {"for": "customer"}, me)
        await emit(app, "idea.status", {"for": "customers"}, "customers")
        await emit(app, "idea.created", {"for": "all"})
        assert [(await customer.next()).data for _ in range(3)] == [
            {"for": "customer"},
            {"for": "customers"},
            {"for": "all"},
        ]
        assert [(await educator.next()).data for _ in range(2)] == [{"secret": "educators"}, {"for": "all"}]
        assert [(await educator2.next()).data for _ in range(2)] == [{"secret": "educators"}, {"for": "all"}]


async def test_replay_from_last_event_id_after_server_restart(app: FastAPI, settings: Settings) -> None:
    first = await LiveServer(settings).start()
    token = await login_token(first.url, CUSTOMER, "customer")
    async with SSEClient(first.url, token) as client:
        seen = await emit(app, "idea.created", {"n": 1})
        assert (await client.next()).id == str(seen)
        await first.stop()
        assert await client.ended()

    # While no server runs, changes keep being committed.
    await emit(app, "idea.updated", {"n": 2})
    await emit(app, "idea.updated", {"hidden": True}, "educators")
    await emit(app, "idea.deleted", {"n": 3})

    second = await LiveServer(settings, port=first.port).start()
    try:
        async with SSEClient(second.url, token, last_event_id=str(seen)) as client:
            assert [(e.type, e.data) for e in [await client.next(), await client.next()]] == [
                ("idea.updated", {"n": 2}),
                ("idea.deleted", {"n": 3}),
            ]
            live_id = await emit(app, "idea.status", {"n": 4})
            assert (await client.next()).id == str(live_id)
        # The query-string form works too (EventSource cannot set headers on the first connect).
        async with httpx.AsyncClient(base_url=second.url, timeout=10) as http:
            url = f"/api/events?lastEventId={seen}"
            async with http.stream("GET", url, headers={"Authorization": f"Bearer {token}"}) as r:
                assert r.headers["content-type"].startswith("text/event-stream")
                text = ""
                async for chunk in r.aiter_text():
                    text += chunk
                    if '"n":3' in text:
                        break
                assert '"n":2' in text and "hidden" not in text
    finally:
        await second.stop()


async def stream_position(url: str, token: str) -> int:
    """The `X-Stream-Position` of an API answer (the customer's idea list, as the market page reads it first)."""
    async with httpx.AsyncClient(base_url=url, timeout=HTTP_TIMEOUT) as http:
        r = await http.get("/api/trade-ideas", headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 200
        return int(r.headers["x-stream-position"])


async def position_reaches(url: str, token: str, seq: int) -> int:
    """Until answers say the server has delivered the event at `seq` (it hears a commit a moment later)."""
    for _ in range(200):
        if (found := await stream_position(url, token)) >= seq:
            return found
        await asyncio.sleep(0.05)
    raise AssertionError(f"X-Stream-Position never reached {seq}")


async def test_a_first_stream_opened_from_the_datas_position_reloads_only_after_a_change_the_caller_may_see(
    app: FastAPI, live: LiveServer, customer_token: str
) -> None:
    """The market page reads its data, then opens its stream a moment later: a change in between must not be missed.
    The stream cannot replay it (the data may show it already, and applied twice a new idea would count twice as
    unseen), so it starts with `resync` and the page reloads what it shows."""
    shown_at = await stream_position(live.url, customer_token)
    await emit(app, "idea.updated", {"secret": "educators"}, "educators")  # not the customer's to see
    # The customer's own doing (the page marks ideas seen as it loads), which that page already shows.
    await emit(app, "ideas.seen", {"forex": 0, "crypto": 0, "total": 0}, await customer_id(app))
    async with SSEClient(live.url, customer_token, since=str(shown_at)) as client:
        live_id = await emit(app, "idea.created", {"n": "live"})
        event = await client.next()
        if event.type == "ideas.seen":  # the broker may hear of it only now, and hand it on as it does any event
            event = await client.next()
        assert (event.id, event.type, event.data) == (str(live_id), "idea.created", {"n": "live"})

    shown_at = await position_reaches(live.url, customer_token, live_id)
    missed = await emit(app, "idea.created", {"n": "published before the stream opened"})
    async with SSEClient(live.url, customer_token, since=str(shown_at)) as client:
        event = await client.next()
        assert (event.type, event.id) == ("resync", str(missed))
        assert event.data == {"lastEventId": missed}
        after = await emit(app, "idea.status", {"n": "after"})
        event = await client.next()  # the change behind the resync is not streamed again
        assert (event.id, event.data) == (str(after), {"n": "after"})
    assert await position_reaches(live.url, customer_token, after) >= after

    # A position ahead of every event (data read before the database was restored) reloads too, and holds nothing
    # back.
    async with SSEClient(live.url, customer_token, since=str(after + 1000)) as client:
        event = await client.next()
        assert (event.type, event.id) == ("resync", str(after))
        fresh = await emit(app, "idea.created", {"n": "fresh"})
        assert (await client.next()).id == str(fresh)


async def test_every_api_answer_says_how_far_along_the_stream_the_server_was(
    customer: httpx.AsyncClient, anon: httpx.AsyncClient
) -> None:
    answers = ((anon, "/api/config"), (anon, "/api/nothing-here"), (customer, "/api/auth/user"))
    positions = [int((await client.get(path)).headers["x-stream-position"]) for client, path in answers]
    assert all(p >= 0 for p in positions)
    assert "x-stream-position" not in (await anon.get("/")).headers  # the app's pages are not answers of the API


async def test_stream_requires_login(anon: httpx.AsyncClient) -> None:
    r = await anon.get("/api/events")
    assert r.status_code == 401
    assert r.json()["code"] == "unauthorized"


async def test_heartbeat_comment(settings: Settings) -> None:
    server = await LiveServer(settings.model_copy(update={"sse_heartbeat_seconds": 0.2})).start()
    try:
        token = await login_token(server.url, CUSTOMER, "customer")
        async with (
            httpx.AsyncClient(base_url=server.url, timeout=10) as http,
            http.stream("GET", "/api/events", headers={"Authorization": f"Bearer {token}"}) as r,
        ):
            text = ""
            async for chunk in r.aiter_text():
                text += chunk
                if ": ping" in text:
                    break
            assert text.startswith("retry: 3000\n: connected\n\n")
            assert r.headers["cache-control"].startswith("no-store")
    finally:
        await server.stop()


async def test_slow_client_is_dropped_not_buffered() -> None:
    sub = Subscriber(1, 1, False, maxsize=2)  # not live yet: frames wait for the stream's task
    sub.offer((1, b"a"))
    sub.offer((2, b"b"))
    sub.offer((3, b"c"))  # too far behind: the stream is ended, the client will replay on reconnect
    assert sub.closed and sub.pending == []
    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    await sub.flush(send)
    assert sent == [{"type": "http.response.body", "body": b"", "more_body": False}]


@pytest.mark.parametrize("bad", ["abc", "-1", "", str(2**63)])
async def test_bad_last_event_id_is_ignored(bad: str, app: FastAPI) -> None:
    from tradeideas.realtime.stream import resume_after

    assert resume_after(bad, None) is None
    assert resume_after(bad, "7") == 7
    assert resume_after(str(2**63 - 1)) == 2**63 - 1  # positions are BIGINT


async def test_wakeup_waits_for_the_outer_commit_not_a_savepoint(app: FastAPI) -> None:
    """Creating an idea queues pushes in a savepoint; its release must not announce uncommitted events."""
    calls: list[int] = []
    bus = component_of(app, EventBus)
    listener = calls.extend
    bus.local_ids_listeners.append(listener)
    try:
        async with app.state.db.sessionmaker() as session, session.begin():
            event = await publish(session, raw("chat.message.deleted", {"id": -3}))
            async with session.begin_nested():
                pass
            assert calls == []  # the event is not visible to other connections yet
        assert calls == [event.id]
    finally:
        bus.local_ids_listeners.remove(listener)


async def test_stream_of_a_cached_session(app: FastAPI, live: LiveServer) -> None:
    """A session already in memory opens its stream through the route like any other, with the same
    answers: audience, replay, security headers, and no stream once the session ends."""
    token = await login_token(live.url, CUSTOMER, "customer")
    auth = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(timeout=HTTP_TIMEOUT, base_url=live.url, headers=auth) as http:
        assert (await http.get("/api/auth/user")).status_code == 200
        assert (await http.get("/api/events?lastEventId=" + "1" * 21)).status_code == 422

        async with http.stream("GET", "/api/events") as response:
            assert response.headers["content-type"].startswith("text/event-stream")
            assert response.headers["x-content-type-options"] == "nosniff"
        async with SSEClient(live.url, token) as client:
            await emit(app, "idea.updated", {"secret": True}, "educators")
            shown = await emit(app, "idea.created", {"n": 1})
            event = await client.next()
            assert (event.id, event.data) == (str(shown), {"n": 1})
        async with SSEClient(live.url, token, last_event_id=str(shown - 1)) as resumed:
            assert (await resumed.next()).id == str(shown)

        assert (await http.post("/api/auth/logout")).status_code == 204
        async with SSEClient(live.url, token) as refused:
            assert refused.status == 401
