"""Billing in and out of the API: plans, grants, a member's billing page, checkout and the portal."""

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BeforeValidator, Field, StrictBool, field_validator, model_validator

from tradeideas.admin.schemas import normalise_email
from tradeideas.core.schemas import CamelModel, Id, json_integer

PlanScopeIn = Literal["educator", "all"]
Interval = Literal["month", "year"]
MAX_AMOUNT = 10_000_000  # 100,000.00 in a two-decimal currency: far above any plan, far below Stripe's limit
UnitAmount = Annotated[
    int,
    Field(ge=50, le=MAX_AMOUNT, description="Price per interval in the currency's smallest unit"),
    BeforeValidator(json_integer),
]
TrialDays = Annotated[int, Field(ge=0, le=30), BeforeValidator(json_integer)]


class PlanIn(CamelModel):
    name: str = Field(min_length=1, max_length=100)
    scope: PlanScopeIn
    educator_id: Id | None = None
    unit_amount: UnitAmount
    currency: str = Field(min_length=3, max_length=3, pattern=r"^[A-Za-z]{3}$")
    interval: Interval
    trial_days: TrialDays = 0
    active: StrictBool = True

    @field_validator("name")
    @classmethod
    def _strip(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("Name is required")
        return value.strip()

    @field_validator("currency")
    @classmethod
    def _lower(cls, value: str) -> str:
        return value.lower()

    @model_validator(mode="after")
    def _scope_names_educator(self) -> "PlanIn":
        if self.scope == "educator" and self.educator_id is None:
            raise ValueError("A plan for one educator needs educatorId")
        if self.scope == "all" and self.educator_id is not None:
            raise ValueError("A plan for all educators takes no educatorId")
        return self


class PlanPatch(CamelModel):
    """What can change on a plan: its scope and educator stay (subscribers bought them)."""

    name: str | None = Field(default=None, min_length=1, max_length=100)
    unit_amount: UnitAmount | None = None
    currency: str | None = Field(default=None, min_length=3, max_length=3, pattern=r"^[A-Za-z]{3}$")
    interval: Interval | None = None
    trial_days: TrialDays | None = None
    active: StrictBool | None = None

    @field_validator("name")
    @classmethod
    def _strip(cls, value: str | None) -> str | None:
        if value is not None and not value.strip():
            raise ValueError("Name is required")
        return None if value is None else value.strip()

    @field_validator("currency")
    @classmethod
    def _lower(cls, value: str | None) -> str | None:
        return None if value is None else value.lower()


class PlanEducator(CamelModel):
    id: int
    name: str
    slug: str | None


class PlanOut(CamelModel):
    id: int
    name: str
    scope: PlanScopeIn
    educator_id: int | None
    educators: list[PlanEducator]
    unit_amount: int
    currency: str
    interval: Interval
    trial_days: int
    active: bool


class PlanStats(CamelModel):
    subscribers: int
    trialing: int
    past_due: int
    monthly_recurring_revenue: int = Field(description="In the plan's currency's smallest unit, per month")


class AdminPlanOut(PlanOut):
    stripe_price_id: str | None
    stats: PlanStats


class PublicPlans(CamelModel):
    payments_enabled: bool
    plans: list[PlanOut]
    educators: list[PlanEducator] = Field(description="Every educator members can follow, in id order")


class GrantIn(CamelModel):
    """A complimentary grant: one educator (`educatorId`) or all of them (null), until `endsAt` (null: no end)."""

    email: str = Field(max_length=254, json_schema_extra={"format": "email"})
    educator_id: Id | None = None
    ends_at: datetime | None = None

    _email = field_validator("email")(normalise_email)


class GrantOut(CamelModel):
    id: int
    user_id: int
    email: str
    kind: Literal["complimentary", "subscription"]
    status: str
    educator_id: int | None
    plan_id: int | None
    plan_name: str | None
    ends_at: datetime | None
    trial_end: datetime | None
    current_period_end: datetime | None
    cancel_at_period_end: bool
    grace_ends_at: datetime | None = Field(description="past_due: access holds until then")
    is_open: bool
    revoked_at: datetime | None
    created_at: datetime


class GrantPage(CamelModel):
    items: list[GrantOut]


class MyBilling(CamelModel):
    payments_enabled: bool
    grants: list[GrantOut]


class CheckoutIn(CamelModel):
    plan_id: int = Field(ge=1)
    email: str | None = Field(default=None, max_length=254, json_schema_extra={"format": "email"})

    @field_validator("email")
    @classmethod
    def _email(cls, value: str | None) -> str | None:
        return None if value in (None, "") else normalise_email(value)


class RedirectOut(CamelModel):
    url: str


class CheckoutState(CamelModel):
    """A finished checkout as Stripe tells it: what the return page shows and does next."""

    status: Literal["complete", "open", "expired"]
    plan_name: str
    email: str | None
    # `sign_in`: a member with this e-mail exists, sign in to attach; `set_password`: a new visitor;
    # `attached`: the subscription belongs to the signed-in member.
    next: Literal["sign_in", "set_password", "attached", "wait"]


class ClaimIn(CamelModel):
    password: str = Field(min_length=8, max_length=256)
