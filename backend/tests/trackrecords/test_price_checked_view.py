"""The record's "Price-checked" view (decision 0102): figures, curve and groups from the price checks' verdicts of
the same selection, and each view's coverage: how many completed ideas were price-checked, why the others were
not, and the R difference the two verdicts give over the ideas both cover."""

from datetime import UTC, datetime, timedelta

import httpx
from fastapi import FastAPI
from sqlalchemy import delete

from tests.trackrecords.test_track_records_api import buy, complete, record
from tradeideas.core.deps import component_of
from tradeideas.prices.models import IdeaVerification
from tradeideas.trackrecords.cache import TrackRecordCache


def _verdict(idea_id: int, state: str, at: datetime, outcome: str | None = None, r: float | None = None,
             reason: str | None = None) -> IdeaVerification:  # fmt: skip
    return IdeaVerification(
        idea_id=idea_id, educator_id=1, feed="oanda", symbol="EURUSD", state=state, done=state != "waiting",
        outcome=outcome, r_multiple=r, settled_at=at if state == "settled" else None, reason=reason, receipts=[],
        progress={}, levels={}, published_at=at - timedelta(hours=1), levels_fixed=True, educator_outcome=None,
    )  # fmt: skip


async def test_the_price_checked_view_counts_the_verdicts_and_states_its_coverage(
    app: FastAPI, educator_a: httpx.AsyncClient, customer: httpx.AsyncClient, tf: str
) -> None:
    ideas = [await buy(educator_a, tf) for _ in range(5)]
    for idea in ideas[:4]:
        await complete(educator_a, idea, status="successful")  # the educator called four wins: +2 R each
    await complete(educator_a, ideas[4], status="unsuccessful")  # and a loss: -1 R
    now = datetime.now(UTC)
    async with app.state.db.sessionmaker() as s, s.begin():
        s.add_all(
            [
                _verdict(ideas[0]["id"], "settled", now - timedelta(minutes=3), "exit1", 2.0),
                _verdict(ideas[1]["id"], "settled", now - timedelta(minutes=2), "invalidation", -1.0),
                _verdict(ideas[2]["id"], "settled", now - timedelta(minutes=1), "not_triggered"),
                _verdict(ideas[3]["id"], "unverifiable", now, reason="not possible, no feed lists XYZ"),
            ]
        )
    component_of(app, TrackRecordCache).drop_all()  # written behind the events' back
    try:
        calls = await record(customer, timeFrame=tf)
        assert calls["source"] == "educator"
        assert (calls["completed"], calls["wins"], calls["losses"], calls["totalR"]) == (5, 4, 1, 7.0)
        checked = await record(customer, timeFrame=tf, source="verified")
        assert checked["source"] == "verified"
        # Every figure, the curve and the groups count the three settled verdicts, in settling order.
        assert (checked["completed"], checked["wins"], checked["losses"], checked["notTriggered"]) == (3, 1, 1, 1)
        assert (checked["totalR"], checked["winRate"], checked["bestR"], checked["worstR"]) == (1.0, 0.5, 2.0, -1.0)
        assert [p["cumulativeR"] for p in checked["equityCurve"]] == [2.0, 1.0]
        assert [(g["key"], g["completed"], g["totalR"]) for g in checked["byTimeFrame"]] == [(tf, 3, 1.0)]
        assert checked["statistics"]["decided"] == 2
        # Both views state the same coverage: 3 of 5 price-checked, why the other 2 were not, and the R gap.
        for view in (calls, checked):
            assert view["coverage"] == {
                "completed": 5,
                "priceChecked": 3,
                "notChecked": 2,
                "reasons": [
                    {"reason": "not possible, no feed lists XYZ", "ideas": 1},
                    {"reason": "not price-checked (completed before price checks began, or price checks were off)",
                     "ideas": 1},
                ],
                "educatorROnChecked": 6.0,  # three wins called, +2 R each
                "checkedROnChecked": 1.0,
                "rDifference": -5.0,
            }  # fmt: skip
        bad = await customer.get("/api/educators/1/track-record", params={"source": "mine"})
        assert bad.status_code == 422
    finally:
        async with app.state.db.sessionmaker() as s, s.begin():
            await s.execute(delete(IdeaVerification).where(IdeaVerification.idea_id.in_([i["id"] for i in ideas])))
        component_of(app, TrackRecordCache).drop_all()
