"""HTTP routes for trade ideas, their revisions, and customers' seen state."""

from typing import Annotated

from fastapi import Depends, Response, status

from tradeideas.core.clock import AppClock
from tradeideas.core.deps import DbSession, component
from tradeideas.core.fastlane import fast_router, query_model
from tradeideas.core.responses import EncodedJSON
from tradeideas.core.routing import api_router
from tradeideas.core.schemas import PathId
from tradeideas.ideas import service
from tradeideas.ideas.schemas import (
    IdeaCreate,
    IdeaListQuery,
    IdeaOut,
    IdeaPage,
    IdeaUpdate,
    RevisionOut,
    SeenRequest,
    StatusUpdate,
    UnseenCounts,
)
from tradeideas.permissions import AnyUser, CustomerOnly, EducatorOnly, ensure_owner

router = api_router(prefix="/api", tags=["trade ideas"])
# The customers' market and history pages, the busiest read: answered from memory, where FastAPI's general
# handler would cost more than the answer (decision record 0054).
fast = fast_router(prefix="/api", tags=["trade ideas"])


parse_list_query, LIST_QUERY_PARAMETERS = query_model(IdeaListQuery)


@fast.get("/trade-ideas", response_model=IdeaPage, openapi_extra=LIST_QUERY_PARAMETERS)
async def list_trade_ideas(
    principal: AnyUser,
    query: Annotated[IdeaListQuery, Depends(parse_list_query)],
    pages: Annotated[service.IdeaPages, Depends(component(service.IdeaPages))],
) -> Response:
    """Ideas newest first; `status=active` open, `completed` history, `closed` with an outcome; pass nextCursor on."""
    viewer = service.viewer_of(principal.id, principal.role)
    return EncodedJSON(await pages.json(viewer, query))


@router.post("/trade-ideas", status_code=status.HTTP_201_CREATED)
async def create_trade_idea(body: IdeaCreate, principal: EducatorOnly, db: DbSession, clock: AppClock) -> IdeaOut:
    """Publish a trade idea (status active) with up to 3 uploaded images."""
    idea = await service.create_idea(db, principal.id, body, clock.now())
    return await service.present_one(db, idea, service.viewer_of(principal.id, principal.role))


@router.post("/trade-ideas/seen")
async def mark_trade_ideas_seen(body: SeenRequest, principal: CustomerOnly, db: DbSession) -> UnseenCounts:
    """Mark ideas seen by id, or a whole market ({market}); returns the new unseen counts."""
    return await service.mark_seen(db, principal.id, body.idea_ids, body.market)


@router.get("/trade-ideas/{idea_id:int}", responses={404: {}})
async def get_trade_idea(idea_id: PathId, principal: AnyUser, db: DbSession) -> IdeaOut:
    """One trade idea."""
    idea = await service.get_idea(db, idea_id)
    return await service.present_one(db, idea, service.viewer_of(principal.id, principal.role))


@router.patch("/trade-ideas/{idea_id:int}", responses={404: {}, 409: {}})
async def update_trade_idea(
    idea_id: PathId, body: IdeaUpdate, principal: EducatorOnly, db: DbSession, clock: AppClock
) -> IdeaOut:
    """Edit an own idea (kept as revisions); its market, pair, direction, type and time frame fix after 15 min."""
    idea = await service.get_idea(db, idea_id)
    ensure_owner(principal, idea.educator_id)
    idea = await service.update_idea(db, idea, principal.id, body, clock.now())
    return await service.present_one(db, idea, service.viewer_of(principal.id, principal.role))


@router.put("/trade-ideas/{idea_id:int}", responses={404: {}, 409: {}})
async def set_trade_idea_status(
    idea_id: PathId, body: StatusUpdate, principal: EducatorOnly, db: DbSession, clock: AppClock
) -> IdeaOut:
    """Set an own idea's status and outcome; a recorded result can be corrected for 15 minutes, then 409."""
    idea = await service.get_idea(db, idea_id)
    ensure_owner(principal, idea.educator_id)
    idea = await service.set_status(db, idea, principal.id, body.status, body.outcome, body.close_price, clock.now())
    return await service.present_one(db, idea, service.viewer_of(principal.id, principal.role))


@router.delete("/trade-ideas/{idea_id:int}", status_code=status.HTTP_204_NO_CONTENT, responses={404: {}, 409: {}})
async def delete_trade_idea(idea_id: PathId, principal: EducatorOnly, db: DbSession, clock: AppClock) -> None:
    """Delete an own open idea (completed ideas stay in the track record: 409)."""
    idea = await service.get_idea(db, idea_id)
    ensure_owner(principal, idea.educator_id)
    await service.delete_idea(db, idea, clock.now())


@router.get("/trade-ideas/{idea_id:int}/revisions", responses={404: {}})
async def list_trade_idea_revisions(idea_id: PathId, principal: AnyUser, db: DbSession) -> list[RevisionOut]:
    """Every change made to an idea after publication, newest first, with the editor's name."""
    return await service.list_revisions(db, idea_id)


@router.get("/me/unseen-counts")
async def unseen_counts(
    principal: CustomerOnly, pages: Annotated[service.IdeaPages, Depends(component(service.IdeaPages))]
) -> UnseenCounts:
    """Unseen open ideas per market (0 where that market's notifications are off)."""
    return await pages.unseen_counts(principal.id)
