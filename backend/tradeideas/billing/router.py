"""HTTP routes of paid access: the public plans, the admin's plans and grants, a member's billing."""

from typing import Annotated

from fastapi import Depends, Path, Query, Request, Response, status

from tradeideas.auth import service as auth_service
from tradeideas.auth.schemas import LoginResponse
from tradeideas.billing import payments as payments_service
from tradeideas.billing import service
from tradeideas.billing.gateway import Payments
from tradeideas.billing.schemas import (
    AdminPlanOut,
    CheckoutIn,
    CheckoutState,
    ClaimIn,
    GrantIn,
    GrantOut,
    GrantPage,
    MyBilling,
    PlanIn,
    PlanPatch,
    PublicPlans,
    RedirectOut,
)
from tradeideas.core.clock import AppClock
from tradeideas.core.deps import AppSettings, DbSession, component
from tradeideas.core.routing import api_router
from tradeideas.core.schemas import PathId
from tradeideas.permissions import AdminOnly, CustomerOnly, MaybeSignedIn, Public, set_session_cookie

router = api_router(prefix="/api", tags=["billing"])
PaymentsDep = Annotated[Payments, Depends(component(Payments))]
CheckoutSessionId = Annotated[str, Path(min_length=3, max_length=255, pattern=r"^[A-Za-z0-9_]+$")]


@router.get("/plans", dependencies=[Public])
async def list_public_plans(db: DbSession, payments: PaymentsDep) -> PublicPlans:
    """The active plans with their educators, and whether payments are set up (no login)."""
    plans, educators = await service.public_plans(db)
    return PublicPlans(payments_enabled=payments.enabled, plans=plans, educators=educators)


@router.get("/admin/plans")
async def list_plans(_: AdminOnly, db: DbSession, clock: AppClock, settings: AppSettings) -> list[AdminPlanOut]:
    """Every plan with its subscribers, trialing, past_due and monthly recurring revenue."""
    return await service.admin_plans(db, clock.now(), settings)


@router.post("/admin/plans", status_code=status.HTTP_201_CREATED, responses={503: {}})
async def create_plan(body: PlanIn, principal: AdminOnly, db: DbSession, payments: PaymentsDep) -> AdminPlanOut:
    """Create a plan (one educator or all); with payments set up, its Stripe Product and Price too."""
    return await service.create_plan(db, principal.id, body, payments.gateway)


@router.patch("/admin/plans/{plan_id:int}", responses={404: {}, 503: {}})
async def update_plan(
    plan_id: PathId, body: PlanPatch, principal: AdminOnly, db: DbSession, payments: PaymentsDep
) -> AdminPlanOut:
    """Change a plan's name, price, trial or active flag; a new price is a new Stripe Price."""
    return await service.update_plan(db, principal.id, plan_id, body, payments.gateway)


@router.get("/admin/grants")
async def list_grants(
    _: AdminOnly,
    db: DbSession,
    clock: AppClock,
    settings: AppSettings,
    email: Annotated[str, Query(max_length=254)] = "",
) -> GrantPage:
    """The newest 200 grants (complimentary and paid), or one member's by e-mail."""
    user_id = await service.member_id(db, email) if email.strip() else None
    if email.strip() and user_id is None:
        return GrantPage(items=[])
    return GrantPage(items=await service.list_grants(db, clock.now(), settings, user_id=user_id))


@router.post("/admin/grants", status_code=status.HTTP_201_CREATED, responses={404: {}})
async def grant_access(
    body: GrantIn, principal: AdminOnly, db: DbSession, clock: AppClock, settings: AppSettings
) -> GrantOut:
    """Give a customer complimentary access to one educator or all, optionally until a date."""
    return await service.grant_complimentary(db, principal.id, body, clock.now(), settings)


@router.delete("/admin/grants/{grant_id:int}", responses={404: {}, 409: {}})
async def revoke_grant(
    grant_id: PathId, principal: AdminOnly, db: DbSession, clock: AppClock, settings: AppSettings
) -> GrantOut:
    """End a complimentary grant now (subscriptions end in Stripe)."""
    return await service.revoke_grant(db, principal.id, grant_id, clock.now(), settings)


