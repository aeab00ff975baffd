"""How long queueing one chat message's pushes takes for many customers (the posting request waits for it).

N customers with `chatMessage` on, one push subscription each (a tenth also with quiet hours now, so held),
then `enqueue_chat_push` for one educator's message, in one transaction, timed. Also the same for an idea
(`enqueue_idea_push`) for comparison. Uses a fresh SQLite DATA_DIR, or DATABASE_URL when set (PostgreSQL:
a database you can throw away).

Reproduce (from `backend/`): `uv run python ../bench/chat_push.py --customers 10000`
"""

import argparse
import asyncio
import os
import tempfile
import time
from pathlib import Path

from sqlalchemy import delete, insert, select

from tradeideas.auth.models import Role, User
from tradeideas.chat.schemas import MessageOut
from tradeideas.cli import migrate
from tradeideas.db import Database, utcnow
from tradeideas.ideas import service as ideas
from tradeideas.ideas.models import TradeIdea
from tradeideas.ideas.queries import PUBLIC_VIEWER
from tradeideas.notifications.models import CustomerIdeaState
from tradeideas.push.models import PushDelivery, PushSubscription
from tradeideas.push.service import enqueue_chat_push, enqueue_idea_push
from tradeideas.seed import seed_demo
from tradeideas.settings import Settings


async def main(args: argparse.Namespace, settings: Settings) -> None:
    db = Database(settings)
    async with db.sessionmaker() as s, s.begin():
        await seed_demo(s, settings)
    now = utcnow()
    quiet_start, quiet_end = (
        (now.replace(hour=(now.hour + 23) % 24)).strftime("%H:00"),
        (now.replace(hour=(now.hour + 1) % 24)).strftime("%H:00"),
    )
    async with db.sessionmaker() as s, s.begin():
        users = [
            {
                "email": f"bench{i}@example.com",
                "password_hash": "x",
                "role": Role.CUSTOMER,
                "first_name": "",
                "last_name": "",
            }
            for i in range(args.customers)
        ]
        ids = list((await s.execute(insert(User).returning(User.id), users)).scalars())
        states = [
            {"user_id": uid, "notify_chat": True}
            | ({"quiet_start": quiet_start, "quiet_end": quiet_end, "quiet_timezone": "UTC"} if n % 10 == 0 else {})
            for n, uid in enumerate(ids)
        ]
        await s.execute(
            insert(CustomerIdeaState),
            [{"quiet_start": None, "quiet_end": None, "quiet_timezone": None} | st for st in states],
        )
        subs = [
            {"user_id": uid, "endpoint": f"https://fcm.googleapis.com/bench/{uid}", "p256dh": "k", "auth": "a"}
            for uid in ids
        ]
        await s.execute(insert(PushSubscription), subs)
        educator = (await s.execute(select(User).where(User.email == "educator1@example.com"))).scalar_one()
        idea_id = (await s.execute(select(TradeIdea.id).limit(1))).scalar_one()
    message = MessageOut(
        id=1, room_id=1, user_id=educator.id, user_name="Alex Morgan", user_role="educator", specialty=None,
        user_image=None, message="Bench", image_url=None, created_at=now, updated_at=now, is_edited=False,
        hearts=0, likes=0, hearted=False, liked=False,
    )  # fmt: skip
    t0 = time.perf_counter()
    async with db.sessionmaker() as s, s.begin():
        chat_queued = await enqueue_chat_push(s, message, "Leverage Ideas")
    chat_seconds = time.perf_counter() - t0
    async with db.sessionmaker() as s, s.begin():
        await s.execute(delete(PushDelivery))
    async with db.sessionmaker() as s:  # the idea as `IdeaCreated` carries it
        idea = await ideas.present_one(s, await ideas.get_idea(s, idea_id), PUBLIC_VIEWER)
    t0 = time.perf_counter()
    async with db.sessionmaker() as s, s.begin():
        idea_queued = await enqueue_idea_push(s, idea, settings)
    idea_seconds = time.perf_counter() - t0
    await db.dispose()
    backend = "sqlite" if settings.is_sqlite else "postgresql"
    print(f"{backend}: {args.customers} customers (a tenth in quiet hours)")
    print(f"  chat message: {chat_queued} deliveries queued in {chat_seconds * 1000:.0f} ms")
    print(f"  new idea:     {idea_queued} deliveries queued in {idea_seconds * 1000:.0f} ms")


def settings_for_run() -> Settings:
    data_dir = Path(tempfile.mkdtemp(prefix="chat-push-bench-"))
    return Settings(data_dir=data_dir, database_url=os.environ.get("DATABASE_URL"))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--customers", type=int, default=10_000)
    parsed = parser.parse_args()
    run_settings = settings_for_run()
    migrate(run_settings)
    asyncio.run(main(parsed, run_settings))
