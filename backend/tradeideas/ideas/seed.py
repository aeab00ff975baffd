"""Sample trade ideas for the demo: open ideas per market and type, history in every market and type,
one invalidated, each with a chart drawn at seed time; the first has three charts, a voice note and a video link.
Completed ones carry outcomes and R for the track records, closed on different past days (status
"successful:exit2" names the outcome; the default otherwise)."""

import random
from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.concurrency import run_in_threadpool

from tradeideas.auth import service as accounts
from tradeideas.auth.schemas import DemoAccounts
from tradeideas.db import utcnow
from tradeideas.ideas.commands import create_idea, set_lesson, set_status
from tradeideas.ideas.markets import classify_market, listing_market
from tradeideas.ideas.models import COMPLETED_STATUSES, IdeaImage, IdeaSetup, IdeaStatus, TradeIdea
from tradeideas.ideas.outcomes import STATUS_OUTCOMES, Levels, r_multiple
from tradeideas.ideas.schemas import IdeaCreate, LessonIn
from tradeideas.media.demo_charts import draw_chart
from tradeideas.media.demo_voice import voice_note_wav
from tradeideas.media.service import store_audio_bytes, store_image_bytes
from tradeideas.settings import Settings

# (educator index, pair, order, idea type, time frame, entry1, entry2, invalidation, exit1, exit2, exit3, status, notes)
SAMPLES: list[tuple[int, str, str, str, str, str, str | None, str, str, str | None, str | None, str, str | None]] = [
    (0, "EUR/USD", "BUY", "Leverage", "4H", "1.0850", "1.0830", "1.0795", "1.0910", "1.0960", None, "active",
     "Bounce from the weekly demand zone; waiting for London open confirmation."),
    (0, "GBP/JPY", "SELL", "Leverage", "1H", "191.40", None, "192.10", "190.20", "189.50", None, "active", None),
    (2, "XAU/USD", "BUY", "Leverage", "1D", "2345.00", "2330.00", "2309.50", "2380.00", "2410.00", "2450.00", "active",
     "Gold holding the 50-day average; scale in on the second entry."),
    (3, "USD/CAD", "SELL", "Exchange", "4H", "1.3720", None, "1.3785", "1.3650", None, None, "active", None),
    (4, "SPX500", "BUY", "Exchange", "1D", "5210", "5185", "5140", "5290", "5340", None, "active",
     "Index pullback into prior breakout level."),
    (1, "BTC/USDT", "BUY", "Leverage", "4H", "67250", "66800", "65400", "69500", "71200", None, "active",
     "Reclaim of the range high; invalidation under the 4H swing low."),
    (1, "ETH/USDT", "SELL", "Leverage", "1H", "3520", None, "3595", "3410", "3350", None, "active", None),
    (5, "SOL/USDT", "BUY", "Exchange", "1D", "148.50", "142.00", "134.90", "165.00", "178.00", "190.00", "active",
     "Spot accumulation idea; long horizon."),
    (6, "ADA/USDT", "BUY", "Exchange", "1D", "0.4520", None, "0.4180", "0.5050", None, None, "active", None),
    (0, "AUD/USD", "BUY", "Leverage", "4H", "0.6610", None, "0.6575", "0.6690", None, None, "successful",
     "Target 1 hit after the RBA statement."),
    (3, "EUR/GBP", "SELL", "Exchange", "1D", "0.8590", None, "0.8625", "0.8520", None, None, "unsuccessful", None),
    (1, "XRP/USDT", "SELL", "Leverage", "1H", "0.5240", None, "0.5330", "0.5080", None, None, "successful", None),
    (5, "DOGE/USDT", "BUY", "Exchange", "4H", "0.1580", None, "0.1490", "0.1720", None, None, "unsuccessful", None),
    (2, "NZD/USD", "BUY", "Leverage", "1H", "0.6020", None, "0.5985", "0.6080", None, None, "invalidated",
     "Price broke below the invalidation level before entry."),
    (0, "USD/JPY", "BUY", "Leverage", "4H", "151.20", None, "150.60", "152.40", "153.00", None, "successful:exit2",
     None),
    (0, "EUR/JPY", "SELL", "Exchange", "1D", "1.0920", None, "1.0980", "1.0800", None, None, "unsuccessful", None),
    (1, "BTC/USDT", "BUY", "Exchange", "1D", "64,200", None, "62,900", "66,800", "68,100", None, "successful:exit2",
     None),
    (2, "XAU/USD", "SELL", "Leverage", "4H", "2368.00", None, "2381.00", "2342.00", None, None, "successful", None),
    (3, "GBP/AUD", "BUY", "Leverage", "1H", "1.2710", None, "1.2680", "1.2770", None, None, "unsuccessful", None),
    (4, "GBP/USD", "SELL", "Leverage", "4H", "1.2660", None, "1.2690", "1.2600", "1.2570", None, "successful:exit2",
     None),
    (5, "ETH/USDT", "BUY", "Leverage", "4H", "3380", None, "3310", "3520", None, None, "successful", None),
    (6, "BNB/USDT", "BUY", "Exchange", "1D", "585", None, "560", "630", None, None, "successful", None),
    (6, "LINK/USDT", "SELL", "Leverage", "1H", "14.20", None, "14.60", "13.40", None, None, "unsuccessful", None),
]  # fmt: skip

