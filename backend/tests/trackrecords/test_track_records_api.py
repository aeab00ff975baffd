"""Outcomes through the API, the correction window, delete rules and the track-record routes."""

import csv
import io
from datetime import timedelta
from typing import Any

import httpx
from fastapi import FastAPI

from tests.ideas.test_ideas import create
from tradeideas.core.clock import Clock
from tradeideas.core.deps import component_of
from tradeideas.trackrecords.cache import TrackRecordCache
from tradeideas.trackrecords.service import rebuild

FIGURES = ("ideas", "active", "completed", "wins", "losses", "notTriggered", "winRate", "averageR", "totalR",
           "profitFactor", "maxDrawdownR", "bestR", "worstR", "deletedAfterPublish")  # fmt: skip


async def buy(client: httpx.AsyncClient, tf: str, **overrides: Any) -> dict[str, Any]:
    """BUY at 100, invalidation 90 (risk 10), exits 120 / 130: exit 1 is +2 R, exit 2 +3 R."""
    fields = {"pair": "EUR/USD", "entry1": "100", "invalidationLevel": "90", "exit1": "120", "exit2": "130"}
    return await create(client, timeFrame=tf, **{**fields, **overrides})


async def complete(client: httpx.AsyncClient, idea: dict[str, Any], **body: Any) -> dict[str, Any]:
    r = await client.put(f"/api/trade-ideas/{idea['id']}", json=body)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


async def record(client: httpx.AsyncClient, educator_id: int = 1, **params: str) -> dict[str, Any]:
    r = await client.get(f"/api/educators/{educator_id}/track-record", params=params)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


# ------------------------------------------------------------------ outcomes


async def test_outcomes_are_recorded_with_r_and_closing_time(educator_a: httpx.AsyncClient, tf: str) -> None:
    idea = await buy(educator_a, tf)
    assert (idea["outcome"], idea["closePrice"], idea["closedAt"], idea["rMultiple"]) == (None, None, None, None)
    done = await complete(educator_a, idea, status="successful", outcome="exit2")
    assert (done["status"], done["outcome"], done["rMultiple"]) == ("successful", "exit2", 3.0)
    assert done["closedAt"] is not None
    # The one-click buttons: successful means exit 1, unsuccessful means stopped at invalidation.
    win = await complete(educator_a, await buy(educator_a, tf), status="successful")
    assert (win["outcome"], win["rMultiple"]) == ("exit1", 2.0)
    loss = await complete(educator_a, await buy(educator_a, tf), status="unsuccessful")
    assert (loss["status"], loss["outcome"], loss["rMultiple"]) == ("unsuccessful", "invalidation", -1.0)
    skipped = await complete(educator_a, await buy(educator_a, tf), status="invalid")
    assert (skipped["status"], skipped["outcome"], skipped["rMultiple"]) == ("invalidated", "not_triggered", None)
    # A manual close is a win in profit and a loss otherwise, whatever button sent it.
    manual = await complete(educator_a, await buy(educator_a, tf), status="unsuccessful", outcome="manual",
                            closePrice="104.5")  # fmt: skip
    assert (manual["status"], manual["closePrice"], manual["rMultiple"]) == ("successful", "104.5", 0.45)
    manual = await complete(educator_a, await buy(educator_a, tf), status="successful", outcome="manual",
                            closePrice=97)  # fmt: skip
    assert (manual["status"], manual["closePrice"], manual["rMultiple"]) == ("unsuccessful", "97", -0.3)
    # Reset clears the outcome.
    reopened = await complete(educator_a, done, status="pending")
    assert (reopened["outcome"], reopened["closedAt"], reopened["rMultiple"]) == (None, None, None)


async def test_sell_two_entries_and_words_as_levels(educator_a: httpx.AsyncClient, tf: str) -> None:
    sell = await buy(educator_a, tf, orderType="SELL", entry1="1,000", entry2="1,010", invalidationLevel="1,025",
                     exit1="985", exit2="960")  # fmt: skip
    # entry 1005, risk 20: exit 2 at 960 is (1005 - 960) / 20 = 2.25 R.
    assert (await complete(educator_a, sell, status="successful", outcome="exit2"))["rMultiple"] == 2.25
    vague = await buy(educator_a, tf, exit1="the weekly high")
    out = await complete(educator_a, vague, status="successful")
    assert (out["status"], out["rMultiple"]) == ("successful", None)  # still a win, without R
    figures = await record(educator_a, timeFrame=tf)
    assert (figures["wins"], figures["totalR"], figures["averageR"]) == (2, 2.25, 2.25)


