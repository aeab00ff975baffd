"""Plans, grants and each member's access: the rules of paid access that need no payment system.

Services never commit; each change publishes an event in the same transaction (the audit log and the caches of a
member's access follow it). Stripe's side (checkout, webhooks, the sync) is in `payments.py`.
"""

from collections.abc import Sequence
from dataclasses import fields
from datetime import datetime, timedelta

from sqlalchemy import Integer, and_, bindparam, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.auth import service as auth_service
from tradeideas.auth.models import Role, User
from tradeideas.billing import gateway
from tradeideas.billing.events import AccessChanged, PlanChanged
from tradeideas.billing.models import AccessGrant, GrantKind, Plan, PlanScope
from tradeideas.billing.rule import PAYING, GrantTerms, access_from, closes_at, open_until
from tradeideas.billing.schemas import (
    AdminPlanOut,
    GrantIn,
    GrantOut,
    PlanEducator,
    PlanIn,
    PlanOut,
    PlanPatch,
    PlanStats,
)
from tradeideas.core.access import EducatorAccess
from tradeideas.core.errors import AppError, Invalid, NotFound
from tradeideas.db import DriverQuery, DriverReader
from tradeideas.realtime.service import publish
from tradeideas.settings import Settings

PLAN_NOT_FOUND = "Plan not found"
GRANT_NOT_FOUND = "Grant not found"
NOT_AN_EDUCATOR = "No educator with id {id}"
NOT_A_CUSTOMER = "Access is granted to customers only"
# Statuses that count as a plan's subscribers in the admin's figures (Stripe's names).
COUNTED = ("trialing", "active", "past_due")


def grace(settings: Settings) -> timedelta:
    return timedelta(days=settings.billing_grace_days)


# The grant's columns the rule reads, named once: by `GrantTerms`.
TERM_NAMES = tuple(term.name for term in fields(GrantTerms))


def terms(grant: AccessGrant) -> GrantTerms:
    return GrantTerms(**{name: getattr(grant, name) for name in TERM_NAMES})


# ---------------------------------------------------------------- access


# A member's grants as the rule reads them, compiled once and read on the driver's connection (see
# `db.DriverQuery`): every list request the access cache cannot answer runs it, so it costs one round trip and no
# ORM entities (a session around it cost three: BEGIN, the SELECT, ROLLBACK).
_MEMBER_GRANTS = DriverQuery(
    select(*(getattr(AccessGrant, name) for name in TERM_NAMES)).where(
        AccessGrant.user_id == bindparam("user_id", type_=Integer)
    )
)


async def member_access(
    reader: DriverReader, user_id: int, now: datetime, settings: Settings
) -> tuple[EducatorAccess, datetime | None]:
    """What the member's grants open at `now`, and until when that holds by the clock alone."""
    rows = await reader.rows(_MEMBER_GRANTS, user_id=user_id)
    grants = (GrantTerms(**{name: row[name] for name in TERM_NAMES}) for row in rows)
    return access_from(grants, now, grace(settings))


async def announce_ended(db: AsyncSession, now: datetime, settings: Settings) -> int:
    """Announce (`AccessChanged`, action `grant.ended`) each grant whose access has run out by the clock since it was
    last announced: a complimentary end date, a period ended with cancellation, a grace period over. Run by the
    leading process every minute, so members' streams and screens drop those educators without any request. Returns
    how many were announced."""
    g = AccessGrant
    unannounced_since = g.end_announced_for.is_(None)
    candidates = select(AccessGrant).where(
        g.revoked_at.is_(None),
        or_(
            and_(
                g.kind == GrantKind.COMPLIMENTARY,
                g.ends_at <= now,
                or_(unannounced_since, g.end_announced_for < g.ends_at),
            ),
            and_(
                g.kind == GrantKind.SUBSCRIPTION,
                g.status.in_(PAYING),
                g.current_period_end <= now,
                or_(unannounced_since, g.end_announced_for < g.current_period_end),
            ),
            and_(
                g.kind == GrantKind.SUBSCRIPTION,
                g.status == "past_due",
                or_(
                    unannounced_since,
                    g.end_announced_for < func.coalesce(g.current_period_start, g.current_period_end),
                ),
            ),
        ),
    )
    announced = 0
    for grant in (await db.execute(candidates.order_by(AccessGrant.id))).scalars():
        ended = closes_at(terms(grant), grace(settings))
        if ended is None or ended > now or grant.end_announced_for == ended:
            continue
        grant.end_announced_for = ended
        await db.flush()
        what = "Complimentary access" if grant.kind == GrantKind.COMPLIMENTARY else "Subscription access"
        detail = f"{what} #{grant.id} ended at {ended:%Y-%m-%d %H:%M} UTC"
        await publish(db, AccessChanged(user_id=grant.user_id, action="grant.ended", detail=detail))
        announced += 1
    return announced


