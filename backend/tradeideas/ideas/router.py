"""HTTP routes for trade ideas, their revisions, educators' setups, and customers' seen state."""

from typing import Annotated

from fastapi import Depends, Response, status

from tradeideas.access import AccessRule
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
    LessonIn,
    RevisionOut,
    SeenRequest,
    SetupCreate,
    SetupOut,
    SetupUpdate,
    StatusUpdate,
    UnseenCounts,
)
from tradeideas.permissions import AnyUser, CustomerOnly, EducatorOnly, ensure_owner

router = api_router(prefix="/api", tags=["trade ideas"])
# The customers' market and history pages, the busiest read: answered from memory, where FastAPI's general
# handler would cost more than the answer (decision record 0054).
fast = fast_router(prefix="/api", tags=["trade ideas"])


parse_list_query, LIST_QUERY_PARAMETERS = query_model(IdeaListQuery)
Access = Annotated[AccessRule, Depends(component(AccessRule))]


@fast.get("/trade-ideas", response_model=IdeaPage, openapi_extra=LIST_QUERY_PARAMETERS)
async def list_trade_ideas(
    principal: AnyUser,
    query: Annotated[IdeaListQuery, Depends(parse_list_query)],
    pages: Annotated[service.IdeaPages, Depends(component(service.IdeaPages))],
    access: Access,
) -> Response:
    """Ideas newest first; `status=active` open, `completed` history, `closed` with an outcome; pass nextCursor on."""
    viewer = service.viewer_of(principal.id, principal.role)
    return EncodedJSON(await pages.json(viewer, query, await access.of(principal)))


@router.post("/trade-ideas", status_code=status.HTTP_201_CREATED)
async def create_trade_idea(body: IdeaCreate, principal: EducatorOnly, db: DbSession, clock: AppClock) -> IdeaOut:
    """Publish a trade idea (status active) with up to 3 uploaded images."""
    idea = await service.create_idea(db, principal.id, body, clock.now())
    return await service.shown_after_change(db, idea, service.viewer_of(principal.id, principal.role))


@router.post("/trade-ideas/seen")
async def mark_trade_ideas_seen(
    body: SeenRequest, principal: CustomerOnly, db: DbSession, access: Access
) -> UnseenCounts:
    """Mark ideas seen by id, or a whole market ({market}); returns the new unseen counts."""
    opened = await access.of(principal)
    educators = None if opened.everything else opened.educators
    return await service.mark_seen(db, principal.id, body.idea_ids, body.market, educators)


@router.get("/trade-ideas/{idea_id:int}", responses={403: {}, 404: {}})
async def get_trade_idea(idea_id: PathId, principal: AnyUser, db: DbSession, access: Access) -> IdeaOut:
    """One trade idea (an open one only to members whose plans include its educator)."""
    idea = await service.get_idea(db, idea_id)
    await access.ensure_idea(principal, idea.educator_id, service.is_open(idea))
    return await service.present_one(db, idea, service.viewer_of(principal.id, principal.role))


@router.patch("/trade-ideas/{idea_id:int}", responses={404: {}, 409: {}})
async def update_trade_idea(
    idea_id: PathId, body: IdeaUpdate, principal: EducatorOnly, db: DbSession, clock: AppClock
) -> IdeaOut:
    """Edit an own idea (kept as revisions); its market, pair, direction, type and time frame fix after 15 min."""
    idea = await service.get_idea(db, idea_id)
    ensure_owner(principal, idea.educator_id)
    idea = await service.update_idea(db, idea, principal.id, body, clock.now())
    return await service.shown_after_change(db, idea, service.viewer_of(principal.id, principal.role))


@router.put("/trade-ideas/{idea_id:int}", responses={404: {}, 409: {}})
async def set_trade_idea_status(
    idea_id: PathId, body: StatusUpdate, principal: EducatorOnly, db: DbSession, clock: AppClock
) -> IdeaOut:
    """Set an own idea's status and outcome; a recorded result can be corrected for 15 minutes, then 409."""
    idea = await service.get_idea(db, idea_id)
    ensure_owner(principal, idea.educator_id)
    idea = await service.set_status(db, idea, principal.id, body.status, body.outcome, body.close_price, clock.now())
    return await service.shown_after_change(db, idea, service.viewer_of(principal.id, principal.role))


