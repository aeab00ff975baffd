"""Where uploaded media files live: `MEDIA_STORE=local` (DATA_DIR/media, the default) or `s3` (an S3-compatible
bucket, path-style addressing: Garage, SeaweedFS, Ceph RGW, Cloudflare R2, AWS S3).

Every node reads and writes the same store, so a file uploaded through one node is served by every node at the
same `/media/{name}` address. The S3 store streams objects through the node that answers (decision 0140): the
address, the content security policy (`img-src 'self'`) and the offline cache stay what they were. boto3 is
blocking, so every call runs in a worker thread; one client per process (it is thread-safe).

A store that cannot be reached raises `StorageUnavailable` (503, "Media storage is unavailable. Try again in a
minute."). Callers write the file before the row that refers to it, so a failed write leaves no row behind.
"""

import hashlib
import logging
import os
import re
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeVar

import anyio.to_thread
import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError
from starlette.responses import FileResponse, Response, StreamingResponse

from tradeideas.core.errors import AppError, NotFound
from tradeideas.settings import Settings

if TYPE_CHECKING:
    from types_boto3_s3.client import S3Client

log = logging.getLogger(__name__)
R = TypeVar("R")

UNAVAILABLE = "Media storage is unavailable. Try again in a minute."
NOT_FOUND = "Image not found"
CHECKSUM_KEY = "sha256"  # object metadata (x-amz-meta-sha256): the hex SHA-256 of the object's bytes
CHUNK = 64 * 1024
IMMUTABLE = "public, max-age=31536000, immutable"
FILE_NAME = re.compile(r"^[A-Za-z0-9_-]{32}\.(jpg|m4a)$")
CONTENT_TYPES = {".jpg": "image/jpeg", ".m4a": "audio/mp4"}
ONE_RANGE = re.compile(r"^bytes=(\d+-\d*|-\d+)$")
MISSING = {"NoSuchKey", "404", "NotFound"}
HEALTH_CHECK_SECONDS = 2.0  # the longest `/api/health` waits for the store


class StorageUnavailable(AppError):
    """The media store did not answer (or refused us): try again later; nothing was saved."""

    status_code = 503
    code = "media_storage_unavailable"

    def __init__(self) -> None:
        super().__init__(UNAVAILABLE, headers={"Retry-After": "60"})


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def content_type(name: str) -> str:
    return CONTENT_TYPES[Path(name).suffix]


def is_media_name(name: str) -> bool:
    """One of the names the server gives files (anything else is not ours to serve or copy)."""
    return FILE_NAME.fullmatch(name) is not None


def _headers() -> dict[str, str]:
    return {"Cache-Control": IMMUTABLE, "X-Content-Type-Options": "nosniff"}


@dataclass(frozen=True)
class Stat:
    size: int
    sha256: str | None  # as recorded when the file was written (S3 metadata); None when unknown


class MediaStore(Protocol):
    """The one interface every media write, read and delete goes through."""

    kind: str

    async def put(self, name: str, data: bytes) -> None:
        """Write the whole file `name` (readable by every node once this returns)."""

    async def read(self, name: str) -> bytes | None:
        """The file's bytes, or None when there is no such file."""

    async def stat(self, name: str) -> Stat | None:
        """The file's size (and recorded checksum), or None when there is no such file."""

    async def delete(self, name: str) -> int | None:
        """Remove the file; its size, or None when it was not there."""

    async def names(self) -> list[str]:
        """Every media file's name in the store, sorted."""

    async def response(self, name: str, byte_range: str | None) -> Response:
        """The HTTP answer serving the file (a `Range` of one part is honoured); NotFound when missing."""

    async def reachable(self) -> bool:
        """Whether the store answers and may be written to right now (for `/api/health`)."""


