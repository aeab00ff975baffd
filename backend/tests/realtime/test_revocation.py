"""An open event stream ends when its session does: logout, password change, disabling, from any process."""

import uuid

import httpx
import pytest
from fastapi import FastAPI

from tests.conftest import DEMO_PASSWORD
from tests.realtime.conftest import HTTP_TIMEOUT, LiveServer, SSEClient, login_token
from tests.realtime.test_events import emit
from tradeideas.auth import service as auth_service
from tradeideas.auth.models import Role, User


async def _new_customer(app: FastAPI) -> User:
    async with app.state.db.sessionmaker() as session, session.begin():
        return await auth_service.add_user(
            session,
            email=f"stream-{uuid.uuid4().hex[:12]}@example.com",
            password=DEMO_PASSWORD,
            role=Role.CUSTOMER,
            first_name="Stream",
            last_name="Tester",
        )


async def _open_stream(live: LiveServer, token: str, *, from_memory: bool) -> SSEClient:
    if from_memory:  # a request through the route caches the session; the stream then opens in front of it
        async with httpx.AsyncClient(
            timeout=HTTP_TIMEOUT, base_url=live.url, headers={"Authorization": f"Bearer {token}"}
        ) as c:
            assert (await c.get("/api/auth/user")).status_code == 200
    return await SSEClient(live.url, token).__aenter__()


@pytest.mark.parametrize("from_memory", [False, True], ids=["route", "memory"])
async def test_logout_ends_the_sessions_open_stream(live: LiveServer, from_memory: bool) -> None:
    user = await _new_customer(live.app)
    token = await login_token(live.url, user.email, "customer")
    stream = await _open_stream(live, token, from_memory=from_memory)
    try:
        async with httpx.AsyncClient(
            timeout=HTTP_TIMEOUT, base_url=live.url, headers={"Authorization": f"Bearer {token}"}
        ) as c:
            assert (await c.post("/api/auth/logout")).status_code == 204
        assert await stream.ended()
    finally:
        await stream.__aexit__()


@pytest.mark.parametrize("from_memory", [False, True], ids=["route", "memory"])
async def test_password_change_ends_the_other_sessions_streams_and_keeps_its_own(
    live: LiveServer, from_memory: bool
) -> None:
    user = await _new_customer(live.app)
    mine = await login_token(live.url, user.email, "customer")
    other = await login_token(live.url, user.email, "customer")
    own_stream = await _open_stream(live, mine, from_memory=from_memory)
    other_stream = await _open_stream(live, other, from_memory=from_memory)
    try:
        async with httpx.AsyncClient(
            timeout=HTTP_TIMEOUT, base_url=live.url, headers={"Authorization": f"Bearer {mine}"}
        ) as c:
            body = {"currentPassword": DEMO_PASSWORD, "newPassword": "another-password-1"}
            assert (await c.post("/api/me/password", json=body)).status_code == 200
        assert await other_stream.ended()
        sent = await emit(live.app, "ideas.seen", {"forex": 0, "crypto": 0}, audience=user.id)
        assert (await own_stream.next()).id == str(sent)
    finally:
        await own_stream.__aexit__()
        await other_stream.__aexit__()


@pytest.mark.parametrize("from_memory", [False, True], ids=["route", "memory"])
async def test_disabling_a_user_in_another_program_ends_their_streams(
    app: FastAPI, live: LiveServer, from_memory: bool
) -> None:
    user = await _new_customer(live.app)
    token = await login_token(live.url, user.email, "customer")
    stream = await _open_stream(live, token, from_memory=from_memory)
    try:
        # `app` has its own database engine and broker: to the live server it is another process (the CLI).
        async with app.state.db.sessionmaker() as session, session.begin():
            await auth_service.disable_user(session, await auth_service.get_user_by_email(session, user.email))
        assert await stream.ended()
    finally:
        await stream.__aexit__()


async def test_setting_a_password_in_another_program_ends_every_stream_of_the_user(
    app: FastAPI, live: LiveServer
) -> None:
    user = await _new_customer(live.app)
    first = await _open_stream(live, await login_token(live.url, user.email, "customer"), from_memory=True)
    second = await _open_stream(live, await login_token(live.url, user.email, "customer"), from_memory=False)
    try:
        async with app.state.db.sessionmaker() as session, session.begin():
            found = await auth_service.get_user_by_email(session, user.email)
            await auth_service.set_password(session, found, "a-new-password-2")
            await auth_service.revoke_all_sessions(session, found)
        assert await first.ended()
        assert await second.ended()
    finally:
        await first.__aexit__()
        await second.__aexit__()
