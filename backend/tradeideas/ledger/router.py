"""HTTP routes of the proof: the ledger for signed-in members, the head and the daily fingerprints for anyone."""

import datetime as dt
from typing import Annotated

from fastapi import Query, Response

from tradeideas.core.deps import DbSession
from tradeideas.core.routing import api_router
from tradeideas.ledger import service
from tradeideas.ledger.schemas import DayFingerprint, LedgerPage, Proof
from tradeideas.permissions import Public, SignedIn

router = api_router(prefix="/api/proof", tags=["proof"])
# The standalone verifier, beside the page that tells members to run it (outside /api: it is a file, not data, and
# like /metrics it stays out of the API's OpenAPI document; /api/proof gives its address and SHA-256).
files = api_router(tags=["proof"], include_in_schema=False)

MAX_PAGE = 1000


@router.get("/ledger")
async def read_ledger(
    _: SignedIn,
    db: DbSession,
    after: Annotated[int, Query(ge=0, description="Entries after this position (0: from the start)")] = 0,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 500,
) -> LedgerPage:
    """The ledger's entries after `after`, oldest first, for any signed-in member to recompute."""
    return await service.ledger_page(db, after, limit)


@router.get("", dependencies=[Public])
async def read_proof(db: DbSession) -> Proof:
    """The head of the chain and one fingerprint per UTC day, newest first (no login needed)."""
    return await service.proof(db)


@router.get("/days/{date}", dependencies=[Public], responses={404: {}})
async def read_proof_day(date: dt.date, db: DbSession) -> DayFingerprint:
    """One UTC day's fingerprint: the hash of that day's last entry (404 when nothing was recorded that day)."""
    return await service.proof_day(db, date)


@files.get(
    "/proof/verify_ledger.py",
    dependencies=[Public],
    response_class=Response,
    responses={200: {"content": {"text/x-python": {"schema": {"type": "string"}}}}},
)
async def download_verifier() -> Response:
    """The standalone verifier (standard-library Python) as text; /api/proof gives its SHA-256."""
    verifier = service.verifier()
    headers = {"Content-Disposition": 'inline; filename="verify_ledger.py"', "X-Content-SHA256": verifier.sha256}
    return Response(verifier.text, media_type="text/x-python; charset=utf-8", headers=headers)
