"""Sample trade ideas for the demo: open ideas per market and type, some history, one invalidated."""

from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.auth.models import User
from tradeideas.db import utcnow
from tradeideas.ideas.markets import classify_market, listing_market
from tradeideas.ideas.models import COMPLETED_STATUSES, IdeaStatus, TradeIdea

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
]  # fmt: skip


async def seed_sample_ideas(db: AsyncSession, educators: list[User]) -> None:
    if not educators:
        return
    now = utcnow()
    for age, sample in enumerate(reversed(SAMPLES)):
        edu, pair, order, idea_type, tf, e1, e2, inv, x1, x2, x3, status, notes = sample
        market_type = classify_market(pair).capitalize()
        created = now - timedelta(hours=3 * (len(SAMPLES) - age))
        db.add(
            TradeIdea(
                educator_id=educators[edu % len(educators)].id,
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
        )
    await db.flush()
