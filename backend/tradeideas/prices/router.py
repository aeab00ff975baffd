"""HTTP routes of the price checks: an idea's candles."""

from tradeideas.core.clock import AppClock
from tradeideas.core.deps import DbSession
from tradeideas.core.routing import api_router
from tradeideas.core.schemas import PathId
from tradeideas.ideas import service as ideas_service
from tradeideas.permissions import AnyUser
from tradeideas.prices import service
from tradeideas.prices.schemas import CandlesOut

router = api_router(prefix="/api", tags=["price checks"])


@router.get("/trade-ideas/{idea_id:int}/candles", responses={404: {}})
async def idea_candles(idea_id: PathId, principal: AnyUser, db: DbSession, clock: AppClock) -> CandlesOut:
    """The idea's symbol from an hour before publishing to settlement (or now), as stored; bid candles for forex."""
    await ideas_service.get_idea(db, idea_id)  # 404 for an unknown idea
    return await service.candles_for(db, idea_id, clock.now())
