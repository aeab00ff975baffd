"""Customer desk API: risk settings (defaults, validation) and the private journal (results, ownership)."""

from typing import Any

import httpx
import pytest

from tests.ideas.test_ideas import create

DEFAULTS = {"accountSize": 10000.0, "accountCurrency": "USD", "riskPercent": 1.0, "leverage": 1.0}


# ------------------------------------------------------------------ risk settings


async def test_risk_settings_start_at_the_defaults_and_are_saved(customer: httpx.AsyncClient) -> None:
    r = await customer.get("/api/me/risk-settings")
    assert r.status_code == 200 and r.json() == DEFAULTS
    body = {"accountSize": 2500, "accountCurrency": "eur", "riskPercent": 0.5, "leverage": 20}
    r = await customer.put("/api/me/risk-settings", json=body)
    assert r.status_code == 200, r.text
    saved = {"accountSize": 2500.0, "accountCurrency": "EUR", "riskPercent": 0.5, "leverage": 20.0}
    assert r.json() == saved
    assert (await customer.get("/api/me/risk-settings")).json() == saved


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("accountSize", 0, "accountSize must be a number greater than 0"),
        ("accountSize", -5, "accountSize must be a number greater than 0"),
        ("accountSize", "lots", "accountSize must be a number greater than 0"),
        ("riskPercent", 0.001, "Risk per trade must be from 0.01 % to 10 % of your account (10 % is the limit)"),
        ("riskPercent", 10.01, "Risk per trade must be from 0.01 % to 10 % of your account (10 % is the limit)"),
        ("riskPercent", 101, "Risk per trade must be from 0.01 % to 10 % of your account (10 % is the limit)"),
        ("riskPercent", True, "Risk per trade must be from 0.01 % to 10 % of your account (10 % is the limit)"),
        ("leverage", 0.5, "leverage must be a number from 1 to 500"),
        ("leverage", 501, "leverage must be a number from 1 to 500"),
        ("accountCurrency", "US$", "accountCurrency must be a currency code of 3 to 5 letters, like USD"),
    ],
)
async def test_bad_risk_settings_are_a_422_and_nothing_is_saved(
    customer: httpx.AsyncClient, field: str, value: Any, message: str
) -> None:
    r = await customer.put("/api/me/risk-settings", json={**DEFAULTS, "accountSize": 777, field: value})
    assert r.status_code == 422
    assert r.json()["message"] == message
    assert (await customer.get("/api/me/risk-settings")).json() == DEFAULTS


async def test_ten_percent_is_the_most_a_trade_may_risk(customer: httpx.AsyncClient) -> None:
    r = await customer.put("/api/me/risk-settings", json={**DEFAULTS, "riskPercent": 10})
    assert r.status_code == 200, r.text
    assert r.json()["riskPercent"] == 10.0
    assert (await customer.get("/api/me/risk-settings")).json()["riskPercent"] == 10.0


async def test_educators_have_no_risk_settings(educator_a: httpx.AsyncClient) -> None:
    assert (await educator_a.get("/api/me/risk-settings")).status_code == 403
    assert (await educator_a.put("/api/me/risk-settings", json=DEFAULTS)).status_code == 403


# ------------------------------------------------------------------ journal


