"""The journal's kept writes (issue #26): one entry per Idempotency-Key and member, however often and however
concurrently the device sends it; prices kept with the digits typed (docs/decisions/0057-idempotent-journal-entries.md).
"""

import asyncio
import os
import uuid
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from tests.conftest import customer_client
from tests.ideas.test_ideas import create
from tradeideas.desk.models import JournalEntry

KEY_REUSED = "This Idempotency-Key was already used for another trade: make a new key for a new entry"


def new_key() -> str:
    return str(uuid.uuid4())


async def post(client: httpx.AsyncClient, key: str | None, **body: Any) -> httpx.Response:
    headers = {} if key is None else {"Idempotency-Key": key}
    return await client.post("/api/me/journal", json=body, headers=headers)


async def rows(app: FastAPI, **where: Any) -> int:
    async with app.state.db.sessionmaker() as s:
        query = select(func.count()).select_from(JournalEntry).filter_by(**where)
        return int((await s.execute(query)).scalar_one())


# ------------------------------------------------------------------ idempotency


async def test_a_repeat_with_the_same_key_returns_the_first_entry_and_records_one(
    app: FastAPI, customer: httpx.AsyncClient, educator_a: httpx.AsyncClient
) -> None:
    idea = await create(educator_a, entry1="1.0850", invalidationLevel="1.0800")
    key = new_key()
    first = await post(customer, key, ideaId=idea["id"], fillPrice="1.0850", note="on the train")
    assert first.status_code == 201, first.text
    assert "Idempotent-Replayed" not in first.headers
    again = await post(customer, key, ideaId=idea["id"], fillPrice="1.0850", note="on the train")
    assert again.status_code == 201, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    journal = (await customer.get("/api/me/journal")).json()
    assert [e["id"] for e in journal["entries"]] == [first.json()["id"]]
    assert await rows(app, idea_id=idea["id"]) == 1

    # A new key is a new trade (a second entry on the same idea is allowed).
    other = await post(customer, new_key(), ideaId=idea["id"], fillPrice="1.0850")
    assert other.status_code == 201 and other.json()["id"] != first.json()["id"]
    # Without a key nothing is matched: each request is a new entry, as before.
    for _ in range(2):
        assert (await post(customer, None, ideaId=idea["id"], fillPrice="1.0850")).status_code == 201
    assert await rows(app, idea_id=idea["id"]) == 4


async def test_a_repeat_after_an_edit_returns_the_entry_as_it_is_now(
    customer: httpx.AsyncClient, educator_a: httpx.AsyncClient
) -> None:
    idea = await create(educator_a, entry1="1.0850", invalidationLevel="1.0800")
    key = new_key()
    first = (await post(customer, key, ideaId=idea["id"], fillPrice="1.0850")).json()
    r = await customer.patch(f"/api/me/journal/{first['id']}", json={"exitPrice": "1.0900"})
    assert r.status_code == 200, r.text
    again = await post(customer, key, ideaId=idea["id"], fillPrice="1.0850")
    assert again.status_code == 201
    assert again.json()["id"] == first["id"] and again.json()["exitPrice"] == "1.0900"


async def test_keys_belong_to_one_member(
    app: FastAPI, customer: httpx.AsyncClient, customer_b: httpx.AsyncClient, educator_a: httpx.AsyncClient
) -> None:
    idea = await create(educator_a)
    key = new_key()
    mine = await post(customer, key, ideaId=idea["id"], fillPrice="1.1")
    theirs = await post(customer_b, key, ideaId=idea["id"], fillPrice="1.1")
    assert mine.status_code == theirs.status_code == 201
    assert mine.json()["id"] != theirs.json()["id"]
    assert [e["id"] for e in (await customer_b.get("/api/me/journal")).json()["entries"]] == [theirs.json()["id"]]
    assert await rows(app, idea_id=idea["id"]) == 2


async def test_a_key_reused_for_another_trade_is_refused_and_nothing_is_saved(
    app: FastAPI, customer: httpx.AsyncClient, educator_a: httpx.AsyncClient
) -> None:
    idea = await create(educator_a)
    other = await create(educator_a, pair="GBP/USD")
    key = new_key()
    first = await post(customer, key, ideaId=idea["id"], fillPrice="1.1")
    assert first.status_code == 201
    for body in ({"ideaId": other["id"], "fillPrice": "1.1"}, {"ideaId": idea["id"], "fillPrice": "1.2"}):
        r = await post(customer, key, **body)
        assert r.status_code == 422 and r.json()["message"] == KEY_REUSED
    assert await rows(app, idea_id=idea["id"]) == 1 and await rows(app, idea_id=other["id"]) == 0


@pytest.mark.parametrize("key", ["short", "x" * 129, "has space in it", "ünïcode-key"])
async def test_a_malformed_key_is_a_422_and_nothing_is_saved(
    app: FastAPI, customer: httpx.AsyncClient, educator_a: httpx.AsyncClient, key: str
) -> None:
    idea = await create(educator_a)
    headers = [(b"Idempotency-Key", key.encode())]  # bytes: httpx would refuse to send the non-ASCII one itself
    r = await customer.post("/api/me/journal", json={"ideaId": idea["id"], "fillPrice": "1.1"}, headers=headers)
    assert r.status_code == 422, r.text
    assert "Idempotency-Key" in r.json()["message"]
    assert await rows(app, idea_id=idea["id"]) == 0


