"""`tradeideas serve` with several workers comes up even when each process is slow to start."""

import os
from pathlib import Path

import pytest

from tests.realtime.conftest import free_port
from tests.serve import start_serve, stop_serve, wait_healthy
from tradeideas.settings import Settings

pytestmark = pytest.mark.skipif(os.environ.get("TEST_DB") != "postgres", reason="several workers need PostgreSQL")

# Imported by every Python process started with this directory on PYTHONPATH, the workers included: each
# takes longer to start than uvicorn's fixed 5 s health check allowed (twice over: its checks run one worker
# after the other), as on a busy machine.
SLOW_START = "import time\ntime.sleep(12)\n"


async def test_slow_starting_workers_are_waited_for(settings: Settings, tmp_path: Path) -> None:
    (tmp_path / "sitecustomize.py").write_text(SLOW_START)
    port = free_port()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(tmp_path), *filter(None, [os.environ.get("PYTHONPATH")])]),
        "DATABASE_URL": settings.resolved_database_url,
        "DATA_DIR": str(settings.data_dir),
        "STATIC_DIR": str(settings.static_dir),
        "WORKERS": "2",
        "PORT": str(port),
        "LOG_LEVEL": "warning",
    }
    proc = start_serve(env, "--no-seed")
    try:
        await wait_healthy(proc, f"http://127.0.0.1:{port}")
    finally:
        stop_serve(proc)
