"""Benchmark: the price poller with 10,000 open ideas on 300 symbols (issue #24).

Measures, against a local feed speaking the Binance protocol in its own process:
- requests per poll round, per (feed, symbol, granularity): the bar is at most one;
- this process's CPU per steady-state round (the poller, the database driver's thread; the feed is elsewhere):
  the bar is <= 1 s;
- the time from a level crossed in the feed to the step committed with its event (what an open card receives over
  the already-open event stream), with the poller running on its own schedule: the bar is PRICE_POLL_SECONDS + 1 s.

Run from backend/:  uv run python ../bench/prices.py [--ideas 10000] [--symbols 300] [--rounds 5]
SQLite in a temporary directory (one server process: the leader), or PostgreSQL with --postgres
(BENCH_POSTGRES_URL, default database bench_prices, reset).
"""

import argparse
import asyncio
import cProfile
import os
import pstats
import resource
import socket
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiohttp
import asyncpg
import httpx
from sqlalchemy import func, insert, select

BACKEND = Path(__file__).resolve().parents[1] / "backend"
sys.path.insert(0, str(BACKEND))

from tradeideas.auth.models import Role, User  # noqa: E402
from tradeideas.cli import migrate  # noqa: E402
from tradeideas.core.events import EventBus  # noqa: E402
from tradeideas.db import Database  # noqa: E402
from tradeideas.ideas.models import TradeIdea  # noqa: E402
from tradeideas.prices.models import IdeaVerification  # noqa: E402
from tradeideas.prices.poller import PricePoller  # noqa: E402
from tradeideas.realtime.models import Event  # noqa: E402
from tradeideas.runtime import EVENTS  # noqa: E402
from tradeideas.settings import Settings  # noqa: E402

MINUTE = 60


class Leads:
    """The one process of this benchmark leads (as the only SQLite server process would)."""

    is_leader = True


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def reset_postgres(url: str) -> None:
    base, name = url.rsplit("/", 1)
    conn = await asyncpg.connect(base.replace("postgresql+asyncpg://", "postgresql://") + "/postgres")
    try:
        await conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        await conn.execute(f"CREATE DATABASE {name}")
    finally:
        await conn.close()


