"""HTTP routes of the customer's desk: risk settings for position sizing and the private trade journal."""

from typing import Annotated

from fastapi import Header, Response, status

from tradeideas.core.clock import AppClock
from tradeideas.core.deps import AppSettings, DbSession
from tradeideas.core.routing import api_router
from tradeideas.core.schemas import PathId
from tradeideas.desk import service
from tradeideas.desk.schemas import (
    ConversionRateOut,
    CurrencyCode,
    JournalCreate,
    JournalEntryOut,
    JournalOut,
    JournalSummaryOut,
    JournalUpdate,
    RiskSettingsBody,
)
from tradeideas.permissions import CustomerOnly

router = api_router(prefix="/api/me", tags=["customer desk"])

# Chosen once by the device when the customer saves (docs/decisions/0057-idempotent-journal-entries.md).
IdempotencyKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        min_length=8,
        max_length=128,
        pattern=r"^[\x21-\x7e]+$",
        description="Optional, 8-128 visible ASCII characters: a repeat with the same key returns the first entry",
    ),
]


@router.get("/risk-settings")
async def get_risk_settings(principal: CustomerOnly, db: DbSession) -> RiskSettingsBody:
    """The caller's account size, currency, risk per trade (%) and leverage (defaults until saved)."""
    return await service.get_risk_settings(db, principal.id)


@router.put("/risk-settings", responses={422: {}})
async def put_risk_settings(body: RiskSettingsBody, principal: CustomerOnly, db: DbSession) -> RiskSettingsBody:
    """Save the caller's account size, currency, risk per trade (%) and leverage."""
    return await service.set_risk_settings(db, principal.id, body)


@router.get("/conversion-rates/{from_currency}/{to_currency}", responses={422: {}})
async def get_conversion_rate(
    from_currency: CurrencyCode,
    to_currency: CurrencyCode,
    principal: CustomerOnly,
    db: DbSession,
    settings: AppSettings,
    clock: AppClock,
) -> ConversionRateOut:
    """One unit of a currency in another, from the price feed's latest price, for sizing crosses (null if unknown)."""
    return await service.conversion_rate(db, settings, from_currency, to_currency, clock.now())


@router.get("/journal")
async def list_journal(principal: CustomerOnly, db: DbSession) -> JournalOut:
    """The caller's journal, newest first, with results in R and account currency, and totals."""
    return await service.list_journal(db, principal.id)


@router.get("/journal/summary")
async def get_journal_summary(principal: CustomerOnly, db: DbSession) -> JournalSummaryOut:
    """What managing cost the caller: their R against the ideas' price-checked R, on average and by setup."""
    return await service.journal_summary(db, principal.id)


@router.post("/journal", status_code=status.HTTP_201_CREATED, responses={404: {}, 422: {}})
async def create_journal_entry(
    body: JournalCreate, principal: CustomerOnly, db: DbSession, response: Response, key: IdempotencyKey = None
) -> JournalEntryOut:
    """Record that the caller took an idea (fill price as typed, optional size and note), once per Idempotency-Key."""
    entry, repeated = await service.take_idea(db, principal.id, body, key)
    if repeated:
        response.headers["Idempotent-Replayed"] = "true"
    return entry


@router.patch("/journal/{entry_id:int}", responses={404: {}, 422: {}})
async def update_journal_entry(
    entry_id: PathId, body: JournalUpdate, principal: CustomerOnly, db: DbSession
) -> JournalEntryOut:
    """Close one of the caller's entries with an exit price (null reopens it) or change its note."""
    return await service.update_entry(db, principal.id, entry_id, body)


@router.delete("/journal/{entry_id:int}", status_code=status.HTTP_204_NO_CONTENT, responses={404: {}})
async def delete_journal_entry(entry_id: PathId, principal: CustomerOnly, db: DbSession) -> Response:
    """Delete one of the caller's journal entries."""
    await service.delete_entry(db, principal.id, entry_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)
