"""The daily re-read that repairs a missed webhook: every subscription grant that is not final is compared with what
Stripe says now (`GET /v1/subscriptions`, all pages) and corrected where it differs (decision 0152).

The leading process runs it once a day (`Housekeeping`); `tradeideas billing sync` runs it on demand. All pages are
read before anything is written, so a Stripe error or rate limit part way leaves every grant as it was and the next
run tries again. Each correction counts in `billing_drift_total` and is announced like a webhook's (`AccessChanged`).
"""

import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, and_, exists, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.billing.gateway import Gateway, SubscriptionState
from tradeideas.billing.models import AccessGrant, GrantKind
from tradeideas.billing.payments import refresh
from tradeideas.core.metrics import BILLING_DRIFT
from tradeideas.db import Database

log = logging.getLogger(__name__)

# Stripe's statuses after which a subscription never changes again: its grant is not re-read.
FINAL_STATUSES = ("canceled", "incomplete_expired")
SYNC_EVERY = timedelta(days=1)
SYNC_ACTION = "subscription.synced"


@dataclass
class SyncReport:
    """One sync: how many grants were compared, how many were corrected, and those Stripe did not list."""

    checked: int = 0
    corrected: int = 0
    missing: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = [f"Compared {self.checked} subscriptions with Stripe; corrected {self.corrected}."]
        if self.missing:
            out.append(f"Stripe did not list {len(self.missing)}: {', '.join(self.missing[:20])}")
        return out


def _not_final() -> ColumnElement[bool]:
    return and_(
        AccessGrant.kind == GrantKind.SUBSCRIPTION,
        AccessGrant.stripe_subscription_id.is_not(None),
        AccessGrant.status.not_in(FINAL_STATUSES),
    )


async def read_subscriptions(gateway: Gateway) -> dict[str, SubscriptionState]:
    """Every subscription Stripe holds, page after page (`starting_after` the last id of each page). Raises
    `PaymentsUnavailable` on any failure, having changed nothing."""
    states: dict[str, SubscriptionState] = {}
    after: str | None = None
    while True:
        page = await gateway.list_subscriptions(after)
        for item in page.data:
            state = SubscriptionState.from_stripe(item)
            states[state.id] = state
        if not page.has_more or not page.data:
            return states
        last = page.data[-1].get("id")
        if not isinstance(last, str) or last == after:
            return states
        after = last


async def apply(db: AsyncSession, states: dict[str, SubscriptionState]) -> SyncReport:
    """Store Stripe's state on each grant that is not final; the caller commits."""
    report = SyncReport()
    grants = (await db.execute(select(AccessGrant).where(_not_final()).order_by(AccessGrant.id))).scalars().all()
    for grant in grants:
        assert grant.stripe_subscription_id is not None
        state = states.get(grant.stripe_subscription_id)
        if state is None:
            report.missing.append(grant.stripe_subscription_id)
            continue
        report.checked += 1
        if await refresh(db, grant, state, SYNC_ACTION):
            report.corrected += 1
            BILLING_DRIFT.inc()
    if report.missing:
        log.warning("billing sync: Stripe did not list %d subscriptions we hold", len(report.missing))
    return report


async def sync(database: Database, gateway: Gateway) -> SyncReport:
    """Read all of Stripe's subscriptions, then correct the grants in one transaction."""
    states = await read_subscriptions(gateway)
    async with database.sessionmaker() as session, session.begin():
        return await apply(session, states)


async def due(database: Database, now: datetime) -> bool:
    """True when some grant that is not final was last read from Stripe a day ago or more (or never)."""
    stale = or_(AccessGrant.synced_at.is_(None), AccessGrant.synced_at <= now - SYNC_EVERY)
    async with database.sessionmaker() as session:
        return bool((await session.execute(select(exists().where(_not_final(), stale)))).scalar())
