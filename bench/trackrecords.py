"""Benchmark: track records with 7 educators and 100,000 completed ideas on PostgreSQL, while ideas complete.

Measures p50 / p99 latency and requests per second of
    GET /api/educators/track-records                                   (every educator's whole record)
    GET /api/educators/{id}/track-record?market=forex&ideaType=leverage (one educator's filtered record)
at concurrency 16 (half the connections on each), against a real server started here (`tradeideas serve`), while
an open idea of a random educator is completed every `--complete-every` seconds, answered or not (each completion
updates that educator's totals in its transaction and drops their cached answers in every worker).
Completed ideas are bulk-inserted (COPY) with outcomes and R, closed over the past year, each with the price
check's verdict (`idea_verifications`), and their totals built once with `trackrecords.service.rebuild`.

Run from backend/:  uv run python ../bench/trackrecords.py [--ideas 100000] [--duration 20] [--app-dir OTHER/backend]
PostgreSQL: the local server (database bench_trackrecords is reset; override with BENCH_POSTGRES_URL).
"""

import argparse
import asyncio
import gc
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import asyncpg
import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("BENCH_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/bench_trackrecords")
# The records alone: 100,000 ideas loaded with COPY were never adopted by the price poller, whose first round would
# settle all of them in the leading worker during the run (a one-time catch-up; bench/prices.py measures the poller).
os.environ.setdefault("PRICE_FEED", "off")

import ideas as common

from tradeideas.cli import migrate
from tradeideas.db import Database
from tradeideas.ideas.outcomes import Levels, r_multiple
from tradeideas.settings import Settings
from tradeideas.trackrecords.service import rebuild

PG_URL = os.environ["BENCH_POSTGRES_URL"]
PASSWORD = common.PASSWORD
COLUMNS = [*common.COLUMNS, "outcome", "closed_at", "r_multiple"]
LIST = "/api/educators/track-records"
ONE = "/api/educators/{id}/track-record?market=forex&ideaType=leverage"
NOW = datetime.now(UTC)


def completed_rows(count: int) -> list[tuple[object, ...]]:
    rng = random.Random(7)
    out: list[tuple[object, ...]] = []
    year = timedelta(days=365)
    for i in range(count):
        forex = i % 2 == 0
        closed = NOW - year + year * (i / count)
        status, outcome = rng.choice(
            [("successful", "exit1"), ("successful", "exit2"), ("unsuccessful", "invalidation"),
             ("unsuccessful", "invalidation"), ("invalidated", "not_triggered")]
        )  # fmt: skip
        order = "BUY" if rng.random() < 0.5 else "SELL"
        entry, stop, x1, x2 = (
            ("1.0850", "1.0795", "1.0910", "1.0960") if order == "BUY" else ("1.0850", "1.0905", "1.0790", "1.0740")
        )
        r = r_multiple(Levels(order, entry, None, stop, x1, x2, None), outcome, None)
        out.append(
            (1 + i % 7, "Forex" if forex else "Crypto", "forex" if forex else "crypto", order,
             "Leverage" if rng.random() < 0.6 else "Exchange", "EUR/USD" if forex else "BTC/USDT",
             rng.choice(["15M", "1H", "4H", "1D"]), entry, None, stop, x1, x2, None, None, status,
             status != "invalidated", None, None, False, closed - timedelta(hours=6), closed, outcome, closed, r)
        )  # fmt: skip
    return out


VERIFICATIONS = """
INSERT INTO idea_verifications (idea_id, educator_id, feed, symbol, state, done, outcome, r_multiple, settled_at,
    receipts, progress, levels, published_at, levels_fixed, educator_outcome, updated_at)
SELECT id, educator_id, CASE market WHEN 'crypto' THEN 'binance' ELSE 'oanda' END, replace(pair, '/', ''),
    CASE WHEN id % 10 = 0 THEN 'unverifiable' ELSE 'settled' END, true,
    CASE WHEN id % 10 = 0 THEN NULL WHEN id % 13 = 0 THEN 'ambiguous' ELSE outcome END,
    CASE WHEN id % 10 = 0 THEN NULL WHEN id % 13 = 0 THEN -1.0 ELSE r_multiple END,
    CASE WHEN id % 10 = 0 THEN NULL ELSE closed_at END,
    '[]', '{}', '{}', created_at, true, outcome, closed_at
FROM trade_ideas WHERE closed_at IS NOT NULL
"""


