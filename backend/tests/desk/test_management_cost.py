"""What managing cost you (issue #42): each closed journal entry linked to a price-checked idea shows the member's
R beside the idea's price-checked R and the difference; the journal summary averages it with a 95 % interval and
splits it by setup, over the caller's own entries only."""

from collections.abc import AsyncIterator
from datetime import timedelta

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import delete, select

from tests.desk.test_desk import take
from tests.desk.test_taken import close
from tests.ideas.test_ideas import create
from tradeideas.db import utcnow
from tradeideas.ideas.models import IdeaSetup, TradeIdea
from tradeideas.prices.models import IdeaVerification

# A BUY planned at 1.1000 with its stop at 1.0950: one R is 0.0050 for a member filled at the entry.
LEVELS = {"entry1": "1.1000", "invalidationLevel": "1.0950", "exit1": "1.1100"}


@pytest.fixture
async def setups(app: FastAPI, educator_a: httpx.AsyncClient) -> AsyncIterator[dict[str, int]]:
    """Two setups of the educator's, made for this test and removed with the ideas that name them."""
    ids: dict[str, int] = {}
    async with app.state.db.sessionmaker() as s, s.begin():
        educator_id = (await educator_a.get("/api/auth/user")).json()["id"]
        for name in ("Breakout retest", "Trend pullback"):
            row = IdeaSetup(educator_id=educator_id, name=f"{name} (cost test)")
            s.add(row)
            await s.flush()
            ids[name] = row.id
    yield ids
    async with app.state.db.sessionmaker() as s, s.begin():
        await s.execute(delete(TradeIdea).where(TradeIdea.setup_id.in_(ids.values())))
        await s.execute(delete(IdeaSetup).where(IdeaSetup.id.in_(ids.values())))


async def checked(
    app: FastAPI, idea_id: int, r: float | None, *, outcome: str = "exit1", state: str = "settled"
) -> None:
    """The idea's price check, as the checker leaves it."""
    at = utcnow()
    async with app.state.db.sessionmaker() as s, s.begin():
        row = (
            await s.execute(select(IdeaVerification).where(IdeaVerification.idea_id == idea_id))
        ).scalar_one_or_none()
        if row is None:
            educator_id = (await s.execute(select(TradeIdea.educator_id).where(TradeIdea.id == idea_id))).scalar_one()
            row = IdeaVerification(
                idea_id=idea_id, educator_id=educator_id, receipts=[], progress={}, levels={},
                published_at=at - timedelta(hours=5),
            )  # fmt: skip
            s.add(row)
        row.state, row.done, row.outcome, row.r_multiple = state, state == "settled", outcome, r
        row.settled_at = at if state == "settled" else None


async def taken_and_closed(client: httpx.AsyncClient, idea_id: int, exit_price: str) -> int:
    entry = await take(client, ideaId=idea_id, fillPrice="1.1000")
    await close(client, entry["id"], exit_price)  # type: ignore[arg-type]
    entry_id: int = entry["id"]
    return entry_id


async def test_each_entry_and_the_summary_show_what_managing_cost_the_member(
    app: FastAPI,
    customer: httpx.AsyncClient,
    customer_b: httpx.AsyncClient,
    educator_a: httpx.AsyncClient,
    setups: dict[str, int],
) -> None:
    breakout, pullback = setups["Breakout retest"], setups["Trend pullback"]
    named = [breakout, breakout, pullback, pullback, pullback, pullback]
    ideas = [(await create(educator_a, **LEVELS, setupId=setup_id))["id"] for setup_id in named]
    first, second, third, not_triggered, still_open, unsettled = ideas
    await checked(app, first, 2.0)
    await checked(app, second, -1.0, outcome="invalidation")
    await checked(app, third, 1.0, outcome="manual")
    await checked(app, not_triggered, None, outcome="not_triggered")
    await checked(app, still_open, 2.0)
    await checked(app, unsettled, None, outcome=None, state="triggered")  # type: ignore[arg-type]

    # Out at 1.1040: (1.1040 - 1.1000) / 0.0050 = +0.80 R while the idea made +2.00 R: managing cost 1.20 R.
    took_first = await taken_and_closed(customer, first, "1.1040")
    # Stopped at 1.0950 with the idea: -1.00 R against -1.00 R, cost 0.
    await taken_and_closed(customer, second, "1.0950")
    # Held past the idea's manual close: (1.1075 - 1.1000) / 0.0050 = +1.50 R against +1.00 R, cost -0.50 R.
    await taken_and_closed(customer, third, "1.1075")
    # No trade to compare with, an entry still open and a check not yet settled: none of them count.
    await taken_and_closed(customer, not_triggered, "1.1100")
    await take(customer, ideaId=still_open, fillPrice="1.1000")
    await taken_and_closed(customer, unsettled, "1.1100")
    # Another member who did much worse on the first idea: private to them.
    await taken_and_closed(customer_b, first, "1.0950")

    journal = {e["id"]: e for e in (await customer.get("/api/me/journal")).json()["entries"]}
    shown = journal[took_first]
    assert (shown["rMultiple"], shown["checkedRMultiple"], shown["managementCostR"]) == (0.8, 2.0, 1.2)
    assert [(e["checkedRMultiple"], e["managementCostR"]) for e in journal.values() if e["ideaId"] == still_open] == [
        (2.0, None)
    ]
    assert [e["managementCostR"] for e in journal.values() if e["ideaId"] in (not_triggered, unsettled)] == [None] * 2

    r = await customer.get("/api/me/journal/summary")
    assert r.status_code == 200, r.text
    educator = shown["educatorName"]
    # Costs 1.20, 0.00 and -0.50: mean 0.7 / 3 = 0.2333; s = sqrt(1.526667 / 2) = 0.873689; t(0.975, 2) = 4.302653;
    # half width 4.302653 x 0.873689 / sqrt(3) = 2.170366: [-1.94, 2.40].
    assert r.json()["managementCost"] == {
        "count": 3,
        "averageCostR": 0.23,
        "interval95": [-1.94, 2.4],
        "bySetup": [
            {
                "setupId": breakout,
                "setupName": "Breakout retest (cost test)",
                "educatorName": educator,
                "count": 2,
                "averageCostR": 0.6,
            },
            {
                "setupId": pullback,
                "setupName": "Trend pullback (cost test)",
                "educatorName": educator,
                "count": 1,
                "averageCostR": -0.5,
            },
        ],
    }
    # The other member: +2.00 R made, -1.00 R taken, one trade (no interval from one).
    other = (await customer_b.get("/api/me/journal/summary")).json()["managementCost"]
    assert (other["count"], other["averageCostR"], other["interval95"]) == (1, 3.0, None)


async def test_a_member_without_compared_trades_gets_an_empty_summary(customer: httpx.AsyncClient) -> None:
    r = await customer.get("/api/me/journal/summary")
    assert r.status_code == 200, r.text
    assert r.json()["managementCost"] == {"count": 0, "averageCostR": None, "interval95": None, "bySetup": []}
