"""HTTP routes of the price checks: an idea's candles."""

from typing import Annotated

from fastapi import Depends

from tradeideas.access import AccessRule
from tradeideas.core.clock import AppClock
from tradeideas.core.deps import DbSession, component
from tradeideas.core.routing import api_router
from tradeideas.core.schemas import PathId
from tradeideas.ideas import service as ideas_service
from tradeideas.permissions import AnyUser
from tradeideas.prices import reads
from tradeideas.prices.schemas import CandlesOut

router = api_router(prefix="/api", tags=["price checks"])


@router.get("/trade-ideas/{idea_id:int}/candles", responses={403: {}, 404: {}})
async def idea_candles(
    idea_id: PathId,
    principal: AnyUser,
    db: DbSession,
    clock: AppClock,
    access: Annotated[AccessRule, Depends(component(AccessRule))],
) -> CandlesOut:
    """The idea's symbol from an hour before publishing to settlement (or now), as stored; bid candles for forex."""
    idea = await ideas_service.get_idea(db, idea_id)  # 404 for an unknown idea
    await access.ensure_idea(principal, idea.educator_id, ideas_service.is_open(idea))  # paid access (issue #40)
    return await reads.candles_for(db, idea_id, clock.now())