# ---------------------------------------------------------------- plans


async def _educators(db: AsyncSession, plans: Sequence[Plan]) -> dict[int | None, list[PlanEducator]]:
    everyone = await auth_service.listed_educators(db)
    cards = [PlanEducator(id=e.id, name=e.name, slug=e.slug) for e in everyone]
    by_plan: dict[int | None, list[PlanEducator]] = {None: cards}
    for card in cards:
        by_plan[card.id] = [card]
    for plan in plans:  # an educator whose profile is private still names their own plan
        if plan.educator_id is not None and plan.educator_id not in by_plan:
            user = await db.get(User, plan.educator_id)
            name = user.display_name if user else ""
            by_plan[plan.educator_id] = [PlanEducator(id=plan.educator_id, name=name, slug=user.slug if user else None)]
    return by_plan


def _plan_out(plan: Plan, educators: dict[int | None, list[PlanEducator]]) -> PlanOut:
    return PlanOut(
        id=plan.id,
        name=plan.name,
        scope="all" if plan.scope == PlanScope.ALL else "educator",
        educator_id=plan.educator_id,
        educators=educators.get(plan.educator_id, []),
        unit_amount=plan.unit_amount,
        currency=plan.currency,
        interval="year" if plan.interval == "year" else "month",
        trial_days=plan.trial_days,
        active=plan.active,
    )


async def public_plans(db: AsyncSession) -> tuple[list[PlanOut], list[PlanEducator]]:
    """Active plans in the order they were made, and every listed educator."""
    plans = list((await db.execute(select(Plan).where(Plan.active.is_(True)).order_by(Plan.id))).scalars())
    educators = await _educators(db, plans)
    return [_plan_out(plan, educators) for plan in plans], educators[None]


async def get_plan(db: AsyncSession, plan_id: int) -> Plan:
    plan = await db.get(Plan, plan_id)
    if plan is None:
        raise NotFound(PLAN_NOT_FOUND)
    return plan


async def admin_plans(db: AsyncSession, now: datetime, settings: Settings) -> list[AdminPlanOut]:
    """Every plan with its subscribers, trialing, past_due and monthly recurring revenue (open paid grants)."""
    plans = list((await db.execute(select(Plan).order_by(Plan.id))).scalars())
    educators = await _educators(db, plans)
    counts: dict[tuple[int, str], int] = {}
    rows = await db.execute(
        select(AccessGrant.plan_id, AccessGrant.status, func.count())
        .where(AccessGrant.kind == GrantKind.SUBSCRIPTION, AccessGrant.status.in_(COUNTED))
        .where(AccessGrant.revoked_at.is_(None))
        .group_by(AccessGrant.plan_id, AccessGrant.status)
    )
    for plan_id, status, count in rows.all():
        if plan_id is not None:
            counts[(plan_id, status)] = count
    out: list[AdminPlanOut] = []
    for plan in plans:
        active = counts.get((plan.id, "active"), 0)
        past_due = counts.get((plan.id, "past_due"), 0)
        trialing = counts.get((plan.id, "trialing"), 0)
        per_month = plan.unit_amount if plan.interval == "month" else round(plan.unit_amount / 12)
        stats = PlanStats(
            subscribers=active + past_due + trialing,
            trialing=trialing,
            past_due=past_due,
            # Revenue that recurs: paying subscribers (past_due ones are still billed), not those on trial.
            monthly_recurring_revenue=(active + past_due) * per_month,
        )
        base = _plan_out(plan, educators).model_dump()
        out.append(AdminPlanOut(**base, stripe_price_id=plan.stripe_price_id, stats=stats))
    return out


async def _check_educator(db: AsyncSession, educator_id: int | None) -> None:
    if educator_id is None:
        return
    if educator_id not in await auth_service.educator_ids(db, [educator_id]):
        raise Invalid(NOT_AN_EDUCATOR.format(id=educator_id))