async def program(feed: httpx.AsyncClient, symbols: list[str], start: int, minutes: int, price: str) -> None:
    for symbol in symbols:
        bars = [[start + k * MINUTE, price, price, price, price] for k in range(minutes)]
        r = await feed.post("/_fake/bars", json={"symbol": symbol, "interval": "1m", "bars": bars})
        r.raise_for_status()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ideas", type=int, default=10_000)
    parser.add_argument("--symbols", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--poll", type=float, default=5.0)
    parser.add_argument("--postgres", action="store_true")
    args = parser.parse_args()

    port = free_port()
    feed_proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.prices.fakefeed", str(port), cwd=BACKEND
    )
    data_dir = Path(tempfile.mkdtemp(prefix="bench-prices-"))
    url = None
    if args.postgres:
        url = os.environ.get("BENCH_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/bench_prices")
        await reset_postgres(url)
    feed_url = f"http://127.0.0.1:{port}"
    settings = Settings(
        data_dir=data_dir, database_url=url, price_feed="live", binance_api_url=feed_url, price_poll_seconds=args.poll
    )
    await asyncio.to_thread(migrate, settings)
    database = Database(settings, EventBus(EVENTS))
    symbols = [f"S{i:03d}USDT" for i in range(args.symbols)]
    now = int(time.time())
    minute = now - now % MINUTE
    published = datetime.fromtimestamp(minute - 30 * MINUTE, UTC)
    try:
        async with database.sessionmaker() as db, db.begin():
            never_logs_in = "-"
            educator = User(email="bench.educator@example.com", password_hash=never_logs_in, role=Role.EDUCATOR)
            db.add(educator)
            await db.flush()
            rows: list[dict[str, Any]] = [
                {
                    "educator_id": educator.id,
                    "market_type": "Crypto",
                    "market": "crypto",
                    "order_type": "BUY",
                    "idea_type": "Leverage",
                    "pair": f"S{i % args.symbols:03d}/USDT",
                    "time_frame": "1H",
                    "entry1": "100",
                    "invalidation_level": "90",
                    "exit1": "110",
                    "status": "active",
                    "completed": False,
                    "edited": False,
                    "edited_after_publish": False,
                    "created_at": published,
                    "updated_at": published,
                }
                for i in range(args.ideas)
            ]
            await db.execute(insert(TradeIdea), rows)
        async with httpx.AsyncClient(base_url=feed_url) as control:
            for _ in range(100):
                try:
                    await control.post("/_fake/now", json={"now": now + 3600})
                    break
                except httpx.HTTPError:
                    await asyncio.sleep(0.1)
            await program(control, symbols, minute - 90 * MINUTE, 91, "95")

            async with aiohttp.ClientSession() as http:
                poller = PricePoller(database, settings, Leads(), client=http)  # type: ignore[arg-type]
                poller.prepare()
                t0, c0 = time.perf_counter(), cpu()
                first = await poller.run_round()
                print(
                    f"first round (adopts {args.ideas} ideas, fetches {len(first.requests)} series): "
                    f"{time.perf_counter() - t0:.2f} s wall, {cpu() - c0:.2f} s CPU"
                )
                walls, cpus, most = [], [], 0
                profile = cProfile.Profile() if os.environ.get("BENCH_PROFILE") else None
                for _ in range(args.rounds):
                    t0, c0 = time.perf_counter(), cpu()
                    if profile is not None:
                        profile.enable()
                    done = await poller.run_round()
                    if profile is not None:
                        profile.disable()
                    walls.append(time.perf_counter() - t0)
                    cpus.append(cpu() - c0)
                    most = max([most, *done.requests.values()])
                if profile is not None:
                    order = os.environ.get("BENCH_PROFILE_SORT", "tottime")  # or cumulative
                    pstats.Stats(profile).sort_stats(order).print_stats(
                        int(os.environ.get("BENCH_PROFILE_LINES", "25"))
                    )
                print(
                    f"steady rounds: {len(done.requests)} series asked, at most {most} request per "
                    f"(feed, symbol, granularity); CPU per round median {statistics.median(cpus):.3f} s, "
                    f"max {max(cpus):.3f} s; wall median {statistics.median(walls):.3f} s"
                )

                # A level crossed: the poller runs on its own schedule; time to the committed step and event.
                await poller.start()
                await asyncio.sleep(args.poll * 1.5)
                async with database.sessionmaker() as db:
                    before = (await db.execute(select(func.max(Event.id)))).scalar() or 0
                crossed_at = time.perf_counter()
                bar = [[minute + MINUTE, "95", "100.5", "95", "100.2"]]
                r = await control.post("/_fake/bars", json={"symbol": symbols[0], "interval": "1m", "bars": bar})
                r.raise_for_status()
                while True:
                    async with database.sessionmaker() as db:
                        seen = (
                            await db.execute(
                                select(func.count())
                                .select_from(Event)
                                .where(Event.id > before, Event.type == "idea.verification")
                            )
                        ).scalar_one()
                    if seen:
                        break
                    await asyncio.sleep(0.05)
                latency = time.perf_counter() - crossed_at
                await poller.stop()
                async with database.sessionmaker() as db:
                    triggered = (
                        await db.execute(
                            select(func.count())
                            .select_from(IdeaVerification)
                            .where(IdeaVerification.state == "triggered")
                        )
                    ).scalar_one()
                print(
                    f"level crossed -> step committed with its event: {latency:.2f} s "
                    f"(poll every {args.poll:.0f} s; {triggered} ideas triggered on {symbols[0]})"
                )
    finally:
        feed_proc.terminate()
        await feed_proc.wait()
        await database.dispose()


if __name__ == "__main__":
    asyncio.run(main())
