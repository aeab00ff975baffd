"""`tradeideas backup` and `restore`: a consistent copy taken while the server writes, restored into a fresh
DATA_DIR with every row and media file; refusals that protect a database in use or holding data."""

import asyncio
import io
import json
import os
import sqlite3
from pathlib import Path

import httpx
import pytest
from asgi_lifespan import LifespanManager
from fastapi import FastAPI
from PIL import Image
from sqlalchemy import func, select

from tests.conftest import CUSTOMER, DEMO_PASSWORD, _admin, make_client
from tests.test_cli import _cli
from tradeideas import backup
from tradeideas.app import create_app
from tradeideas.chat.models import ChatMessage
from tradeideas.ideas.models import TradeIdea
from tradeideas.settings import Settings


def _png(shade: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 40), (shade, 100, 50)).save(out, "PNG")
    return out.getvalue()


async def _count(app: FastAPI, model: type[ChatMessage] | type[TradeIdea]) -> int:
    async with app.state.db.sessionmaker() as session:
        return int((await session.execute(select(func.count()).select_from(model))).scalar_one())


async def _keep_writing(educator: httpx.AsyncClient, room_id: int, stop: asyncio.Event) -> int:
    """Post image messages until told to stop: the server is busy while the backup runs."""
    written = 0
    while not stop.is_set():
        upload = await educator.post("/api/media", files={"file": ("c.png", _png(written % 250), "image/png")})
        assert upload.status_code == 201, upload.text
        body = {"message": f"backup write {written}", "imageId": upload.json()["id"]}
        assert (await educator.post(f"/api/chat/rooms/{room_id}/messages", json=body)).status_code == 201
        written += 1
    return written


def _fresh(tmp_path: Path, name: str) -> Settings:
    return Settings(data_dir=tmp_path / name, demo_password=DEMO_PASSWORD, static_dir=tmp_path / "no-spa")


async def _push_key(client: httpx.AsyncClient) -> str:
    answer = await client.get("/api/push/public-key")
    assert answer.status_code == 200, answer.text
    key: str = answer.json()["publicKey"]
    return key


async def test_backup_while_writing_then_restore_into_a_fresh_data_dir(
    app: FastAPI, settings: Settings, educator_a: httpx.AsyncClient, tmp_path: Path
) -> None:
    if not settings.is_sqlite:
        pytest.skip("the SQLite backup and restore; PostgreSQL has its own test below")
    push_key = await _push_key(educator_a)  # generated into the database (no VAPID_PRIVATE_KEY in the tests)
    room_id = (await educator_a.get("/api/chat/rooms")).json()[0]["id"]
    messages_before, ideas_before = await _count(app, ChatMessage), await _count(app, TradeIdea)
    stop = asyncio.Event()
    writer = asyncio.create_task(_keep_writing(educator_a, room_id, stop))
    await asyncio.sleep(0.3)  # the writes are under way
    outcome = await backup.backup(settings, tmp_path / "copy")
    stop.set()
    assert await writer > 0
    assert any("Backed up the sqlite database" in line for line in outcome.lines)
    manifest = json.loads((tmp_path / "copy" / "manifest.json").read_text())
    assert manifest["database"] == "sqlite" and manifest["databaseFile"] == "database.sqlite3"
    assert manifest["mediaFiles"] == len(list((tmp_path / "copy" / "media").iterdir()))
    # The push key is kept in the database (decision 0141): the database copy holds it, no key file is needed.
    assert manifest["webPushKey"] is None
    assert "The Web Push key is kept in the database: the database copy holds it." in outcome.lines
    # The copy holds secrets (the push key, password hashes): only its owner may read it.
    assert (tmp_path / "copy").stat().st_mode & 0o077 == 0

    fresh = _fresh(tmp_path, "fresh")
    restored = backup.restore(fresh, tmp_path / "copy")
    assert restored.lines[0] == f"Restored the database to {fresh.data_dir.resolve() / 'tradeideas.db'}."
    db = sqlite3.connect(fresh.data_dir / "tradeideas.db")
    try:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert db.execute("SELECT count(*) FROM chat_messages").fetchone()[0] > messages_before
        assert db.execute("SELECT count(*) FROM trade_ideas").fetchone()[0] == ideas_before
        files = db.execute("SELECT file_name, full_file_name FROM media_files").fetchall()
    finally:
        db.close()
    assert files
    missing = [name for row in files for name in row if name and not (fresh.media_dir / name).is_file()]
    assert missing == []  # every media row in the copy has its file

    # The restored DATA_DIR serves: a customer logs in and sees the ideas and the messages written during the backup.
    restored_app = create_app(fresh)
    async with LifespanManager(restored_app), make_client(restored_app) as client:
        login = {"email": CUSTOMER, "password": DEMO_PASSWORD, "selectedRole": "customer"}
        assert (await client.post("/api/auth/login", json=login)).status_code == 200
        # The same Web Push keys: the browsers' subscriptions (made for this key) keep receiving notifications.
        assert await _push_key(client) == push_key
        page = (await client.get(f"/api/chat/rooms/{room_id}/messages", params={"limit": 100})).json()
        with_image = next(m for m in page["items"] if m["message"].startswith("backup write"))
        assert (await client.get(with_image["imageUrl"])).status_code == 200


