"""The ideas as they stand in the table, read in batches: what `tradeideas verify-ledger` compares the ledger with,
and what the ledger records for ideas written before it (or by the demo seed)."""

from collections.abc import AsyncIterator, Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.ideas.models import TradeIdea

STATE_COLUMNS = (
    TradeIdea.id,
    TradeIdea.educator_id,
    TradeIdea.pair,
    TradeIdea.market_type,
    TradeIdea.order_type,
    TradeIdea.idea_type,
    TradeIdea.time_frame,
    TradeIdea.entry1,
    TradeIdea.entry2,
    TradeIdea.invalidation_level,
    TradeIdea.exit1,
    TradeIdea.exit2,
    TradeIdea.exit3,
    TradeIdea.setup_id,
    TradeIdea.reason,
    TradeIdea.status,
    TradeIdea.outcome,
    TradeIdea.close_price,
    TradeIdea.r_multiple,
    TradeIdea.created_at,
    TradeIdea.updated_at,
    TradeIdea.closed_at,
    TradeIdea.lesson_what_happened,
    TradeIdea.lesson_text,
    TradeIdea.lesson_at,
)


async def idea_states(db: AsyncSession, batch: int = 5000) -> AsyncIterator[Sequence[Any]]:
    """Every idea's identity, levels, status and outcome (rows with those attributes), by id, a batch at a time."""
    after = 0
    while True:
        rows = (
            await db.execute(select(*STATE_COLUMNS).where(TradeIdea.id > after).order_by(TradeIdea.id).limit(batch))
        ).all()
        if not rows:
            return
        yield rows
        after = rows[-1].id
