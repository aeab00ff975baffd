"""What the price checks need to know of ideas (decision 0050): their market, pair, publishing time, recorded
levels and the educator's outcome. Read here so the prices domain never touches the ideas tables."""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.ideas.models import IdeaRevision, TradeIdea
from tradeideas.ideas.outcomes import CORRECTION_WINDOW, LEVEL_FIELDS, Levels


@dataclass(frozen=True)
class PricedIdea:
    id: int
    educator_id: int
    market: str  # forex | crypto
    pair: str
    published_at: datetime
    levels: Levels  # as recorded: edits after the correction window are undone
    outcome: str | None  # the educator's


async def ideas_to_price(
    db: AsyncSession, after_id: int = 0, ids: Sequence[int] | None = None, limit: int = 1000
) -> list[PricedIdea]:
    """Ideas with an id above `after_id` (oldest first), or exactly `ids`, with their recorded levels."""
    stmt = select(TradeIdea).order_by(TradeIdea.id).limit(limit)
    stmt = stmt.where(TradeIdea.id.in_(list(ids))) if ids is not None else stmt.where(TradeIdea.id > after_id)
    ideas = list((await db.execute(stmt)).scalars())
    if not ideas:
        return []
    # Level edits made after each idea's correction window, newest first: undone to get the recorded levels.
    revisions = await db.execute(
        select(IdeaRevision.idea_id, IdeaRevision.field, IdeaRevision.old_value, IdeaRevision.created_at)
        .where(IdeaRevision.idea_id.in_([i.id for i in ideas]), IdeaRevision.field.in_(list(LEVEL_FIELDS)))
        .order_by(IdeaRevision.created_at.desc(), IdeaRevision.id.desc())
    )
    later: dict[int, list[tuple[str, str | None, datetime]]] = {}
    for idea_id, field, old_value, at in revisions.all():
        later.setdefault(idea_id, []).append((field, old_value, at))
    out = []
    for idea in ideas:
        levels = Levels(
            idea.order_type, idea.entry1, idea.entry2, idea.invalidation_level, idea.exit1, idea.exit2, idea.exit3
        )
        for field, old_value, at in later.get(idea.id, []):
            if at > idea.created_at + CORRECTION_WINDOW:
                levels = levels.with_field(field, old_value)
        out.append(PricedIdea(idea.id, idea.educator_id, idea.market, idea.pair, idea.created_at, levels, idea.outcome))
    return out
