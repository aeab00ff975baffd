"""Benchmark: what paid access costs the customer's cached idea list (issue #40).

Two bars:
- the access check keeps the cached list within its bar: server CPU per request of
      GET /api/trade-ideas?market=forex&status=active&limit=100
  as 64 customers who each hold a grant (half all-access, half one educator's plan, so the list is filtered),
  at most 3 times a bare endpoint answering the same bytes (`reference_servers:bare`);
- 10,000 more members holding grants add at most 10 % to the list's CPU per request.

Each server is a single-process uvicorn (uvloop + httptools), measured back to back in one run as in
`request_path.py`; server CPU per request is read from /proc/<pid>/stat around the measured window. The app is
measured twice without the extra members and twice with them, the bare endpoint before and after, so drift on a
shared machine shows.

Run from backend/:  uv run python ../bench/access.py [--ideas 1000] [--members 10000] [--duration 8]
PostgreSQL: the local server (database bench_ideas is reset; override with BENCH_POSTGRES_URL).
"""

import argparse
import asyncio
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import asyncpg
import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ideas as base
import request_path as path_bench

from tradeideas.cli import migrate
from tradeideas.settings import Settings

PAGE = "/api/trade-ideas?market=forex&status=active&limit=100"
EXTRA_EMAIL = "bench.member{}@example.com"


async def grant_bench_customers(dsn: str, customers: int) -> None:
    """Every bench customer holds one complimentary grant: odd ones all educators, even ones educator 1 only."""
    conn = await asyncpg.connect(dsn)
    try:
        rows = await conn.fetch(
            "SELECT id, email FROM users WHERE email LIKE 'bench.customer%@example.com' ORDER BY id LIMIT $1", customers
        )
        await conn.executemany(
            "INSERT INTO access_grants (user_id, kind, status, educator_id, cancel_at_period_end, created_at, "
            "updated_at) VALUES ($1, 'complimentary', 'complimentary', $2, false, now(), now())",
            [(row["id"], None if i % 2 else 1) for i, row in enumerate(rows)],
        )
    finally:
        await conn.close()


async def add_members_with_grants(dsn: str, members: int) -> int:
    """`members` customers (sharing one password hash, bulk-inserted) with a grant each; returns the grant count."""
    conn = await asyncpg.connect(dsn)
    try:
        password_hash = await conn.fetchval("SELECT password_hash FROM users WHERE email = 'customer@example.com'")
        stamps = (datetime.now(UTC),) * 2  # created_at, updated_at
        await conn.copy_records_to_table(
            "users",
            records=[
                (EXTRA_EMAIL.format(i), password_hash, "customer", "Member", str(i), "", 0, True, False, False, *stamps)
                for i in range(members)
            ],
            columns=[
                "email",
                "password_hash",
                "role",
                "first_name",
                "last_name",
                "bio",
                "years_experience",
                "is_public",
                "disabled",
                "invited",
                "created_at",
                "updated_at",
            ],
        )
        await conn.execute(
            "INSERT INTO access_grants (user_id, kind, status, educator_id, cancel_at_period_end, created_at, "
            "updated_at) SELECT id, 'complimentary', 'complimentary', CASE WHEN id % 3 = 0 THEN NULL "
            "ELSE 1 + id % 2 END, false, now(), now() FROM users WHERE email LIKE 'bench.member%@example.com'"
        )
        count: int = await conn.fetchval("SELECT count(*) FROM access_grants")
        return count
    finally:
        await conn.close()


