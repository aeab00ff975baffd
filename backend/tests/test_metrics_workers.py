"""`tradeideas serve` with two workers: one scrape adds up both processes' counters; logs are JSON lines."""

import asyncio
import json
import os
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest
from prometheus_client import CollectorRegistry, generate_latest, multiprocess

from tests.realtime.conftest import free_port
from tests.scrape import parse, scrape, value
from tests.serve import start_serve, stop_serve
from tradeideas.settings import Settings

pytestmark = pytest.mark.skipif(os.environ.get("TEST_DB") != "postgres", reason="several workers need PostgreSQL")

HEALTH = {"method": "GET", "route": "/api/health", "status": "200"}
REQUESTS = "tradeideas_http_requests_total"


def per_process_health_counts(folder: Path, scratch: Path) -> dict[str, float]:
    """Each worker's own count of answered health checks, read from its file alone."""
    counts = {}
    for file in folder.glob("counter_*.db"):
        alone = scratch / file.stem
        alone.mkdir(parents=True, exist_ok=True)
        shutil.copy(file, alone / file.name)
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry, str(alone))  # type: ignore[no-untyped-call]
        counts[file.stem] = value(parse(generate_latest(registry).decode()), REQUESTS, **HEALTH)
    return counts


async def test_two_workers_counters_are_summed(settings: Settings, tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    stale = data_dir / "metrics" / "counter_4242.db"
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"left by an earlier run")  # removed at start, or the scrape would fail on it
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": settings.resolved_database_url,
        "DATA_DIR": str(data_dir),
        "STATIC_DIR": str(settings.static_dir),
        "WORKERS": "2",
        "PORT": str(port),
        "LOG_LEVEL": "info",
        "LOG_FORMAT": "json",
    }
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    log_path = tmp_path / "server.log"
    with log_path.open("wb") as log_file:
        proc = start_serve(env, "--no-seed", stdout=subprocess.DEVNULL, stderr=log_file)
    answered = 0
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as client:
            for _ in range(900):  # a hang guard, not a speed target
                assert proc.poll() is None, "the server exited"
                try:
                    if (await client.get("/api/health")).status_code == 200:
                        answered += 1
                        break
                except httpx.TransportError:
                    pass
                await asyncio.sleep(0.1)
            else:
                pytest.fail("no worker ever answered")
            assert not stale.exists()

            async def on_new_connection() -> int:
                async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as own:
                    return (await own.get("/api/health")).status_code

            counts: dict[str, float] = {}
            for _ in range(30):  # until both workers have answered some (the kernel picks who accepts)
                statuses = await asyncio.gather(*(on_new_connection() for _ in range(20)))
                assert set(statuses) == {200}
                answered += len(statuses)
                counts = per_process_health_counts(data_dir / "metrics", tmp_path / "scratch")
                if sum(1 for count in counts.values() if count > 0) >= 2:
                    break
            assert sum(1 for count in counts.values() if count > 0) >= 2, counts

            total = value(await scrape(client), REQUESTS, **HEALTH)
            assert total == sum(counts.values())
            assert answered <= total <= answered + 1  # `serve` checks health once itself, to print its banner
    finally:
        stop_serve(proc)

    lines = [line for line in log_path.read_text().splitlines() if line.strip()]
    records = [json.loads(line) for line in lines]  # every line the server wrote to stderr is one JSON object
    assert any(r["logger"] == "uvicorn.error" and "Started server process" in r["message"] for r in records)
    assert all({"time", "level", "logger", "message"} <= set(r) for r in records)
