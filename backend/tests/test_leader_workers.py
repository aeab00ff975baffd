"""`tradeideas serve` with two server workers and two background workers: one background worker leads the once-only
work (never a server process), and another takes over when the leader dies."""

import asyncio
import os
import signal
import subprocess
import time
from pathlib import Path

import asyncpg
import httpx
import pytest

from tests.conftest import POSTGRES_URL, _admin
from tests.realtime.conftest import free_port
from tests.scrape import scrape, value
from tests.serve import background_workers, start_serve, stop_serve, wait_healthy
from tradeideas.core.leader import LEADER_CONNECTION_PREFIX, LEADER_LOCK_KEY
from tradeideas.settings import Settings

pytestmark = pytest.mark.skipif(os.environ.get("TEST_DB") != "postgres", reason="several workers need PostgreSQL")

INTERVAL = 0.5  # seconds between housekeeping runs


ADMIN_URL = POSTGRES_URL.replace("postgresql+asyncpg://", "postgresql://")


async def lock_holders(database: str) -> list[int]:
    """The server process ids whose leader connection holds the lead (the pid is in its application name)."""
    conn = await asyncpg.connect(ADMIN_URL)
    try:
        rows = await conn.fetch(
            """SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
               WHERE l.locktype = 'advisory' AND l.granted AND a.datname = $1
                 AND (l.classid::bigint << 32 | l.objid::bigint) = $2""",
            database,
            LEADER_LOCK_KEY,
        )
    finally:
        await conn.close()
    names = [row["application_name"] for row in rows]
    assert all(name.startswith(f"{LEADER_CONNECTION_PREFIX}-") for name in names), names
    return [int(name.rsplit("-", 1)[1]) for name in names]


async def wait_for_holder(database: str, other_than: int | None = None, seconds: float = 60) -> int:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        holders = await lock_holders(database)
        assert len(holders) <= 1, f"two leaders: {holders}"
        if holders and holders[0] != other_than:
            return holders[0]
        await asyncio.sleep(0.2)
    raise AssertionError("no process took the lead")


async def test_one_of_two_workers_runs_housekeeping_and_another_takes_over(settings: Settings, tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    # A database of its own: the tests' app campaigns for the lead in the shared one.
    database = f"tradeideas_leader_{os.getpid()}"
    await _admin(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
    await _admin(f"CREATE DATABASE {database}")
    env = {
        **os.environ,
        "DATABASE_URL": settings.resolved_database_url.rsplit("/", 1)[0] + f"/{database}",
        "DATA_DIR": str(tmp_path / "data"),
        "STATIC_DIR": str(settings.static_dir),
        "WORKERS": "2",
        "BACKGROUND_WORKERS": "2",
        "PORT": str(port),
        "LOG_LEVEL": "warning",
        "HOUSEKEEPING_INTERVAL_SECONDS": str(INTERVAL),
    }
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    proc = start_serve(env, "--no-seed", stdout=subprocess.DEVNULL)
    try:
        await wait_healthy(proc, url)
        leader = await wait_for_holder(database)
        assert leader in background_workers(proc.pid)  # a serving process never leads (decision 0110)
        async with httpx.AsyncClient(base_url=url) as client:
            first = await scrape(client)
            started = time.monotonic()
            await asyncio.sleep(10 * INTERVAL)
            samples = await scrape(client)
            elapsed = time.monotonic() - started
        assert value(samples, "tradeideas_leader") == 1  # summed over the live workers: exactly one leads
        runs = value(samples, "tradeideas_housekeeping_runs_total") - value(first, "tradeideas_housekeeping_runs_total")
        # One schedule: at most a run per interval (two schedules, one per worker, would make about twice as many).
        assert 2 <= runs <= elapsed / INTERVAL + 1, (runs, elapsed)

        # The leader dies without a word: its connection, and with it the lock, goes; another process leads.
        os.kill(leader, signal.SIGKILL)
        successor = await wait_for_holder(database, other_than=leader)
        assert successor != leader and successor in background_workers(proc.pid)
        async with httpx.AsyncClient(base_url=url) as client:
            before = value(await scrape(client), "tradeideas_housekeeping_runs_total")
            await asyncio.sleep(6 * INTERVAL)
            after = value(await scrape(client), "tradeideas_housekeeping_runs_total")
        assert after > before  # the work goes on under the new leader
    finally:
        stop_serve(proc)
        await _admin(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