class LocalStore:
    """A folder on this machine (DATA_DIR/media): files written to a temporary name, then renamed into place."""

    kind = "local"

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _write(self, name: str, data: bytes) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp = self.folder / f".{name}.tmp"
        tmp.write_bytes(data)
        os.replace(tmp, self.folder / name)

    async def put(self, name: str, data: bytes) -> None:
        await anyio.to_thread.run_sync(self._write, name, data)

    def _read(self, name: str) -> bytes | None:
        try:
            return (self.folder / name).read_bytes()
        except FileNotFoundError:
            return None

    async def read(self, name: str) -> bytes | None:
        return await anyio.to_thread.run_sync(self._read, name)

    async def stat(self, name: str) -> Stat | None:
        data = await self.read(name)
        return None if data is None else Stat(len(data), sha256_hex(data))

    def _delete(self, name: str) -> int | None:
        path = self.folder / name
        try:
            size = path.stat().st_size
            path.unlink()
        except FileNotFoundError:
            return None
        return size

    async def delete(self, name: str) -> int | None:
        return await anyio.to_thread.run_sync(self._delete, name)

    def _names(self) -> list[str]:
        if not self.folder.is_dir():
            return []
        return sorted(p.name for p in self.folder.iterdir() if p.is_file() and is_media_name(p.name))

    async def names(self) -> list[str]:
        return await anyio.to_thread.run_sync(self._names)

    def clear(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)

    def _writable(self) -> bool:
        # The folder is made at the first upload: until then, the closest folder that exists must take it.
        folder = self.folder
        while not folder.exists() and folder != folder.parent:
            folder = folder.parent
        return folder.is_dir() and os.access(folder, os.W_OK | os.X_OK)

    async def reachable(self) -> bool:
        return await anyio.to_thread.run_sync(self._writable)

    async def response(self, name: str, byte_range: str | None) -> Response:
        path = self.folder / name
        if not await anyio.to_thread.run_sync(path.is_file):
            raise NotFound(NOT_FOUND)
        # FileResponse reads the request's own Range header.
        return FileResponse(path, media_type=content_type(name), headers=_headers())