# The setups demo educators keep: each educator keeps 3-5 of them, starting at a different one.
# (name, description, why an idea of it was taken, with {pair} and {side}: "buyers" or "sellers")
SETUPS: list[tuple[str, str, str]] = [
    ("Breakout retest",
     "Price closes beyond a level that held for days, comes back to it and holds: the old ceiling becomes the floor "
     "(or the floor the ceiling). Entry on the retest, stop beyond the retest's extreme.",
     "{pair} closed through a level that held all week and came back to test it; {side} defended the retest, so the "
     "entry sits at the level with the stop beyond the retest's wick."),
    ("Trend pullback",
     "In an established trend, wait for a pullback into the rising (or falling) average or the last breakout zone "
     "and enter as momentum turns back with the trend.",
     "{pair} is trending with higher time frames aligned; the pullback reached the 20-period average where {side} "
     "stepped in last time, so the risk is small against the trend's next leg."),
    ("Range fade",
     "In a clear range, sell the top and buy the bottom once price rejects the edge; the opposite edge is the "
     "target and a close outside the range ends the idea.",
     "{pair} has respected the same range for two weeks and just rejected its edge; {side} have the better odds "
     "back towards the middle and the far side of the range."),
    ("Liquidity sweep",
     "Price runs the stops above a high (or below a low) and snaps back inside: the trapped traders fuel the move "
     "the other way.",
     "{pair} swept the obvious stops beyond the prior swing and closed back inside; the trapped orders give {side} "
     "fuel, and the sweep's extreme is a clear invalidation."),
    ("News continuation",
     "After a scheduled release moves price decisively, join the move on its first orderly pause rather than the "
     "spike itself.",
     "{pair} moved hard on the release and paused in an orderly flag; {side} are in control, and the flag's far "
     "side is where the idea is wrong."),
    ("Support and resistance flip",
     "A level that was support becomes resistance after it breaks (and the reverse); trade the first clean "
     "reaction at the flipped level.",
     "{pair} reached a level that switched roles last week; the first reaction there favours {side}, with the stop "
     "just through the level."),
]  # fmt: skip


async def seed_setups(db: AsyncSession, settings: Settings, demo: DemoAccounts) -> None:
    """Each demo educator keeps 3-5 setups (before their ideas are written, so every idea names one). Part of the
    demo's history (`DEMO_HISTORY`): without it, as in tests and browser journeys, educators keep none and publish
    without one until they add their own (decision 0170)."""
    if not settings.demo_history:
        return
    now = utcnow()
    for index, educator_id in enumerate(demo.educator_ids):
        for offset in range(3 + index % 3):
            name, description, _ = SETUPS[(index + offset) % len(SETUPS)]
            db.add(
                IdeaSetup(educator_id=educator_id, name=name, description=description, created_at=now, updated_at=now)
            )
    await db.flush()


async def _setups_by_educator(db: AsyncSession) -> dict[int, list[IdeaSetup]]:
    found: dict[int, list[IdeaSetup]] = {}
    for setup in (await db.execute(select(IdeaSetup).order_by(IdeaSetup.id))).scalars():
        found.setdefault(setup.educator_id, []).append(setup)
    return found


def demo_reason(setup: IdeaSetup, pair: str, order: str) -> str:
    """Why a demo idea of `setup` was taken, in that setup's words."""
    template = next((why for name, _, why in SETUPS if name == setup.name), "{pair}: {side} have the edge here.")
    return template.format(pair=pair, side="buyers" if order == "BUY" else "sellers")


# Every LESSON_EVERY-th completed demo idea has a lesson (issue #42: a third of them).
LESSON_EVERY = 3


