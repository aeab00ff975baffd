"""Benchmark: a Stripe webhook handled in <= 200 ms p99, with its Stripe read (issue #40).

The app runs as a single-process uvicorn (uvloop + httptools) on PostgreSQL with payments set up against the tests'
local Stripe (`tests/billing/fakestripe.py`: the API answers as Stripe's reference shows them, served from a thread
of this process). `--members` customers each buy the plan through `POST /api/billing/checkout` and pay on the
hosted page; then the events Stripe sends for a subscription's life are delivered, signed, `--concurrency` at a
time, and each delivery's latency is measured from the request to the answer:

- `checkout.session.completed` (the handler reads the checkout session and the subscription from Stripe and
  opens the grant),
- `customer.subscription.updated` (reads the subscription),
- `invoice.payment_failed` after Stripe moved it to past_due (reads the subscription, the grace period starts).

Every delivery must answer 200 with `handled: true`; the grants' final states are checked in the database.

Run from backend/:  uv run python ../bench/webhook.py [--members 300] [--concurrency 8]
PostgreSQL: the local server (database bench_ideas is reset; override with BENCH_POSTGRES_URL).
"""

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import asyncpg
import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ideas as base
import request_path as path_bench

from tests.billing.fakestripe import FakeStripe, sign
from tradeideas.cli import migrate
from tradeideas.settings import Settings

SECRET = "whsec_bench"
ADMIN = "admin@example.com"


def login(http: httpx.Client, email: str, role: str) -> str:
    r = http.post("/api/auth/login", json={"email": email, "password": base.PASSWORD, "selectedRole": role})
    r.raise_for_status()
    return str(r.json()["sessionToken"])


def buy(http: httpx.Client, stripe: FakeStripe, tokens: list[str], plan_id: int) -> list[tuple[str, str]]:
    """Each member opens a checkout and pays on the hosted page: (checkout session id, subscription id) each."""
    bought = []
    for token in tokens:
        r = http.post("/api/billing/checkout", json={"planId": plan_id}, headers={"Authorization": f"Bearer {token}"})
        r.raise_for_status()
        session_id = str(r.json()["url"]).rsplit("/", 1)[1]
        bought.append((session_id, str(stripe.pay(session_id)["id"])))
    return bought


async def deliver(url: str, events: list[dict[str, Any]], concurrency: int) -> list[float]:
    """POST each signed event, `concurrency` at a time; the latencies in seconds (every one must be handled)."""
    queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    for event in events:
        queue.put_nowait(event)
    latencies: list[float] = []

    async def worker(http: httpx.AsyncClient) -> None:
        while not queue.empty():
            payload = json.dumps(queue.get_nowait()).encode()
            headers = {"content-type": "application/json", "stripe-signature": sign(payload, SECRET)}
            t0 = time.perf_counter()
            r = await http.post("/api/billing/webhook", content=payload, headers=headers)
            latencies.append(time.perf_counter() - t0)
            assert r.status_code == 200 and r.json()["handled"] is True, r.text[:300]

    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        await asyncio.gather(*(worker(http) for _ in range(concurrency)))
    return latencies


def summary(name: str, latencies: list[float]) -> str:
    q = statistics.quantiles(latencies, n=100, method="inclusive")
    return f"| {name} | {len(latencies)} | {q[49] * 1000:.1f} | {q[94] * 1000:.1f} | {q[98] * 1000:.1f} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--members", type=int, default=300)
    parser.add_argument("--concurrency", type=int, default=8)
    args = parser.parse_args()

    data_dir = Path(tempfile.mkdtemp(prefix="bench-webhook-"))
    asyncio.run(base.reset_postgres())
    settings = Settings(
        data_dir=data_dir, database_url=base.PG_URL, demo_password=base.PASSWORD, static_dir=data_dir / "no-spa"
    )
    migrate(settings)
    asyncio.run(base.seed(settings))
    asyncio.run(base.add_customers(settings, args.members + 1))
    stripe = FakeStripe()
    port = base.free_port()
    env = {"DATABASE_URL": base.PG_URL, "DATA_DIR": str(data_dir), "DEMO_PASSWORD": base.PASSWORD}
    env |= {"LOG_LEVEL": "warning", "STATIC_DIR": str(data_dir / "no-spa")}
    env |= {"STRIPE_SECRET_KEY": "sk_test_bench", "STRIPE_WEBHOOK_SECRET": SECRET, "STRIPE_API_URL": stripe.url}
    cmd = [*path_bench.uvicorn("tradeideas.app:create_app", port, True), "--no-proxy-headers"]
    proc = path_bench.start(cmd, base.BACKEND, env, port)
    url = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=url, timeout=60) as http:
            admin = login(http, ADMIN, "admin")
            body = {"name": "Bench plan", "scope": "educator", "educatorId": 3, "unitAmount": 2500,
                    "currency": "usd", "interval": "month", "trialDays": 0}  # fmt: skip
            plan = http.post("/api/admin/plans", json=body, headers={"Authorization": f"Bearer {admin}"})
            plan.raise_for_status()
            tokens = [login(http, f"bench.customer{i}@example.com", "customer") for i in range(1, args.members + 1)]
            bought = buy(http, stripe, tokens, int(plan.json()["id"]))
        print(f"load average before: {Path('/proc/loadavg').read_text().strip()}", flush=True)
        rounds: dict[str, list[float]] = {}
        completed = [stripe.event("checkout.session.completed", stripe.objects[s]) for s, _ in bought]
        rounds["checkout.session.completed"] = asyncio.run(deliver(url, completed, args.concurrency))
        updated = [stripe.event("customer.subscription.updated", stripe.objects[sub]) for _, sub in bought]
        rounds["customer.subscription.updated"] = asyncio.run(deliver(url, updated, args.concurrency))
        now = int(time.time())
        for _, sub in bought:
            stripe.set_subscription(sub, status="past_due", current_period_start=now - 86400)
        failed = [stripe.event("invoice.payment_failed", {"subscription": sub}) for _, sub in bought]
        rounds["invoice.payment_failed"] = asyncio.run(deliver(url, failed, args.concurrency))
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        stripe.close()

    async def states() -> dict[str, int]:
        conn = await asyncpg.connect(base.PG_URL.replace("postgresql+asyncpg://", "postgresql://"))
        try:
            rows = await conn.fetch("SELECT status, count(*) FROM access_grants WHERE kind = 'subscription' GROUP BY 1")
            return {row[0]: row[1] for row in rows}
        finally:
            await conn.close()

    final = asyncio.run(states())
    assert final == {"past_due": args.members}, final
    print(f"\n{args.members} members, concurrency {args.concurrency}; grants after the run: {final}")
    print(f"(load average {Path('/proc/loadavg').read_text().split()[0]})")
    print("| event | deliveries | p50 (ms) | p95 (ms) | p99 (ms) |")
    print("|---|---|---|---|---|")
    for name, latencies in rounds.items():
        print(summary(name, latencies))
    everything = [x for latencies in rounds.values() for x in latencies]
    print(summary("all", everything))
    p99 = statistics.quantiles(everything, n=100, method="inclusive")[98] * 1000
    print(f"p99 over every delivery: {p99:.1f} ms (target <= 200 ms)")


if __name__ == "__main__":
    main()
