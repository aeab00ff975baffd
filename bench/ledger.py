"""Benchmark: what the ledger costs per change, and how long `verify-ledger` takes over a large chain (issue #25:
≤ 1 ms per append, 1,000,000 entries verified in ≤ 60 s).

1. Append: APPENDS transactions, each appending one `idea.price_check`-sized entry through `ledger.service.append`
   (the turn and the head in one call, then the insert; the day's row by trigger) on a fresh PostgreSQL database;
   the time inside `append` is measured per call from after the transaction's first statement (the change it
   records has begun the transaction; its commit is excluded too, the change pays both anyway), and the commits per
   second of such transactions with 1 and 8 writers.
2. Verify: ENTRIES entries (a realistic idea payload each, about 100,000 ideas) are written with COPY, hashed in
   the documented form; with --ideas (the default) the 100,000 ideas they describe are written to `trade_ideas`
   as the ledger last describes them, and `track_record_totals` rebuilt from them, so `ledger.verify.verify`
   walks the chain, compares every idea field by field and recomputes the stored totals (issue #37: <= 90 s).
   With --no-ideas the table is empty and every subject is reported as gone (the walk alone).

Run from backend/:  uv run python ../bench/ledger.py [--appends 2000] [--entries 1000000]
"""

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta

import asyncpg
from sqlalchemy import text

from tradeideas.cli import migrate
from tradeideas.db import Database
from tradeideas.ledger import service
from tradeideas.ledger.chain import GENESIS, Entry, canonical, format_at
from tradeideas.ledger.verify import verify
from tradeideas.seed import seed_demo
from tradeideas.settings import Settings
from tradeideas.trackrecords.service import rebuild

ADMIN_DSN = os.environ.get("BENCH_POSTGRES_DSN", "postgresql://postgres@127.0.0.1:5432/test")
DATABASE = f"tradeideas_bench_ledger_{os.getpid()}"
PAYLOAD = {
    "educatorId": "3", "pair": "EUR/USD", "marketType": "Forex", "orderType": "BUY", "ideaType": "Leverage",
    "timeFrame": "4H", "entry1": "1.0850", "entry2": None, "invalidationLevel": "1.0795", "exit1": "1.0910",
    "exit2": "1.0960", "exit3": None, "status": "successful", "outcome": "exit1", "closePrice": None,
    "rMultiple": "1.09",
}  # fmt: skip


async def appends(db: Database, count: int, writers: int) -> tuple[list[float], float]:
    inside: list[float] = []
    left = count

    async def writer() -> None:
        nonlocal left
        while left > 0:
            left -= 1
            async with db.sessionmaker() as s, s.begin():
                # The change the entry records has already begun the transaction (connection checked out, BEGIN
                # sent): what the ledger adds is measured from there.
                await s.execute(text("SELECT 1"))
                started = time.perf_counter()
                await service.append(s, "idea.result", left + 1, PAYLOAD)
                inside.append(time.perf_counter() - started)

    started = time.perf_counter()
    await asyncio.gather(*(writer() for _ in range(writers)))
    return inside, count / (time.perf_counter() - started)


async def fill(dsn: str, entries: int) -> None:
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute("TRUNCATE ledger_entries, ledger_days")
        prev, start, batch = GENESIS, datetime(2024, 1, 1, tzinfo=UTC), []
        text = canonical(PAYLOAD)
        now = datetime.now(UTC)
        for seq in range(1, entries + 1):
            at = format_at(start + timedelta(seconds=60 * seq))
            entry = Entry(seq, at, "idea.result", seq % 100_000 + 1, PAYLOAD, prev)
            prev = entry.hash()
            batch.append((seq, at, "idea.result", entry.subject_id, text, entry.prev_hash, prev, now))
            if len(batch) == 50_000:
                await conn.copy_records_to_table("ledger_entries", records=batch)
                batch = []
        if batch:
            await conn.copy_records_to_table("ledger_entries", records=batch)
        await conn.execute("ANALYZE ledger_entries")
    finally:
        await conn.close()


SUBJECTS = 100_000


