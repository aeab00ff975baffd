"""Background work runs in `tradeideas worker` processes, never in a serving one (decision 0110): the app's lifespan
starts no background loop, and `tradeideas serve` supervises a worker that leads and is started again when it dies."""

import asyncio
import fcntl
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from asgi_lifespan import LifespanManager

from tests.conftest import _admin
from tests.realtime.conftest import free_port
from tests.serve import background_workers, start_serve, stop_serve, wait_healthy
from tests.test_leader_workers import lock_holders
from tradeideas.app import create_app
from tradeideas.core.deps import component_of
from tradeideas.core.leader import LEADER_FILE_NAME, Leader
from tradeideas.push.worker import PushRuntime
from tradeideas.settings import Settings

# The loops a serving process runs: the broker's, which read events and feed the streams.
SERVING_LOOPS = {"Broker._load_loop", "Broker._heartbeat_loop", "Broker._session_check_loop"}
SERVING_LOOPS |= {"Broker._listen_loop", "Broker._poll_loop"}
# Re-reads a member's access for their open streams when a `billing.access` event holds them (decision 0150).
SERVING_LOOPS |= {"Broker._access_loop"}


def _own_loops(tasks: set[asyncio.Task[object]]) -> set[str]:
    """The coroutines of the app's own code among `tasks` (the test runner's and libraries' are left out)."""
    names = set()
    for task in tasks:
        code = getattr(task.get_coro(), "cr_code", None)
        if code is not None and f"{os.sep}tradeideas{os.sep}" in code.co_filename:
            names.add(code.co_qualname)
    return names


async def test_a_serving_process_runs_no_background_rounds(settings: Settings) -> None:
    # Everything a background round would need, switched on: a live feed, housekeeping every 50 ms.
    busy = settings.model_copy(
        update={"price_feed": "live", "binance_api_url": "http://127.0.0.1:9", "housekeeping_interval_seconds": 0.05}
    )
    before = set(asyncio.all_tasks())
    app = create_app(busy)
    async with LifespanManager(app):
        await asyncio.sleep(0.5)
        loops = _own_loops(set(asyncio.all_tasks()) - before)
        assert loops, "the broker's loops run"
        assert loops <= SERVING_LOOPS, loops - SERVING_LOOPS
        assert component_of(app, PushRuntime).worker is None  # keys for test notifications, no delivery
        with pytest.raises(KeyError):
            component_of(app, Leader)  # no campaign for the lead either


async def test_serve_supervises_a_worker_that_leads_and_is_replaced_when_it_dies(
    settings: Settings, tmp_path: Path
) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    data_dir = tmp_path / "data"
    # A database of its own: the tests' app campaigns for the lead in the shared one.
    database = f"tradeideas_background_{os.getpid()}"
    if settings.is_sqlite:
        database_url = f"sqlite+aiosqlite:///{data_dir / 'serve.db'}"
    else:
        await _admin(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
        await _admin(f"CREATE DATABASE {database}")
        database_url = settings.resolved_database_url.rsplit("/", 1)[0] + f"/{database}"
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DATA_DIR": str(data_dir),
        "STATIC_DIR": str(settings.static_dir),
        "WORKERS": "1",
        "BACKGROUND_WORKERS": "1",
        "PORT": str(port),
        "LOG_LEVEL": "warning",
        "PRICE_FEED": "off",
    }
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    proc = start_serve(env, "--no-seed", stdout=subprocess.DEVNULL)

    async def leader() -> int | None:
        """The background worker that holds the lead (None: nobody, or a process that is not a worker)."""
        workers = background_workers(proc.pid)
        if not settings.is_sqlite:
            holders = await lock_holders(database)
            return holders[0] if holders and holders[0] in workers else None
        with (data_dir / LEADER_FILE_NAME).open("a") as lock_file:
            try:
                fcntl.flock(lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:  # held: by the one worker there is, as the serving process never campaigns
                return workers[0] if len(workers) == 1 else None
            fcntl.flock(lock_file, fcntl.LOCK_UN)
            return None

    async def leading_worker(other_than: int | None = None) -> int:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            found = await leader()
            if found is not None and found != other_than:
                return found
            await asyncio.sleep(0.3)
        raise AssertionError("no background worker took the lead")

    try:
        await wait_healthy(proc, url)
        worker = await leading_worker()
        os.kill(worker, signal.SIGKILL)  # the supervisor starts another, which takes the lead
        successor = await leading_worker(other_than=worker)
    finally:
        stop_serve(proc)
        if not settings.is_sqlite:
            await _admin(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
    # uvicorn ends the process with the signal it was stopped by, after its shutdown; the worker stops with it (it
    # watches its supervisor).
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        try:
            os.kill(successor, 0)
        except ProcessLookupError:
            return
        await asyncio.sleep(0.2)
    raise AssertionError("the background worker outlived its supervisor")
