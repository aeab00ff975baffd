"""Issue 37's tamperings that `verify-ledger` catches from the tables alone: every field that shapes a record is in
the ledger's payload and compared with the table, final price checks are compared with their recorded verdicts,
and the stored aggregates are recomputed from the ideas (each problem names the table, the row and the field)."""

from datetime import timedelta

import httpx
from fastapi import FastAPI
from sqlalchemy import delete, inspect, select, update

from tests.ledger.test_ledger import IDEA
from tradeideas.db import utcnow
from tradeideas.ideas.models import TradeIdea
from tradeideas.ledger.models import LedgerEntry
from tradeideas.ledger.verify import verify
from tradeideas.prices.models import IdeaVerification
from tradeideas.trackrecords.models import TrackRecordTotal


async def _problems(app: FastAPI) -> list[str]:
    async with app.state.db.sessionmaker() as s:
        return (await verify(s)).problems


async def _closed_idea(teacher: httpx.AsyncClient, pair: str) -> dict[str, object]:
    idea = (await teacher.post("/api/trade-ideas", json={**IDEA, "pair": pair})).json()
    closed = await teacher.put(f"/api/trade-ideas/{idea['id']}", json={"status": "unsuccessful"})
    assert closed.status_code == 200, closed.text
    return dict(closed.json())


async def test_t10_an_edited_track_record_total_is_named(ledger_app: FastAPI, teacher: httpx.AsyncClient) -> None:
    idea = await _closed_idea(teacher, "EUR/SEK")
    t = TrackRecordTotal
    whole = (t.educator_id == idea["educatorId"], t.grouping == "all", t.key == "")
    async with ledger_app.state.db.sessionmaker() as s, s.begin():
        await s.execute(update(t).where(*whole).values(wins=t.wins + 50, sum_r=t.sum_r + 100))
    try:
        problems = await _problems(ledger_app)
        row = f"track_record_totals row (educator {idea['educatorId']}, all, '')"
        assert any(p.startswith(f"{row} column wins is ") for p in problems), problems
        assert any(p.startswith(f"{row} column sum_r is ") for p in problems), problems
    finally:
        async with ledger_app.state.db.sessionmaker() as s, s.begin():
            await s.execute(update(t).where(*whole).values(wins=t.wins - 50, sum_r=t.sum_r - 100))
    assert await _problems(ledger_app) == []


async def test_t11_a_moved_closing_time_is_named(ledger_app: FastAPI, teacher: httpx.AsyncClient) -> None:
    idea = await _closed_idea(teacher, "GBP/SEK")
    async with ledger_app.state.db.sessionmaker() as s, s.begin():
        before = (await s.execute(select(TradeIdea.closed_at).where(TradeIdea.id == idea["id"]))).scalar_one()
        assert before is not None
        moved = before - timedelta(days=200)
        await s.execute(update(TradeIdea).where(TradeIdea.id == idea["id"]).values(closed_at=moved))
    try:
        problems = await _problems(ledger_app)
        assert problems[0].startswith(f"Idea #{idea['id']} GBP/SEK differs from the ledger"), problems
        assert "trade_ideas.closed_at '" in problems[0]
    finally:
        async with ledger_app.state.db.sessionmaker() as s, s.begin():
            await s.execute(update(TradeIdea).where(TradeIdea.id == idea["id"]).values(closed_at=before))
    assert await _problems(ledger_app) == []


async def test_t4_an_edited_outcome_is_named(ledger_app: FastAPI, teacher: httpx.AsyncClient) -> None:
    idea = await _closed_idea(teacher, "USD/SEK")
    async with ledger_app.state.db.sessionmaker() as s, s.begin():
        await s.execute(update(TradeIdea).where(TradeIdea.id == idea["id"]).values(outcome="exit1"))
    try:
        problems = await _problems(ledger_app)
        assert any("trade_ideas.outcome 'exit1'" in p for p in problems), problems
    finally:
        async with ledger_app.state.db.sessionmaker() as s, s.begin():
            await s.execute(update(TradeIdea).where(TradeIdea.id == idea["id"]).values(outcome=idea["outcome"]))
    assert await _problems(ledger_app) == []


async def test_a_price_check_verdict_the_ledger_never_recorded_is_named(
    ledger_app: FastAPI, teacher: httpx.AsyncClient
) -> None:
    idea = await _closed_idea(teacher, "CHF/SEK")
    async with ledger_app.state.db.sessionmaker() as s, s.begin():
        s.add(
            IdeaVerification(
                idea_id=idea["id"],
                educator_id=idea["educatorId"],
                state="settled",
                done=True,
                outcome="exit1",
                r_multiple=2.0,
                settled_at=utcnow(),
                receipts=[],
                progress={},
                levels={},
                published_at=utcnow(),
            )
        )
    try:
        problems = await _problems(ledger_app)
        assert f"idea_verifications row {idea['id']} is settled without a ledger entry for its verdict" in problems
    finally:
        async with ledger_app.state.db.sessionmaker() as s, s.begin():
            await s.execute(delete(IdeaVerification).where(IdeaVerification.idea_id == idea["id"]))
    assert await _problems(ledger_app) == []


async def test_t9_a_truncated_tail_is_named_by_its_days_fingerprint(
    ledger_app: FastAPI, teacher: httpx.AsyncClient
) -> None:
    assert (await teacher.post("/api/trade-ideas", json={**IDEA, "pair": "SEK/NOK"})).status_code == 201
    async with ledger_app.state.db.sessionmaker() as s, s.begin():
        row = (await s.execute(select(LedgerEntry).order_by(LedgerEntry.seq.desc()).limit(1))).scalar_one()
        kept = {a.key: getattr(row, a.key) for a in inspect(LedgerEntry).column_attrs}
        await s.execute(delete(LedgerEntry).where(LedgerEntry.seq == kept["seq"]))
    try:
        problems = await _problems(ledger_app)
        assert any(f"names entry seq {kept['seq']}, which is not in the chain" in p for p in problems), problems
    finally:
        async with ledger_app.state.db.sessionmaker() as s, s.begin():
            s.add(LedgerEntry(**kept))
    assert await _problems(ledger_app) == []
