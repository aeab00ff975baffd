"""Image uploads: checked by content, re-encoded (max width 800 px, JPEG quality 80, no metadata).

`store_image` is the one entry point for every domain that accepts pictures (ideas, avatars, chat).
"""

import io
import os
import re
import secrets
from dataclasses import dataclass
from pathlib import Path

from fastapi import UploadFile
from PIL import Image, ImageOps, UnidentifiedImageError
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.concurrency import run_in_threadpool

from tradeideas.core.errors import Invalid, NotFound
from tradeideas.media.models import MediaFile
from tradeideas.settings import Settings

NOT_AN_IMAGE = "Please upload only image files."
TOO_LARGE = "Please upload images smaller than 10MB."
PROCESSING_FAILED = "Image processing failed, Please try a different image."
MAX_UPLOAD_BYTES = 10 * 1024 * 1024
MAX_WIDTH = 800
JPEG_QUALITY = 80
MAX_PIXELS = 40_000_000  # refuse decompression bombs long before they exhaust memory
# Only decoders for formats browsers and phones produce; Pillow's others (EPS, PSD, ...) stay off.
ACCEPTED_FORMATS = ("JPEG", "PNG", "GIF", "WEBP", "BMP", "TIFF")  # JPEG also opens MPO (phone photos)
Image.init()  # register every decoder now, so `formats=` can name them
FILE_NAME = re.compile(r"^[A-Za-z0-9_-]{32}\.jpg$")


@dataclass(frozen=True)
class EncodedImage:
    data: bytes
    width: int
    height: int


def encode_image(raw: bytes) -> EncodedImage:
    """Verify the bytes are an image, then re-encode them as a metadata-free RGB JPEG <= 800 px wide."""
    try:
        with Image.open(io.BytesIO(raw), formats=ACCEPTED_FORMATS) as probe:
            probe.verify()
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError, SyntaxError, ValueError) as exc:
        raise Invalid(NOT_AN_IMAGE, code="not_an_image") from exc
    try:
        with Image.open(io.BytesIO(raw), formats=ACCEPTED_FORMATS) as img:
            if img.width * img.height > MAX_PIXELS:
                raise Invalid(PROCESSING_FAILED, code="image_processing_failed")
            img.seek(0)  # first frame of animations
            oriented = ImageOps.exif_transpose(img)  # apply the camera's rotation before EXIF is dropped
            if oriented.mode in ("RGBA", "LA", "P", "PA") or "transparency" in oriented.info:
                rgba = oriented.convert("RGBA")
                flat = Image.new("RGB", rgba.size, (255, 255, 255))
                flat.paste(rgba, mask=rgba.getchannel("A"))
                oriented = flat
            rgb = oriented.convert("RGB")
            if rgb.width > MAX_WIDTH:
                height = max(1, round(rgb.height * MAX_WIDTH / rgb.width))
                rgb = rgb.resize((MAX_WIDTH, height), Image.Resampling.LANCZOS)
            out = io.BytesIO()
            # No exif= / icc_profile= arguments: the new file carries no metadata at all.
            rgb.save(out, "JPEG", quality=JPEG_QUALITY, optimize=True)
            return EncodedImage(out.getvalue(), rgb.width, rgb.height)
    except Invalid:
        raise
    except Exception as exc:  # any decoder failure on a file that passed verify()
        raise Invalid(PROCESSING_FAILED, code="image_processing_failed") from exc


async def read_upload(upload: UploadFile) -> bytes:
    raw = await upload.read(MAX_UPLOAD_BYTES + 1)
    if len(raw) > MAX_UPLOAD_BYTES:
        raise Invalid(TOO_LARGE, code="image_too_large")
    if not raw:
        raise Invalid(NOT_AN_IMAGE, code="not_an_image")
    return raw


def _write_file(directory: Path, name: str, data: bytes) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    tmp = directory / f".{name}.tmp"
    tmp.write_bytes(data)
    os.replace(tmp, directory / name)


async def store_image_bytes(db: AsyncSession, settings: Settings, owner_id: int, raw: bytes) -> MediaFile:
    encoded = await run_in_threadpool(encode_image, raw)
    name = secrets.token_urlsafe(24) + ".jpg"  # 192 random bits: unguessable, URL-safe, 32 chars
    await run_in_threadpool(_write_file, settings.media_dir, name, encoded.data)
    media = MediaFile(owner_id=owner_id, file_name=name, width=encoded.width, height=encoded.height)
    db.add(media)
    await db.flush()
    return media


async def store_image(db: AsyncSession, settings: Settings, owner_id: int, upload: UploadFile) -> MediaFile:
    """Check, re-encode and save an uploaded image owned by `owner_id`; its URL is `media.url`."""
    return await store_image_bytes(db, settings, owner_id, await read_upload(upload))


def media_path(settings: Settings, name: str) -> Path:
    """The file behind /media/{name}; NotFound for anything that is not one of our names."""
    if not FILE_NAME.fullmatch(name):
        raise NotFound("Image not found")
    path = settings.media_dir / name
    if not path.is_file():
        raise NotFound("Image not found")
    return path


async def owned_media(db: AsyncSession, owner_id: int, ids: list[int]) -> dict[int, MediaFile]:
    """The given media rows if every one exists and belongs to `owner_id`; else Invalid."""
    if not ids:
        return {}
    rows = (await db.execute(select(MediaFile).where(MediaFile.id.in_(ids), MediaFile.owner_id == owner_id))).scalars()
    found = {m.id: m for m in rows}
    if len(found) != len(set(ids)):
        raise Invalid("Image not found: upload it first with POST /api/media", code="unknown_image")
    return found