@router.get("/me/billing")
async def my_billing(
    principal: CustomerOnly, db: DbSession, clock: AppClock, settings: AppSettings, payments: PaymentsDep
) -> MyBilling:
    """The caller's grants: plans, status, trial end or renewal date, and the grace period of a failed payment."""
    grants = await service.list_grants(db, clock.now(), settings, user_id=principal.id)
    return MyBilling(payments_enabled=payments.enabled, grants=grants)


@router.post("/billing/checkout", dependencies=[Public], responses={404: {}, 409: {}, 422: {}, 503: {}})
async def start_checkout(
    body: CheckoutIn,
    request: Request,
    response: Response,
    caller: MaybeSignedIn,
    db: DbSession,
    settings: AppSettings,
    payments: PaymentsDep,
) -> RedirectOut:
    """A Stripe Checkout Session for an active plan; the browser goes to `url`."""
    user_id = caller.id if caller is not None and caller.is_customer else None
    claim = None if user_id is not None else payments_service.new_claim()
    url = await payments_service.start_checkout(
        db, payments.gateway, settings, body.plan_id, user_id, body.email, str(request.base_url), claim
    )
    if claim is not None:
        response.set_cookie(
            payments_service.CLAIM_COOKIE,
            claim,
            max_age=payments_service.CLAIM_MAX_AGE_SECONDS,
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https" or request.headers.get("x-forwarded-proto") == "https",
            path=payments_service.CLAIM_COOKIE_PATH,
        )
    return RedirectOut(url=url)


@router.get("/billing/checkout/{session_id}", dependencies=[Public], responses={404: {}, 409: {}, 503: {}})
async def checkout_state(
    session_id: CheckoutSessionId, request: Request, caller: MaybeSignedIn, db: DbSession, payments: PaymentsDep
) -> CheckoutState:
    """Where the caller's returning checkout stands, read from Stripe, and what the return page does next."""
    customer_id = caller.id if caller is not None and caller.is_customer else None
    claim = request.cookies.get(payments_service.CLAIM_COOKIE)
    return await payments_service.checkout_state(db, payments.gateway, session_id, customer_id, claim)


@router.post("/billing/checkout/{session_id}/account", dependencies=[Public], responses={404: {}, 409: {}, 503: {}})
async def claim_checkout(
    session_id: CheckoutSessionId,
    body: ClaimIn,
    request: Request,
    response: Response,
    db: DbSession,
    settings: AppSettings,
    payments: PaymentsDep,
) -> LoginResponse:
    """A new visitor's account from their paid checkout: sets a password and signs them in as a customer."""
    claim = request.cookies.get(payments_service.CLAIM_COOKIE)
    user = await payments_service.claim_with_password(db, payments.gateway, session_id, claim, body.password)
    issued = await auth_service.create_session(db, settings, user)
    set_session_cookie(request, response, issued.token, settings.session_days * 86400)
    return LoginResponse(
        message="Login successful", session_token=issued.token, user=auth_service.current_user_out(user)
    )


@router.post("/billing/webhook", dependencies=[Public], responses={400: {}})
async def stripe_webhook(
    request: Request, db: DbSession, settings: AppSettings, payments: PaymentsDep
) -> dict[str, bool]:
    """Stripe's events: signature checked, each id once, the subscription read again from Stripe."""
    body = await request.body()
    handled = await payments_service.handle_webhook(
        db, payments.gateway, settings, body, request.headers.get("stripe-signature")
    )
    return {"received": True, "handled": handled}


@router.post("/billing/portal", responses={404: {}, 409: {}, 503: {}})
async def billing_portal(
    principal: CustomerOnly, request: Request, db: DbSession, settings: AppSettings, payments: PaymentsDep
) -> RedirectOut:
    """A Stripe Billing Portal session for the caller's subscriptions (card, invoices, cancel); go to `url`."""
    url = await payments_service.portal_url(db, payments.gateway, settings, principal.id, str(request.base_url))
    return RedirectOut(url=url)
