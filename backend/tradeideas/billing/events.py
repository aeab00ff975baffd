"""Events the billing domain publishes: a member's access changed (their screens reload what it opens; caches of
their access drop), and a plan changed (the audit log)."""

from typing import Literal

from tradeideas.core.events import ONE_USER, SERVER, DomainEvent


class AccessChanged(DomainEvent):
    """A grant of this member was made, changed, ended or revoked: what they may read is read again."""

    type: Literal["billing.access"] = "billing.access"
    receivers = ONE_USER
    user_id: int
    action: str  # for the audit log: grant.created, grant.revoked, subscription.updated, ...
    detail: str = ""
    actor_id: int | None = None  # the admin who did it; None for Stripe and the sync


class PlanChanged(DomainEvent):
    type: Literal["billing.plan"] = "billing.plan"
    receivers = SERVER
    plan_id: int
    action: str  # plan.created, plan.updated
    detail: str = ""
    actor_id: int | None = None


EVENTS = (AccessChanged, PlanChanged)
