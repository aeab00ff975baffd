"""`tradeideas backup PATH` and `tradeideas restore PATH`: a consistent copy of the database and the media folder.

A backup is a directory: `database.sqlite3` (SQLite's online backup API, safe while the server runs) or
`database.sql` (`pg_dump`), `media/` (read from whichever store MEDIA_STORE names: the folder or the S3 bucket),
the Web Push private key `vapid_private_key.pem` when an older installation still has one in DATA_DIR (the server
now keeps it in the database, so the database copy holds it), and `manifest.json`. It is secret material (the push
key, password hashes, the data): the directory is made readable by its owner only. The database is copied first
and the media second, while holding the housekeeping lock: every media row in the copy then has its file (files
are written before their rows commit, and only housekeeping deletes them). See decision 0038.

Restoring on SQLite replaces DATA_DIR's database and media folder (with MEDIA_STORE=s3 the files are written to
the bucket); it refuses while a server uses that
DATA_DIR (each server holds a shared lock on DATA_DIR/server.lock) and, without `--force`, when the database
already holds data. On PostgreSQL it prints the `psql` command, or runs it with `--force` when psql is installed.
Either way the Web Push key goes back into DATA_DIR: browsers subscribed with that key, and a server with a new
one could no longer send them anything.
"""

import asyncio
import fcntl
import json
import os
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from sqlalchemy.engine import make_url

from tradeideas import housekeeping
from tradeideas.db import Database
from tradeideas.media.store import LocalStore, media_store
from tradeideas.push.vapid import KEY_FILE as VAPID_KEY_FILE
from tradeideas.settings import Settings

MANIFEST = "manifest.json"
SQLITE_FILE = "database.sqlite3"
SQL_FILE = "database.sql"
MEDIA_DIR = "media"
FORMAT_VERSION = 1
SERVER_LOCK_FILE = "server.lock"
PG_DUMP_MISSING = (
    "pg_dump was not found on PATH: install the PostgreSQL client tools (the same major version as the server, "
    "e.g. `apt install postgresql-client`) and run the backup again. Nothing was written."
)


class BackupError(Exception):
    """A backup or restore that cannot go ahead; the message says why and what to do."""


@dataclass
class Outcome:
    """What a backup or restore did, as lines for the operator."""

    lines: list[str]


# ---- "a server uses this DATA_DIR" -------------------------------------------------------------------
class ServerPresence:
    """Held (shared) by every running server on SQLite, so `restore` can tell the database is in use."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._file: IO[str] | None = None

    def enter(self) -> None:
        if not self.settings.is_sqlite:
            return
        self.settings.data_dir.mkdir(parents=True, exist_ok=True)
        self._file = (self.settings.data_dir / SERVER_LOCK_FILE).open("a")
        fcntl.flock(self._file, fcntl.LOCK_SH)

    def exit(self) -> None:
        if self._file is not None:
            fcntl.flock(self._file, fcntl.LOCK_UN)
            self._file.close()
            self._file = None


def server_running(data_dir: Path) -> bool:
    path = data_dir / SERVER_LOCK_FILE
    if not path.exists():
        return False
    with path.open("a") as lock_file:
        try:
            fcntl.flock(lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(lock_file, fcntl.LOCK_UN)
    return False


# ---- helpers -----------------------------------------------------------------------------------------
def sqlite_path(settings: Settings) -> Path:
    database = make_url(settings.resolved_database_url).database
    if not database:
        raise BackupError("DATABASE_URL names no SQLite file")
    return Path(database)


def _libpq(settings: Settings) -> tuple[str, dict[str, str]]:
    """The database as a libpq URL without its password (which goes in PGPASSWORD, not the process list)."""
    url = make_url(settings.resolved_database_url)
    env = {**os.environ}
    if url.password:
        env["PGPASSWORD"] = str(url.password)
    plain = url.set(drivername="postgresql", password=None)
    return plain.render_as_string(hide_password=False), env


def _media_files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith("."))


def _copy_media(source: Path, target: Path) -> tuple[int, int]:
    """Copy the media files (not half-written `.name.tmp` files); returns how many and their bytes."""
    target.mkdir(parents=True, exist_ok=True)
    count = size = 0
    for path in _media_files(source):
        shutil.copy2(path, target / path.name)
        count += 1
        size += path.stat().st_size
    return count, size


async def _copy_store_media(settings: Settings, target: Path) -> tuple[int, int]:
    """Copy the media files from whichever store MEDIA_STORE names into the folder `target`."""
    store = media_store(settings)
    if isinstance(store, LocalStore):
        return await asyncio.to_thread(_copy_media, store.folder, target)
    await asyncio.to_thread(target.mkdir, parents=True, exist_ok=True)
    count = size = 0
    for name in await store.names():
        data = await store.read(name)
        if data is None:  # deleted since it was listed (housekeeping is held off, so only by hand)
            continue
        await asyncio.to_thread((target / name).write_bytes, data)
        count += 1
        size += len(data)
    return count, size


async def _put_media(settings: Settings, source: Path) -> int:
    """Restore into an S3 store: every file of the backup is written to the bucket (objects the backup does not
    hold are left alone: no row refers to them, and the bucket may be shared with a running installation)."""
    store = media_store(settings)
    files = await asyncio.to_thread(_media_files, source)
    for path in files:
        await store.put(path.name, await asyncio.to_thread(path.read_bytes))
    return len(files)


def _restore_media(settings: Settings, source: Path) -> tuple[int, str]:
    """Put the backup's media into the configured store; how many, and where."""
    if settings.media_store == "s3":
        return asyncio.run(_put_media(settings, source)), f"the S3 bucket {settings.s3_bucket}"
    return _replace_media(source, settings.media_dir), str(settings.media_dir)


