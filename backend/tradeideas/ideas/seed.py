"""Sample trade ideas for the demo: open ideas per market and type, history in every market and type,
one invalidated, each with a chart drawn at seed time; the first has three charts, a voice note and a video link.
Completed ones carry outcomes and R for the track records, closed on different past days (status
"successful:exit2" names the outcome; the default otherwise)."""

from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncSession
from starlette.concurrency import run_in_threadpool

from tradeideas.auth.schemas import DemoAccounts
from tradeideas.db import utcnow
from tradeideas.ideas.markets import classify_market, listing_market
from tradeideas.ideas.models import COMPLETED_STATUSES, IdeaImage, IdeaStatus, TradeIdea
from tradeideas.ideas.outcomes import STATUS_OUTCOMES, Levels, r_multiple
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
    (4, "SPX500", "SELL", "Leverage", "4H", "5260", None, "5290", "5200", "5170", None, "successful:exit2", None),
    (5, "ETH/USDT", "BUY", "Leverage", "4H", "3380", None, "3310", "3520", None, None, "successful", None),
    (6, "BNB/USDT", "BUY", "Exchange", "1D", "585", None, "560", "630", None, None, "successful", None),
    (6, "LINK/USDT", "SELL", "Leverage", "1H", "14.20", None, "14.60", "13.40", None, None, "unsuccessful", None),
]  # fmt: skip

# The idea that shows every medium: extra charts, a voice explanation and a video link.
MEDIA_PAIR = "EUR/USD"
DEMO_VIDEO_URL = "https://vimeo.com/76979871"


async def seed_sample_ideas(db: AsyncSession, settings: Settings, demo: DemoAccounts) -> None:
    educators = demo.educator_ids
    if not educators:
        return
    now = utcnow()
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
            status=status,
            completed=IdeaStatus(status) in COMPLETED_STATUSES,
            edited=False,
            created_at=created,
            updated_at=created,
        )
        if outcome is not None:
            idea.outcome, idea.closed_at = outcome, created + timedelta(hours=5)
            idea.r_multiple = r_multiple(Levels(order, e1, e2, inv, x1, x2, x3), outcome, None)
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
