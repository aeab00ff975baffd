"""Educators' setups and the setup and reason an idea names (issue #42): the educator's own list, what members
read, the rule that an idea names one once the educator keeps any, and both fixed with the pair after 15 minutes."""

import json
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import delete, select

from tests.conftest import DEMO_PASSWORD, login_client
from tradeideas.auth import service as auth_service
from tradeideas.auth.models import Role, User
from tradeideas.core.clock import Clock
from tradeideas.core.deps import component_of
from tradeideas.ideas.commands import IDENTITY_FIXED
from tradeideas.ideas.models import IdeaSetup, TradeIdea
from tradeideas.ideas.setups import NOT_YOUR_SETUP, SETUP_IN_USE, SETUP_REQUIRED
from tradeideas.ledger.models import LedgerEntry

IDEA = {
    "marketType": "Forex",
    "orderType": "SELL",
    "ideaType": "Leverage",
    "pair": "EUR/HUF",
    "timeFrame": "1H",
    "entry1": "395.00",
    "invalidationLevel": "397.00",
    "exit1": "391.00",
}


async def _educator(app: FastAPI, email: str) -> AsyncIterator[tuple[int, httpx.AsyncClient]]:
    """A new educator of the test's own (setups change what every later idea of theirs needs), removed after."""
    async with app.state.db.sessionmaker() as s, s.begin():
        user = await auth_service.add_user(
            s, email=email, password=DEMO_PASSWORD, role=Role.EDUCATOR, first_name="Setup", last_name="Keeper"
        )
        user_id = user.id
    client = await login_client(app, email, "educator")
    yield user_id, client
    await client.aclose()
    async with app.state.db.sessionmaker() as s, s.begin():
        await s.execute(delete(TradeIdea).where(TradeIdea.educator_id == user_id))
        await s.execute(delete(IdeaSetup).where(IdeaSetup.educator_id == user_id))
        await s.execute(delete(User).where(User.id == user_id))


@pytest.fixture
async def keeper(app: FastAPI) -> AsyncIterator[tuple[int, httpx.AsyncClient]]:
    async for pair in _educator(app, "setup.keeper@example.com"):
        yield pair


@pytest.fixture
async def other(app: FastAPI) -> AsyncIterator[tuple[int, httpx.AsyncClient]]:
    async for pair in _educator(app, "setup.other@example.com"):
        yield pair


async def _setup(client: httpx.AsyncClient, name: str, description: str | None = None) -> dict[str, Any]:
    r = await client.post("/api/me/setups", json={"name": name, "description": description})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def _fields(r: httpx.Response) -> list[str]:
    return [e["field"] for e in r.json().get("errors", [])]


async def test_an_educator_keeps_a_list_of_setups_that_members_read(
    keeper: tuple[int, httpx.AsyncClient], customer: httpx.AsyncClient
) -> None:
    educator_id, client = keeper
    assert (await client.get("/api/me/setups")).json() == []
    first = await _setup(client, "  Breakout   retest ", "Old ceiling, new floor.")
    assert first["name"] == "Breakout retest" and first["description"] == "Old ceiling, new floor."
    assert first["educatorId"] == educator_id and first["ideas"] == 0
    second = await _setup(client, "Range fade")
    assert second["description"] is None
    # Names are unique among the educator's, ignoring case: a 422 naming the field, nothing saved.
    taken = await client.post("/api/me/setups", json={"name": "range FADE"})
    assert taken.status_code == 422 and _fields(taken) == ["name"]
    assert taken.json()["message"] == "You already have a setup named range FADE."
    for bad in ({"name": "   "}, {"name": "x" * 61}, {}, {"name": "ok", "description": "d" * 1001}, {"name": 5}):
        r = await client.post("/api/me/setups", json=bad)
        assert r.status_code == 422, (bad, r.text)
    renamed = await client.patch(f"/api/me/setups/{second['id']}", json={"name": "Range fade at the edges"})
    assert renamed.status_code == 200 and renamed.json()["name"] == "Range fade at the edges"
    described = await client.patch(f"/api/me/setups/{second['id']}", json={"description": "Sell the top."})
    assert described.json() == {**renamed.json(), "description": "Sell the top."}
    assert (await client.patch(f"/api/me/setups/{second['id']}", json={"name": None})).status_code == 422
    listed = (await customer.get(f"/api/educators/{educator_id}/setups")).json()
    assert [(s["name"], s["description"]) for s in listed] == [
        ("Breakout retest", "Old ceiling, new floor."),
        ("Range fade at the edges", "Sell the top."),
    ]
    assert (await client.delete(f"/api/me/setups/{second['id']}")).status_code == 204
    assert [s["id"] for s in (await client.get("/api/me/setups")).json()] == [first["id"]]


async def test_educators_change_only_their_own_setups(
    keeper: tuple[int, httpx.AsyncClient], other: tuple[int, httpx.AsyncClient], customer: httpx.AsyncClient
) -> None:
    _, client = keeper
    setup = await _setup(client, "Trend pullback")
    _, intruder = other
    patched = await intruder.patch(f"/api/me/setups/{setup['id']}", json={"name": "Mine now"})
    assert patched.status_code == 403 and patched.json()["code"] == "not_owner"
    assert (await intruder.delete(f"/api/me/setups/{setup['id']}")).status_code == 403
    assert (await customer.post("/api/me/setups", json={"name": "Customer setup"})).status_code == 403
    assert (await customer.patch(f"/api/me/setups/{setup['id']}", json={"name": "x"})).status_code == 403
    assert (await client.patch("/api/me/setups/999999", json={"name": "x"})).status_code == 404
    assert [s["name"] for s in (await client.get("/api/me/setups")).json()] == ["Trend pullback"]
    # Nor can another educator's idea name it.
    r = await intruder.post("/api/trade-ideas", json={**IDEA, "setupId": setup["id"]})
    assert r.status_code == 422 and _fields(r) == ["setupId"] and r.json()["message"] == NOT_YOUR_SETUP