def _sqlite_copy(source: Path, target: Path) -> None:
    """SQLite's online backup: a consistent snapshot even while the server writes (it restarts on changes)."""
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=30)
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)  # in one step: a WAL reader blocks no writer, and the copy never restarts
        finally:
            dst.close()
    finally:
        src.close()


def _has_data(path: Path) -> bool:
    if not path.exists() or path.stat().st_size == 0:
        return False
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return bool(conn.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0])
    finally:
        conn.close()


def _prepare_target(path: Path) -> Path:
    path = path.resolve()
    if path.exists() and (not path.is_dir() or any(path.iterdir())):
        raise BackupError(f"{path} already exists and is not an empty directory: choose a new path")
    path.mkdir(parents=True, exist_ok=True)
    path.chmod(0o700)  # it will hold the Web Push private key and the password hashes
    return path


def _copy_secret(source: Path, target: Path) -> None:
    """Copy a key file readable by its owner only, replacing `target` at once (never a half-written key)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = target.with_name(f".{target.name}.restoring")
    staging.unlink(missing_ok=True)
    fd = os.open(staging, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, source.read_bytes())
        os.fsync(fd)
    finally:
        os.close(fd)
    staging.replace(target)


def _backup_push_key(settings: Settings, target: Path) -> tuple[str | None, str]:
    """The generated Web Push key (from DATA_DIR) into the backup; one when VAPID_PRIVATE_KEY is set is the
    operator's to keep, with the rest of the environment."""
    key = settings.data_dir.resolve() / VAPID_KEY_FILE
    if settings.vapid_private_key:
        return None, "Web Push keys come from VAPID_PRIVATE_KEY: keep that setting with the backup."
    if not key.is_file():
        return None, "The Web Push key is kept in the database: the database copy holds it."
    _copy_secret(key, target / VAPID_KEY_FILE)
    return VAPID_KEY_FILE, f"Copied the Web Push private key to {target / VAPID_KEY_FILE} (keep this backup secret)."


def _restore_push_key(settings: Settings, source: Path) -> list[str]:
    key = source / VAPID_KEY_FILE
    if not key.is_file():
        return []
    _copy_secret(key, settings.data_dir.resolve() / VAPID_KEY_FILE)
    return [f"Restored the Web Push key to {settings.data_dir.resolve() / VAPID_KEY_FILE}."]


# ---- backup ------------------------------------------------------------------------------------------
def _backup_database(settings: Settings, target: Path) -> tuple[str, str]:
    if settings.is_sqlite:
        source = sqlite_path(settings)
        if not source.exists():
            raise BackupError(f"No database at {source}: nothing to back up")
        _sqlite_copy(source, target / SQLITE_FILE)
        return "sqlite", SQLITE_FILE
    pg_dump = shutil.which("pg_dump")
    if pg_dump is None:
        raise BackupError(PG_DUMP_MISSING)
    dsn, env = _libpq(settings)
    # --clean --if-exists: restoring replaces the tables instead of failing on the ones that exist.
    command = [pg_dump, "--format=plain", "--no-owner", "--clean", "--if-exists", "--file", str(target / SQL_FILE)]
    done = subprocess.run([*command, dsn], env=env, capture_output=True, text=True, check=False)  # noqa: S603
    if done.returncode != 0:
        raise BackupError(f"pg_dump failed: {done.stderr.strip()}")
    return "postgresql", SQL_FILE


