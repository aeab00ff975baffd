"""Housekeeping of media: unused uploads go (file and row) 24 hours after they stopped being used, nothing
in use is touched; runs are exclusive across processes; the command says what it removed."""

import asyncio
import io
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from PIL import Image
from sqlalchemy import select

from tests.test_cli import _cli
from tradeideas import housekeeping
from tradeideas.core.clock import Clock
from tradeideas.core.deps import component_of
from tradeideas.core.leader import Leader
from tradeideas.media.models import MediaFile
from tradeideas.settings import Settings


def _png(colour: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (1200, 40), colour).save(out, "PNG")  # wider than 800 px: a card and a large file
    return out.getvalue()


async def _upload(client: httpx.AsyncClient, colour: str) -> dict[str, Any]:
    r = await client.post("/api/media", files={"file": (f"{colour}.png", _png(colour), "image/png")})
    assert r.status_code == 201, r.text
    return dict(r.json())


def _files(settings: Settings, media: dict[str, Any]) -> list[Path]:
    return [settings.media_dir / url.removeprefix("/media/") for url in (media["url"], media["fullUrl"])]


async def _exists(app: FastAPI, media_id: int) -> bool:
    async with app.state.db.sessionmaker() as session:
        return await session.get(MediaFile, media_id) is not None


async def test_unused_media_is_deleted_24_hours_after_it_stopped_being_used(
    app: FastAPI,
    settings: Settings,
    educator_a: httpx.AsyncClient,
    customer: httpx.AsyncClient,
    anon: httpx.AsyncClient,
) -> None:
    db, clock = app.state.db, Clock()
    in_chat = await _upload(educator_a, "green")
    never_attached = await _upload(educator_a, "red")
    room_id = (await educator_a.get("/api/chat/rooms")).json()[0]["id"]
    posted = await educator_a.post(f"/api/chat/rooms/{room_id}/messages", json={"imageId": in_chat["id"]})
    assert posted.status_code == 201, posted.text
    avatar_url = (await customer.post("/api/me/avatar", files={"file": ("me.png", _png("blue"), "image/png")})).json()[
        "avatarUrl"
    ]
    avatar_file = settings.media_dir / avatar_url.removeprefix("/media/")

    clock.advance(timedelta(hours=20))
    await housekeeping.run(db, settings, clock.now())
    assert all(p.is_file() for p in _files(settings, never_attached))  # unused for 20 hours: kept
    assert (await customer.delete("/api/me/avatar")).status_code == 200  # the photo is unused from now on
    await housekeeping.run(db, settings, clock.now())  # ... which this run notices

    clock.advance(timedelta(hours=5))  # never_attached: 25 hours old; the old photo: unused for 5 hours
    report = await housekeeping.run(db, settings, clock.now())
    assert report.removed["unused media uploads"] >= 1
    assert report.files_deleted >= 2 and report.bytes_freed > 0
    assert not any(p.exists() for p in _files(settings, never_attached))
    assert not await _exists(app, never_attached["id"])
    assert all(p.is_file() for p in _files(settings, in_chat)) and await _exists(app, in_chat["id"])
    assert avatar_file.is_file()
    assert (await anon.get(in_chat["url"])).status_code == 200

    clock.advance(timedelta(hours=20))  # the old photo: unused for 25 hours
    await housekeeping.run(db, settings, clock.now())
    assert not avatar_file.exists()
    assert all(p.is_file() for p in _files(settings, in_chat)) and await _exists(app, in_chat["id"])


async def test_an_upload_attached_just_before_its_24_hours_are_up_is_kept(
    app: FastAPI, settings: Settings, educator_a: httpx.AsyncClient
) -> None:
    db, clock = app.state.db, Clock()
    late = await _upload(educator_a, "yellow")
    clock.advance(timedelta(hours=23))
    await housekeeping.run(db, settings, clock.now())
    room_id = (await educator_a.get("/api/chat/rooms")).json()[0]["id"]
    posted = await educator_a.post(f"/api/chat/rooms/{room_id}/messages", json={"imageId": late["id"]})
    assert posted.status_code == 201
    clock.advance(timedelta(hours=2))
    await housekeeping.run(db, settings, clock.now())
    assert all(p.is_file() for p in _files(settings, late)) and await _exists(app, late["id"])
    async with db.sessionmaker() as session:
        media = (await session.execute(select(MediaFile).where(MediaFile.id == late["id"]))).scalar_one()
        assert media.orphaned_at is None


async def test_only_one_run_at_a_time(app: FastAPI, settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two runs at once (as from two server processes): one works, the other skips. On PostgreSQL the lock is
    an advisory lock held on its own connection, on SQLite a file lock in DATA_DIR."""
    db = app.state.db
    real_run = housekeeping.run

    async def slow_run(*args: Any) -> housekeeping.Report:
        await asyncio.sleep(0.3)  # still running when the other one asks
        return await real_run(*args)

    monkeypatch.setattr(housekeeping, "run", slow_run)
    reports = await asyncio.gather(housekeeping.run_exclusive(db, settings), housekeeping.run_exclusive(db, settings))
    assert sum(r is not None for r in reports) == 1
    # The lock was released: the next run works.
    assert await housekeeping.run_exclusive(db, settings) is not None


async def test_the_command_says_what_it_removed_and_skips_while_another_run_holds_the_lock(
    app: FastAPI, settings: Settings, educator_a: httpx.AsyncClient
) -> None:
    await _upload(educator_a, "purple")
    async with housekeeping.exclusive(app.state.db, settings) as mine:
        assert mine
        busy = await _cli(settings, "housekeeping")
    assert busy.returncode == 0, busy.stderr
    assert "running in another process" in busy.stdout
    done = await _cli(settings, "housekeeping")
    assert done.returncode == 0, done.stderr
    assert "Removed 0 unused media uploads." in done.stdout  # the fresh upload is kept
    assert "expired sessions." in done.stdout
    assert "media files," in done.stdout and "freed." in done.stdout


async def test_the_background_schedule_runs_housekeeping_in_the_leading_process_only(
    app: FastAPI, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs: list[object] = []

    async def counted(*args: Any) -> None:
        runs.append(args)

    monkeypatch.setattr(housekeeping, "run_exclusive", counted)
    often = settings.model_copy(update={"housekeeping_interval_seconds": 0.05})
    leader = component_of(app, Leader)  # the app's own campaign (a file lock on SQLite, an advisory lock on PG)
    for _ in range(250):
        if leader.is_leader:
            break
        await asyncio.sleep(0.02)
    assert leader.is_leader
    # A second campaign for the same database (another process, as far as the lock can tell) follows.
    follower = Leader(app.state.db, settings, retry_seconds=0.05)
    await follower.start()
    following = housekeeping.Housekeeping(app.state.db, often, follower)
    scheduled = housekeeping.Housekeeping(app.state.db, often, leader)
    await following.start()
    await scheduled.start()
    try:
        for _ in range(100):
            if len(runs) >= 2:
                break
            await asyncio.sleep(0.02)
        assert len(runs) >= 2
        await scheduled.stop()
        counted_runs = len(runs)
        await asyncio.sleep(0.3)  # six intervals of the follower's schedule
        assert len(runs) == counted_runs and not follower.is_leader
    finally:
        await scheduled.stop()
        await following.stop()
        await follower.stop()
    off = housekeeping.Housekeeping(app.state.db, settings, leader)  # interval 0 in the tests' settings: never
    await off.start()
    assert off._task is None