async def test_an_idea_names_a_setup_once_the_educator_keeps_any_and_says_why(
    app: FastAPI, keeper: tuple[int, httpx.AsyncClient], customer: httpx.AsyncClient
) -> None:
    _, client = keeper
    # Without setups an idea needs none.
    plain = await client.post("/api/trade-ideas", json=IDEA)
    assert plain.status_code == 201 and plain.json()["setupId"] is None and plain.json()["reason"] is None
    setup = await _setup(client, "Liquidity sweep", "Stops run, price snaps back.")
    missing = await client.post("/api/trade-ideas", json=IDEA)
    assert missing.status_code == 422 and _fields(missing) == ["setupId"]
    assert missing.json()["message"] == SETUP_REQUIRED and missing.json()["code"] == "setup_required"
    too_long = await client.post("/api/trade-ideas", json={**IDEA, "setupId": setup["id"], "reason": "w" * 1001})
    assert too_long.status_code == 422 and _fields(too_long) == ["reason"]
    async with app.state.db.sessionmaker() as s:  # nothing half-saved
        count = len((await s.execute(select(TradeIdea.id).where(TradeIdea.pair == "EUR/HUF"))).all())
    assert count == 1
    why = "  Swept the Asian high and closed back inside.  "
    created = await client.post("/api/trade-ideas", json={**IDEA, "setupId": setup["id"], "reason": why})
    assert created.status_code == 201, created.text
    idea = created.json()
    assert (idea["setupId"], idea["setupName"], idea["reason"]) == (
        setup["id"],
        "Liquidity sweep",
        "Swept the Asian high and closed back inside.",
    )
    # Members read it on the idea and in the list; the setup counts its idea and can no longer be deleted.
    shown = (await customer.get(f"/api/trade-ideas/{idea['id']}")).json()
    assert shown["setupName"] == "Liquidity sweep" and shown["reason"] == idea["reason"]
    assert (await client.get("/api/me/setups")).json()[0]["ideas"] == 1
    refused = await client.delete(f"/api/me/setups/{setup['id']}")
    assert refused.status_code == 409 and refused.json()["message"] == SETUP_IN_USE
    # A renamed setup shows its new name on its ideas, in the cached list too.
    listed = (await customer.get("/api/trade-ideas", params={"educatorId": idea["educatorId"]})).json()["items"]
    assert listed[0]["setupName"] == "Liquidity sweep"
    await client.patch(f"/api/me/setups/{setup['id']}", json={"name": "Stop hunt"})
    listed = (await customer.get("/api/trade-ideas", params={"educatorId": idea["educatorId"]})).json()["items"]
    assert listed[0]["setupName"] == "Stop hunt"
    # The publish's ledger entry holds both.
    async with app.state.db.sessionmaker() as s:
        text = (
            await s.execute(
                select(LedgerEntry.payload).where(
                    LedgerEntry.subject_id == idea["id"], LedgerEntry.kind == "idea.published"
                )
            )
        ).scalar_one()
    payload = json.loads(text)
    assert payload["setupId"] == str(setup["id"]) and payload["reason"] == idea["reason"]


async def test_setup_and_reason_are_fixed_with_the_pair_after_the_correction_window(
    app: FastAPI, keeper: tuple[int, httpx.AsyncClient]
) -> None:
    _, client = keeper
    first = await _setup(client, "Breakout retest")
    second = await _setup(client, "Trend pullback")
    idea = (await client.post("/api/trade-ideas", json={**IDEA, "setupId": first["id"], "reason": "Retest."})).json()
    url = f"/api/trade-ideas/{idea['id']}"
    # Within the window: corrected like the pair, each change a revision; clearing the setup is refused.
    corrected = await client.patch(url, json={"setupId": second["id"], "reason": "Pullback to the average."})
    assert corrected.status_code == 200, corrected.text
    assert (
        corrected.json()["setupName"] == "Trend pullback" and corrected.json()["reason"] == "Pullback to the average."
    )
    revisions = {r["field"]: r for r in (await client.get(f"{url}/revisions")).json()}
    assert revisions["setupId"]["oldValue"] == str(first["id"]) and revisions["setupId"]["newValue"] == str(
        second["id"]
    )
    assert revisions["reason"]["newValue"] == "Pullback to the average."
    cleared = await client.patch(url, json={"setupId": None})
    assert cleared.status_code == 422 and _fields(cleared) == ["setupId"]
    clock = component_of(app, Clock)
    clock.advance(timedelta(minutes=16))
    try:
        for change in ({"setupId": first["id"]}, {"reason": "Another reason."}, {"pair": "EUR/PLN"}):
            r = await client.patch(url, json=change)
            assert r.status_code == 409 and r.json()["message"] == IDENTITY_FIXED, change
        # Repeating what it is, or changing the notes, is not a change of identity.
        same = await client.patch(
            url, json={"setupId": second["id"], "reason": "Pullback to the average.", "notes": "n"}
        )
        assert same.status_code == 200 and same.json()["notes"] == "n"
    finally:
        clock.reset()
