"""Nothing a request needs lives on a node (issue #41): media in an S3-compatible store (moto's server mode, in this
process on a free port) and the generated Web Push key in the database. Two app instances share the test database
and the bucket, each with a DATA_DIR of its own, as two machines would."""

import asyncio
import io
import os
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import boto3
import httpx
import pytest
from asgi_lifespan import LifespanManager
from fastapi import FastAPI
from moto.server import ThreadedMotoServer
from PIL import Image
from sqlalchemy import delete, func, select, update

from tests.conftest import EDUCATOR_A, login_client, make_client
from tests.realtime.conftest import free_port
from tradeideas import backup
from tradeideas.app import create_app
from tradeideas.auth.models import User
from tradeideas.media import copy as media_copy
from tradeideas.media.models import MediaFile
from tradeideas.media.store import is_media_name, sha256_hex
from tradeideas.settings import Settings

if TYPE_CHECKING:
    from types_boto3_s3.client import S3Client

UNAVAILABLE = "Media storage is unavailable. Try again in a minute."
KEY_ID, SECRET = "test-key-id", "test-secret"  # moto accepts any


class S3Server:
    """moto's S3 REST server on 127.0.0.1:port; `stop()` makes the store unreachable."""

    def __init__(self) -> None:
        self.port = free_port()
        self.server = ThreadedMotoServer(ip_address="127.0.0.1", port=self.port, verbose=False)
        self.url = f"http://127.0.0.1:{self.port}"
        self.running = False

    def start(self) -> None:
        self.server.start()
        self.running = True

    def stop(self) -> None:
        if self.running:
            self.server.stop()
            self.running = False

    def client(self) -> "S3Client":
        return boto3.client(
            "s3", endpoint_url=self.url, region_name="us-east-1", aws_access_key_id=KEY_ID, aws_secret_access_key=SECRET
        )

    def new_bucket(self) -> str:
        name = f"media-{uuid.uuid4().hex[:12]}"
        self.client().create_bucket(Bucket=name)
        return name


@pytest.fixture(scope="module")
def s3() -> Iterator[S3Server]:
    server = S3Server()
    server.start()
    yield server
    server.stop()


@pytest.fixture
async def leaves_no_s3_rows(app: FastAPI) -> AsyncIterator[None]:
    """The tests share the session's database with tests of the local store: the media rows made here (their files
    are in a bucket) and the profile photo set here are taken back afterwards."""
    async with app.state.db.sessionmaker() as s:
        last = (await s.execute(select(func.max(MediaFile.id)))).scalar() or 0
        photo = (await s.execute(select(User.avatar_path).where(User.email == EDUCATOR_A))).scalar()
    yield
    async with app.state.db.sessionmaker() as s, s.begin():
        await s.execute(update(User).where(User.email == EDUCATOR_A).values(avatar_path=photo))
        await s.execute(delete(MediaFile).where(MediaFile.id > last))


def s3_settings(settings: Settings, server: S3Server, bucket: str, data_dir: Path) -> Settings:
    """The test database, this bucket and a DATA_DIR of the node's own."""
    return settings.model_copy(
        update={
            "data_dir": data_dir,
            "media_store": "s3",
            "s3_endpoint_url": server.url,
            "s3_bucket": bucket,
            "s3_region": "us-east-1",
            "s3_access_key_id": KEY_ID,
            "s3_secret_access_key": SECRET,
        }
    )


@asynccontextmanager
async def node(settings: Settings) -> AsyncIterator[FastAPI]:
    application = create_app(settings)
    async with LifespanManager(application):
        yield application


@asynccontextmanager
async def signed_in(app: FastAPI, email: str, role: str = "customer") -> AsyncIterator[httpx.AsyncClient]:
    client = await login_client(app, email, role)
    try:
        yield client
    finally:
        await client.aclose()


def png(size: tuple[int, int], shade: int = 90) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (shade, 120, 200)).save(out, "PNG")
    return out.getvalue()


async def media_rows(app: FastAPI) -> int:
    async with app.state.db.sessionmaker() as s:
        return int((await s.execute(select(func.count()).select_from(MediaFile))).scalar_one())