async def backup(settings: Settings, target: Path) -> Outcome:
    """Write the database and the media folder to the new directory `target` (see the module text)."""
    if not settings.is_sqlite and shutil.which("pg_dump") is None:
        raise BackupError(PG_DUMP_MISSING)
    target = await asyncio.to_thread(_prepare_target, target)
    database = Database(settings)
    try:
        # Under the housekeeping lock: no media file is deleted between the database copy and the media copy.
        for _ in range(600):
            async with housekeeping.exclusive(database, settings) as mine:
                if mine:
                    kind, file_name = await asyncio.to_thread(_backup_database, settings, target)
                    files, size = await _copy_store_media(settings, target / MEDIA_DIR)
                    break
            await asyncio.sleep(0.5)
        else:
            raise BackupError("Housekeeping kept running for 5 minutes; try the backup again later")
    finally:
        await database.dispose()
    push_key, push_line = await asyncio.to_thread(_backup_push_key, settings, target)
    manifest = {
        "format": FORMAT_VERSION,
        "createdAt": datetime.now(UTC).isoformat(),
        "database": kind,
        "databaseFile": file_name,
        "mediaFiles": files,
        "mediaBytes": size,
        "webPushKey": push_key,
    }
    await asyncio.to_thread((target / MANIFEST).write_text, json.dumps(manifest, indent=2) + "\n")
    return Outcome(
        [
            f"Backed up the {kind} database to {target / file_name}.",
            f"Copied {files} media files ({size} bytes) to {target / MEDIA_DIR}.",
            push_line,
        ]
    )


# ---- restore -----------------------------------------------------------------------------------------
def _manifest(source: Path) -> dict[str, Any]:
    try:
        manifest: dict[str, Any] = json.loads((source / MANIFEST).read_text())
    except (OSError, ValueError) as exc:
        raise BackupError(f"{source} is not a backup made by `tradeideas backup` (no readable {MANIFEST})") from exc
    if manifest.get("format") != FORMAT_VERSION:
        raise BackupError(f"Unknown backup format {manifest.get('format')!r}")
    return manifest


def _replace_media(source: Path, target: Path) -> int:
    staging = target.with_name(target.name + ".restoring")
    shutil.rmtree(staging, ignore_errors=True)
    count, _ = _copy_media(source, staging)
    if target.exists():
        shutil.rmtree(target)
    staging.rename(target)
    return count


def restore(settings: Settings, source: Path, *, force: bool = False) -> Outcome:
    """Put a backup back (see the module text for the rules)."""
    source = source.resolve()
    manifest = _manifest(source)
    expected = "sqlite" if settings.is_sqlite else "postgresql"
    if manifest.get("database") != expected:
        raise BackupError(f"This backup holds a {manifest.get('database')} database; DATABASE_URL is {expected}")
    if not settings.is_sqlite:
        return _restore_postgres(settings, source, force=force)
    if server_running(settings.data_dir):
        raise BackupError(
            f"A server is running on {settings.data_dir}: stop it first (restore never replaces a database in use)"
        )
    target = sqlite_path(settings)
    if _has_data(target) and not force:
        raise BackupError(f"{target} already holds data: pass --force to replace it (and the media folder)")
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = target.with_name(target.name + ".restoring")
    staging.unlink(missing_ok=True)
    _sqlite_copy(source / SQLITE_FILE, staging)
    for leftover in (target.with_name(target.name + "-wal"), target.with_name(target.name + "-shm")):
        leftover.unlink(missing_ok=True)  # the old database's journal must not be applied to the new one
    staging.replace(target)
    files, where = _restore_media(settings, source / MEDIA_DIR)
    return Outcome(
        [
            f"Restored the database to {target}.",
            f"Restored {files} media files to {where}.",
            *_restore_push_key(settings, source),
        ]
    )


def _restore_postgres(settings: Settings, source: Path, *, force: bool) -> Outcome:
    dsn, env = _libpq(settings)
    shown = make_url(dsn).render_as_string(hide_password=True)
    sql = source / SQL_FILE
    command = ["psql", "--single-transaction", "--set", "ON_ERROR_STOP=1", "--dbname", shown, "--file", str(sql)]
    media = (
        f"rsync -a --delete {source / MEDIA_DIR}/ {settings.media_dir}/"
        if settings.media_store == "local"
        else f"(the media files in {source / MEDIA_DIR} go into the S3 bucket {settings.s3_bucket} with --force)"
    )
    push_key = source / VAPID_KEY_FILE
    key_copy = f"install -m 600 {push_key} {settings.data_dir.resolve() / VAPID_KEY_FILE}"
    printed = " ".join(command)
    psql = shutil.which("psql")
    if not force or psql is None:
        why = "psql was not found on PATH" if force else "nothing was changed"
        return Outcome(
            [
                f"To restore ({why}), stop the server, then run:",
                f"  {printed}",
                f"  {media}",
                *([f"  {key_copy}"] if push_key.is_file() else []),
                "or run `tradeideas restore PATH --force`, which does all of this when psql is installed.",
            ]
        )
    done = subprocess.run(  # noqa: S603 - fixed arguments
        [psql, "--quiet", "--single-transaction", "--set", "ON_ERROR_STOP=1", "--dbname", dsn, "--file", str(sql)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise BackupError(f"psql failed (nothing was changed): {done.stderr.strip()}")
    files, where = _restore_media(settings, source / MEDIA_DIR)
    return Outcome(
        [
            f"Restored the database with: {printed}",
            f"Restored {files} media files to {where}.",
            *_restore_push_key(settings, source),
        ]
    )
