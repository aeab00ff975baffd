"""A record per setup (issue #42): `bySetup` lists each setup the educator keeps with its decided ideas, win rate,
expectancy and its 95 % interval and sample-size note, from the educator's calls and from the price checks; the
record filters by setup (`setup=<id>`). Checked against values worked out by hand."""

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import delete

from tests.conftest import DEMO_PASSWORD, login_client
from tradeideas.auth import service as auth_service
from tradeideas.auth.models import Role, User
from tradeideas.core.deps import component_of
from tradeideas.ideas.models import IdeaSetup, TradeIdea
from tradeideas.prices.models import IdeaVerification
from tradeideas.trackrecords.cache import TrackRecordCache
from tradeideas.trackrecords.models import TrackRecordTotal

# BUY from 100 with the stop at 90: 1 R is 10; exit 1 at 120 is +2 R, exit 2 at 130 is +3 R.
IDEA = {
    "marketType": "Forex",
    "orderType": "BUY",
    "ideaType": "Leverage",
    "pair": "EUR/HUF",
    "timeFrame": "4H",
    "entry1": "100",
    "invalidationLevel": "90",
    "exit1": "120",
    "exit2": "130",
}


@pytest.fixture
async def keeper(app: FastAPI) -> AsyncIterator[tuple[int, httpx.AsyncClient]]:
    """An educator of the test's own (its setups and record are the test's alone), removed after."""
    async with app.state.db.sessionmaker() as s, s.begin():
        user = await auth_service.add_user(
            s,
            email="by.setup@example.com",
            password=DEMO_PASSWORD,
            role=Role.EDUCATOR,
            first_name="Set",
            last_name="Up",
        )
        user_id = user.id
    client = await login_client(app, "by.setup@example.com", "educator")
    yield user_id, client
    await client.aclose()
    async with app.state.db.sessionmaker() as s, s.begin():
        await s.execute(delete(IdeaVerification).where(IdeaVerification.educator_id == user_id))
        await s.execute(delete(TradeIdea).where(TradeIdea.educator_id == user_id))
        await s.execute(delete(IdeaSetup).where(IdeaSetup.educator_id == user_id))
        await s.execute(delete(TrackRecordTotal).where(TrackRecordTotal.educator_id == user_id))
        await s.execute(delete(User).where(User.id == user_id))
    component_of(app, TrackRecordCache).drop_all()


async def _idea(client: httpx.AsyncClient, setup_id: int, status: str, outcome: str | None = None) -> int:
    created = await client.post("/api/trade-ideas", json={**IDEA, "setupId": setup_id, "reason": "Why not."})
    assert created.status_code == 201, created.text
    idea_id: int = created.json()["id"]
    body = {"status": status, **({"outcome": outcome} if outcome else {})}
    assert (await client.put(f"/api/trade-ideas/{idea_id}", json=body)).status_code == 200
    return idea_id


def _verdict(idea_id: int, educator_id: int, state: str, outcome: str | None = None, r: float | None = None) -> Any:
    at = datetime.now(UTC)
    return IdeaVerification(
        idea_id=idea_id, educator_id=educator_id, feed="oanda", symbol="EURHUF", state=state, done=True,
        outcome=outcome, r_multiple=r, settled_at=at if state == "settled" else None, reason=None, receipts=[],
        progress={}, levels={}, published_at=at - timedelta(hours=1), levels_fixed=True, educator_outcome=None,
    )  # fmt: skip


