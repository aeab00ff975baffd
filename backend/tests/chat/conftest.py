"""Chat fixtures: a second customer, and a clean message table around every test."""

from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import delete

from tests.conftest import customer_client
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
    c = await customer_client(app, CUSTOMER_B, "Second", "Customer")
    yield c
    await c.aclose()


async def room_ids(client: httpx.AsyncClient) -> dict[str, int]:
    r = await client.get("/api/chat/rooms")
    assert r.status_code == 200, r.text
    return {room["name"]: room["id"] for room in r.json()}
