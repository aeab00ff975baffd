"""Health (listener, push backlog, 503 without a database), request ids and structured log lines."""

import io
import json
import logging
import os
from collections.abc import Iterator
from datetime import timedelta

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import delete

from tradeideas.app import create_app
from tradeideas.core import logs
from tradeideas.db import utcnow
from tradeideas.push import service as push_service
from tradeideas.push.models import Channel, DeliveryStatus, PushDelivery
from tradeideas.settings import Settings

POSTGRES = os.environ.get("TEST_DB") == "postgres"


async def test_health_reports_listener_and_push_backlog(app: FastAPI, anon: httpx.AsyncClient) -> None:
    later = utcnow() + timedelta(hours=1)
    rows = [
        PushDelivery(channel=Channel.TELEGRAM, payload={"probe": "retry"}, status=DeliveryStatus.PENDING,
                     next_attempt_at=later),
        PushDelivery(channel=Channel.TELEGRAM, payload={"probe": "held"}, status=DeliveryStatus.HELD,
                     next_attempt_at=later),
    ]  # fmt: skip
    before = (await anon.get("/api/health")).json()["pushBacklog"]
    async with app.state.db.sessionmaker() as session, session.begin():
        session.add_all(rows)
    try:
        r = await anon.get("/api/health")
        assert r.status_code == 200
        body = r.json()
        assert body["status"] == "ok" and body["database"] == "ok" and body["events"] == "live"
        assert body["listener"] == ("connected" if POSTGRES else "not used")
        assert (body["media"], body["mediaStore"]) == ("ok", "local")  # DATA_DIR/media, made at the first upload
        backlog = body["pushBacklog"]
        assert backlog["queued"] - before["queued"] == 1  # the retry waiting for its time
        assert backlog["held"] - before["held"] == 1
        assert backlog["due"] == before["due"]
    finally:
        async with app.state.db.sessionmaker() as session, session.begin():
            await session.execute(delete(PushDelivery).where(PushDelivery.id.in_([row.id for row in rows])))


async def test_backlog_counts_deliveries_due_now(app: FastAPI) -> None:
    async with app.state.db.sessionmaker() as session, session.begin():
        before = await push_service.backlog(session)
        # Not committed, so the running push worker never sees (or sends) it.
        session.add(PushDelivery(channel=Channel.TELEGRAM, payload={"probe": "due"}, status=DeliveryStatus.PENDING))
        await session.flush()
        after = await push_service.backlog(session)
        await session.rollback()
    assert after["due"] - before["due"] == 1
    assert after["scheduled"] == before["scheduled"] and after["held"] == before["held"]


def _unreachable(settings: Settings) -> Settings:
    if POSTGRES:  # nothing listens on port 1
        url = "postgresql+asyncpg://postgres@127.0.0.1:1/tradeideas"
    else:
        url = f"sqlite+aiosqlite:///{settings.data_dir / 'no-such-folder' / 'tradeideas.db'}"
    return settings.model_copy(update={"database_url": url})


async def test_health_is_503_when_the_database_is_unreachable(settings: Settings) -> None:
    app = create_app(_unreachable(settings))
    try:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as c:
            r = await c.get("/api/health")
    finally:
        await app.state.db.dispose()
    assert r.status_code == 503
    assert r.json() == {"message": "Database unavailable", "code": "database_unavailable"}
    assert r.headers["x-request-id"]


async def test_every_response_carries_a_request_id(anon: httpx.AsyncClient) -> None:
    seen = set()
    for path in ("/api/health", "/api/auth/user", "/api/nope", "/some/spa/route", "/metrics"):
        r = await anon.get(path)
        request_id = r.headers["x-request-id"]
        assert len(request_id) == 16 and request_id not in seen, path
        seen.add(request_id)


async def test_a_safe_incoming_request_id_is_reused(anon: httpx.AsyncClient) -> None:
    r = await anon.get("/api/health", headers={"X-Request-ID": "edge-7f3a.42:1"})
    assert r.headers["x-request-id"] == "edge-7f3a.42:1"
    for unsafe in ("has spaces in it", "x" * 65, 'quote"d', "semi;colon"):
        r = await anon.get("/api/health", headers={"X-Request-ID": unsafe})
        assert r.headers["x-request-id"] != unsafe and len(r.headers["x-request-id"]) == 16


@pytest.fixture
def json_log_lines(settings: Settings) -> Iterator[io.StringIO]:
    """The app's own log handler, switched to JSON lines and access logging, writing into a buffer."""
    handler = next(h for h in logging.getLogger().handlers if h.name == logs.HANDLER)
    assert isinstance(handler, logging.StreamHandler)
    buffer = io.StringIO()
    previous = handler.setStream(buffer)
    try:
        yield buffer
    finally:
        handler.setStream(previous)
        logs.configure_logging(settings)  # back to the session's text lines


async def test_json_log_lines_carry_the_request_id(settings: Settings, json_log_lines: io.StringIO) -> None:
    app = create_app(settings.model_copy(update={"log_format": "json", "access_log": True}))

    @app.get("/api/boom", include_in_schema=False)
    async def boom() -> None:
        logging.getLogger("tradeideas.test").info("about to fail")
        raise RuntimeError("boom")

    app.router.routes.insert(0, app.router.routes.pop())  # before the SPA catch-all
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as c:
            failed = await c.get("/api/boom", headers={"X-Request-ID": "trace-boom-1"})
            ok = await c.get("/api/invites/secret-invite-token")
    finally:
        await app.state.db.dispose()
    assert failed.status_code == 500 and failed.headers["x-request-id"] == "trace-boom-1"
    # The last-resort answer is the app's own: its error body, no internals, and the security headers.
    assert failed.json() == {"message": "Internal server error", "code": "internal_error"}
    assert "frame-ancestors 'none'" in failed.headers["content-security-policy"]
    assert failed.headers["cache-control"] == "no-store" and failed.headers["x-content-type-options"] == "nosniff"
    lines = [json.loads(line) for line in json_log_lines.getvalue().splitlines()]  # every line is one JSON object
    mine = [line for line in lines if line.get("request_id") == "trace-boom-1"]
    by_logger = {line["logger"]: line for line in mine}
    assert by_logger["tradeideas.test"]["message"] == "about to fail"
    assert by_logger["tradeideas.test"]["level"] == "INFO"
    assert by_logger["tradeideas"]["level"] == "ERROR" and "RuntimeError: boom" in by_logger["tradeideas"]["exc_info"]
    access = by_logger["tradeideas.access"]
    assert access["method"] == "GET" and access["path"] == "/api/boom" and access["status"] == 500
    assert access["duration_ms"] >= 0 and access["time"].startswith(str(utcnow().year))
    assert list(access)[:5] == ["time", "level", "logger", "message", "request_id"]
    # An invitation link's secret never reaches the log: its path is written as the route template.
    invite = [line for line in lines if line.get("request_id") == ok.headers["x-request-id"]]
    assert [line["path"] for line in invite if line["logger"] == "tradeideas.access"] == ["/api/invites/{token}"]
    assert not [line for line in lines if line["logger"] != "httpx" and "secret-invite-token" in json.dumps(line)]
