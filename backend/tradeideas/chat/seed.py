"""Sample messages for the demo: educator posts in each room (one with a chart), the demo customer's reactions."""

from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.concurrency import run_in_threadpool

from tradeideas.auth.schemas import DemoAccounts
from tradeideas.chat.models import ChatMessage, ChatReaction, ChatRoom, ReactionKind
from tradeideas.db import utcnow
from tradeideas.media.demo_charts import draw_chart
from tradeideas.media.service import store_image_bytes
from tradeideas.settings import Settings

# room name -> (educator index, text starting with the pair when it has a chart, chart levels, customer reactions)
SAMPLES: dict[str, list[tuple[int, str, list[tuple[str, str]] | None, tuple[ReactionKind, ...]]]] = {
    "Leverage Ideas": [
        (0, "Good morning! EUR/USD is holding the weekly demand zone; the long idea stays valid above 1.0795.", None,
         (ReactionKind.HEART,)),
        (1, "BTC/USDT reclaimed the range high overnight. Chart with the levels I am watching:",
         [("Entry 1", "67250"), ("Invalidation", "65400"), ("Exit 1", "69500"), ("Exit 2", "71200")],
         (ReactionKind.HEART, ReactionKind.LIKE)),
        (2, "Reminder: size positions so a hit on the invalidation level costs no more than 1% of the account.", None,
         (ReactionKind.LIKE,)),
    ],
    "Exchange Ideas": [
        (5, "SOL spot accumulation: I am scaling in between 148.50 and 142.00 over the week.", None, ()),
        (3, "USD/CAD sell idea is live. Oil strength supports the Canadian dollar.",
         [("Entry 1", "1.3720"), ("Invalidation", "1.3785"), ("Exit 1", "1.3650")], (ReactionKind.LIKE,)),
        (6, "ADA idea published for the long run; patience is the edge on spot.", None, (ReactionKind.HEART,)),
    ],
}  # fmt: skip


async def seed_sample_messages(db: AsyncSession, settings: Settings, demo: DemoAccounts) -> None:
    educators = demo.educator_ids
    if not educators:
        return
    customer_id = demo.customer_id
    rooms = {room.name: room for room in (await db.execute(select(ChatRoom))).scalars()}
    now = utcnow()
    for name, messages in SAMPLES.items():
        room = rooms.get(name)
        if room is None:
            continue
        for position, (edu, text, chart, reactions) in enumerate(messages):
            educator_id = educators[edu % len(educators)]
            image_id = None
            if chart is not None:
                png = await run_in_threadpool(draw_chart, text.split()[0], chart, bullish=True, seed=position)
                image_id = (await store_image_bytes(db, settings, educator_id, png)).id
            sent = now - timedelta(minutes=40 * (len(messages) - position))
            message = ChatMessage(
                room_id=room.id, user_id=educator_id, message=text, image_id=image_id, created_at=sent, updated_at=sent
            )
            db.add(message)
            await db.flush()
            if customer_id is not None:
                db.add_all(ChatReaction(message_id=message.id, user_id=customer_id, kind=kind) for kind in reactions)
    await db.flush()