async def create_plan(
    db: AsyncSession, actor_id: int, body: PlanIn, payments: "gateway.Gateway | None"
) -> AdminPlanOut:
    """A new plan; with payments set up, backed by a Stripe Product and Price (idempotent per plan)."""
    await _check_educator(db, body.educator_id)
    plan = Plan(
        name=body.name,
        scope=body.scope,
        educator_id=body.educator_id,
        unit_amount=body.unit_amount,
        currency=body.currency,
        interval=body.interval,
        trial_days=body.trial_days,
        active=body.active,
    )
    db.add(plan)
    await db.flush()
    if payments is not None:
        plan.stripe_product_id = await payments.create_product(plan.id, plan.name)
        plan.stripe_price_id = await payments.create_price(
            plan.id, plan.stripe_product_id, plan.unit_amount, plan.currency, plan.interval
        )
    await db.flush()
    await publish(db, PlanChanged(plan_id=plan.id, action="plan.created", detail=_describe(plan), actor_id=actor_id))
    return await _admin_plan(db, plan)


async def update_plan(
    db: AsyncSession, actor_id: int, plan_id: int, body: PlanPatch, payments: "gateway.Gateway | None"
) -> AdminPlanOut:
    """Change a plan; a new price, currency or interval is a new Stripe Price (subscribers keep theirs)."""
    plan = await get_plan(db, plan_id)
    changes = body.model_dump(exclude_unset=True, exclude_none=True)
    priced = any(
        key in changes and changes[key] != getattr(plan, key) for key in ("unit_amount", "currency", "interval")
    )
    for key, value in changes.items():
        setattr(plan, key, value)
    if payments is not None and (priced or plan.stripe_price_id is None):
        if plan.stripe_product_id is None:
            plan.stripe_product_id = await payments.create_product(plan.id, plan.name)
        plan.stripe_price_id = await payments.create_price(
            plan.id, plan.stripe_product_id, plan.unit_amount, plan.currency, plan.interval
        )
    await db.flush()
    await publish(db, PlanChanged(plan_id=plan.id, action="plan.updated", detail=_describe(plan), actor_id=actor_id))
    return await _admin_plan(db, plan)


def _describe(plan: Plan) -> str:
    scope = "all educators" if plan.educator_id is None else f"educator {plan.educator_id}"
    state = "active" if plan.active else "inactive"
    amount = f"{plan.unit_amount / 100:.2f} {plan.currency.upper()}/{plan.interval}"
    return f"Plan #{plan.id} {plan.name!r}: {scope}, {amount}, trial {plan.trial_days} days, {state}"


async def _admin_plan(db: AsyncSession, plan: Plan) -> AdminPlanOut:
    educators = await _educators(db, [plan])
    stats = PlanStats(subscribers=0, trialing=0, past_due=0, monthly_recurring_revenue=0)
    for found in await admin_plans_stats(db, plan.id):
        stats = found
    base = _plan_out(plan, educators).model_dump()
    return AdminPlanOut(**base, stripe_price_id=plan.stripe_price_id, stats=stats)


async def admin_plans_stats(db: AsyncSession, plan_id: int) -> list[PlanStats]:
    rows = await db.execute(
        select(AccessGrant.status, func.count())
        .where(AccessGrant.plan_id == plan_id, AccessGrant.status.in_(COUNTED), AccessGrant.revoked_at.is_(None))
        .group_by(AccessGrant.status)
    )
    counts = {status: count for status, count in rows.all()}
    plan = await get_plan(db, plan_id)
    per_month = plan.unit_amount if plan.interval == "month" else round(plan.unit_amount / 12)
    paying = counts.get("active", 0) + counts.get("past_due", 0)
    return [
        PlanStats(
            subscribers=paying + counts.get("trialing", 0),
            trialing=counts.get("trialing", 0),
            past_due=counts.get("past_due", 0),
            monthly_recurring_revenue=paying * per_month,
        )
    ]


# ---------------------------------------------------------------- grants


