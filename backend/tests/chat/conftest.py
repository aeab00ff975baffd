"""Chat fixtures: a second customer, and a clean message table around every test."""

from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import delete, select

from tests.conftest import DEMO_PASSWORD, login_client
from tradeideas.auth import service as auth_service
from tradeideas.auth.models import Role, User
from tradeideas.chat.models import ChatMessage, ChatReaction

CUSTOMER_B = "second.customer@example.com"


@pytest.fixture(autouse=True)
async def _clean_chat(app: FastAPI) -> AsyncIterator[None]:
    yield
    # Messages left behind would make ids in other tests' requests (e.g. /messages/1) someone's message.
    async with app.state.db.sessionmaker() as s, s.begin():
        await s.execute(delete(ChatReaction))
        await s.execute(delete(ChatMessage))


@pytest.fixture
async def customer_b(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with app.state.db.sessionmaker() as s, s.begin():
        if (await s.execute(select(User.id).where(User.email == CUSTOMER_B))).first() is None:
            await auth_service.add_user(
                s,
                email=CUSTOMER_B,
                password=DEMO_PASSWORD,
                role=Role.CUSTOMER,
                first_name="Second",
                last_name="Customer",
            )
    c = await login_client(app, CUSTOMER_B)
    yield c
    await c.aclose()


async def room_ids(client: httpx.AsyncClient) -> dict[str, int]:
    r = await client.get("/api/chat/rooms")
    assert r.status_code == 200, r.text
    return {room["name"]: room["id"] for room in r.json()}
