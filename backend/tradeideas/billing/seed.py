"""Demo plans and grants (issue #40): two educator plans and an all-access plan with a 7-day trial; the demo
customer holds a complimentary all-access grant, `member@example.com` only Alex Morgan's plan.

Written once per database (its own mark, so a demo seeded before paid access gets them on its next start); billing
needs no network here: the plans have no Stripe Price until an admin edits them with payments set up.
"""

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.auth.models import Role, User
from tradeideas.billing.models import Plan
from tradeideas.billing.service import add_complimentary
from tradeideas.core.models import AppMeta

BILLING_SEEDED_KEY = "demo_billing_seeded"
DEMO_MEMBER_EMAIL = "member@example.com"
DEMO_PLANS = (
    # name, educator id (None: all), amount in cents, trial days
    ("Alex Morgan: forex ideas", 1, 2900, 0),
    ("Sofia Reyes: crypto ideas", 2, 2900, 0),
    ("All educators", None, 7900, 7),
)


async def seed_billing(db: AsyncSession, customer_email: str, member_email: str = DEMO_MEMBER_EMAIL) -> None:
    if await db.get(AppMeta, BILLING_SEEDED_KEY) is not None:
        return
    educators = set((await db.execute(select(User.id).where(User.role == Role.EDUCATOR))).scalars())
    plans: dict[int | None, Plan] = {}
    for name, educator_id, amount, trial in DEMO_PLANS:
        if educator_id is not None and educator_id not in educators:
            continue
        plan = Plan(
            name=name,
            scope="all" if educator_id is None else "educator",
            educator_id=educator_id,
            unit_amount=amount,
            currency="usd",
            interval="month",
            trial_days=trial,
            active=True,
        )
        db.add(plan)
        plans[educator_id] = plan
    await db.flush()
    emails = (customer_email, member_email)
    members = dict((await db.execute(select(User.email, User.id).where(User.email.in_(emails)))).all())
    if customer_email in members:
        await add_complimentary(db, None, members[customer_email], None, None)
    if member_email in members and 1 in plans:
        grant = await add_complimentary(db, None, members[member_email], 1, None)
        grant.plan_id = plans[1].id
    db.add(AppMeta(key=BILLING_SEEDED_KEY, value="1"))
    await db.flush()