class S3Store:
    """An S3-compatible bucket reached with boto3 (path-style addressing); object key = the file's name."""

    kind = "s3"

    def __init__(
        self,
        bucket: str,
        endpoint_url: str | None,
        region: str,
        access_key_id: str | None,
        secret_access_key: str | None,
    ) -> None:
        self.bucket = bucket
        config = Config(
            s3={"addressing_style": "path"},
            connect_timeout=3,
            read_timeout=20,
            retries={"mode": "standard", "total_max_attempts": 2},
            max_pool_connections=32,
            # Checksums only where the API requires them: S3-compatible stores differ in the newer ones. Our own
            # SHA-256 travels in the object's metadata and is checked by `tradeideas media copy-to-s3`.
            request_checksum_calculation="when_required",
            response_checksum_validation="when_required",
        )
        self.client: S3Client = boto3.session.Session().client(
            "s3",
            endpoint_url=endpoint_url,
            region_name=region,
            aws_access_key_id=access_key_id,
            aws_secret_access_key=secret_access_key,
            config=config,
        )

    def _put(self, name: str, data: bytes) -> None:
        self.client.put_object(
            Bucket=self.bucket,
            Key=name,
            Body=data,
            ContentType=content_type(name) if is_media_name(name) else "application/octet-stream",
            CacheControl=IMMUTABLE,
            Metadata={CHECKSUM_KEY: sha256_hex(data)},
        )

    async def put(self, name: str, data: bytes) -> None:
        await self._call(self._put, name, data)

    def _read(self, name: str) -> bytes | None:
        try:
            answer = self.client.get_object(Bucket=self.bucket, Key=name)
        except ClientError as exc:
            if _missing(exc):
                return None
            raise
        with answer["Body"] as body:
            return body.read()

    async def read(self, name: str) -> bytes | None:
        return await self._call(self._read, name)

    def _stat(self, name: str) -> Stat | None:
        try:
            head = self.client.head_object(Bucket=self.bucket, Key=name)
        except ClientError as exc:
            if _missing(exc):
                return None
            raise
        return Stat(head["ContentLength"], head.get("Metadata", {}).get(CHECKSUM_KEY))

    async def stat(self, name: str) -> Stat | None:
        return await self._call(self._stat, name)

    def _delete(self, name: str) -> int | None:
        found = self._stat(name)
        if found is None:
            return None
        self.client.delete_object(Bucket=self.bucket, Key=name)
        return found.size

    async def delete(self, name: str) -> int | None:
        return await self._call(self._delete, name)

    def _names(self) -> list[str]:
        names: list[str] = []
        for page in self.client.get_paginator("list_objects_v2").paginate(Bucket=self.bucket):
            names += [item["Key"] for item in page.get("Contents", []) if is_media_name(item.get("Key", ""))]
        return sorted(names)

    async def names(self) -> list[str]:
        return await self._call(self._names)

    def _open(self, name: str, byte_range: str | None) -> Response:
        wanted = byte_range if byte_range and ONE_RANGE.fullmatch(byte_range.strip()) else None
        try:
            if wanted is None:
                answer = self.client.get_object(Bucket=self.bucket, Key=name)
            else:
                answer = self.client.get_object(Bucket=self.bucket, Key=name, Range=wanted.strip())
        except ClientError as exc:
            if _missing(exc):
                raise NotFound(NOT_FOUND) from exc
            if exc.response.get("Error", {}).get("Code") == "InvalidRange":
                return Response(status_code=416, headers={"Content-Range": "bytes */*"})
            raise
        body = answer["Body"]

        def chunks() -> Iterator[bytes]:
            try:
                yield from body.iter_chunks(CHUNK)
            finally:
                body.close()

        headers = {**_headers(), "Accept-Ranges": "bytes", "Content-Length": str(answer["ContentLength"])}
        status = 200
        if wanted is not None and answer.get("ContentRange"):
            headers["Content-Range"] = answer["ContentRange"]
            status = 206
        # A plain iterator: Starlette reads it in a worker thread.
        return StreamingResponse(chunks(), status_code=status, media_type=content_type(name), headers=headers)

    async def response(self, name: str, byte_range: str | None) -> Response:
        return await self._call(self._open, name, byte_range)

    def _bucket_answers(self) -> bool:
        try:
            self.client.head_bucket(Bucket=self.bucket)
        except (BotoCoreError, ClientError) as exc:
            log.warning("media store s3://%s did not answer the health check: %s", self.bucket, exc)
            return False
        return True

    async def reachable(self) -> bool:
        # A store that hangs must not hold the health check (a balancer gives up on it after a few seconds): the
        # answer is awaited this long, and a call still running is left to end in its thread.
        with anyio.move_on_after(HEALTH_CHECK_SECONDS):
            return await anyio.to_thread.run_sync(self._bucket_answers, abandon_on_cancel=True)
        return False

    async def _call(self, work: Callable[..., R], *args: object) -> R:
        try:
            return await anyio.to_thread.run_sync(work, *args)
        except (BotoCoreError, ClientError) as exc:
            log.warning("media store s3://%s did not answer: %s", self.bucket, exc)
            raise StorageUnavailable() from exc


def _missing(exc: ClientError) -> bool:
    return str(exc.response.get("Error", {}).get("Code")) in MISSING


@lru_cache(maxsize=8)
def _s3_store(
    bucket: str, endpoint_url: str | None, region: str, access_key_id: str | None, secret_access_key: str | None
) -> S3Store:
    return S3Store(bucket, endpoint_url, region, access_key_id, secret_access_key)


def s3_store(settings: Settings) -> S3Store:
    """The bucket the S3_* settings name (one client per process and configuration)."""
    if not settings.s3_bucket:
        raise ValueError("S3_BUCKET is not set: the S3 store needs a bucket (see README, Configuration)")
    return _s3_store(
        settings.s3_bucket,
        settings.s3_endpoint_url,
        settings.s3_region,
        settings.s3_access_key_id,
        settings.s3_secret_access_key,
    )


def local_store(settings: Settings) -> LocalStore:
    return LocalStore(settings.media_dir)


def media_store(settings: Settings) -> MediaStore:
    """The store MEDIA_STORE chooses."""
    return s3_store(settings) if settings.media_store == "s3" else local_store(settings)
