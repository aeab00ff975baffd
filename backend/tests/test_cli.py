"""The operator CLI: add a user, set a password, disable a user, reset all data."""

import asyncio
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import httpx
from fastapi import FastAPI
from sqlalchemy import func, select

from tests.conftest import make_client
from tradeideas.auth.models import User
from tradeideas.settings import Settings


def _run_cli(settings: Settings, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": settings.resolved_database_url, "DATA_DIR": str(settings.data_dir)}
    return subprocess.run(
        [sys.executable, "-m", "tradeideas.cli", *args],
        input=stdin,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,  # a seed takes seconds alone and over a minute on a busy two-core machine
        check=False,
    )


async def _cli(settings: Settings, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """The command, run beside the app under test: its event loop keeps going meanwhile, so a transaction it
    has open (the app still reacting to the previous command) commits instead of holding SQLite's write lock
    for the whole command."""
    return await asyncio.to_thread(_run_cli, settings, *args, stdin=stdin)


async def _login(app: FastAPI, email: str, password: str) -> httpx.Response:
    async with make_client(app) as c:
        return await c.post("/api/auth/login", json={"email": email, "password": password})


async def _ends_soon(live: httpx.AsyncClient, settings: Settings) -> bool:
    """Another program's change reaches the running server through its event: on PostgreSQL as soon as the
    NOTIFY is delivered, on SQLite at the server's next look for other programs' commits."""
    deadline = time.monotonic() + settings.realtime_poll_seconds + 5
    while (await live.get("/api/auth/user")).status_code == 200:
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True


async def test_add_user_set_password_and_disable(app: FastAPI, settings: Settings) -> None:
    r = await _cli(
        settings,
        "add-user",
        "--email",
        "New.Person@example.com",
        "--password",
        "first-pass-1",
        "--first-name",
        "New",
        "--last-name",
        "Person",
    )
    assert r.returncode == 0, r.stderr
    assert (await _login(app, "new.person@example.com", "first-pass-1")).status_code == 200

    dup = await _cli(settings, "add-user", "--email", "new.person@example.com", "--password", "whatever-1")
    assert dup.returncode == 1 and "already exists" in dup.stderr

    short = await _cli(settings, "set-password", "--email", "new.person@example.com", "--password", "short")
    assert short.returncode == 1 and "at least 8" in short.stderr

    async with make_client(app) as live:
        await live.post("/api/auth/login", json={"email": "new.person@example.com", "password": "first-pass-1"})
        assert (await live.get("/api/auth/user")).status_code == 200
        assert (
            await _cli(settings, "set-password", "--email", "new.person@example.com", "--password", "second-pass-2")
        ).returncode == 0
        assert await _ends_soon(live, settings)  # sessions ended
    assert (await _login(app, "new.person@example.com", "first-pass-1")).status_code == 401
    assert (await _login(app, "new.person@example.com", "second-pass-2")).status_code == 200

    async with make_client(app) as live:
        await live.post("/api/auth/login", json={"email": "new.person@example.com", "password": "second-pass-2"})
        assert (await _cli(settings, "disable-user", "--email", "new.person@example.com")).returncode == 0
        assert await _ends_soon(live, settings)
    # A disabled member's right password learns why (issue #26); a wrong one reads as usual.
    assert (await _login(app, "new.person@example.com", "second-pass-2")).status_code == 403
    assert (await _login(app, "new.person@example.com", "not-it-3")).status_code == 401


async def test_reset_data_asks_for_confirmation(app: FastAPI, settings: Settings) -> None:
    r = await _cli(settings, "reset-data", stdin="no\n")
    assert r.returncode == 0 and "Aborted" in r.stdout
    async with app.state.db.sessionmaker() as s:
        assert (await s.execute(select(func.count()).select_from(User))).scalar_one() >= 9


def test_reset_data_with_confirmation_empties_a_database(tmp_path: Path) -> None:
    data = tmp_path
    scratch = Settings(data_dir=data, database_url=f"sqlite+aiosqlite:///{data / 'scratch.db'}")
    assert _run_cli(scratch, "migrate").returncode == 0
    assert _run_cli(scratch, "seed").returncode == 0
    (scratch.media_dir).mkdir(parents=True, exist_ok=True)
    (scratch.media_dir / "x.jpg").write_bytes(b"x")
    r = _run_cli(scratch, "reset-data", stdin="RESET\n")
    assert r.returncode == 0 and "All data deleted" in r.stdout
    with sqlite3.connect(data / "scratch.db") as conn:
        assert conn.execute("SELECT COUNT(*) FROM users").fetchone()[0] == 0
        assert conn.execute("SELECT COUNT(*) FROM chat_rooms").fetchone()[0] == 0
    assert not scratch.media_dir.exists()
    # Seeding again brings the demo accounts back.
    assert _run_cli(scratch, "seed").returncode == 0
    with sqlite3.connect(data / "scratch.db") as conn:
        # Seven educators, the demo customer, the demo member with one educator's plan, the admin, and the demo
        # history's seven followers (follower1-7).
        assert conn.execute("SELECT COUNT(*) FROM users").fetchone()[0] == 17


def test_ready_banner_names_the_address_and_every_demo_login(settings: Settings) -> None:
    from tradeideas.cli import ready_banner

    banner = ready_banner(settings, "http://127.0.0.1:8000", with_seed=True)
    assert banner.startswith(f"{settings.app_name} is ready: http://127.0.0.1:8000")
    assert "DEMO_PASSWORD" in banner and "customer@example.com" in banner
    assert all(f"educator{i}@example.com" in banner for i in range(1, 8))
    assert "/zinrai-educators-1" in banner
    assert "customer@example.com" not in ready_banner(settings, "http://h:1", with_seed=False)


async def test_add_admin_reads_the_password_from_stdin(app: FastAPI, settings: Settings) -> None:
    r = await _cli(
        settings,
        "add-user",
        "--email",
        "ops@example.com",
        "--role",
        "admin",
        "--password-stdin",
        stdin="ops-pass-123\n",
    )
    assert r.returncode == 0, r.stderr
    async with make_client(app) as c:
        login = {"email": "ops@example.com", "password": "ops-pass-123", "selectedRole": "admin"}
        r2 = await c.post("/api/auth/login", json=login)
        assert r2.status_code == 200 and r2.json()["user"]["role"] == "admin"
        assert (await c.post("/api/auth/login", json={**login, "selectedRole": "customer"})).status_code == 403
    weak = await _cli(
        settings, "add-user", "--email", "ops2@example.com", "--role", "admin", "--password-stdin", stdin="x\n"
    )
    assert weak.returncode == 1 and "at least 8" in weak.stderr
