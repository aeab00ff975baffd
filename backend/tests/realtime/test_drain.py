"""A draining node (decision 0160): `/api/health` answers 503 at once, its streams end, and their clients resume
on another node from their last event id without missing anything."""

import httpx
from fastapi import FastAPI

from tests.conftest import CUSTOMER
from tests.realtime.conftest import HTTP_TIMEOUT, LiveServer, SSEClient, login_token
from tests.realtime.test_events import emit
from tradeideas.core.deps import component_of
from tradeideas.core.drain import Drain
from tradeideas.settings import Settings


async def test_a_draining_node_reports_not_ready_and_its_streams_resume_elsewhere(
    app: FastAPI, settings: Settings
) -> None:
    leaving, staying = await LiveServer(settings).start(), await LiveServer(settings).start()
    try:
        token = await login_token(leaving.url, CUSTOMER, "customer")
        async with httpx.AsyncClient(timeout=HTTP_TIMEOUT, base_url=leaving.url) as http:
            assert (await http.get("/api/health")).status_code == 200
            async with SSEClient(leaving.url, token) as stream:
                seen = await emit(app, "idea.updated", {"n": 1})
                assert (await stream.next()).id == str(seen)

                component_of(leaving.app, Drain).begin()  # what SIGTERM does first
                health = await http.get("/api/health")
                assert health.status_code == 503
                assert health.json() == {"message": "This server is shutting down.", "code": "draining"}
                assert await stream.ended()  # nothing else was in flight: the stream ends at once
                missed = await emit(app, "idea.updated", {"n": 2})
        async with SSEClient(staying.url, token, last_event_id=str(seen)) as resumed:
            event = await resumed.next()
            assert (event.id, event.data) == (str(missed), {"n": 2})
    finally:
        await leaving.stop()
        await staying.stop()
