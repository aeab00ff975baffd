"""When a grant opens its educators: the access rule of issue #40, once in Python (one member's grants, cached by
`tradeideas.access`) and once in SQL (every member a push or a count reaches), with a test holding them equal.

A grant opens while it is:
- complimentary, until its end (if it has one);
- `trialing` or `active`, until its period ends when it is set to cancel then (and, whatever else, no later than
  `BILLING_GRACE_DAYS` after a period end Stripe has not renewed: a renewal we never heard of is caught by the
  daily sync first);
- `past_due`, for `BILLING_GRACE_DAYS` after its current period began: the renewal whose payment failed was
  invoiced then, so this is Stripe's retry window counted from the first failed attempt (decision 0131);
and not revoked. Any other status (`canceled`, `unpaid`, `incomplete`, `incomplete_expired`, `paused`) opens nothing.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, and_, exists, or_, true

from tradeideas.billing.models import AccessGrant, GrantKind
from tradeideas.core.access import NO_ACCESS, EducatorAccess

PAYING = ("trialing", "active")


@dataclass(frozen=True, slots=True)
class GrantTerms:
    """The columns of a grant the rule reads."""

    kind: str
    status: str
    educator_id: int | None
    ends_at: datetime | None
    current_period_start: datetime | None
    current_period_end: datetime | None
    cancel_at_period_end: bool
    revoked_at: datetime | None


def open_until(grant: GrantTerms, now: datetime, grace: timedelta) -> tuple[bool, datetime | None]:
    """Whether `grant` opens its educators at `now`, and (when it does) the moment that may stop (None: not by
    the clock alone)."""
    if grant.revoked_at is not None:
        return False, None
    if grant.kind == GrantKind.COMPLIMENTARY:
        return _before(now, grant.ends_at)
    if grant.status in PAYING:
        end = grant.current_period_end
        if end is None:
            return True, None
        return _before(now, end if grant.cancel_at_period_end else end + grace)
    if grant.status == "past_due":
        began = grant.current_period_start or grant.current_period_end
        return _before(now, None if began is None else began + grace) if began is not None else (False, None)
    return False, None


def closes_at(grant: GrantTerms, grace: timedelta) -> datetime | None:
    """The moment `grant` stops opening its educators by the clock alone, whether or not that is past (None: never
    by the clock, or it opens nothing anyway): what the leading process announces once it passes."""
    if grant.revoked_at is not None:
        return None
    if grant.kind == GrantKind.COMPLIMENTARY:
        return grant.ends_at
    if grant.status in PAYING:
        end = grant.current_period_end
        return None if end is None else (end if grant.cancel_at_period_end else end + grace)
    if grant.status == "past_due":
        began = grant.current_period_start or grant.current_period_end
        return None if began is None else began + grace
    return None


def _before(now: datetime, limit: datetime | None) -> tuple[bool, datetime | None]:
    if limit is None:
        return True, None
    return (True, limit) if now < limit else (False, None)


def access_from(
    grants: Iterable[GrantTerms], now: datetime, grace: timedelta
) -> tuple[EducatorAccess, datetime | None]:
    """A member's access from their grants, and until when it holds by the clock (None: until a grant changes)."""
    educators: set[int] = set()
    everything = False
    until: datetime | None = None
    for grant in grants:
        is_open, limit = open_until(grant, now, grace)
        if not is_open:
            continue
        if grant.educator_id is None:
            everything = True
        else:
            educators.add(grant.educator_id)
        if limit is not None and (until is None or limit < until):
            until = limit
    if not everything and not educators:
        return NO_ACCESS, until
    return EducatorAccess(everything=everything, educators=frozenset(educators)), until


def open_clause(now: datetime, grace: timedelta) -> ColumnElement[bool]:
    """`open_until`'s answer for `access_grants` rows, in SQL."""
    g = AccessGrant
    paying = and_(
        g.kind == GrantKind.SUBSCRIPTION,
        g.status.in_(PAYING),
        or_(
            g.current_period_end.is_(None),
            and_(g.cancel_at_period_end.is_(True), g.current_period_end > now),
            and_(g.cancel_at_period_end.is_(False), g.current_period_end > now - grace),
        ),
    )
    past_due = and_(
        g.kind == GrantKind.SUBSCRIPTION,
        g.status == "past_due",
        or_(
            g.current_period_start > now - grace,
            and_(g.current_period_start.is_(None), g.current_period_end > now - grace),
        ),
    )
    complimentary = and_(g.kind == GrantKind.COMPLIMENTARY, or_(g.ends_at.is_(None), g.ends_at > now))
    return and_(g.revoked_at.is_(None), or_(complimentary, paying, past_due))


def member_opens(
    user_id: ColumnElement[int], educator_id: int | None, now: datetime, grace: timedelta
) -> ColumnElement[bool]:
    """SQL: the member in `user_id` holds an open grant covering `educator_id` (None: any grant, as the chat rooms
    ask)."""
    covers = (
        true()
        if educator_id is None
        else or_(AccessGrant.educator_id.is_(None), AccessGrant.educator_id == educator_id)
    )
    return exists().where(AccessGrant.user_id == user_id, covers, open_clause(now, grace))