@router.put("/trade-ideas/{idea_id:int}/lesson", responses={403: {}, 404: {}, 409: {}})
async def set_trade_idea_lesson(
    idea_id: PathId, body: LessonIn, principal: EducatorOnly, db: DbSession, clock: AppClock
) -> IdeaOut:
    """Add an own completed idea's lesson; it can be corrected for 15 minutes, then 409."""
    idea = await service.get_idea(db, idea_id)
    ensure_owner(principal, idea.educator_id)
    idea = await service.set_lesson(db, idea, body, clock.now())
    return await service.shown_after_change(db, idea, service.viewer_of(principal.id, principal.role))


@router.delete("/trade-ideas/{idea_id:int}", status_code=status.HTTP_204_NO_CONTENT, responses={404: {}, 409: {}})
async def delete_trade_idea(idea_id: PathId, principal: EducatorOnly, db: DbSession, clock: AppClock) -> None:
    """Delete an own open idea (completed ideas stay in the track record: 409)."""
    idea = await service.get_idea(db, idea_id)
    ensure_owner(principal, idea.educator_id)
    await service.delete_idea(db, idea, clock.now())


@router.get("/trade-ideas/{idea_id:int}/revisions", responses={403: {}, 404: {}})
async def list_trade_idea_revisions(
    idea_id: PathId, principal: AnyUser, db: DbSession, access: Access
) -> list[RevisionOut]:
    """Every change made to an idea after publication, newest first, with the editor's name."""
    idea = await service.get_idea(db, idea_id)
    await access.ensure_idea(principal, idea.educator_id, service.is_open(idea))
    return await service.list_revisions(db, idea_id)


@router.get("/me/unseen-counts")
async def unseen_counts(
    principal: CustomerOnly, pages: Annotated[service.IdeaPages, Depends(component(service.IdeaPages))], access: Access
) -> UnseenCounts:
    """Unseen open ideas per market (0 where that market's notifications are off or no plan opens them)."""
    return await pages.unseen_counts(principal.id, await access.of(principal))


@router.get("/me/setups")
async def list_my_setups(principal: EducatorOnly, db: DbSession) -> list[SetupOut]:
    """The caller's setups in the order they were added, each with how many of their ideas name it."""
    return await service.list_setups(db, principal.id)


@router.post("/me/setups", status_code=status.HTTP_201_CREATED, responses={409: {}})
async def create_my_setup(body: SetupCreate, principal: EducatorOnly, db: DbSession, clock: AppClock) -> SetupOut:
    """Add a setup (name unique among the caller's, ignoring case; at most 20)."""
    return await service.create_setup(db, principal.id, body, clock.now())


@router.patch("/me/setups/{setup_id:int}", responses={403: {}, 404: {}})
async def update_my_setup(
    setup_id: PathId, body: SetupUpdate, principal: EducatorOnly, db: DbSession, clock: AppClock
) -> SetupOut:
    """Rename or describe an own setup; its ideas show the new name."""
    setup = await service.get_setup(db, setup_id)
    ensure_owner(principal, setup.educator_id)
    return await service.update_setup(db, setup, body, clock.now())


@router.delete(
    "/me/setups/{setup_id:int}", status_code=status.HTTP_204_NO_CONTENT, responses={403: {}, 404: {}, 409: {}}
)
async def delete_my_setup(setup_id: PathId, principal: EducatorOnly, db: DbSession) -> None:
    """Delete an own setup that no idea names (one that ideas name stays: 409)."""
    setup = await service.get_setup(db, setup_id)
    ensure_owner(principal, setup.educator_id)
    await service.delete_setup(db, setup)


@router.get("/educators/{educator_id:int}/setups")
async def list_educator_setups(educator_id: PathId, _: AnyUser, db: DbSession) -> list[SetupOut]:
    """An educator's setups with their descriptions (empty for anyone who keeps none)."""
    return await service.list_setups(db, educator_id)