async def test_the_record_has_figures_per_setup_from_the_calls_and_the_price_checks(
    app: FastAPI, keeper: tuple[int, httpx.AsyncClient], customer: httpx.AsyncClient
) -> None:
    educator_id, client = keeper
    breakout = (await client.post("/api/me/setups", json={"name": "Breakout retest", "description": "Old top."})).json()
    fade = (await client.post("/api/me/setups", json={"name": "Range fade"})).json()
    unused = (await client.post("/api/me/setups", json={"name": "Trend pullback"})).json()
    # Breakout retest: +2 R, +3 R, -1 R and one not triggered (no trade: not decided).
    first = await _idea(client, breakout["id"], "successful", "exit1")
    second = await _idea(client, breakout["id"], "successful", "exit2")
    third = await _idea(client, breakout["id"], "unsuccessful")
    await _idea(client, breakout["id"], "invalidated")
    # Range fade: one loss.
    await _idea(client, fade["id"], "unsuccessful")
    # The price checks saw the first two differently (+2 R and the stop) and could not check the third.
    async with app.state.db.sessionmaker() as s, s.begin():
        s.add_all(
            [
                _verdict(first, educator_id, "settled", "exit1", 2.0),
                _verdict(second, educator_id, "settled", "invalidation", -1.0),
                _verdict(third, educator_id, "unverifiable"),
            ]
        )
    component_of(app, TrackRecordCache).drop_all()  # verdicts written behind the events' back

    r = await customer.get(f"/api/educators/{educator_id}/track-record")
    assert r.status_code == 200, r.text
    groups = {g["name"]: g for g in r.json()["bySetup"]}
    assert [g["name"] for g in r.json()["bySetup"]] == ["Breakout retest", "Range fade", "Trend pullback"]
    # By hand: R 2, 3, -1; mean 4/3; squared deviations 4/9 + 25/9 + 49/9 = 26/3, s^2 = 13/3, s = 2.0817;
    # standard error s / sqrt(3) = 1.2019; t(0.975, 2) = 4.3027: 1.3333 -/+ 5.1713.
    assert groups["Breakout retest"] == {
        "setupId": breakout["id"],
        "name": "Breakout retest",
        "description": "Old top.",
        "decided": 3,
        "winRate": 0.6667,
        "expectancyR": 1.33,
        "expectancyInterval95": [-3.84, 6.5],
        "sampleSizeNote": "3 decided ideas: too few to judge",
        # By hand: R 2 and -1; mean 0.5; s^2 = 4.5, s = 2.1213, standard error 1.5; t(0.975, 1) = 12.7062:
        # 0.5 -/+ 19.0593.
        "priceChecked": {
            "decided": 2,
            "winRate": 0.5,
            "expectancyR": 0.5,
            "expectancyInterval95": [-18.56, 19.56],
            "sampleSizeNote": "2 decided ideas: too few to judge",
        },
    }
    assert groups["Range fade"]["decided"] == 1 and groups["Range fade"]["winRate"] == 0.0
    assert groups["Range fade"]["expectancyR"] == -1.0 and groups["Range fade"]["expectancyInterval95"] is None
    assert groups["Range fade"]["sampleSizeNote"] == "1 decided idea: too few to judge"
    assert groups["Range fade"]["priceChecked"]["decided"] == 0
    assert groups["Trend pullback"]["setupId"] == unused["id"] and groups["Trend pullback"]["decided"] == 0
    assert groups["Trend pullback"]["winRate"] is None and groups["Trend pullback"]["expectancyR"] is None

    # Filtered by a setup, the whole record counts that setup's ideas alone.
    only = (await customer.get(f"/api/educators/{educator_id}/track-record", params={"setup": breakout["id"]})).json()
    assert (only["completed"], only["wins"], only["losses"], only["notTriggered"], only["totalR"]) == (4, 2, 1, 1, 4.0)
    assert only["statistics"]["decided"] == 3 and only["statistics"]["averageRInterval95"] == [-3.84, 6.5]
    assert only["coverage"]["priceChecked"] == 2
    fades = (await customer.get(f"/api/educators/{educator_id}/track-record", params={"setup": fade["id"]})).json()
    assert (fades["completed"], fades["losses"], fades["totalR"]) == (1, 1, -1.0)
    none = (await customer.get(f"/api/educators/{educator_id}/track-record", params={"setup": unused["id"]})).json()
    assert none["completed"] == 0 and none["equityCurve"] == []
    # The record's list of completed ideas follows the same selection.
    listed = await customer.get(
        "/api/trade-ideas", params={"educatorId": educator_id, "status": "closed", "setup": breakout["id"]}
    )
    assert len(listed.json()["items"]) == 4
    assert {i["setupId"] for i in listed.json()["items"]} == {breakout["id"]}
    bad = await customer.get(f"/api/educators/{educator_id}/track-record", params={"setup": "0"})
    assert bad.status_code == 422


async def test_a_record_without_setups_has_none(educator_a: httpx.AsyncClient, customer: httpx.AsyncClient) -> None:
    body = (await customer.get("/api/educators/1/track-record")).json()
    assert body["bySetup"] == []
