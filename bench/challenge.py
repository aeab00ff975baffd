"""Benchmark: "would I pass a funded-account challenge?" (issue #42), the simulator's bar: <= 300 ms p99 with 500
ideas in the record.

Seeds one listed educator with `--ideas` decided price-checked ideas (settled over `--days-of-record` days, a few a
day, as a real record is paced) on SQLite, then calls `GET /api/educators/{id}/challenge` through the whole app
in-process, `--concurrency` at a time, each with a new seed (nothing is cached: every answer is 10,000 runs). Reports
p50 / p99 / max wall time per answer for the preset rules (30 days) and for a year-long challenge at 0.1 % risk
(the longest a run can last: nearly every run is still going on the last day).

Run from backend/:  uv run python ../bench/challenge.py [--ideas 500] [--requests 200] [--concurrency 4] [--warmup 8]
"""

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
from asgi_lifespan import LifespanManager

from tradeideas.app import create_app
from tradeideas.auth import service as auth_service
from tradeideas.auth.models import Role
from tradeideas.cli import migrate
from tradeideas.ideas.models import TradeIdea
from tradeideas.prices.models import IdeaVerification
from tradeideas.settings import Settings

PASSWORD = "bench-password-123"


async def seed(app: object, ideas: int, days: int) -> int:
    rng = random.Random(42)
    start = datetime(2026, 1, 1, 12, tzinfo=UTC)
    async with app.state.db.sessionmaker() as s, s.begin():  # type: ignore[attr-defined]
        educator = await auth_service.add_user(
            s, email="bench.educator@example.com", password=PASSWORD, role=Role.EDUCATOR, first_name="B",
            last_name="E",
        )  # fmt: skip
        await auth_service.add_user(
            s, email="bench.customer@example.com", password=PASSWORD, role=Role.CUSTOMER, first_name="B",
            last_name="C",
        )  # fmt: skip
        for _ in range(ideas):
            r = rng.choice([2.0, 1.5, 3.0, -1.0, -1.0, -1.0])
            outcome = "exit1" if r > 0 else "invalidation"
            at = start + timedelta(days=rng.randrange(days), hours=rng.randrange(10))
            idea = TradeIdea(
                educator_id=educator.id, market_type="Crypto", market="crypto", order_type="BUY", idea_type="Exchange",
                pair="BTCUSDT", time_frame="4H", entry1="100", invalidation_level="90", exit1="120",
                status="successful" if r > 0 else "unsuccessful", completed=True, outcome=outcome, closed_at=at,
                r_multiple=r, created_at=at - timedelta(hours=4), updated_at=at,
            )  # fmt: skip
            s.add(idea)
            await s.flush()
            verdict = IdeaVerification(
                idea_id=idea.id, educator_id=educator.id, feed="binance", symbol="BTCUSDT", state="settled",
                done=True, outcome=outcome, r_multiple=r, settled_at=at, receipts=[], progress={}, levels={},
                published_at=at - timedelta(hours=4), levels_fixed=True,
            )  # fmt: skip
            s.add(verdict)
        return educator.id


async def measure(settings: Settings, args: argparse.Namespace) -> None:
    app = create_app(settings)
    async with LifespanManager(app):
        educator_id = await seed(app, args.ideas, args.days_of_record)
        transport = httpx.ASGITransport(app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as client:
            login = {"email": "bench.customer@example.com", "password": PASSWORD, "selectedRole": "customer"}
            token = (await client.post("/api/auth/login", json=login)).json()["sessionToken"]
            client.headers["Authorization"] = f"Bearer {token}"
            url = f"/api/educators/{educator_id}/challenge"
            cases: dict[str, dict[str, float]] = {
                "preset (1 % risk, 30 days)": {"riskPercent": 1},
                "0.1 % risk, 365 days": {"riskPercent": 0.1, "days": 365},
            }
            print(f"{args.ideas} ideas over {args.days_of_record} days, {args.requests} answers per case, "
                  f"{args.concurrency} at a time")  # fmt: skip
            print("| case | p50 ms | p99 ms | max ms | pass probability |")
            print("|---|---|---|---|---|")
            for _ in range(args.warmup):  # the process's first answers (thread pool, numpy's first calls): not timed
                (await client.get(url, params={"riskPercent": 1})).raise_for_status()
            for name, case in cases.items():
                seeds = iter(range(args.requests))
                times: list[float] = []
                answer: dict[str, object] = {}

                async def worker(case: dict[str, float], seeds: object = seeds, times: list[float] = times) -> None:
                    nonlocal answer
                    for seed in seeds:  # type: ignore[attr-defined]
                        began = time.perf_counter()
                        r = await client.get(url, params={**case, "seed": seed})
                        times.append(time.perf_counter() - began)
                        r.raise_for_status()
                        answer = r.json()

                await asyncio.gather(*(worker(case) for _ in range(args.concurrency)))
                times.sort()
                p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
                print(f"| {name} | {statistics.median(times) * 1e3:.0f} | {p99 * 1e3:.0f} | {times[-1] * 1e3:.0f} "
                      f"| {answer['pass']['probability']} |", flush=True)  # type: ignore[index]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ideas", type=int, default=500)
    parser.add_argument("--days-of-record", type=int, default=250)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--warmup", type=int, default=8, help="untimed answers first")
    args = parser.parse_args()
    data_dir = Path(tempfile.mkdtemp(prefix="bench-challenge-"))
    settings = Settings(data_dir=data_dir, demo_password=PASSWORD, static_dir=data_dir / "no-spa", log_level="warning")
    migrate(settings)
    asyncio.run(measure(settings, args))


if __name__ == "__main__":
    main()