def demo_lesson(pair: str, won: bool) -> LessonIn:
    """What a demo educator wrote after the close of a win or a loss on `pair`."""
    if won:
        return LessonIn(
            what_happened=f"{pair} reached the target without a real pullback after the entry filled.",
            lesson="Taking part of the position at the first exit kept the plan calm; keep doing it.",
        )
    return LessonIn(
        what_happened=f"{pair} turned against the idea right after a news release and hit the invalidation.",
        lesson="Check the economic calendar before entering and wait for the release on news days.",
    )


# The idea that shows every medium: extra charts, a voice explanation and a video link.
MEDIA_PAIR = "EUR/USD"
DEMO_VIDEO_URL = "https://vimeo.com/76979871"


async def seed_sample_ideas(db: AsyncSession, settings: Settings, demo: DemoAccounts) -> None:
    educators = demo.educator_ids
    if not educators:
        return
    now = utcnow()
    setups = await _setups_by_educator(db)
    for age, sample in enumerate(reversed(SAMPLES)):
        edu, pair, order, idea_type, tf, e1, e2, inv, x1, x2, x3, ending, notes = sample
        status, _, named = ending.partition(":")
        market_type = classify_market(pair).capitalize()
        created = now - timedelta(hours=3 * (len(SAMPLES) - age))
        outcome = named or STATUS_OUTCOMES[IdeaStatus(status)][0] if status in STATUS_OUTCOMES else None
        if outcome is not None:  # history: published and closed on past days, one idea a day
            created = now - timedelta(days=len(SAMPLES) - age, hours=6)
        educator_id = educators[edu % len(educators)]
        levels = [
            ("Entry 1", e1),
            ("Invalidation", inv),
            *((f"Exit {i}", x) for i, x in enumerate((x1, x2, x3), 1) if x),
        ]
        own = setups.get(educator_id, [])
        setup = own[age % len(own)] if own else None
        chart = await run_in_threadpool(draw_chart, pair, levels, bullish=order == "BUY", seed=age)
        media = await store_image_bytes(db, settings, educator_id, chart)
        idea = TradeIdea(
            educator_id=educator_id,
            market_type=market_type,
            market=listing_market(pair, market_type),
            order_type=order,
            idea_type=idea_type,
            pair=pair,
            time_frame=tf,
            entry1=e1,
            entry2=e2,
            invalidation_level=inv,
            exit1=x1,
            exit2=x2,
            exit3=x3,
            notes=notes,
            setup_id=None if setup is None else setup.id,
            reason=None if setup is None else demo_reason(setup, pair, order),
            status=status,
            completed=IdeaStatus(status) in COMPLETED_STATUSES,
            edited=False,
            created_at=created,
            updated_at=created,
        )
        if outcome is not None:
            idea.outcome, idea.closed_at = outcome, created + timedelta(hours=5)
            idea.r_multiple = r_multiple(Levels(order, e1, e2, inv, x1, x2, x3), outcome, None)
            if idea.completed and age % LESSON_EVERY == 0:
                lesson = demo_lesson(pair, status == IdeaStatus.SUCCESSFUL)
                idea.lesson_what_happened, idea.lesson_text = lesson.what_happened, lesson.lesson
                idea.lesson_at = idea.lesson_updated_at = idea.closed_at + timedelta(hours=1)
        images = [media]
        if pair == MEDIA_PAIR:
            for extra in (1, 2):
                more = await run_in_threadpool(draw_chart, pair, levels, bullish=order == "BUY", seed=100 * extra + age)
                images.append(await store_image_bytes(db, settings, educator_id, more))
            voice = await store_audio_bytes(db, settings, educator_id, voice_note_wav())
            idea.audio_url, idea.video_url = voice.url, DEMO_VIDEO_URL
        db.add(idea)
        await db.flush()
        for position, image in enumerate(images):
            db.add(IdeaImage(idea_id=idea.id, position=position, media_id=image.id))
    await db.flush()


# ---------------------------------------------------------------- six months of history per educator

# (pair, typical price, decimals, risk as a fraction of price: low, high)
FOREX_PAIRS = [("EUR/USD", 1.0850, 4, 0.002, 0.006), ("GBP/USD", 1.2650, 4, 0.002, 0.007),
               ("USD/JPY", 151.20, 2, 0.002, 0.006), ("AUD/USD", 0.6610, 4, 0.002, 0.007),
               ("USD/CAD", 1.3720, 4, 0.002, 0.006), ("XAU/USD", 2345.0, 2, 0.003, 0.010),
               ("EUR/GBP", 0.8590, 4, 0.002, 0.005), ("USD/CHF", 0.8850, 4, 0.002, 0.006)]  # fmt: skip