async def take(client: httpx.AsyncClient, **body: Any) -> dict[str, Any]:
    r = await client.post("/api/me/journal", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


async def test_a_buy_taken_and_closed_shows_its_result_in_r_and_money(
    customer: httpx.AsyncClient, educator_a: httpx.AsyncClient
) -> None:
    idea = await create(educator_a, entry1="1.1000", invalidationLevel="1.0950", exit1="1.1100")
    entry = await take(customer, ideaId=idea["id"], fillPrice=1.1, size=20000, note="  took it at the open ")
    assert entry["status"] == "open" and entry["rMultiple"] is None and entry["pnl"] is None
    assert entry["note"] == "took it at the open" and entry["riskAmount"] == 100.0
    assert entry["pair"] == "EUR/USD" and entry["invalidationLevel"] == "1.0950" and entry["ideaStatus"] == "active"

    r = await customer.patch(f"/api/me/journal/{entry['id']}", json={"exitPrice": 1.11})
    assert r.status_code == 200, r.text
    closed = r.json()
    assert closed["status"] == "closed" and closed["closedAt"] is not None
    assert closed["rMultiple"] == pytest.approx(2.0) and closed["pnl"] == pytest.approx(200.0)

    journal = (await customer.get("/api/me/journal")).json()
    assert [e["id"] for e in journal["entries"]] == [entry["id"]]
    assert journal["totals"] == {
        "entries": 1,
        "open": 0,
        "closed": 1,
        "wins": 1,
        "winRate": 1.0,
        "totalR": 2.0,
        "totalPnl": 200.0,
        "accountCurrency": "USD",
        "compared": 0,  # the educator has not closed the idea: nothing to compare yet
        "ownAverageR": None,
        "calledAverageR": None,
    }
    assert journal["entries"][0]["ideaRMultiple"] is None  # the educator has not closed it yet

    # The educator's recorded result shows beside the customer's own: exit 1 at 1.1100 is +2 R.
    assert (await educator_a.put(f"/api/trade-ideas/{idea['id']}", json={"status": "successful"})).status_code == 200
    beside = (await customer.get("/api/me/journal")).json()["entries"][0]
    assert beside["ideaStatus"] == "successful" and beside["ideaRMultiple"] == pytest.approx(2.0)


async def test_a_sell_result_is_mirrored_and_totals_add_up(
    customer: httpx.AsyncClient, educator_a: httpx.AsyncClient
) -> None:
    sell = await create(educator_a, orderType="SELL", pair="USD/JPY", entry1="150.00", invalidationLevel="151.00")
    await customer.put("/api/me/risk-settings", json={**DEFAULTS, "accountSize": 5000, "riskPercent": 2})
    loss = await take(customer, ideaId=sell["id"], fillPrice=150)
    win = await take(customer, ideaId=sell["id"], fillPrice=150.5)
    r = await customer.patch(f"/api/me/journal/{loss['id']}", json={"exitPrice": 151})
    assert r.json()["rMultiple"] == pytest.approx(-1.0) and r.json()["pnl"] == pytest.approx(-100.0)
    r = await customer.patch(f"/api/me/journal/{win['id']}", json={"exitPrice": 149.5})
    assert r.json()["rMultiple"] == pytest.approx(2.0)
    totals = (await customer.get("/api/me/journal")).json()["totals"]
    assert totals["winRate"] == 0.5 and totals["totalR"] == pytest.approx(1.0) and totals["totalPnl"] == 100.0

    # Reopening clears the result.
    r = await customer.patch(f"/api/me/journal/{win['id']}", json={"exitPrice": None})
    assert r.json()["status"] == "open" and r.json()["rMultiple"] is None


async def test_a_non_numeric_stop_gives_no_r(customer: httpx.AsyncClient, educator_a: httpx.AsyncClient) -> None:
    idea = await create(educator_a, invalidationLevel="below the range")
    entry = await take(customer, ideaId=idea["id"], fillPrice=1.085)
    r = await customer.patch(f"/api/me/journal/{entry['id']}", json={"exitPrice": 1.09})
    assert r.json()["status"] == "closed" and r.json()["rMultiple"] is None and r.json()["pnl"] is None


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"fillPrice": 0}, "fillPrice must be a number greater than 0"),
        ({"fillPrice": "abc"}, "fillPrice must be a number greater than 0"),
        ({"fillPrice": 1.08, "size": -1}, "size must be a number greater than 0"),
        ({"fillPrice": 1.08, "note": "x" * 2001}, "note must be at most 2000 characters"),
        ({"fillPrice": 1.08, "userId": 1}, "userId: Extra inputs are not permitted"),
    ],
)
async def test_bad_journal_input_is_a_422_and_nothing_is_saved(
    customer: httpx.AsyncClient, educator_a: httpx.AsyncClient, body: dict[str, Any], message: str
) -> None:
    idea = await create(educator_a)
    r = await customer.post("/api/me/journal", json={"ideaId": idea["id"], **body})
    assert r.status_code == 422 and r.json()["message"] == message
    assert (await customer.get("/api/me/journal")).json()["entries"] == []


async def test_taking_an_unknown_idea_is_a_404(customer: httpx.AsyncClient) -> None:
    r = await customer.post("/api/me/journal", json={"ideaId": 999999, "fillPrice": 1})
    assert r.status_code == 404 and r.json()["message"] == "Trade idea not found"


async def test_entries_are_private_to_their_customer(
    customer: httpx.AsyncClient, customer_b: httpx.AsyncClient, educator_a: httpx.AsyncClient
) -> None:
    idea = await create(educator_a)
    entry = await take(customer, ideaId=idea["id"], fillPrice=1.085)
    url = f"/api/me/journal/{entry['id']}"
    assert (await customer_b.get("/api/me/journal")).json()["entries"] == []
    assert (await customer_b.patch(url, json={"exitPrice": 1.2})).status_code == 404
    assert (await customer_b.delete(url)).status_code == 404
    assert (await educator_a.get("/api/me/journal")).status_code == 403
    assert (await educator_a.patch(url, json={"note": "x"})).status_code == 403
    # Untouched by the others' attempts; the owner can delete it.
    mine = (await customer.get("/api/me/journal")).json()["entries"]
    assert mine[0]["exitPrice"] is None and mine[0]["note"] is None
    assert (await customer.delete(url)).status_code == 204
    assert (await customer.get("/api/me/journal")).json()["entries"] == []
    assert (await customer.delete(url)).status_code == 404


async def test_a_deleted_idea_keeps_the_entry_with_its_levels(
    customer: httpx.AsyncClient, educator_a: httpx.AsyncClient
) -> None:
    idea = await create(
        educator_a, pair="GBP/USD", entry1="1.2500", entry2="1.2480", invalidationLevel="1.2400", exit2="1.2650"
    )
    entry = await take(customer, ideaId=idea["id"], fillPrice=1.25)
    assert (await educator_a.delete(f"/api/trade-ideas/{idea['id']}")).status_code in (200, 204)
    [kept] = (await customer.get("/api/me/journal")).json()["entries"]
    assert kept["id"] == entry["id"] and kept["ideaId"] is None and kept["ideaStatus"] is None
    assert (kept["pair"], kept["entry2"], kept["exit2"]) == ("GBP/USD", "1.2480", "1.2650")
    r = await customer.patch(f"/api/me/journal/{entry['id']}", json={"exitPrice": 1.24})
    assert r.status_code == 200 and r.json()["rMultiple"] == pytest.approx(-1.0)
