"""A recorded result is final after its correction window, and an idea's identity after its own.

Each test replays one way the audit rewrote a track record (issue #22), with time moved by the app's clock.
"""

from datetime import timedelta
from typing import Any

import httpx

from tests.trackrecords.test_track_records_api import buy, complete, record
from tradeideas.core.clock import Clock

RESULT_FIXED = "This idea's result is part of the track record and can no longer be changed."
IDENTITY_FIXED = (
    "This idea is published: its market, pair, direction, type, time frame, setup and reason can no longer be changed."
)
EURUSD = {"pair": "EUR/USD", "entry1": "1.1000", "invalidationLevel": "1.0900", "exit1": "1.1200"}


async def closed_loss(educator: httpx.AsyncClient, clock: Clock, tf: str) -> dict[str, Any]:
    """A 1.1000 / 1.0900 BUY stopped out (-1 R), recorded three days ago."""
    loss = await complete(educator, await buy(educator, tf, **EURUSD), status="unsuccessful")
    clock.advance(timedelta(days=3))
    return loss


async def refused(r: httpx.Response, status: int, message: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["message"] == message


async def unchanged(customer: httpx.AsyncClient, idea: dict[str, Any], tf: str) -> None:
    """The idea and the educator's record still say what was recorded: a loss of 1 R."""
    now = (await customer.get(f"/api/trade-ideas/{idea['id']}")).json()
    keep = ("status", "outcome", "closePrice", "closedAt", "rMultiple", "marketType", "pair", "ideaType", "timeFrame")
    assert {k: now[k] for k in keep} == {k: idea[k] for k in keep}
    figures = await record(customer, timeFrame=tf)
    assert (figures["losses"], figures["wins"], figures["totalR"], figures["deletedAfterPublish"]) == (1, 0, -1.0, 0)


async def test_an_old_loss_cannot_be_regraded_as_a_win(
    educator_a: httpx.AsyncClient, customer: httpx.AsyncClient, clock: Clock, tf: str
) -> None:
    loss = await closed_loss(educator_a, clock, tf)
    r = await educator_a.put(f"/api/trade-ideas/{loss['id']}", json={"status": "successful", "outcome": "exit1"})
    await refused(r, 409, RESULT_FIXED)
    await unchanged(customer, loss, tf)


async def test_an_old_loss_cannot_become_not_triggered(
    educator_a: httpx.AsyncClient, customer: httpx.AsyncClient, clock: Clock, tf: str
) -> None:
    loss = await closed_loss(educator_a, clock, tf)
    await refused(
        await educator_a.put(f"/api/trade-ideas/{loss['id']}", json={"status": "invalidated"}), 409, RESULT_FIXED
    )
    await unchanged(customer, loss, tf)


async def test_an_old_loss_cannot_be_reset_and_deleted(
    educator_a: httpx.AsyncClient, customer: httpx.AsyncClient, clock: Clock, tf: str
) -> None:
    loss = await closed_loss(educator_a, clock, tf)
    for reset in ("pending", "reset", "active"):
        await refused(await educator_a.put(f"/api/trade-ideas/{loss['id']}", json={"status": reset}), 409, RESULT_FIXED)
    r = await educator_a.delete(f"/api/trade-ideas/{loss['id']}")
    await refused(r, 409, "Completed ideas are part of the track record and cannot be deleted.")
    await unchanged(customer, loss, tf)
    # Repeating the recorded result is no change, so an offline retry of the original request still succeeds.
    again = await educator_a.put(f"/api/trade-ideas/{loss['id']}", json={"status": "unsuccessful"})
    assert again.status_code == 200 and again.json()["closedAt"] == loss["closedAt"]


async def test_a_manual_close_price_must_be_plausible(
    educator_a: httpx.AsyncClient, customer: httpx.AsyncClient, clock: Clock, tf: str
) -> None:
    idea = await buy(educator_a, tf, **EURUSD)
    url = f"/api/trade-ideas/{idea['id']}"
    r = await educator_a.put(url, json={"status": "successful", "outcome": "manual", "closePrice": "5.0"})
    assert r.status_code == 422, r.text
    assert r.json()["message"] == (
        "A close at 5.0 would make this idea +390.00 R: a manual close can be at most 20 R from the entry. "
        "Check the price."
    )
    for price, message in (
        ("0", "closePrice must be a positive number"),
        ("-1.1", "closePrice must be a positive number"),
        ("abc", "closePrice must be a number"),
        ("0.85", "A close at 0.85 would make this idea -25.00 R: a manual close can be at most 20 R from the entry. "
         "Check the price."),
    ):  # fmt: skip
        r = await educator_a.put(url, json={"status": "unsuccessful", "outcome": "manual", "closePrice": price})
        assert (r.status_code, r.json()["message"]) == (422, message)
    still = (await customer.get(url)).json()
    assert (still["status"], still["outcome"], still["closedAt"]) == ("active", None, None)  # nothing half-saved
    # 20 R itself is allowed: 1.1000 + 20 x 0.0100.
    done = await complete(educator_a, idea, status="successful", outcome="manual", closePrice="1.3000")
    assert done["rMultiple"] == 20.0
    # The same bound holds for a correction within the window, and for a SELL.
    r = await educator_a.put(url, json={"status": "successful", "outcome": "manual", "closePrice": "1.3001"})
    assert r.status_code == 422
    sell = await buy(
        educator_a, tf, **{**EURUSD, "orderType": "SELL", "invalidationLevel": "1.1100", "exit1": "1.0800"}
    )
    r = await educator_a.put(f"/api/trade-ideas/{sell['id']}", json={"status": "successful", "outcome": "manual",
                                                                      "closePrice": "0.8999"})  # fmt: skip
    assert r.status_code == 422 and "+20.01 R" in r.json()["message"]


async def test_an_old_idea_cannot_move_to_another_market_or_group(
    educator_a: httpx.AsyncClient, customer: httpx.AsyncClient, clock: Clock, tf: str
) -> None:
    loss = await closed_loss(educator_a, clock, tf)
    url = f"/api/trade-ideas/{loss['id']}"
    moves = {"marketType": "Crypto", "pair": "BTC/USDT", "ideaType": "Exchange", "timeFrame": "1W"}
    history = (await customer.get(f"{url}/revisions")).json()
    await refused(await educator_a.patch(url, json={**moves, "notes": "moved"}), 409, IDENTITY_FIXED)
    for field, value in (*moves.items(), ("orderType", "SELL")):
        await refused(await educator_a.patch(url, json={field: value}), 409, IDENTITY_FIXED)
    assert (await customer.get(url)).json()["notes"] is None  # nothing of the refused edit was saved
    assert (await customer.get(f"{url}/revisions")).json() == history
    await unchanged(customer, loss, tf)
    # Notes, and levels (the record keeps their recorded values), stay editable; so does sending the same identity.
    r = await educator_a.patch(url, json={"notes": "Stopped by the NFP spike", "exit1": "1.1300", "pair": "EUR/USD"})
    assert r.status_code == 200, r.text
    assert (r.json()["notes"], r.json()["exit1"], r.json()["rMultiple"]) == ("Stopped by the NFP spike", "1.1300", -1.0)
    await unchanged(customer, loss, tf)


async def test_the_windows_run_from_publishing_and_from_recording(
    educator_a: httpx.AsyncClient, customer: httpx.AsyncClient, clock: Clock, tf: str
) -> None:
    idea = await buy(educator_a, tf, **EURUSD)
    url = f"/api/trade-ideas/{idea['id']}"
    assert idea["resultFixedAt"] is None
    clock.advance(timedelta(minutes=14))
    assert (await educator_a.patch(url, json={"timeFrame": f"{tf}x"})).status_code == 200  # a correction
    assert (await educator_a.patch(url, json={"timeFrame": tf})).status_code == 200
    clock.advance(timedelta(minutes=2))
    await refused(await educator_a.patch(url, json={"timeFrame": "1D"}), 409, IDENTITY_FIXED)

    # Recorded two days after publishing: the result has its own 15 minutes, counted from closedAt.
    clock.advance(timedelta(days=2))
    loss = await complete(educator_a, idea, status="unsuccessful")
    assert loss["resultFixedAt"] is not None
    clock.advance(timedelta(minutes=10))
    win = await complete(educator_a, loss, status="successful", outcome="exit1")
    assert (win["rMultiple"], win["closedAt"], win["resultFixedAt"]) == (2.0, loss["closedAt"], loss["resultFixedAt"])
    clock.advance(timedelta(minutes=4))
    reopened = await complete(educator_a, win, status="pending")  # 14 minutes after recording: still a correction
    assert (reopened["closedAt"], reopened["resultFixedAt"]) == (None, None)
    closed = await complete(educator_a, reopened, status="unsuccessful")
    clock.advance(timedelta(minutes=16))
    await refused(await educator_a.put(url, json={"status": "successful"}), 409, RESULT_FIXED)
    assert (await record(customer, timeFrame=tf))["totalR"] == -1.0
    assert closed["identityFixedAt"] == idea["identityFixedAt"]
