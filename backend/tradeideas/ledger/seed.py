"""Demo data: the ledger entries of the sample ideas the ideas domain's seed writes straight into its table."""

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.auth.schemas import DemoAccounts
from tradeideas.ideas import service as ideas
from tradeideas.ledger import service
from tradeideas.ledger.chain import entries_for_existing
from tradeideas.ledger.models import LedgerEntry
from tradeideas.settings import Settings


async def record_unledgered_ideas(db: AsyncSession, _settings: Settings, _demo: DemoAccounts) -> None:
    """Publication and result entries for every idea the ledger has never seen, in the order they happened."""
    await service.take_turn(db)
    known = set((await db.execute(select(LedgerEntry.subject_id).distinct())).scalars())
    fresh = [idea async for batch in ideas.idea_states(db) for idea in batch if idea.id not in known]
    await service.append_all(db, entries_for_existing(fresh))
