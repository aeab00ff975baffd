"""Demo data: the seven educators from educators.json, the demo customer, the two rooms, sample ideas.

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
from tradeideas.chat.models import ChatRoom
from tradeideas.core.models import AppMeta
from tradeideas.ideas.seed import seed_sample_ideas
from tradeideas.settings import Settings

DEMO_CUSTOMER_EMAIL = "customer@example.com"
ROOM_NAMES = ("Leverage Ideas", "Exchange Ideas")
SEEDED_KEY = "demo_seeded"


class EducatorConfig(TypedDict):
    id: int
    email: str
    firstName: str
    lastName: str
    slug: str
    specialty: str


def load_educators() -> list[EducatorConfig]:
    raw = resources.files("tradeideas").joinpath("educators.json").read_text()
    educators: list[EducatorConfig] = json.loads(raw)
    return educators


# Domains that ship sample content register a coroutine here (called once, on the first seed).
SampleSeeder = Callable[[AsyncSession, list[User]], Awaitable[None]]
SAMPLE_SEEDERS: list[SampleSeeder] = [seed_sample_ideas]


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
                )
            )
    await db.flush()
    if db.get_bind().dialect.name == "postgresql":
        # Explicit ids 1-7 bypass the sequence; move it past them so later accounts do not collide.
        await db.execute(
            text("SELECT setval(pg_get_serial_sequence('users', 'id'), GREATEST((SELECT MAX(id) FROM users), 7))")
        )
    customer = (await db.execute(select(User).where(User.email == DEMO_CUSTOMER_EMAIL))).scalar_one_or_none()
    if customer is None:
        db.add(
            User(
                email=DEMO_CUSTOMER_EMAIL,
                password_hash=password_hash,
                role=Role.CUSTOMER,
                first_name="Demo",
                last_name="Customer",
            )
        )
    rooms = set((await db.execute(select(ChatRoom.name))).scalars())
    for name in ROOM_NAMES:
        if name not in rooms:
            db.add(ChatRoom(name=name))
    await db.flush()

    if await db.get(AppMeta, SEEDED_KEY) is not None:
        return False
    educators = list((await db.execute(select(User).where(User.role == Role.EDUCATOR).order_by(User.id))).scalars())
    for seeder in SAMPLE_SEEDERS:
        await seeder(db, educators)
    db.add(AppMeta(key=SEEDED_KEY, value="1"))
    await db.flush()
    return True