async def test_bad_outcomes_are_refused_and_nothing_changes(educator_a: httpx.AsyncClient, tf: str) -> None:
    idea = await buy(educator_a, tf, exit2="")
    url = f"/api/trade-ideas/{idea['id']}"
    cases = [
        ({"status": "successful", "outcome": "exit2"}, "This idea has no Exit 2"),
        ({"status": "successful", "outcome": "manual"}, "A manual close needs a numeric closePrice"),
        ({"status": "successful", "outcome": "manual", "closePrice": "about 1.09"}, "closePrice must be a number"),
        ({"status": "unsuccessful", "outcome": "exit1"}, "Outcome exit1 does not fit status unsuccessful"),
        ({"status": "pending", "outcome": "exit1"}, "An outcome is only given when an idea is completed"),
    ]
    for body, message in cases:
        r = await educator_a.put(url, json=body)
        assert r.status_code == 422 and r.json()["message"] == message, (body, r.text)
    r = await educator_a.put(url, json={"status": "successful", "outcome": "exit9"})
    assert r.status_code == 422
    after = (await educator_a.get(url)).json()
    assert (after["status"], after["outcome"]) == ("active", None)
    assert (await educator_a.get(url + "/revisions")).json() == []
    assert (await record(educator_a, timeFrame=tf))["completed"] == 0


# ------------------------------------------------------------------ integrity


async def test_r_uses_the_levels_at_the_end_of_the_correction_window(
    educator_a: httpx.AsyncClient, customer: httpx.AsyncClient, clock: Clock, tf: str
) -> None:
    corrected = await buy(educator_a, tf)
    clock.advance(timedelta(minutes=5))
    fixed = (await educator_a.patch(f"/api/trade-ideas/{corrected['id']}", json={"exit1": "125"})).json()
    assert fixed["editedAfterPublish"] is False  # a correction
    late = await buy(educator_a, tf)
    clock.advance(timedelta(minutes=16))
    moved = (await educator_a.patch(f"/api/trade-ideas/{late['id']}", json={"exit1": "150", "entry1": "95"})).json()
    assert moved["editedAfterPublish"] is True and moved["exit1"] == "150"
    assert (await complete(educator_a, corrected, status="successful"))["rMultiple"] == 2.5
    done = await complete(educator_a, late, status="successful")
    assert done["rMultiple"] == 2.0  # 120 from 100, not 150 from 95
    assert done["exit1"] == "150"  # the edit still shows ...
    fields = {r["field"] for r in (await customer.get(f"/api/trade-ideas/{late['id']}/revisions")).json()}
    assert {"exit1", "entry1"} <= fields  # ... and is in the history
    # Editing after completion does not change the recorded R either.
    clock.advance(timedelta(minutes=5))
    again = (await educator_a.patch(f"/api/trade-ideas/{late['id']}", json={"exit1": "190"})).json()
    assert again["rMultiple"] == 2.0
    assert (await record(customer, timeFrame=tf))["totalR"] == 4.5


async def test_delete_rules(educator_a: httpx.AsyncClient, customer: httpx.AsyncClient, clock: Clock, tf: str) -> None:
    done = await complete(educator_a, await buy(educator_a, tf), status="unsuccessful")
    r = await educator_a.delete(f"/api/trade-ideas/{done['id']}")
    assert r.status_code == 409
    assert r.json()["message"] == "Completed ideas are part of the track record and cannot be deleted."
    assert (await customer.get(f"/api/trade-ideas/{done['id']}")).status_code == 200
    skipped = await complete(educator_a, await buy(educator_a, tf), status="invalidated")
    assert (await educator_a.delete(f"/api/trade-ideas/{skipped['id']}")).status_code == 409

    corrected = await buy(educator_a, tf)
    clock.advance(timedelta(minutes=14))
    assert (await educator_a.delete(f"/api/trade-ideas/{corrected['id']}")).status_code == 204
    assert (await record(customer, timeFrame=tf))["deletedAfterPublish"] == 0  # a correction leaves no trace

    withdrawn = await buy(educator_a, tf, pair="BTC/USDT", marketType="Crypto")
    clock.advance(timedelta(minutes=16))
    assert (await educator_a.delete(f"/api/trade-ideas/{withdrawn['id']}")).status_code == 204
    figures = await record(customer, timeFrame=tf)
    assert figures["deletedAfterPublish"] == 1
    assert {g["key"]: g["deletedAfterPublish"] for g in figures["byMarket"]} == {"crypto": 1, "forex": 0}
    listed = {s["educator"]["id"]: s for s in (await customer.get("/api/educators/track-records")).json()}
    assert listed[1]["deletedAfterPublish"] >= 1


# ------------------------------------------------------------------ track records


