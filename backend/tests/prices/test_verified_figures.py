"""A filtered track record's verified figures and agreement rate count the same ideas as its educator's figures:
market, idea type, time frame, and the period (by the price check's settlement). Values computed by hand."""

import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import delete
from sqlalchemy.exc import DBAPIError

from tradeideas.core.deps import component_of
from tradeideas.ideas.models import TradeIdea
from tradeideas.prices.models import IdeaVerification
from tradeideas.trackrecords.cache import TrackRecordCache


@pytest.fixture
async def tf(app: FastAPI) -> AsyncIterator[str]:
    time_frame = f"V{uuid.uuid4().hex[:10]}"
    yield time_frame
    for attempt in range(3):  # the app's price checks may lock the same rows: PostgreSQL then aborts one of us
        try:
            async with app.state.db.sessionmaker() as s, s.begin():
                ids = (await s.execute(TradeIdea.__table__.select().where(TradeIdea.time_frame == time_frame))).all()
                await s.execute(delete(IdeaVerification).where(IdeaVerification.idea_id.in_([row.id for row in ids])))
                await s.execute(delete(TradeIdea).where(TradeIdea.time_frame == time_frame))
            break
        except DBAPIError:
            if attempt == 2:
                raise
    component_of(app, TrackRecordCache).drop_all()


NOW = datetime.now(UTC)
LONG_AGO = datetime(2020, 3, 2, 12, 0, tzinfo=UTC)

# (market, pair, idea type, verified state, verified outcome, verified R, educator's outcome, settled at)
IDEAS: list[tuple[str, str, str, str, str | None, float | None, str | None, datetime | None]] = [
    ("Crypto", "BTC/USDT", "Leverage", "settled", "exit2", 2.0, None, NOW),  # I1
    ("Crypto", "ETH/USDT", "Exchange", "settled", "invalidation", -1.0, "exit1", NOW),  # I2: differs
    ("Forex", "EUR/USD", "Leverage", "settled", "exit1", 1.0, "exit1", NOW),  # I3: agrees
    ("Crypto", "BTC/USDT", "Leverage", "settled", "not_triggered", None, None, NOW),  # I4
    ("Crypto", "SOL/USDT", "Leverage", "settled", "ambiguous", -1.0, "invalidation", NOW),  # I5: agrees (the stop)
    ("Forex", "GBP/USD", "Leverage", "unverifiable", None, None, None, None),  # I6
    ("Crypto", "BTC/USDT", "Leverage", "settled", "exit1", 1.0, None, LONG_AGO),  # I7: settled long ago
    ("Crypto", "BTC/USDT", "Leverage", "waiting", None, None, None, None),  # I8: not settled: not counted
]


async def record(client: httpx.AsyncClient, educator_id: int, **query: str) -> dict[str, Any]:
    r = await client.get(f"/api/educators/{educator_id}/track-record", params=query)
    assert r.status_code == 200, r.text
    data = r.json()
    return {"verified": data["verified"], "agreementRate": data["agreementRate"]}


def figures(settled: int, wins: int, losses: int, win_rate: float | None, total: float, average: float | None,
            unverifiable: int, agreement: float | None) -> dict[str, Any]:  # fmt: skip
    verified = {"settled": settled, "wins": wins, "losses": losses, "winRate": win_rate, "totalR": total,
                "averageR": average, "unverifiable": unverifiable}  # fmt: skip
    return {"verified": verified, "agreementRate": agreement}


