"""The demo history: every educator gets a believable six months of completed ideas, written through the commands,
so their records show real statistics and the ledger holds for every one of them."""

from datetime import timedelta

from fastapi import FastAPI
from sqlalchemy import func, select

from tradeideas.db import utcnow
from tradeideas.ideas.models import TradeIdea
from tradeideas.ideas.seed import SAMPLES
from tradeideas.ledger.models import LedgerEntry
from tradeideas.ledger.verify import verify


async def test_each_educator_has_six_months_of_history_in_the_ledger(ledger_app: FastAPI) -> None:
    async with ledger_app.state.db.sessionmaker() as s:
        closed = (
            await s.execute(
                select(TradeIdea.educator_id, TradeIdea.status, TradeIdea.market, TradeIdea.created_at).where(
                    TradeIdea.closed_at.is_not(None), TradeIdea.id > len(SAMPLES)
                )
            )
        ).all()
        by_educator: dict[int, list[tuple[str, str]]] = {}
        for educator_id, status, market, created_at in closed:
            by_educator.setdefault(educator_id, []).append((status, market))
            assert utcnow() - timedelta(days=183) < created_at < utcnow()
        assert sorted(by_educator) == list(range(1, 8))
        for educator_id, ideas in by_educator.items():
            statuses = [status for status, _ in ideas]
            assert 40 <= len(ideas) <= 80, educator_id
            # A realistic mix: wins, losses and not-triggered ideas, none of them dominating.
            for status in ("successful", "unsuccessful", "invalidated"):
                assert 0.04 < statuses.count(status) / len(ideas) < 0.7, (educator_id, status)
        markets = {market for ideas in by_educator.values() for _, market in ideas}
        assert markets == {"forex", "crypto"}
        # Written through the commands: each history idea was published and then got its result in the ledger.
        kinds = dict(
            (
                await s.execute(
                    select(LedgerEntry.kind, func.count())
                    .where(LedgerEntry.subject_id > len(SAMPLES))
                    .group_by(LedgerEntry.kind)
                )
            ).all()
        )
        assert kinds["idea.published"] >= len(closed) and kinds["idea.result"] >= len(closed)
        report = await verify(s)
        assert report.intact, report.problems