async def test_record_figures_groups_and_curve(
    app: FastAPI, educator_a: httpx.AsyncClient, customer: httpx.AsyncClient, clock: Clock, tf: str
) -> None:
    crypto = {"pair": "ETH/USDT", "marketType": "Crypto", "ideaType": "Exchange"}
    await complete(educator_a, await buy(educator_a, tf), status="successful", outcome="exit2")  # +3
    await complete(educator_a, await buy(educator_a, tf, **crypto), status="unsuccessful")  # -1
    clock.advance(timedelta(days=2))
    await complete(educator_a, await buy(educator_a, tf), status="unsuccessful")  # -1
    await complete(educator_a, await buy(educator_a, tf, **crypto), status="successful")  # +2
    await complete(educator_a, await buy(educator_a, tf), status="invalidated")  # not triggered
    await buy(educator_a, tf)  # still open
    got = await record(customer, timeFrame=tf)
    assert got["educator"]["name"] == "Alex Morgan" and got["educator"]["slug"] == "alex-morgan"
    expected = {"ideas": 6, "active": 1, "completed": 5, "wins": 2, "losses": 2, "notTriggered": 1, "winRate": 0.5,
                "averageR": 0.75, "totalR": 3.0, "profitFactor": 2.5, "maxDrawdownR": 2.0, "bestR": 3.0,
                "worstR": -1.0, "deletedAfterPublish": 0}  # fmt: skip
    assert {k: got[k] for k in FIGURES} == expected
    # One point per completed idea with an R, in closing order (the not-triggered idea has none).
    assert [p["cumulativeR"] for p in got["equityCurve"]] == [3.0, 2.0, 1.0, 3.0]
    moments = [p["at"] for p in got["equityCurve"]]
    assert moments == sorted(moments) and len(set(moments)) == 4
    by_market = {g["key"]: g for g in got["byMarket"]}
    assert (by_market["forex"]["totalR"], by_market["forex"]["active"]) == (2.0, 1)
    assert (by_market["crypto"]["wins"], by_market["crypto"]["totalR"]) == (1, 1.0)
    assert [g["key"] for g in got["byIdeaType"]] == ["Exchange", "Leverage"]
    assert [g["key"] for g in got["byTimeFrame"]] == [tf]
    assert sum(g["completed"] for g in got["byMonth"]) == 5
    # Filters narrow every figure.
    crypto_only = await record(customer, timeFrame=tf, market="crypto", ideaType="exchange")
    assert (crypto_only["completed"], crypto_only["totalR"], crypto_only["maxDrawdownR"]) == (2, 1.0, 1.0)
    later = (clock.now() - timedelta(days=1)).date().isoformat()
    recent = await record(customer, timeFrame=tf, since=later)
    assert (recent["completed"], recent["totalR"]) == (3, 1.0)
    # The kept figures are exactly what a rebuild from the ideas gives.
    before = await record(customer)
    async with app.state.db.sessionmaker() as s, s.begin():
        await rebuild(s)
    component_of(app, TrackRecordCache).drop_all()
    assert await record(customer) == before


async def test_reset_and_regrade_move_the_record(educator_a: httpx.AsyncClient, customer: httpx.AsyncClient,
                                                  tf: str) -> None:  # fmt: skip
    idea = await complete(educator_a, await buy(educator_a, tf), status="successful")
    assert (await record(customer, timeFrame=tf))["totalR"] == 2.0
    await complete(educator_a, idea, status="successful", outcome="exit2")  # re-graded: same closing day
    assert (await record(customer, timeFrame=tf))["totalR"] == 3.0
    await complete(educator_a, idea, status="pending")
    got = await record(customer, timeFrame=tf)
    assert (got["completed"], got["active"], got["totalR"], got["equityCurve"]) == (0, 1, 0.0, [])


async def test_list_has_every_educator_and_matches_their_record(customer: httpx.AsyncClient) -> None:
    r = await customer.get("/api/educators/track-records")
    assert r.status_code == 200
    listed = r.json()
    assert [s["educator"]["id"] for s in listed] == [1, 2, 3, 4, 5, 6, 7]
    assert all(s["educator"]["specialty"] for s in listed)
    for summary in listed[:3]:
        full = await record(customer, summary["educator"]["id"])
        assert {k: summary[k] for k in FIGURES} == {k: full[k] for k in FIGURES}
        # The list's sparkline: at most 61 points of the full curve, in order, ending where it ends.
        line, curve = summary["equityCurve"], full["equityCurve"]
        assert len(line) <= 61 and line[-1:] == curve[-1:]
        assert all(point in curve for point in line) and line == sorted(line, key=lambda p: p["at"])
    seeded = next(s for s in listed if s["educator"]["id"] == 7)
    assert seeded["completed"] >= 2 and seeded["equityCurve"]  # the demo history is counted