@pytest.mark.usefixtures("leaves_no_s3_rows")
async def test_an_upload_through_one_node_is_served_by_another(
    app: FastAPI, settings: Settings, s3: S3Server, tmp_path: Path
) -> None:
    bucket = s3.new_bucket()
    async with (
        node(s3_settings(settings, s3, bucket, tmp_path / "node-a")) as node_a,
        node(s3_settings(settings, s3, bucket, tmp_path / "node-b")) as node_b,
        signed_in(node_a, EDUCATOR_A, "educator") as educator,
        make_client(node_b) as anon_b,
        make_client(node_a) as anon_a,
    ):
        r = await educator.post("/api/media", files={"file": ("chart.png", png((1600, 900)), "image/png")})
        assert r.status_code == 201, r.text
        body = r.json()
        card = await anon_b.get(body["url"])
        assert card.status_code == 200
        assert card.headers["content-type"] == "image/jpeg"
        assert card.headers["cache-control"] == "public, max-age=31536000, immutable"
        assert card.headers["x-content-type-options"] == "nosniff"
        assert Image.open(io.BytesIO(card.content)).size == (800, 450)
        assert card.content == (await anon_a.get(body["url"])).content
        full = await anon_b.get(body["fullUrl"])
        assert full.status_code == 200 and Image.open(io.BytesIO(full.content)).size == (1600, 900)
        # A part of the file (audio players ask for ranges), from the bucket through node B.
        part = await anon_b.get(body["url"], headers={"Range": "bytes=0-99"})
        assert part.status_code == 206 and part.content == card.content[:100]
        assert part.headers["content-range"] == f"bytes 0-99/{len(card.content)}"
        # A profile photo uploaded through B is served by A.
        async with signed_in(node_b, EDUCATOR_A, "educator") as teacher_b:
            avatar = await teacher_b.post("/api/me/avatar", files={"file": ("me.png", png((300, 300)))})
            assert avatar.status_code == 200, avatar.text
            photo_url = avatar.json()["avatarUrl"]
        assert (await anon_a.get(photo_url)).status_code == 200
        assert (await anon_a.get("/media/" + "x" * 32 + ".jpg")).status_code == 404
    # The files are in the bucket, with their checksums, and on neither node's disk.
    objects = s3.client().list_objects_v2(Bucket=bucket)["Contents"]
    names = {item["Key"] for item in objects}
    assert {body["url"].removeprefix("/media/"), body["fullUrl"].removeprefix("/media/")} <= names
    head = s3.client().head_object(Bucket=bucket, Key=body["url"].removeprefix("/media/"))
    assert head["Metadata"]["sha256"] == sha256_hex(card.content)
    assert not (tmp_path / "node-a" / "media").exists() and not (tmp_path / "node-b" / "media").exists()


@pytest.mark.usefixtures("leaves_no_s3_rows")
async def test_with_the_store_down_uploads_answer_503_and_nothing_is_saved(
    app: FastAPI, settings: Settings, tmp_path: Path
) -> None:
    down = S3Server()
    down.start()
    bucket = down.new_bucket()
    try:
        async with (
            node(s3_settings(settings, down, bucket, tmp_path / "node")) as one,
            signed_in(one, EDUCATOR_A, "educator") as educator,
            make_client(one) as anon,
        ):
            kept = await educator.post("/api/media", files={"file": ("a.png", png((100, 80)), "image/png")})
            assert kept.status_code == 201
            health = (await anon.get("/api/health")).json()
            assert (health["media"], health["mediaStore"]) == ("ok", "s3")
            down.stop()  # the store stops answering
            # The node still serves everything else: it stays in the balancer's round and says what is wrong.
            health_down = await anon.get("/api/health")
            assert health_down.status_code == 200 and health_down.json()["media"] == "unavailable"
            rows = await media_rows(one)
            async with one.state.db.sessionmaker() as s:
                photo_before = (await s.execute(select(User.avatar_path).where(User.email == EDUCATOR_A))).scalar()
            for upload in (
                educator.post("/api/media", files={"file": ("b.png", png((1600, 900)), "image/png")}),
                educator.post("/api/me/avatar", files={"file": ("me.png", png((300, 300)))}),
            ):
                r = await upload
                assert r.status_code == 503, r.text
                assert r.json() == {"message": UNAVAILABLE, "code": "media_storage_unavailable"}
                assert r.headers["retry-after"] == "60"
            assert await media_rows(one) == rows  # no row points at a file that was not written
            async with one.state.db.sessionmaker() as s:
                photo_after = (await s.execute(select(User.avatar_path).where(User.email == EDUCATOR_A))).scalar()
            assert photo_after == photo_before
            served = await anon.get(kept.json()["url"])
            assert served.status_code == 503 and served.json()["message"] == UNAVAILABLE
    finally:
        down.stop()


