"""HTTP routes of the educators' track records (any signed-in user may read them)."""

from typing import Annotated

from fastapi import Depends, Query, Response

from tradeideas.core.deps import DbSession, component
from tradeideas.core.fastlane import fast_router
from tradeideas.core.responses import EncodedJSON
from tradeideas.core.routing import api_router
from tradeideas.core.schemas import PathId
from tradeideas.db import Database
from tradeideas.ideas.schemas import TIME_FRAME_MAX, ListIdeaType, ListMarket
from tradeideas.permissions import AnyUser
from tradeideas.trackrecords import challenge, service
from tradeideas.trackrecords.cache import TrackRecordCache
from tradeideas.trackrecords.schemas import ChallengeOut, CurveDetail, RecordSource, TrackRecord, TrackRecordSummary

router = api_router(prefix="/api", tags=["track records"])
# Read on every educators list and record screen, and answered from memory between changes: FastAPI's general
# handler (a session dependency among others) cost more than the answer (decision records 0054 and 0062).
fast = fast_router(prefix="/api", tags=["track records"])


Answers = Annotated[TrackRecordCache, Depends(component(TrackRecordCache))]
Databases = Annotated[Database, Depends(component(Database))]


@fast.get("/educators/track-records", response_model=list[TrackRecordSummary])
async def list_track_records(_: AnyUser, database: Databases, cache: Answers) -> Response:
    """Every educator's whole track record with an equity sparkline, for the educators list."""
    return EncodedJSON(await service.track_records_json(database, cache))


@router.get(
    "/educators/{educator_id:int}/track-record/ideas.csv",
    response_class=Response,
    responses={200: {"content": {"text/csv": {"schema": {"type": "string"}}}}, 404: {}},
)
async def download_track_record_csv(educator_id: PathId, _: AnyUser, db: DbSession) -> Response:
    """The educator's completed ideas as CSV: levels, outcome, dates and R."""
    body = await service.completed_ideas_csv(db, educator_id)
    headers = {"Content-Disposition": f'attachment; filename="track-record-{educator_id}.csv"'}
    return Response(body, media_type="text/csv; charset=utf-8", headers=headers)


@fast.get("/educators/{educator_id:int}/track-record", response_model=TrackRecord, responses={404: {}})
async def get_track_record(
    educator_id: PathId,
    _: AnyUser,
    database: Databases,
    cache: Answers,
    market: ListMarket | None = None,
    idea_type: Annotated[ListIdeaType | None, Query(alias="ideaType")] = None,
    time_frame: Annotated[str | None, Query(alias="timeFrame", min_length=1, max_length=TIME_FRAME_MAX)] = None,
    since: Annotated[
        str | None,
        Query(
            pattern=r"^\d{4}-\d{2}-\d{2}$",
            json_schema_extra={"format": "date"},
            description="Only ideas closed (or opened) on or after this day (YYYY-MM-DD)",
        ),
    ] = None,
    setup: Annotated[
        int | None, Query(ge=1, le=2**31 - 1, description="Only ideas of this setup of the educator (`bySetup`)")
    ] = None,
    curve: Annotated[
        CurveDetail,
        Query(description="`shaped`: the equity curve in at most 500 points that keep its shape; `full`: every point"),
    ] = "shaped",
    source: Annotated[
        RecordSource,
        Query(description="`educator`: the educator's calls; `verified`: the price checks' verdicts (decision 0102)"),
    ] = "educator",
) -> Response:
    """One educator's track record, optionally filtered, with figures per group and the equity curve."""
    filters = service.RecordFilter(market, idea_type, time_frame, service.parse_day(since), setup)
    full = curve == "full"
    answer = await service.track_record_json(database, cache, educator_id, filters, full_curve=full, source=source)
    return EncodedJSON(answer)


@router.get(
    "/educators/{educator_id:int}/challenge", response_model=ChallengeOut, responses={404: {}, 409: {}, 422: {}}
)
async def get_challenge(
    educator_id: PathId,
    _: AnyUser,
    db: DbSession,
    risk_percent: Annotated[
        float, Query(alias="riskPercent", ge=0.1, le=5, description="Risk per idea, % of the starting balance")
    ],
    profit_target: Annotated[float, Query(alias="profitTarget", ge=1, le=100, description="% to gain")] = 10.0,
    daily_loss: Annotated[float, Query(alias="dailyLoss", gt=0, le=100, description="% a day may lose")] = 5.0,
    max_loss: Annotated[float, Query(alias="maxLoss", gt=0, le=100, description="% the balance may lose")] = 10.0,
    days: Annotated[int, Query(ge=1, le=365, description="Calendar days to reach the target")] = 30,
    market: ListMarket | None = None,
    setup: Annotated[int | None, Query(ge=1, le=2**31 - 1, description="Only ideas of this setup")] = None,
    seed: Annotated[int | None, Query(ge=0, le=2**32 - 1, description="Repeat an answer: its `seed`")] = None,
) -> ChallengeOut:
    """Would following the educator's ideas at this risk pass a funded-account challenge (Monte Carlo)?"""
    rules = challenge.Rules(risk_percent, profit_target, daily_loss, max_loss, days)
    return await challenge.challenge(db, educator_id, rules, market=market, setup_id=setup, seed=seed)