async def test_unknown_educator_and_bad_filters(customer: httpx.AsyncClient, educator_b: httpx.AsyncClient) -> None:
    assert (await customer.get("/api/educators/999/track-record")).status_code == 404
    customer_id = (await customer.get("/api/auth/user")).json()["id"]
    r = await customer.get(f"/api/educators/{customer_id}/track-record")
    assert r.status_code == 404 and r.json()["message"] == "Educator not found"
    for params in (
        {"market": "stocks"},
        {"ideaType": "spot"},
        {"since": "yesterday"},
        {"since": "0"},
        {"since": "2026-02-30"},
        {"timeFrame": "x" * 33},
    ):
        assert (await customer.get("/api/educators/1/track-record", params=params)).status_code == 422
    assert (await educator_b.get("/api/educators/1/track-record")).status_code == 200  # educators may look too


async def test_anonymous_callers_see_no_record(anon: httpx.AsyncClient) -> None:
    assert (await anon.get("/api/educators/track-records")).status_code == 401
    assert (await anon.get("/api/educators/1/track-record")).status_code == 401
    assert (await anon.get("/api/educators/1/track-record/ideas.csv")).status_code == 401


async def test_csv_lists_completed_ideas_with_levels_outcome_dates_and_r(
    educator_b: httpx.AsyncClient, customer: httpx.AsyncClient, tf: str
) -> None:
    await complete(educator_b, await buy(educator_b, tf, notes="x"), status="successful", outcome="exit2")
    await complete(educator_b, await buy(educator_b, tf, exit1="=HYPERLINK(1)"), status="unsuccessful",
                   outcome="manual", closePrice="95")  # fmt: skip
    await buy(educator_b, tf)  # open: not exported
    r = await customer.get("/api/educators/2/track-record/ideas.csv")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    assert "attachment" in r.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(r.text)))
    mine = [row for row in rows if row["timeFrame"] == tf]
    assert [(m["outcome"], m["rMultiple"], m["status"]) for m in mine] == [
        ("exit2", "3.00", "successful"),
        ("manual", "-0.50", "unsuccessful"),
    ]
    assert mine[0]["entry1"] == "100" and mine[0]["exit2"] == "130" and mine[0]["closedAt"] and mine[0]["publishedAt"]
    assert mine[1]["closePrice"] == "95" and mine[1]["exit1"] == "'=HYPERLINK(1)"
    assert (await customer.get("/api/educators/999/track-record/ideas.csv")).status_code == 404


async def test_the_completed_ideas_list_follows_the_records_filters(
    educator_a: httpx.AsyncClient, customer: httpx.AsyncClient, clock: Clock, tf: str
) -> None:
    """One selection for the whole page: the list of completed ideas (the fast list) takes the record's market, idea
    type, time frame (any case) and period, and lists exactly the ideas the record counts."""
    forex = await buy(educator_a, tf)
    crypto = await buy(educator_a, tf, marketType="Crypto", pair="BTC/USDT", ideaType="Exchange")
    other_frame = await buy(educator_a, f"{tf}x")
    still_open = await buy(educator_a, tf)
    old = await buy(educator_a, tf)
    await complete(educator_a, old, status="successful")
    clock.advance(timedelta(days=3))
    for idea in (forex, crypto, other_frame):
        await complete(educator_a, idea, status="unsuccessful")
    since = (clock.now() - timedelta(days=1)).date().isoformat()

    async def listed(**query: str) -> list[int]:
        params = {"educatorId": "1", "status": "closed", "limit": "100", "timeFrame": tf.lower(), **query}
        r = await customer.get("/api/trade-ideas", params=params)
        assert r.status_code == 200, r.text
        return [i["id"] for i in r.json()["items"]]

    assert await listed() == [old["id"], crypto["id"], forex["id"]]  # newest published first; not the open one
    assert await listed(market="forex") == [old["id"], forex["id"]]
    assert await listed(ideaType="exchange") == [crypto["id"]]
    assert await listed(since=since) == [crypto["id"], forex["id"]]
    assert await listed(market="crypto", since=since) == [crypto["id"]]
    # The record's own count of completed ideas for the same selection matches the list.
    counted = await record(customer, timeFrame=tf, since=since)
    assert counted["completed"] == len(await listed(since=since))
    assert still_open["id"] not in await listed() and other_frame["id"] not in await listed()
    for day in ("2026-02-30", "0", "yesterday"):
        bad = await customer.get("/api/trade-ideas", params={"status": "closed", "since": day})
        assert bad.status_code == 422, day