def run_cli(settings: Settings, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "DATABASE_URL": settings.resolved_database_url,
        "DATA_DIR": str(settings.data_dir),
        "S3_ENDPOINT_URL": settings.s3_endpoint_url or "",
        "S3_BUCKET": settings.s3_bucket or "",
        "S3_ACCESS_KEY_ID": KEY_ID,
        "S3_SECRET_ACCESS_KEY": SECRET,
    }
    command = [sys.executable, "-m", "tradeideas.cli", *args]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=120, check=False)


async def test_copy_to_s3_copies_once_and_checks_every_objects_checksum(
    app: FastAPI, settings: Settings, s3: S3Server
) -> None:
    # The test installation's own media folder (the seeded charts and voice note, uploads of other tests).
    files = sorted(p for p in settings.media_dir.iterdir() if is_media_name(p.name))
    assert len(files) >= 3
    before = {p: sha256_hex(p.read_bytes()) for p in files}
    bucket = s3.new_bucket()
    target = settings.model_copy(
        update={
            "s3_endpoint_url": s3.url,
            "s3_bucket": bucket,
            "s3_access_key_id": KEY_ID,
            "s3_secret_access_key": SECRET,
        }
    )
    first = await asyncio.to_thread(run_cli, target, "media", "copy-to-s3")
    assert first.returncode == 0, first.stderr
    assert f"Copied {len(files)} media files" in first.stdout and "0 were already there" in first.stdout
    client = s3.client()
    for path in files:
        stored = client.get_object(Bucket=bucket, Key=path.name)
        assert stored["Body"].read() == path.read_bytes()
        assert stored["Metadata"]["sha256"] == sha256_hex(path.read_bytes())

    again = await media_copy.copy_to_s3(target)  # idempotent: nothing copied twice
    assert (again.copied, again.already_there, again.failed) == (0, len(files), [])

    # An object whose bytes differ from its file (though its recorded checksum says otherwise) is found and
    # written again; a missing one is copied.
    damaged, missing = files[0], files[1]
    client.put_object(
        Bucket=bucket, Key=damaged.name, Body=b"not the file", Metadata={"sha256": sha256_hex(damaged.read_bytes())}
    )
    client.delete_object(Bucket=bucket, Key=missing.name)
    mended = await media_copy.copy_to_s3(target)
    assert (mended.copied, mended.already_there, mended.failed) == (2, len(files) - 2, [])
    assert client.get_object(Bucket=bucket, Key=damaged.name)["Body"].read() == damaged.read_bytes()
    assert all(sha256_hex(p.read_bytes()) == digest for p, digest in before.items())  # the folder is left as it was

    no_bucket = await asyncio.to_thread(run_cli, settings, "media", "copy-to-s3")
    assert no_bucket.returncode == 1 and "S3_BUCKET is not set" in no_bucket.stderr


async def test_backup_reads_the_media_from_the_s3_store(
    app: FastAPI, settings: Settings, s3: S3Server, tmp_path: Path
) -> None:
    bucket = s3.new_bucket()
    on_s3 = s3_settings(settings, s3, bucket, tmp_path / "node")
    names = [f"{uuid.uuid4().hex[:32]}.jpg" for _ in range(3)]
    for index, name in enumerate(names):
        s3.client().put_object(Bucket=bucket, Key=name, Body=png((10, 10), shade=index))
    outcome = await backup.backup(on_s3, tmp_path / "copy")
    assert "Copied 3 media files" in outcome.lines[1]
    for index, name in enumerate(names):
        assert (tmp_path / "copy" / "media" / name).read_bytes() == png((10, 10), shade=index)


async def test_two_nodes_on_one_database_serve_the_same_push_key(
    app: FastAPI, settings: Settings, tmp_path: Path
) -> None:
    async with (
        node(settings.model_copy(update={"data_dir": tmp_path / "a"})) as node_a,
        node(settings.model_copy(update={"data_dir": tmp_path / "b"})) as node_b,
    ):
        keys = []
        for one in (node_a, node_b, app):
            async with signed_in(one, "customer@example.com") as client:
                answer = await client.get("/api/push/public-key")
                assert answer.status_code == 200
                keys.append(answer.json()["publicKey"])
        assert len(set(keys)) == 1
    assert not (tmp_path / "a" / "vapid_private_key.pem").exists()
    assert not (tmp_path / "b" / "vapid_private_key.pem").exists()