def open_rows(count: int) -> list[tuple[object, ...]]:
    return [
        (1 + i % 7, "Forex", "forex", "BUY", "Leverage", "EUR/USD", "4H", "1.0850", None, "1.0795", "1.0910",
         "1.0960", None, None, "active", False, None, None, False, NOW - timedelta(hours=1), NOW, None, None, None)
        for i in range(count)
    ]  # fmt: skip


async def load_data(settings: Settings, ideas: int, open_ideas: int) -> None:
    conn = await asyncpg.connect(PG_URL.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        await conn.copy_records_to_table("trade_ideas", records=completed_rows(ideas), columns=COLUMNS)
        await conn.copy_records_to_table("trade_ideas", records=open_rows(open_ideas), columns=COLUMNS)
        # What the price checks would have recorded for them: the list and every record show verified figures
        # beside the educator's. One idea in ten unverifiable, one in thirteen an ambiguous candle (disagreeing).
        await conn.execute(VERIFICATIONS)
    finally:
        await conn.close()
    db = Database(settings)
    try:
        async with db.sessionmaker() as s, s.begin():
            await rebuild(s)
    finally:
        await db.dispose()
    conn = await asyncpg.connect(PG_URL.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        await conn.execute("VACUUM ANALYZE")  # as autovacuum leaves a settled table: index-only scans hold
        # The bulk load's dirty pages written out now, so that no checkpoint of theirs falls in the measured window.
        await conn.execute("CHECKPOINT")
        closed = await conn.fetchval("SELECT count(*) FROM trade_ideas WHERE closed_at IS NOT NULL")
        checked = await conn.fetchval("SELECT count(*) FROM idea_verifications")
        print(f"completed ideas in the database: {closed:,}, with a price check: {checked:,}", flush=True)
    finally:
        await conn.close()


def login(port: int, email: str, role: str) -> str:
    r = httpx.post(
        f"http://127.0.0.1:{port}/api/auth/login", json={"email": email, "password": PASSWORD, "selectedRole": role}
    )
    r.raise_for_status()
    return str(r.json()["sessionToken"])


async def reader(
    port: int, token: str, path: str, stop_at: float, record_from: float, out: list[float], errors: list[int]
) -> None:
    request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n\r\n".encode()
    reader_, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        while (t0 := time.perf_counter()) < stop_at:
            writer.write(request)
            head = await reader_.readuntil(b"\r\n\r\n")
            status = int(head[9:12])
            length = next(
                (int(line[15:]) for line in head.split(b"\r\n") if line[:15].lower() == b"content-length:"), 0
            )
            await reader_.readexactly(length)
            if t0 >= record_from:
                (out.append(time.perf_counter() - t0) if status == 200 else errors.append(status))
    finally:
        writer.close()


async def completer(
    port: int, tokens: dict[int, str], every: float, stop_at: float, done: list[float], closed_loop: bool
) -> None:
    """Completes an open idea every `every` seconds, whether or not the previous completion has been answered: the
    write rate is the scenario's, not what a slow server lets through (`closed_loop`: `every` seconds after each
    answer instead, the scenario of the runs before 2026-11-26 18:30)."""
    # A slow server must show as slow completions, not end the run (httpx's default timeout is 5 s).
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=120) as client:
        ideas: list[tuple[int, int]] = []  # (idea id, educator id)
        for educator_id, token in tokens.items():
            query: dict[str, str | int] = {"educatorId": educator_id, "status": "active", "limit": 100}
            page = await client.get("/api/trade-ideas", params=query, headers={"Authorization": f"Bearer {token}"})
            ideas += [(i["id"], educator_id) for i in page.json()["items"] if i["educatorId"] == educator_id]
        random.Random(1).shuffle(ideas)
        rng = random.Random(1)

        async def complete(idea_id: int, educator_id: int) -> None:
            body = rng.choice([{"status": "successful", "outcome": "exit2"}, {"status": "unsuccessful"}])
            t0 = time.perf_counter()
            r = await client.put(
                f"/api/trade-ideas/{idea_id}", json=body, headers={"Authorization": f"Bearer {tokens[educator_id]}"}
            )
            r.raise_for_status()
            done.append(time.perf_counter() - t0)

        running = []
        next_at = time.perf_counter()
        while next_at < stop_at and ideas:
            running.append(asyncio.create_task(complete(*ideas.pop())))
            if closed_loop:
                await running[-1]
                next_at = time.perf_counter()
            next_at += every
            await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
        await asyncio.gather(*running)


def worker_cpu_seconds(server_pid: int) -> list[float]:
    """CPU seconds used so far by each uvicorn worker of the server (Linux /proc): how the load spread. Each worker
    listens on its own socket (`tradeideas.serving`), and the kernel deals the 16 connections among them by a hash
    of their addresses: evenly on average, not in every run."""
    tick = os.sysconf("SC_CLK_TCK")
    out = []
    for pid in Path(f"/proc/{server_pid}/task/{server_pid}/children").read_text().split():
        if b"spawn_main" not in Path(f"/proc/{pid}/cmdline").read_bytes():
            continue  # multiprocessing's resource tracker
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        out.append((int(fields[11]) + int(fields[12])) / tick)  # utime + stime
    return out


def pct(values: list[float], p: int) -> float:
    return (
        statistics.quantiles(sorted(values), n=100, method="inclusive")[p - 1] * 1000
        if len(values) > 1
        else float("nan")
    )


async def run(port: int, server_pid: int, args: argparse.Namespace) -> dict[str, object]:
    customer = login(port, "customer@example.com", "customer")
    educators = {i: login(port, f"educator{i}@example.com", "educator") for i in range(1, 8)}
    start = time.perf_counter()
    record_from, stop_at = start + args.warmup, start + args.warmup + args.duration
    lists: list[float] = []
    ones: list[float] = []
    errors: list[int] = []
    completions: list[float] = []
    half = args.concurrency // 2
    cpu: list[list[float]] = []

    async def sample_cpu() -> None:
        await asyncio.sleep(max(0.0, record_from - time.perf_counter()))
        cpu.append(worker_cpu_seconds(server_pid))
        await asyncio.sleep(max(0.0, stop_at - time.perf_counter()))
        cpu.append(worker_cpu_seconds(server_pid))

    await asyncio.gather(
        sample_cpu(),
        *(reader(port, customer, LIST, stop_at, record_from, lists, errors) for _ in range(half)),
        *(
            reader(port, customer, ONE.format(id=1 + i % 7), stop_at, record_from, ones, errors)
            for i in range(args.concurrency - half)
        ),
        completer(port, educators, args.complete_every, stop_at, completions, args.closed_loop),
    )
    return {
        "list_requests": len(lists), "list_p50_ms": pct(lists, 50), "list_p99_ms": pct(lists, 99),
        "one_requests": len(ones), "one_p50_ms": pct(ones, 50), "one_p99_ms": pct(ones, 99),
        "rps": (len(lists) + len(ones)) / args.duration, "errors": len(errors),
        "completions": len(completions), "completion_p50_ms": pct(completions, 50),
        "completion_p99_ms": pct(completions, 99),
        "worker_cpu_percent": [round(100 * (b - a) / args.duration) for a, b in zip(*cpu, strict=True)],
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ideas", type=int, default=100_000)
    parser.add_argument("--open-ideas", type=int, default=700)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--duration", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--complete-every", type=float, default=0.2, help="seconds between two completions")
    parser.add_argument("--closed-loop", action="store_true", help="wait for each completion's answer, then pause")
    parser.add_argument("--app-dir", type=Path, default=common.BACKEND, help="backend/ of the code to serve")
    args = parser.parse_args()
    common.PG_URL = PG_URL
    common.APP_DIR = args.app_dir
    asyncio.run(common.reset_postgres())
    data_dir = Path(tempfile.mkdtemp(prefix="bench-trackrecords-"))
    settings = Settings(data_dir=data_dir, database_url=PG_URL, demo_password=PASSWORD, static_dir=data_dir / "no-spa")
    migrate(settings)
    asyncio.run(common.seed(settings))
    t0 = time.perf_counter()
    asyncio.run(load_data(settings, args.ideas, args.open_ideas))
    print(f"{args.ideas:,} completed ideas loaded in {time.perf_counter() - t0:.1f}s", flush=True)
    port = common.free_port()
    proc = common.start_server(settings, port, args.workers, 10_000)
    # This process's own full collections stalled every reader here for ~90 ms, six times a run, and were counted as
    # the server's latency: the client collects nothing while it measures (a run allocates a few hundred MB at most).
    gc.collect()
    gc.disable()
    try:
        # The filtered record's body as the readers get it (no gzip asked for), before the load.
        token = login(port, "customer@example.com", "customer")
        one = httpx.get(f"http://127.0.0.1:{port}{ONE.format(id=1)}", headers={"Authorization": f"Bearer {token}"})
        one.raise_for_status()
        print(f"filtered record: {len(one.content):,} bytes, {len(one.json()['equityCurve'])} curve points")
        result = asyncio.run(run(port, proc.pid, args))
    finally:
        gc.enable()
        proc.terminate()
        proc.wait(timeout=30)
    print(result)


if __name__ == "__main__":
    main()