async def _publish_checked(app: FastAPI, educator: httpx.AsyncClient, tf: str, ideas: list[tuple[Any, ...]]) -> int:
    """Publishes the ideas and writes their price checks as given; returns the educator's id."""
    rows = []
    for market, pair, idea_type, state, outcome, r, educator_outcome, settled_at in ideas:
        body = {"marketType": market, "orderType": "BUY", "ideaType": idea_type, "pair": pair, "timeFrame": tf,
                "entry1": "100", "invalidationLevel": "90", "exit1": "110", "exit2": "120"}  # fmt: skip
        created = await educator.post("/api/trade-ideas", json=body)
        assert created.status_code in (200, 201), created.text
        idea = created.json()
        rows.append(
            IdeaVerification(
                idea_id=idea["id"],
                educator_id=idea["educatorId"],
                feed="binance" if market == "Crypto" else "oanda",
                symbol=pair.replace("/", ""),
                state=state,
                done=state in ("settled", "unverifiable"),
                outcome=outcome,
                r_multiple=r,
                settled_at=settled_at,
                reason="no forex feed configured" if state == "unverifiable" else None,
                receipts=[],
                progress={},
                levels={},
                published_at=NOW,
                levels_fixed=True,
                educator_outcome=educator_outcome,
            )
        )
    async with app.state.db.sessionmaker() as s, s.begin():
        s.add_all(rows)
    component_of(app, TrackRecordCache).drop_all()  # written behind the events' back
    return int(idea["educatorId"])


async def test_verified_figures_follow_the_record_filters(
    app: FastAPI, educator_a: httpx.AsyncClient, customer: httpx.AsyncClient, tf: str
) -> None:
    educator_id = await _publish_checked(app, educator_a, tf, IDEAS)

    # Only the time frame: I1-I7. Decided: I1 +2, I2 -1, I3 +1, I5 -1, I7 +1 (I4 not triggered: settled, no R).
    # Agreement: I2 differs, I3 and I5 agree.
    assert await record(customer, educator_id, timeFrame=tf) == figures(6, 3, 2, 0.6, 2.0, 0.4, 1, 0.6667)
    # Crypto: I1, I2, I4, I5, I7: wins I1 I7, losses I2 I5; R 2 - 1 - 1 + 1 = 1 over 4; agreement I2 no, I5 yes.
    assert await record(customer, educator_id, timeFrame=tf, market="crypto") == figures(
        5, 2, 2, 0.5, 1.0, 0.25, 0, 0.5
    )
    # Crypto leverage: I1, I4, I5, I7: R 2 - 1 + 1 = 2 over 3 (0.67); agreement I5.
    assert await record(customer, educator_id, timeFrame=tf, market="crypto", ideaType="leverage") == figures(
        4, 2, 1, 0.6667, 2.0, 0.67, 0, 1.0
    )
    # ... settled since the start of this year: I7 (2020) drops out: I1, I4, I5.
    since = f"{NOW.year}-01-01"
    assert await record(
        customer, educator_id, timeFrame=tf, market="crypto", ideaType="leverage", since=since
    ) == figures(3, 1, 1, 0.5, 1.0, 0.5, 0, 1.0)
    # Forex: I3 settled (agrees), I6 unverifiable (counted apart).
    assert await record(customer, educator_id, timeFrame=tf, market="forex") == figures(1, 1, 0, 1.0, 1.0, 1.0, 1, 1.0)
    # Exchange ideas: I2 only.
    assert await record(customer, educator_id, timeFrame=tf, ideaType="exchange") == figures(
        1, 0, 1, 0.0, -1.0, -1.0, 0, 0.0
    )


async def test_a_manual_settlement_is_a_win_only_with_a_positive_r(
    app: FastAPI, educator_b: httpx.AsyncClient, customer: httpx.AsyncClient, tf: str
) -> None:
    manual: list[tuple[Any, ...]] = [
        ("Forex", "USD/JPY", "Leverage", "settled", "manual", 0.5, "manual", NOW),  # win, agrees
        ("Forex", "AUD/USD", "Leverage", "settled", "manual", -0.25, "exit1", NOW),  # loss, differs
        ("Forex", "EUR/GBP", "Leverage", "settled", "manual", None, None, NOW),  # loss without R
    ]
    educator_id = await _publish_checked(app, educator_b, tf, manual)
    # Decided 3 (1 win); R 0.5 - 0.25 = 0.25 over the 2 with R; agreement 1 of the 2 with both verdicts.
    assert await record(customer, educator_id, timeFrame=tf) == figures(3, 1, 2, 0.3333, 0.25, 0.12, 0, 0.5)
