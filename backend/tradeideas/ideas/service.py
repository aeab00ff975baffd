"""The ideas domain's rules, one module per concern: `queries` (reading and presenting), `commands`
(changes, each publishing its event), `pages` (the cached JSON list page) and `setups` (the educators' named
setups their ideas are). Routers use this module."""

from collections.abc import Iterable
from typing import NamedTuple

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.ideas.commands import (
    create_idea,
    delete_idea,
    mark_seen,
    recount_unseen,
    set_lesson,
    set_status,
    shown_after_change,
    update_idea,
)
from tradeideas.ideas.models import IdeaStatus, TradeIdea
from tradeideas.ideas.pages import IdeaPages
from tradeideas.ideas.queries import (
    IDEA_NOT_FOUND,
    PUBLIC_VIEWER,
    Viewer,
    get_idea,
    list_revisions,
    normalise_status,
    present_one,
    viewer_of,
)
from tradeideas.ideas.schemas import IdeaOut
from tradeideas.ideas.setups import (
    create_setup,
    delete_setup,
    get_setup,
    list_setups,
    setups_of_ideas,
    update_setup,
)
from tradeideas.ideas.states import idea_states

__all__ = [
    "IDEA_NOT_FOUND",
    "IdeaPages",
    "IdeaResult",
    "Viewer",
    "completed_ideas_of",
    "create_idea",
    "create_setup",
    "delete_idea",
    "delete_setup",
    "educator_of",
    "get_idea",
    "get_setup",
    "idea_results",
    "idea_states",
    "is_open",
    "list_revisions",
    "list_setups",
    "mark_seen",
    "newest_idea",
    "normalise_status",
    "present_one",
    "public_idea",
    "recount_unseen",
    "set_lesson",
    "set_status",
    "setups_of_ideas",
    "shown_after_change",
    "update_idea",
    "update_setup",
    "viewer_of",
]


# ---- for other domains: an idea as everyone sees it, and its current result ------------------------


class IdeaResult(NamedTuple):
    status: str
    r_multiple: float | None


def is_open(idea: TradeIdea) -> bool:
    """Still open (active, not invalidated): what paid access closes to members whose plans do not include its
    educator; completed and invalidated ideas are part of the public record."""
    return not idea.completed and idea.status != IdeaStatus.INVALIDATED


async def public_idea(db: AsyncSession, idea_id: int) -> IdeaOut:
    """One idea as every viewer sees it (no NEW flag), read in the caller's transaction; 404 when there is none."""
    return await present_one(db, await get_idea(db, idea_id), PUBLIC_VIEWER)


async def newest_idea(db: AsyncSession, status: str) -> IdeaOut | None:
    """The most recently published idea with this status, as everyone sees it (demo data follows these)."""
    query = select(TradeIdea).where(TradeIdea.status == status).order_by(TradeIdea.created_at.desc()).limit(1)
    idea = (await db.execute(query)).scalar_one_or_none()
    return None if idea is None else await present_one(db, idea, PUBLIC_VIEWER)


async def idea_results(db: AsyncSession, idea_ids: Iterable[int]) -> dict[int, IdeaResult]:
    """Each idea's current status and R, by id (deleted ideas are missing)."""
    wanted = set(idea_ids)
    if not wanted:
        return {}
    rows = await db.execute(
        select(TradeIdea.id, TradeIdea.status, TradeIdea.r_multiple).where(TradeIdea.id.in_(wanted))
    )
    return {idea_id: IdeaResult(status, r) for idea_id, status, r in rows}


async def educator_of(db: AsyncSession, idea_id: int) -> int | None:
    """Who published the idea (None when there is no such idea)."""
    return (await db.execute(select(TradeIdea.educator_id).where(TradeIdea.id == idea_id))).scalar_one_or_none()


async def completed_ideas_of(db: AsyncSession, educator_id: int) -> list[int]:
    """The ids of the educator's completed ideas (wins and losses), oldest first (demo data follows some)."""
    query = (
        select(TradeIdea.id)
        .where(TradeIdea.educator_id == educator_id, TradeIdea.completed.is_(True))
        .order_by(TradeIdea.created_at, TradeIdea.id)
    )
    return list((await db.execute(query)).scalars())