@pytest.mark.skipif(os.environ.get("TEST_DB") != "postgres", reason="concurrent writers need PostgreSQL")
async def test_concurrent_repeats_make_one_entry_and_all_get_it(
    app: FastAPI, customer: httpx.AsyncClient, educator_a: httpx.AsyncClient
) -> None:
    idea = await create(educator_a, entry1="1.0850", invalidationLevel="1.0800")
    for _ in range(3):  # a few rounds: the race has to be met, not dodged by timing
        key = new_key()
        answers = await asyncio.gather(*(post(customer, key, ideaId=idea["id"], fillPrice="1.0850") for _ in range(6)))
        assert [a.status_code for a in answers] == [201] * 6, [a.text for a in answers]
        assert len({a.json()["id"] for a in answers}) == 1
        assert sum(1 for a in answers if "Idempotent-Replayed" not in a.headers) == 1
    assert await rows(app, idea_id=idea["id"]) == 3


# ------------------------------------------------------------------ prices as typed


async def test_prices_keep_the_digits_typed_and_r_is_unchanged(
    customer: httpx.AsyncClient, educator_a: httpx.AsyncClient
) -> None:
    idea = await create(educator_a, entry1="1.0850", invalidationLevel="1.0800", exit1="1.0950")
    entry = (await post(customer, None, ideaId=idea["id"], fillPrice=" 1.0850 ")).json()
    assert entry["fillPrice"] == "1.0850"
    r = await customer.patch(f"/api/me/journal/{entry['id']}", json={"exitPrice": "1.0950"})
    assert r.status_code == 200, r.text
    assert r.json()["exitPrice"] == "1.0950" and r.json()["rMultiple"] == pytest.approx(2.0)
    listed = (await customer.get("/api/me/journal")).json()["entries"][0]
    assert listed["fillPrice"] == "1.0850" and listed["exitPrice"] == "1.0950"
    # A JSON number is taken as its text; thousands separators are dropped.
    assert (await post(customer, None, ideaId=idea["id"], fillPrice=1.085)).json()["fillPrice"] == "1.085"
    # (on an idea priced in thousands: a fill lies within 20 R of the idea's entry, decision 0081)
    index = await create(educator_a, entry1="1,085.00", invalidationLevel="1,080.00", exit1="1,095.00")
    assert (await post(customer, None, ideaId=index["id"], fillPrice="1,085.50")).json()["fillPrice"] == "1085.50"


@pytest.mark.parametrize("price", ["0", "0.0000", "-1.08", "1e3", "abc", "1.08.1", "", True, "1" * 40])
async def test_a_price_that_is_not_a_decimal_above_zero_is_refused(
    app: FastAPI, customer: httpx.AsyncClient, educator_a: httpx.AsyncClient, price: Any
) -> None:
    idea = await create(educator_a)
    r = await post(customer, None, ideaId=idea["id"], fillPrice=price)
    assert r.status_code == 422 and r.json()["message"] == "fillPrice must be a number greater than 0"
    entry = (await post(customer, None, ideaId=idea["id"], fillPrice="1.1")).json()
    r = await customer.patch(f"/api/me/journal/{entry['id']}", json={"exitPrice": price})
    assert r.status_code == 422 and r.json()["message"] == "exitPrice must be a number greater than 0"
    assert (await customer.get("/api/me/journal")).json()["entries"][0]["exitPrice"] is None


# ------------------------------------------------------------------ the other kept writes, repeated at once


@pytest.mark.skipif(os.environ.get("TEST_DB") != "postgres", reason="concurrent writers need PostgreSQL")
async def test_a_first_settings_save_repeated_at_once_is_saved_once_without_an_error(app: FastAPI) -> None:
    """Risk and notification settings are PUTs (a repeat leaves the same state), but their first save makes a row:
    two at once must not make one of them a 500."""
    client = await customer_client(app, f"kept.{uuid.uuid4().hex[:8]}@example.com", "Kept", "Writes")
    try:
        risk = {"accountSize": 2500, "accountCurrency": "EUR", "riskPercent": 2, "leverage": 10}
        answers = await asyncio.gather(*(client.put("/api/me/risk-settings", json=risk) for _ in range(5)))
        assert [a.status_code for a in answers] == [200] * 5, [a.text for a in answers]
        assert (await client.get("/api/me/risk-settings")).json()["accountCurrency"] == "EUR"

        educator_id = (await client.get("/api/users/educators")).json()[0]["id"]
        body = {"forex": False, "crypto": True, "educators": {str(educator_id): False}}
        answers = await asyncio.gather(*(client.put("/api/me/notification-settings", json=body) for _ in range(5)))
        assert [a.status_code for a in answers] == [200] * 5, [a.text for a in answers]
        saved = (await client.get("/api/me/notification-settings")).json()
        assert saved["forex"] is False and saved["educators"][str(educator_id)] is False
    finally:
        await client.aclose()