def grant_out(grant: AccessGrant, email: str, plan_name: str | None, now: datetime, settings: Settings) -> GrantOut:
    is_open, _ = open_until(terms(grant), now, grace(settings))
    grace_ends = None
    if grant.status == "past_due":
        began = grant.current_period_start or grant.current_period_end
        grace_ends = None if began is None else began + grace(settings)
    return GrantOut(
        id=grant.id,
        user_id=grant.user_id,
        email=email,
        kind="complimentary" if grant.kind == GrantKind.COMPLIMENTARY else "subscription",
        status=grant.status,
        educator_id=grant.educator_id,
        plan_id=grant.plan_id,
        plan_name=plan_name,
        ends_at=grant.ends_at,
        trial_end=grant.trial_end,
        current_period_end=grant.current_period_end,
        cancel_at_period_end=grant.cancel_at_period_end,
        grace_ends_at=grace_ends,
        is_open=is_open,
        revoked_at=grant.revoked_at,
        created_at=grant.created_at,
    )


async def list_grants(
    db: AsyncSession, now: datetime, settings: Settings, *, user_id: int | None = None, limit: int = 200
) -> list[GrantOut]:
    """Grants, newest first (one member's with `user_id`), with the member's e-mail and the plan's name."""
    query = (
        select(AccessGrant, User.email, Plan.name)
        .join(User, User.id == AccessGrant.user_id)
        .outerjoin(Plan, Plan.id == AccessGrant.plan_id)
        .order_by(AccessGrant.id.desc())
        .limit(limit)
    )
    if user_id is not None:
        query = query.where(AccessGrant.user_id == user_id)
    rows = await db.execute(query)
    return [grant_out(grant, email, name, now, settings) for grant, email, name in rows.all()]


async def grant_complimentary(
    db: AsyncSession, actor_id: int | None, body: GrantIn, now: datetime, settings: Settings
) -> GrantOut:
    """A complimentary grant to a customer, by e-mail: one educator or all, until an end date or for good."""
    try:
        member = await auth_service.get_user_by_email(db, body.email)
    except NotFound:
        raise NotFound(f"No member with e-mail {body.email}") from None
    if member.role != Role.CUSTOMER:
        raise Invalid(NOT_A_CUSTOMER)
    await _check_educator(db, body.educator_id)
    if body.ends_at is not None and body.ends_at <= now:
        raise Invalid("The end date must be in the future")
    grant = await add_complimentary(db, actor_id, member.id, body.educator_id, body.ends_at)
    return grant_out(grant, member.email, None, now, settings)


async def add_complimentary(
    db: AsyncSession, actor_id: int | None, user_id: int, educator_id: int | None, ends_at: datetime | None
) -> AccessGrant:
    """The grant itself (admins, invitations, the demo data), announced for the audit log and the member's caches."""
    grant = AccessGrant(
        user_id=user_id,
        kind=GrantKind.COMPLIMENTARY,
        status=GrantKind.COMPLIMENTARY,
        educator_id=educator_id,
        ends_at=ends_at,
        cancel_at_period_end=False,
        granted_by_id=actor_id,
    )
    db.add(grant)
    await db.flush()
    scope = "all educators" if educator_id is None else f"educator {educator_id}"
    until = "" if ends_at is None else f" until {ends_at:%Y-%m-%d %H:%M} UTC"
    detail = f"Complimentary access #{grant.id} to {scope}{until}"
    await publish(db, AccessChanged(user_id=user_id, action="grant.created", detail=detail, actor_id=actor_id))
    return grant


async def revoke_grant(db: AsyncSession, actor_id: int, grant_id: int, now: datetime, settings: Settings) -> GrantOut:
    """End a complimentary grant now (a subscription ends in Stripe: the admin cancels it there)."""
    grant = await db.get(AccessGrant, grant_id)
    if grant is None:
        raise NotFound(GRANT_NOT_FOUND)
    if grant.kind != GrantKind.COMPLIMENTARY:
        raise AppError(
            "A subscription is ended in Stripe; its end reaches access through the webhook",
            code="subscription",
            status_code=409,
        )
    if grant.revoked_at is None:
        grant.revoked_at = now
        await db.flush()
        detail = f"Complimentary access #{grant.id} revoked"
        await publish(
            db, AccessChanged(user_id=grant.user_id, action="grant.revoked", detail=detail, actor_id=actor_id)
        )
    member = await db.get(User, grant.user_id)
    return grant_out(grant, member.email if member else "", None, now, settings)


async def member_id(db: AsyncSession, email: str) -> int | None:
    """The id of the account with this e-mail, if any."""
    return (await db.execute(select(User.id).where(User.email == email.strip().lower()))).scalar_one_or_none()
