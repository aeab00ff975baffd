"""The access rule over every state a grant can be in, in Python and in SQL alike (issue #40)."""

import uuid
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from fastapi import FastAPI
from sqlalchemy import literal, select

from tradeideas.auth.models import Role, User
from tradeideas.billing.models import AccessGrant
from tradeideas.billing.rule import GrantTerms, access_from, member_opens, open_until

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
GRACE = timedelta(days=14)
DAY = timedelta(days=1)
EDUCATOR_A, EDUCATOR_B = 1, 2


def paid(status: str, **fields: object) -> GrantTerms:
    base = GrantTerms(
        kind="subscription",
        status=status,
        educator_id=EDUCATOR_A,
        ends_at=None,
        current_period_start=NOW - 10 * DAY,
        current_period_end=NOW + 20 * DAY,
        cancel_at_period_end=False,
        revoked_at=None,
    )
    return replace(base, **fields)  # type: ignore[arg-type]


def free(**fields: object) -> GrantTerms:
    base = GrantTerms("complimentary", "complimentary", None, None, None, None, False, None)
    return replace(base, **fields)  # type: ignore[arg-type]


# name -> (grant or None, opens educator A, opens educator B)
CASES: dict[str, tuple[GrantTerms | None, bool, bool]] = {
    "no grant": (None, False, False),
    "plan for educator A": (paid("active"), True, False),
    "all-access plan": (paid("active", educator_id=None), True, True),
    "trialing": (paid("trialing"), True, False),
    "past_due within grace": (paid("past_due", current_period_start=NOW - 13 * DAY), True, False),
    "past_due after grace": (paid("past_due", current_period_start=NOW - 15 * DAY), False, False),
    "cancel at period end, before it": (paid("active", cancel_at_period_end=True), True, False),
    "cancel at period end, after it": (
        paid("active", cancel_at_period_end=True, current_period_end=NOW - DAY),
        False,
        False,
    ),
    "canceled": (paid("canceled"), False, False),
    "unpaid": (paid("unpaid"), False, False),
    "incomplete": (paid("incomplete"), False, False),
    "active, renewal never heard of past grace": (paid("active", current_period_end=NOW - 15 * DAY), False, False),
    "complimentary": (free(), True, True),
    "complimentary for educator B until tomorrow": (free(educator_id=EDUCATOR_B, ends_at=NOW + DAY), False, True),
    "expired complimentary": (free(ends_at=NOW - DAY), False, False),
    "revoked complimentary": (free(revoked_at=NOW - DAY), False, False),
}


@pytest.mark.parametrize("name", list(CASES))
def test_the_rule_in_python(name: str) -> None:
    grant, opens_a, opens_b = CASES[name]
    access, _ = access_from([grant] if grant else [], NOW, GRACE)
    assert (access.opens(EDUCATOR_A), access.opens(EDUCATOR_B)) == (opens_a, opens_b)
    assert access.any == (opens_a or opens_b)


def test_access_holds_until_the_first_limit_by_the_clock() -> None:
    grants = [free(ends_at=NOW + 3 * DAY), paid("past_due", current_period_start=NOW - 10 * DAY)]
    access, until = access_from(grants, NOW, GRACE)
    assert access.everything and until == NOW + 3 * DAY
    assert open_until(grants[1], NOW, GRACE) == (True, NOW + 4 * DAY)
    assert open_until(grants[1], NOW + 4 * DAY, GRACE) == (False, None)


async def test_the_rule_in_sql_answers_as_in_python(app: FastAPI) -> None:
    async with app.state.db.sessionmaker() as session, session.begin():
        users: dict[str, int] = {}
        for name, (grant, _, _) in CASES.items():
            user = User(email=f"rule-{uuid.uuid4().hex[:10]}@example.com", password_hash="x", role=Role.CUSTOMER)
            session.add(user)
            await session.flush()
            users[name] = user.id
            if grant is not None:
                session.add(
                    AccessGrant(
                        user_id=user.id,
                        kind=grant.kind,
                        status=grant.status,
                        educator_id=grant.educator_id,
                        ends_at=grant.ends_at,
                        current_period_start=grant.current_period_start,
                        current_period_end=grant.current_period_end,
                        cancel_at_period_end=grant.cancel_at_period_end,
                        revoked_at=grant.revoked_at,
                    )
                )
        await session.flush()
        for name, (_, opens_a, opens_b) in CASES.items():
            user_id = literal(users[name])
            for educator, expected in ((EDUCATOR_A, opens_a), (EDUCATOR_B, opens_b)):
                found = (await session.execute(select(member_opens(user_id, educator, NOW, GRACE)))).scalar_one()
                assert bool(found) == expected, (name, educator)
            any_grant = (await session.execute(select(member_opens(user_id, None, NOW, GRACE)))).scalar_one()
            assert bool(any_grant) == (opens_a or opens_b), name
        await session.rollback()