async def write_ideas(dsn: str, db: Database) -> None:
    """The ideas the filled chain describes (PAYLOAD, closed), as `trade_ideas` rows, and their totals."""
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute("DELETE FROM trade_ideas")
        educator = await conn.fetchval("SELECT id FROM users WHERE id = $1", int(str(PAYLOAD["educatorId"])))
        assert educator is not None, "the seeded educators hold the payload's educator"
        start = datetime(2024, 1, 1, tzinfo=UTC)
        columns = ("id", "educator_id", "market_type", "market", "order_type", "idea_type", "pair", "time_frame",
                   "entry_1", "invalidation_level", "exit_1", "exit_2", "status", "completed", "edited", "outcome",
                   "closed_at", "r_multiple", "edited_after_publish", "created_at", "updated_at")  # fmt: skip
        rows = [
            (i, educator, "Forex", "forex", "BUY", "Leverage", "EUR/USD", "4H", "1.0850", "1.0795", "1.0910",
             "1.0960", "successful", True, False, "exit1", start + timedelta(minutes=i), 1.09, False,
             start + timedelta(minutes=i) - timedelta(hours=1), start + timedelta(minutes=i))
            for i in range(1, SUBJECTS + 1)
        ]  # fmt: skip
        await conn.copy_records_to_table("trade_ideas", records=rows, columns=columns)
        await conn.execute("SELECT setval(pg_get_serial_sequence('trade_ideas', 'id'), $1)", SUBJECTS)
        await conn.execute("ANALYZE trade_ideas")
    finally:
        await conn.close()
    async with db.sessionmaker() as s, s.begin():
        await rebuild(s)


async def run(count: int, entries: int, with_ideas: bool = True) -> None:
    admin = await asyncpg.connect(ADMIN_DSN)
    try:
        await admin.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        await admin.execute(f"CREATE DATABASE {DATABASE}")
    finally:
        await admin.close()
    dsn = ADMIN_DSN.rsplit("/", 1)[0] + f"/{DATABASE}"
    settings = Settings(data_dir=tempfile.mkdtemp(), database_url=dsn.replace("postgresql://", "postgresql+asyncpg://"))
    await asyncio.to_thread(migrate, settings)
    db = Database(settings)
    if with_ideas:  # the educators the payload names
        async with db.sessionmaker() as s, s.begin():
            await seed_demo(s, settings.model_copy(update={"demo_history": False}))
    try:
        for writers in (1, 8):
            inside, rate = await appends(db, count, writers)
            inside.sort()
            print(
                f"append, {writers} writer(s): mean {statistics.fmean(inside) * 1000:.2f} ms, "
                f"median {statistics.median(inside) * 1000:.2f} ms, "
                f"p99 {inside[int(len(inside) * 0.99)] * 1000:.2f} ms inside append; {rate:.0f} commits/s"
            )
        started = time.perf_counter()
        await fill(dsn, entries)
        print(f"wrote {entries:,} entries in {time.perf_counter() - started:.1f} s")
        if with_ideas:
            started = time.perf_counter()
            await write_ideas(dsn, db)
            print(f"wrote {SUBJECTS:,} ideas and rebuilt their totals in {time.perf_counter() - started:.1f} s")
        started = time.perf_counter()
        async with db.sessionmaker() as s:
            report = await verify(s)
        took = time.perf_counter() - started
        broken = [p for p in report.problems if p.startswith("Ledger")]
        rate = report.entries / took
        print(f"verify: {report.entries:,} entries and {report.ideas:,} ideas in {took:.1f} s ({rate:,.0f}/s); "
              f"chain breaks: {broken}; problems: {len(report.problems)} {report.problems[:3]}")  # fmt: skip
    finally:
        await db.dispose()
        admin = await asyncpg.connect(ADMIN_DSN)
        try:
            await admin.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        finally:
            await admin.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--appends", type=int, default=2000)
    parser.add_argument("--entries", type=int, default=1_000_000)
    parser.add_argument("--ideas", action=argparse.BooleanOptionalAction, default=True)
    args = parser.parse_args()
    asyncio.run(run(args.appends, args.entries, args.ideas))


if __name__ == "__main__":
    main()
