"""Demo data: the seven educators from educators.json, the demo customer, the two rooms, sample ideas and messages.

Educators, the customer and the rooms are ensured on every start (missing ones are created,
existing ones are left as their owners edited them); sample content is written only once.
"""

import json
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import TypedDict

from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.auth.models import Role, User
from tradeideas.auth.passwords import hash_password
from tradeideas.auth.schemas import DemoAccounts
from tradeideas.billing.seed import DEMO_MEMBER_EMAIL, seed_billing
from tradeideas.chat.models import ChatRoom
from tradeideas.chat.seed import seed_sample_messages
from tradeideas.core.models import AppMeta
from tradeideas.desk.seed import seed_customer_history_journal, seed_followers, seed_sample_journal
from tradeideas.ideas.seed import seed_history, seed_sample_ideas, seed_setups
from tradeideas.ledger.seed import record_unledgered_ideas
from tradeideas.prices.seed import seed_price_candles
from tradeideas.settings import Settings
from tradeideas.trackrecords.seed import seed_track_records

DEMO_CUSTOMER_EMAIL = "customer@example.com"
DEMO_ADMIN_EMAIL = "admin@example.com"
# Demo members who follow the educators (with the demo history): enough for "taken" to show on some ideas.
DEMO_FOLLOWERS = tuple((f"follower{n}@example.com", "Demo", f"Follower {n}") for n in range(1, 8))
ROOM_NAMES = ("Leverage Ideas", "Exchange Ideas")
SEEDED_KEY = "demo_seeded"


class EducatorConfig(TypedDict):
    id: int
    email: str
    firstName: str
    lastName: str
    slug: str
    specialty: str
    # The public profile a customer reads on the educator's page and in the popover on their name.
    bio: str
    yearsExperience: int
    tradingStyle: str
    timezone: str


def load_educators() -> list[EducatorConfig]:
    raw = resources.files("tradeideas").joinpath("educators.json").read_text()
    educators: list[EducatorConfig] = json.loads(raw)
    return educators


# Domains that ship sample content register a coroutine here (called once, on the first seed).
SampleSeeder = Callable[[AsyncSession, Settings, DemoAccounts], Awaitable[None]]
# The ledger's seeder runs right after the ideas are written, before anything else may change them (the history is
# written through the commands: with the app's event bus its entries are already there, without it they are not).
SAMPLE_SEEDERS: list[SampleSeeder] = [
    seed_setups,  # before the ideas: every demo idea names one
    seed_sample_ideas,
    seed_history,
    record_unledgered_ideas,
    seed_sample_messages,
    seed_track_records,
    seed_sample_journal,
    seed_followers,  # after the history: members who took some of its ideas
    seed_customer_history_journal,  # after the history: the customer's own trades of some of its ideas
    seed_price_candles,  # after the ideas: a price path for each
]


async def seed_demo(db: AsyncSession, settings: Settings) -> bool:
    """Ensure demo accounts and rooms; write sample content once. Returns True on the first seed."""
    password_hash = await hash_password(settings.demo_password)
    existing = {u.id: u for u in (await db.execute(select(User))).scalars()}
    for edu in load_educators():
        if edu["id"] not in existing:
            db.add(
                User(
                    id=edu["id"],
                    email=edu["email"],
                    password_hash=password_hash,
                    role=Role.EDUCATOR,
                    first_name=edu["firstName"],
                    last_name=edu["lastName"],
                    slug=edu["slug"],
                    specialty=edu["specialty"],
                    bio=edu["bio"],
                    years_experience=edu["yearsExperience"],
                    trading_style=edu["tradingStyle"],
                    timezone=edu["timezone"],
                )
            )
    await db.flush()
    if db.get_bind().dialect.name == "postgresql":
        # Explicit ids 1-7 bypass the sequence; move it past them so later accounts do not collide.
        await db.execute(
            text("SELECT setval(pg_get_serial_sequence('users', 'id'), GREATEST((SELECT MAX(id) FROM users), 7))")
        )
    demo_accounts = (
        (DEMO_CUSTOMER_EMAIL, Role.CUSTOMER, "Demo", "Customer"),
        (DEMO_MEMBER_EMAIL, Role.CUSTOMER, "Demo", "Member"),  # holds one educator's plan (paid access)
        (DEMO_ADMIN_EMAIL, Role.ADMIN, "Demo", "Admin"),
    )
    present = set((await db.execute(select(User.email).where(User.email.in_([a[0] for a in demo_accounts])))).scalars())
    for email, role, first_name, last_name in demo_accounts:
        if email not in present:
            db.add(
                User(email=email, password_hash=password_hash, role=role, first_name=first_name, last_name=last_name)
            )
    rooms = set((await db.execute(select(ChatRoom.name))).scalars())
    for name in ROOM_NAMES:
        if name not in rooms:
            db.add(ChatRoom(name=name))
    await db.flush()
    await seed_billing(db, DEMO_CUSTOMER_EMAIL)  # once, with a mark of its own (demos seeded before it get it too)

    if await db.get(AppMeta, SEEDED_KEY) is not None:
        return False
    educators = list((await db.execute(select(User.id).where(User.role == Role.EDUCATOR).order_by(User.id))).scalars())
    customer = (await db.execute(select(User.id).where(User.email == DEMO_CUSTOMER_EMAIL))).scalar_one_or_none()
    followers = await _followers(db, password_hash) if settings.demo_history else []
    for seeder in SAMPLE_SEEDERS:
        await seeder(db, settings, DemoAccounts(educator_ids=educators, customer_id=customer, follower_ids=followers))
    db.add(AppMeta(key=SEEDED_KEY, value="1"))
    await db.flush()
    return True


async def _followers(db: AsyncSession, password_hash: str) -> list[int]:
    """The demo followers' ids, their accounts created when missing (written with the sample content, once)."""
    emails = [email for email, _, _ in DEMO_FOLLOWERS]
    present = set((await db.execute(select(User.email).where(User.email.in_(emails)))).scalars())
    for email, first_name, last_name in DEMO_FOLLOWERS:
        if email not in present:
            db.add(
                User(
                    email=email, password_hash=password_hash, role=Role.CUSTOMER, first_name=first_name,
                    last_name=last_name,
                )
            )  # fmt: skip
    await db.flush()
    rows = await db.execute(select(User.email, User.id).where(User.email.in_(emails)))
    ids: dict[str, int] = {email: user_id for email, user_id in rows}
    return [ids[email] for email in emails]
