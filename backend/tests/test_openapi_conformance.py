"""The running server answers exactly what its OpenAPI document says: schemathesis, with every check, as an
anonymous caller, a customer, an educator and an admin. Any 5xx or schema violation fails the run.

It runs against its own server process on its own fresh database (SQLite or PostgreSQL, as the rest of the
run), since it logs in wrongly, edits profiles and posts ideas. Settings (seed, examples, the 422 answers
that rules outside any JSON schema give) are in `schemathesis.toml`.
"""

import asyncio
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.conftest import ADMIN, CUSTOMER, EDUCATOR_A, POSTGRES_URL, _admin
from tests.realtime.conftest import free_port, login_token
from tests.serve import start_serve, stop_serve, wait_healthy
from tradeideas.settings import Settings

BACKEND = Path(__file__).resolve().parents[1]
SCHEMATHESIS = str(Path(sys.executable).with_name("st"))
# A stream never ends, and logging out would end the session the rest of the run uses: the anonymous run
# covers both (401).
SIGNED_IN_EXCLUDES = ["--exclude-path", "/api/events", "--exclude-path", "/api/auth/logout"]


@pytest.fixture
async def server_url(settings: Settings, tmp_path: Path) -> AsyncIterator[str]:
    database_url = f"sqlite+aiosqlite:///{tmp_path / 'conformance.db'}"
    own_db = f"tradeideas_conformance_{os.getpid()}"
    if not settings.is_sqlite:
        await _admin(f"DROP DATABASE IF EXISTS {own_db} WITH (FORCE)")
        await _admin(f"CREATE DATABASE {own_db}")
        database_url = POSTGRES_URL.rsplit("/", 1)[0] + f"/{own_db}"
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DATA_DIR": str(tmp_path),
        "DEMO_PASSWORD": settings.demo_password,
        "STATIC_DIR": str(settings.static_dir),
        "PORT": str(port),
        "LOG_LEVEL": "warning",
    }
    proc = start_serve(env)
    url = f"http://127.0.0.1:{port}"
    try:
        await wait_healthy(proc, url)
        yield url
    finally:
        stop_serve(proc)
        if not settings.is_sqlite:
            await _admin(f"DROP DATABASE IF EXISTS {own_db} WITH (FORCE)")


def _schemathesis(url: str, *options: str) -> subprocess.CompletedProcess[str]:
    args = [SCHEMATHESIS, "--no-color", "run", f"{url}/openapi.json", "--checks", "all", *options]
    return subprocess.run(args, cwd=BACKEND, capture_output=True, text=True, timeout=600, check=False)


async def test_every_answer_matches_the_openapi_document(server_url: str) -> None:
    # Log in first: the anonymous run's wrong logins soon make this address wait out the login limit.
    callers = {
        "customer": await login_token(server_url, CUSTOMER, "customer"),
        "educator": await login_token(server_url, EDUCATOR_A, "educator"),
        "admin": await login_token(server_url, ADMIN, "admin"),
    }
    runs = {"anonymous": await asyncio.to_thread(_schemathesis, server_url)}
    for name, token in callers.items():
        header = ["-H", f"Authorization: Bearer {token}"]
        runs[name] = await asyncio.to_thread(_schemathesis, server_url, *header, *SIGNED_IN_EXCLUDES)
    failed = {name: run.stdout[-6000:] + run.stderr[-2000:] for name, run in runs.items() if run.returncode != 0}
    assert not failed, "\n\n".join(f"===== as {name} =====\n{output}" for name, output in failed.items())