async def test_restore_refuses_a_database_in_use_or_holding_data_without_force(
    app: FastAPI, settings: Settings, tmp_path: Path
) -> None:
    if not settings.is_sqlite:
        pytest.skip("SQLite restore rules")
    await backup.backup(settings, tmp_path / "copy")
    fresh = _fresh(tmp_path, "busy")
    running = backup.ServerPresence(fresh)
    running.enter()  # as a server on that DATA_DIR does
    try:
        with pytest.raises(backup.BackupError, match="A server is running"):
            backup.restore(fresh, tmp_path / "copy", force=True)
    finally:
        running.exit()
    backup.restore(fresh, tmp_path / "copy")
    with pytest.raises(backup.BackupError, match="already holds data: pass --force"):
        backup.restore(fresh, tmp_path / "copy")
    assert backup.restore(fresh, tmp_path / "copy", force=True).lines
    with pytest.raises(backup.BackupError, match="not an empty directory"):
        await backup.backup(settings, tmp_path / "copy")


async def test_the_commands_on_sqlite(app: FastAPI, settings: Settings, tmp_path: Path) -> None:
    if not settings.is_sqlite:
        pytest.skip("SQLite commands")
    made = await _cli(settings, "backup", str(tmp_path / "cli-copy"))
    assert made.returncode == 0, made.stderr
    assert "Backed up the sqlite database to" in made.stdout and "media files" in made.stdout
    refused = await _cli(settings, "restore", str(tmp_path / "cli-copy"))
    assert refused.returncode == 1
    assert f"A server is running on {settings.data_dir}" in refused.stderr  # the test server holds it


async def test_postgres_backup_uses_pg_dump_and_restore_prints_or_runs_psql(
    app: FastAPI, settings: Settings, tmp_path: Path
) -> None:
    if settings.is_sqlite:
        pytest.skip("PostgreSQL backup")
    async with make_client(app) as client:
        login = {"email": CUSTOMER, "password": DEMO_PASSWORD, "selectedRole": "customer"}
        assert (await client.post("/api/auth/login", json=login)).status_code == 200
        push_key = await _push_key(client)
    made = await _cli(settings, "backup", str(tmp_path / "pg-copy"))
    assert made.returncode == 0, made.stderr
    dump = (tmp_path / "pg-copy" / "database.sql").read_text()
    assert "CREATE TABLE public.trade_ideas" in dump
    assert (tmp_path / "pg-copy" / "media").is_dir()

    printed = backup.restore(settings, tmp_path / "pg-copy")
    assert any(line.strip().startswith("psql --single-transaction --set ON_ERROR_STOP=1") for line in printed.lines)
    assert not any("vapid_private_key.pem" in line for line in printed.lines)  # the key is in the dump

    target_db = f"tradeideas_restore_{os.getpid()}"
    await _admin(f"DROP DATABASE IF EXISTS {target_db} WITH (FORCE)")
    await _admin(f"CREATE DATABASE {target_db}")
    try:
        url = settings.resolved_database_url.rsplit("/", 1)[0] + f"/{target_db}"
        target = Settings(data_dir=tmp_path / "pg-restored", database_url=url, static_dir=tmp_path / "no-spa")
        ran = await asyncio.to_thread(backup.restore, target, tmp_path / "pg-copy", force=True)
        assert ran.lines[0].startswith("Restored the database with: psql")
        restored_app = create_app(target)
        async with LifespanManager(restored_app), make_client(restored_app) as client:
            assert await _count(restored_app, TradeIdea) == await _count(app, TradeIdea)
            login = {"email": CUSTOMER, "password": DEMO_PASSWORD, "selectedRole": "customer"}
            assert (await client.post("/api/auth/login", json=login)).status_code == 200
            assert await _push_key(client) == push_key
    finally:
        await _admin(f"DROP DATABASE IF EXISTS {target_db} WITH (FORCE)")


async def test_backup_says_so_when_pg_dump_is_missing(app: FastAPI, settings: Settings, tmp_path: Path) -> None:
    if settings.is_sqlite:
        pytest.skip("PostgreSQL backup")
    env_path = os.environ["PATH"]
    try:
        os.environ["PATH"] = str(tmp_path)  # no pg_dump here
        with pytest.raises(backup.BackupError, match="pg_dump was not found on PATH"):
            await backup.backup(settings, tmp_path / "nothing")
    finally:
        os.environ["PATH"] = env_path
    assert not (tmp_path / "nothing").exists()
