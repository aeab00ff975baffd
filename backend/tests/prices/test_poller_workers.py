"""The price checks under `tradeideas serve` with two workers on PostgreSQL: one leader polls, so each settlement
step is recorded exactly once; a leader killed mid-round and a whole server restarted lose and repeat nothing.
(Checked to fail when every worker polls: the entry is then recorded twice.)"""

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
from sqlalchemy import insert
from sqlalchemy.ext.asyncio import async_sessionmaker, create_async_engine

from tests.conftest import _admin
from tests.realtime.conftest import free_port
from tests.serve import start_serve, stop_serve, wait_healthy
from tests.test_leader_workers import wait_for_holder
from tradeideas.auth.models import Role, User
from tradeideas.ideas.models import TradeIdea
from tradeideas.settings import Settings

pytestmark = pytest.mark.skipif(os.environ.get("TEST_DB") != "postgres", reason="several workers need PostgreSQL")

BACKEND = Path(__file__).resolve().parents[2]
SYMBOLS = [f"W{i}USDT" for i in range(6)]
IDEAS = 60  # ten per symbol: BUY at 100, stop 90, exits 110 and 120
STEPS = ["triggered", "exit1", "exit2", "settled"]


def idea_row(i: int, educator_id: int, published: datetime) -> dict[str, Any]:
    return {
        "educator_id": educator_id,
        "market_type": "Crypto",
        "market": "crypto",
        "order_type": "BUY",
        "idea_type": "Leverage",
        "pair": f"{SYMBOLS[i % len(SYMBOLS)][:-4]}/USDT",
        "time_frame": "1H",
        "entry1": "100",
        "invalidation_level": "90",
        "exit1": "110",
        "exit2": "120",
        "status": "active",
        "completed": False,
        "edited": False,
        "edited_after_publish": False,
        "created_at": published,
        "updated_at": published,
    }


async def program(feed: httpx.AsyncClient, bars: list[list[Any]]) -> None:
    for symbol in SYMBOLS:
        r = await feed.post("/_fake/bars", json={"symbol": symbol, "interval": "1m", "bars": bars})
        r.raise_for_status()


async def steps_by_idea(dsn: str) -> dict[int, list[str]]:
    conn = await asyncpg.connect(dsn)
    try:
        rows = await conn.fetch("SELECT payload FROM events WHERE type = 'idea.price_check' ORDER BY seq")
    finally:
        await conn.close()
    out: dict[int, list[str]] = {}
    for row in rows:
        payload = json.loads(row["payload"])
        out.setdefault(int(payload["ideaId"]), []).append(payload["step"])
    return out


async def wait_adopted(dsn: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while True:
        conn = await asyncpg.connect(dsn)
        try:
            adopted = await conn.fetchval("SELECT count(*) FROM idea_verifications")
        finally:
            await conn.close()
        if adopted == IDEAS:
            return
        assert time.monotonic() < deadline, adopted
        await asyncio.sleep(0.2)


async def wait_until(dsn: str, done: int, seconds: float = 90) -> dict[int, list[str]]:
    """Until every idea has recorded `done` steps (never more: a repeated step fails at once)."""
    deadline = time.monotonic() + seconds
    while True:
        steps = await steps_by_idea(dsn)
        for idea_id, recorded in steps.items():
            assert recorded == STEPS[: len(recorded)], (idea_id, recorded)
        if len(steps) == IDEAS and all(len(s) >= done for s in steps.values()):
            return steps
        assert time.monotonic() < deadline, Counter(len(s) for s in steps.values())
        await asyncio.sleep(0.2)


async def test_two_workers_record_each_step_once_through_a_killed_leader_and_a_restart(
    settings: Settings, tmp_path: Path
) -> None:
    database = f"tradeideas_prices_{os.getpid()}"
    await _admin(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
    await _admin(f"CREATE DATABASE {database}")
    url = settings.resolved_database_url.rsplit("/", 1)[0] + f"/{database}"
    dsn = url.replace("postgresql+asyncpg://", "postgresql://")
    feed_port, port = free_port(), free_port()
    feed_proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.prices.fakefeed", str(feed_port), cwd=BACKEND
    )
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DATA_DIR": str(tmp_path / "data"),
        "STATIC_DIR": str(settings.static_dir),
        "WORKERS": "2",
        "PORT": str(port),
        "LOG_LEVEL": "warning",
        "PRICE_FEED": "live",
        "BINANCE_API_URL": f"http://127.0.0.1:{feed_port}",
        "PRICE_POLL_SECONDS": "0.5",
    }
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    env.pop("OANDA_TOKEN", None)
    proc = start_serve(env, "--no-seed", stdout=subprocess.DEVNULL)
    try:
        await wait_healthy(proc, f"http://127.0.0.1:{port}")
        now = datetime.now(UTC)
        published = now - timedelta(minutes=40)
        t = int(published.timestamp()) // 60 * 60 + 60
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{feed_port}") as feed:
            for _ in range(100):
                try:
                    await feed.post("/_fake/now", json={"now": now.timestamp() + 3600})
                    break
                except httpx.TransportError:
                    await asyncio.sleep(0.1)
            await program(feed, [[t + 60 * k - 60, "95", "96", "94", "95"] for k in range(6)])
            engine = create_async_engine(url)
            async with async_sessionmaker(engine)() as db, db.begin():
                educator = User(email="w.educator@example.com", password_hash="-", role=Role.EDUCATOR)
                db.add(educator)
                await db.flush()
                await db.execute(insert(TradeIdea), [idea_row(i, educator.id, published) for i in range(IDEAS)])
            await engine.dispose()

            # Both workers alive and up to date (the ideas adopted, a few rounds on): the entry trades, and only the
            # leader records it. A second poller would record every step again.
            leader = await wait_for_holder(database)
            await wait_adopted(dsn)
            await asyncio.sleep(2)
            await program(feed, [[t + 300, "95", "101", "95", "100.5"]])
            await wait_until(dsn, 1)
            await asyncio.sleep(2)
            await wait_until(dsn, 1)

            # Exit 1 trades and the leader is killed without a word a moment later, mid-round or not: the other
            # worker takes the lead and records what is missing, once.
            await program(feed, [[t + 360, "100.5", "111", "100", "110.5"]])
            await asyncio.sleep(0.3)
            os.kill(leader, signal.SIGKILL)
            await wait_for_holder(database, other_than=leader)
            await wait_until(dsn, 2)

            # The whole server restarted: exit 2 settles every idea under a fresh process.
            stop_serve(proc)
            proc = start_serve(env, "--no-seed", stdout=subprocess.DEVNULL)
            await wait_healthy(proc, f"http://127.0.0.1:{port}")
            await asyncio.sleep(2)
            await program(feed, [[t + 420, "110.5", "121", "110", "120.5"]])
            steps = await wait_until(dsn, 4)
            await asyncio.sleep(2)  # a few more rounds: nothing more is recorded
        assert await steps_by_idea(dsn) == steps
        assert all(recorded == STEPS for recorded in steps.values())
        conn = await asyncpg.connect(dsn)
        try:
            settled = await conn.fetch("SELECT state, outcome, receipts FROM idea_verifications")
            ledger = await conn.fetchval("SELECT count(*) FROM ledger_entries WHERE kind = 'idea.price_check'")
        finally:
            await conn.close()
        assert len(settled) == IDEAS
        assert all((r["state"], r["outcome"]) == ("settled", "exit2") for r in settled)
        assert ledger == IDEAS * len(STEPS)  # each step in the ledger once
    finally:
        stop_serve(proc)
        feed_proc.terminate()
        await feed_proc.wait()
        await _admin(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