def run_app(app_env: dict[str, str], tokens_for: Any, args: argparse.Namespace) -> tuple[dict[str, float], bytes]:
    port = base.free_port()
    cmd = [*path_bench.uvicorn("tradeideas.app:create_app", port, True), "--no-proxy-headers"]
    proc = path_bench.start(cmd, base.BACKEND, app_env, port)
    try:
        tokens = tokens_for(port)
        body = httpx.get(f"http://127.0.0.1:{port}{PAGE}", headers={"Authorization": f"Bearer {tokens[1]}"})
        assert body.status_code == 200 and body.json()["items"], body.text[:200]
        return path_bench.measure(proc, port, tokens, args), body.content
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ideas", type=int, default=1000)
    parser.add_argument("--members", type=int, default=10_000)
    parser.add_argument("--customers", type=int, default=64)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--duration", type=float, default=8.0)
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--client", choices=("python", "wrk"), default="python")
    args = parser.parse_args()
    base.PATH = PAGE

    data_dir = Path(tempfile.mkdtemp(prefix="bench-access-"))
    asyncio.run(base.reset_postgres())
    settings = Settings(
        data_dir=data_dir, database_url=base.PG_URL, demo_password=base.PASSWORD, static_dir=data_dir / "no-spa"
    )
    migrate(settings)
    have = asyncio.run(base.seed(settings))
    if args.ideas > have:
        asyncio.run(base.insert_postgres(settings, have, args.ideas))
    asyncio.run(base.add_customers(settings, args.customers))
    dsn = base.PG_URL.replace("postgresql+asyncpg://", "postgresql://")
    asyncio.run(grant_bench_customers(dsn, args.customers))
    print(f"load average before: {Path('/proc/loadavg').read_text().strip()}", flush=True)

    app_env = {"DATABASE_URL": base.PG_URL, "DATA_DIR": str(data_dir), "DEMO_PASSWORD": base.PASSWORD}
    app_env |= {"LOG_LEVEL": "warning", "STATIC_DIR": str(data_dir / "no-spa")}
    tokens: list[str] = []

    def tokens_for(port: int) -> list[str]:
        if not tokens:  # sessions live in the database: one login each serves every server of the run
            tokens.extend(base.customer_tokens(port, args.customers))
        return tokens

    rows: dict[str, list[float]] = {"bare": [], "without": [], "with": []}
    latency: dict[str, list[tuple[float, float]]] = {"bare": [], "without": [], "with": []}
    for _ in range(2):
        result, body = run_app(app_env, tokens_for, args)
        rows["without"].append(result["cpu_us_per_request"])
        latency["without"].append((result["p50_ms"], result["p99_ms"]))
    body_file = data_dir / "body.json"
    body_file.write_bytes(body)

    def run_bare() -> None:
        port = base.free_port()
        cmd = path_bench.uvicorn("reference_servers:bare", port)
        proc = path_bench.start(cmd, path_bench.BENCH, {"BENCH_BODY_FILE": str(body_file)}, port)
        try:
            r = path_bench.measure(proc, port, tokens, args)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
        rows["bare"].append(r["cpu_us_per_request"])
        latency["bare"].append((r["p50_ms"], r["p99_ms"]))

    run_bare()
    grants_before = asyncio.run(add_members_with_grants(dsn, 0))
    grants = asyncio.run(add_members_with_grants(dsn, args.members))
    for _ in range(2):
        result, _ = run_app(app_env, tokens_for, args)
        rows["with"].append(result["cpu_us_per_request"])
        latency["with"].append((result["p50_ms"], result["p99_ms"]))
    run_bare()

    print(f"\n{args.ideas:,} ideas; grants: {grants_before:,} without the extra members, {grants:,} with them")
    print(f"(load average {Path('/proc/loadavg').read_text().split()[0]})")
    print("| server | CPU / request (µs), each run | p50 / p99 (ms), each run |")
    print("|---|---|---|")
    names = {"bare": "bare", "without": "app cached, 64 members with grants", "with": "app cached, + extra members"}
    for key, name in names.items():
        cpu = ", ".join(f"{v:.0f}" for v in rows[key])
        lat = ", ".join(f"{p50:.1f} / {p99:.1f}" for p50, p99 in latency[key])
        print(f"| {name} | {cpu} | {lat} |")
    bare = min(rows["bare"])
    without, with_members = min(rows["without"]), min(rows["with"])
    print(f"ratio app cached (grants) / bare: {without / bare:.2f} (target <= 3)")
    print(f"extra members' cost: {100 * (with_members / without - 1):+.1f} % CPU per request (target <= +10 %)")


if __name__ == "__main__":
    main()