CRYPTO_PAIRS = [("BTC/USDT", 67250.0, 0, 0.010, 0.035), ("ETH/USDT", 3520.0, 1, 0.012, 0.040),
                ("SOL/USDT", 148.50, 2, 0.015, 0.050), ("XRP/USDT", 0.5240, 4, 0.015, 0.045),
                ("BNB/USDT", 585.0, 1, 0.012, 0.040), ("ADA/USDT", 0.4520, 4, 0.015, 0.050)]  # fmt: skip
# Hours an idea of a time frame typically stays open (low, high).
HOLDING = {"1H": (2, 18), "4H": (6, 60), "1D": (24, 240)}
HISTORY_DAYS = 182


def _markets(specialty: str | None) -> float:
    """The share of crypto ideas an educator publishes, from their specialty."""
    text = (specialty or "").lower()
    if "crypto" in text:
        return 0.85
    if "forex" in text:
        return 0.1
    return 0.4


async def seed_history(db: AsyncSession, settings: Settings, demo: DemoAccounts) -> None:
    """40-80 completed ideas per educator over the last six months: deterministic (a generator seeded with the
    educator's id), both markets where the specialty fits, wins, losses and not-triggered ideas in a believable
    mix, published and closed through the same commands as real ideas (so revisions, events and the ledger
    follow them as they follow any idea)."""
    if not settings.demo_history:
        return
    now = utcnow()
    educators = await accounts.public_users(db, demo.educator_ids)
    setups = await _setups_by_educator(db)
    completed = 0
    for educator_id in demo.educator_ids:
        educator = educators[educator_id]
        rng = random.Random(educator.id * 7919)
        crypto_share = _markets(educator.specialty)
        win_rate = rng.uniform(0.40, 0.58)
        count = rng.randint(40, 80)
        starts = sorted(rng.uniform(0, HISTORY_DAYS - 11) for _ in range(count))
        for number, offset in enumerate(starts):
            crypto = rng.random() < crypto_share
            pair, price, decimals, low, high = rng.choice(CRYPTO_PAIRS if crypto else FOREX_PAIRS)
            frame = rng.choice(list(HOLDING))
            entry = price * rng.uniform(0.93, 1.07)
            risk = entry * rng.uniform(low, high)
            buy = rng.random() < 0.55
            sign = 1 if buy else -1

            own = setups.get(educator.id, [])
            # In turn, not drawn: the generator's sequence (and so the history's mix) stays as it was.
            setup = own[number % len(own)] if own else None

            def level(distance: float, entry: float = entry, sign: int = sign, decimals: int = decimals) -> str:
                return f"{entry + sign * distance:.{decimals}f}"

            body = IdeaCreate.model_validate(
                {
                    "marketType": "Crypto" if crypto else "Forex",
                    "orderType": "BUY" if buy else "SELL",
                    "ideaType": "Exchange" if crypto and rng.random() < 0.4 else "Leverage",
                    "pair": pair,
                    "timeFrame": frame,
                    "entry1": level(0),
                    "invalidationLevel": level(-risk),
                    "exit1": level(risk * rng.choice((1.5, 2.0))),
                    "exit2": level(risk * 3.0) if rng.random() < 0.6 else None,
                    "setupId": None if setup is None else setup.id,
                    "reason": None if setup is None else demo_reason(setup, pair, "BUY" if buy else "SELL"),
                }
            )
            published = now - timedelta(days=HISTORY_DAYS - offset, minutes=rng.randint(0, 600))
            idea = await create_idea(db, educator.id, body, published)
            held = timedelta(hours=rng.uniform(*HOLDING[frame]))
            roll = rng.random()
            if roll < 0.12:
                status, outcome = "invalidated", "not_triggered"
            elif roll < 0.12 + 0.88 * win_rate:
                status, outcome = "successful", "exit2" if body.exit2 and rng.random() < 0.35 else "exit1"
            else:
                status, outcome = "unsuccessful", "invalidation"
            await set_status(db, idea, educator.id, status, outcome, None, published + held)
            if idea.completed:
                completed += 1
                if completed % LESSON_EVERY == 0:
                    lesson = demo_lesson(pair, status == "successful")
                    await set_lesson(db, idea, lesson, published + held + timedelta(hours=1))
