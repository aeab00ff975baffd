"""Demo candles: for every seeded idea a price path drawn from its own levels and outcome, stored as the feeds'
candles would be (one-minute, bid and ask for forex, under the forex feed in use), so `make run` shows price
checks and charts with no network.

Deterministic (a random generator seeded with the idea's id) and generic over whatever ideas the seed wrote:
- the educator's outcome exitN: the price triggers the entry, reaches each exit in turn up to N, and, when the idea
  has further exits, turns back to the stop (the price check then settles exitN too);
- invalidation: the entry, then the stop; not triggered: the stop without the entry;
- open ideas: every other one triggers and wanders between the entry and exit 1, the rest wait for the entry;
- one completed winner (the first, by id) is drawn to its stop instead, so its two verdicts differ.
"""

import random
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from itertools import pairwise

from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.auth.schemas import DemoAccounts
from tradeideas.db import utcnow
from tradeideas.ideas.outcomes import parse_level
from tradeideas.ideas.pricing import PricedIdea, ideas_to_price
from tradeideas.prices import rows, storage
from tradeideas.prices.progress import Candle, Prices
from tradeideas.settings import Settings

LEAD_MINUTES = 60  # drawn before publishing (the chart starts an hour before)
OPEN_MINUTES = 240  # an open idea's path: the first hours after publishing
SPREAD_OF_RISK = Decimal("0.02")  # forex: the ask above the bid by this share of the risk


@dataclass(frozen=True)
class Path:
    """Waypoints (minutes after publishing, price); prices move in straight lines between them."""

    points: list[tuple[int, Decimal]]


def _decimals(text: str) -> int:
    _, _, fraction = text.replace(",", "").partition(".")
    return max(2, len(fraction) + 1)


def _path(idea: PricedIdea, minutes: int, flip: bool, rng: random.Random) -> Path | None:
    levels = idea.levels
    entry = parse_level(levels.entry1)
    stop = parse_level(levels.invalidation_level)
    exits = [x for x in (parse_level(t) for t in (levels.exit1, levels.exit2, levels.exit3) if t) if x is not None]
    if entry is None or stop is None or not exits or entry == stop:
        return None
    d = Decimal(1) if levels.order_type == "BUY" else Decimal(-1)
    risk = abs(entry - stop)
    start = entry - d * risk * Decimal("0.4")  # between the stop and the entry: a breakout idea
    over = d * risk * Decimal("0.05")  # how far past a level the price goes to touch it for sure
    outcome = idea.outcome
    if flip:
        outcome = "invalidation"
    points: list[tuple[int, Decimal]] = [(-LEAD_MINUTES, start), (0, start)]
    t = 25 + rng.randint(0, 10)
    if outcome == "not_triggered":
        points += [(t, start - d * risk * Decimal("0.3")), (t + 40, stop - over)]
    elif outcome is None:  # open: every other idea triggers and stays between the entry and exit 1
        if idea.id % 2:
            points += [
                (t, entry + over),
                (t + 60, entry + (exits[0] - entry) / 2),
                (minutes, entry + (exits[0] - entry) / 3),
            ]
        else:
            points += [(minutes, start + d * risk * Decimal("0.2"))]
    else:
        points.append((t, entry + over))
        reached = int(outcome[-1]) if outcome.startswith("exit") else 0
        if outcome == "manual":
            reached = 0
        for k in range(reached):
            t += 50
            points.append((t, exits[k] + over))
        if reached < len(exits):  # not the last exit: it turns back and the stop closes it
            t += 60
            points.append((t, stop - over))
        points.append((t + 10, points[-1][1]))
    return Path(points)


def _price_at(path: Path, minute: float) -> Decimal:
    pts = path.points
    if minute <= pts[0][0]:
        return pts[0][1]
    for (t0, p0), (t1, p1) in pairwise(pts):
        if t0 <= minute <= t1:
            return p0 + (p1 - p0) * Decimal(str((minute - t0) / (t1 - t0 or 1)))
    return pts[-1][1]


def _candles(
    idea: PricedIdea, path: Path, granularity: str, two_sided: bool, risk: Decimal, places: int, rng: random.Random
) -> list[Candle]:
    quantum = Decimal(1).scaleb(-places)
    published = int(idea.published_at.timestamp())
    first = published - published % 60 - LEAD_MINUTES * 60
    end = path.points[-1][0]
    out = []
    wick = risk * Decimal("0.01")
    for i in range((end + LEAD_MINUTES) + 1):
        at = first + i * 60
        minute0, minute1 = (at - published) / 60, (at + 60 - published) / 60
        o, c = _price_at(path, minute0), _price_at(path, minute1)
        # Waypoints inside the minute (the touches) must show in its range.
        inside = [p for t, p in path.points if minute0 <= t <= minute1]
        hi = max([o, c, *inside]) + wick * Decimal(rng.random())
        lo = min([o, c, *inside]) - wick * Decimal(rng.random())
        bid = Prices(*(v.quantize(quantum) for v in (o, hi, lo, c)))
        ask = None
        if two_sided:
            spread = (risk * SPREAD_OF_RISK).quantize(quantum) or quantum
            ask = Prices(bid.open + spread, bid.high + spread, bid.low + spread, bid.close + spread)
        out.append(Candle(at, granularity, bid, ask, complete=True))
    return out


async def seed_price_candles(db: AsyncSession, settings: Settings, _demo: DemoAccounts | None = None) -> None:
    """A `SAMPLE_SEEDERS` entry: candles for every seeded idea the feeds could check."""
    await store_demo_candles(db, settings, utcnow())


async def store_demo_candles(db: AsyncSession, settings: Settings, now: datetime) -> int:
    """Candles for every idea the feeds could check, drawn from its levels and outcome; returns how many."""
    ideas = await ideas_to_price(db, after_id=0, limit=10_000)
    # A crypto winner if there is one: it is checked without any key, so its differing verdict shows offline.
    winners = [i for i in ideas if i.outcome in ("exit1", "exit2", "exit3")]
    flipped = next((i.id for i in winners if i.market == "crypto"), winners[0].id if winners else None)
    stored = 0
    for idea in ideas:
        series = rows.series_of(idea.market, idea.pair, settings)
        feed, symbol = series.feed, series.symbol
        if feed is None or symbol is None or series.reason is not None:
            continue
        rng = random.Random(idea.id)
        age = int((now - idea.published_at).total_seconds() // 60)
        minutes = min(OPEN_MINUTES, max(1, age - 1))
        path = _path(idea, minutes, idea.id == flipped, rng)
        if path is None:
            continue
        if path.points[-1][0] > age:  # never beyond now
            path = Path([p for p in path.points if p[0] <= age] or path.points[:1])
        entry, stop = parse_level(idea.levels.entry1), parse_level(idea.levels.invalidation_level)
        assert entry is not None and stop is not None
        granularity = rows.BASE[feed]
        two_sided = feed in rows.TWO_SIDED
        places = _decimals(idea.levels.entry1)
        candles = _candles(idea, path, granularity, two_sided, abs(entry - stop), places, rng)
        await storage.store_candles(db, [(feed, symbol, candles)])
        stored += len(candles)
    return stored
