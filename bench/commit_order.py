"""Benchmark: commits per second of transactions that write one event, with and without decision 0047's trigger.

Each transaction inserts one `events` row and commits, as a request that publishes one event does (without the
request). The commit-order trigger holds one advisory lock from just before each such commit until it is
visible, so those commits take turns, flush included; the run shows what that costs as writers are added.

Phases, back to back on a fresh database migrated to head: trigger on, trigger disabled, trigger on again
(the machine's load drifts, so compare neighbouring phases). Each phase runs WRITERS concurrent connections for
DURATION seconds.

Run from backend/:  uv run python ../bench/commit_order.py [--writers 1,8,32] [--duration 4]
"""

import argparse
import asyncio
import os
import tempfile
import time

import asyncpg

from tradeideas.cli import migrate
from tradeideas.settings import Settings

ADMIN_DSN = os.environ.get("BENCH_POSTGRES_DSN", "postgresql://postgres@127.0.0.1:5432/test")
DATABASE = f"tradeideas_bench_commit_order_{os.getpid()}"
INSERT = "INSERT INTO events (type, payload, audience, created_at) VALUES ('bench', '{}', 'all', now())"
PHASES = [
    ("trigger on", "ENABLE"),
    ("trigger disabled", "DISABLE"),
    ("trigger on again", "ENABLE"),
]


async def commits_per_second(dsn: str, writers: int, seconds: float) -> float:
    conns = [await asyncpg.connect(dsn) for _ in range(writers)]
    done = 0
    stop = time.monotonic() + seconds

    async def write(conn: asyncpg.Connection) -> None:
        nonlocal done
        while time.monotonic() < stop:
            async with conn.transaction():
                await conn.execute(INSERT)
            done += 1

    try:
        await asyncio.gather(*(write(c) for c in conns))
    finally:
        for conn in conns:
            await conn.close()
    return done / seconds


async def run(writer_counts: list[int], seconds: float) -> None:
    admin = await asyncpg.connect(ADMIN_DSN)
    try:
        await admin.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        await admin.execute(f"CREATE DATABASE {DATABASE}")
    finally:
        await admin.close()
    dsn = ADMIN_DSN.rsplit("/", 1)[0] + f"/{DATABASE}"
    try:
        with tempfile.TemporaryDirectory() as data_dir:
            await asyncio.to_thread(
                migrate, Settings(data_dir=data_dir, database_url=dsn.replace("postgresql://", "postgresql+asyncpg://"))
            )
        for label, state in PHASES:
            conn = await asyncpg.connect(dsn)
            try:
                await conn.execute(f"ALTER TABLE events {state} TRIGGER events_commit_order")
            finally:
                await conn.close()
            for writers in writer_counts:
                rate = await commits_per_second(dsn, writers, seconds)
                print(f"{label:18} {writers:3} writers: {rate:7,.0f} commits/s", flush=True)
    finally:
        admin = await asyncpg.connect(ADMIN_DSN)
        try:
            await admin.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        finally:
            await admin.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--writers", default="1,8,32", help="comma-separated numbers of concurrent writers")
    parser.add_argument("--duration", type=float, default=4, help="seconds per measurement")
    args = parser.parse_args()
    asyncio.run(run([int(n) for n in args.writers.split(",")], args.duration))


if __name__ == "__main__":
    main()
