"""Uploads: images checked by content and re-encoded (max width 800 px, JPEG quality 80, no metadata; uploads
through POST /api/media also keep a version up to 2048 px wide for the full-screen viewer), and voice notes
(see `audio.py`).

`store_image` is the one entry point for every domain that accepts pictures (ideas, avatars, chat).
"""

import asyncio
import contextlib
import io
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from weakref import WeakKeyDictionary

import anyio
import anyio.to_thread
from fastapi import UploadFile
from PIL import ExifTags, Image, UnidentifiedImageError
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.responses import Response

from tradeideas.core.errors import Invalid, NotFound
from tradeideas.media.audio import AUDIO_TOO_LARGE, audio_container, encode_audio
from tradeideas.media.models import MediaFile
from tradeideas.media.store import StorageUnavailable, is_media_name, media_store
from tradeideas.settings import Settings

NOT_AN_IMAGE = "Please upload only image files."
TOO_LARGE = "Please upload images smaller than 10MB."
PROCESSING_FAILED = "Image processing failed, Please try a different image."
MAX_UPLOAD_BYTES = 10 * 1024 * 1024
MAX_WIDTH = 800
FULL_WIDTH = 2048
JPEG_QUALITY = 80
# 25 MP covers every phone camera and chart screenshot; decoded as RGBA that is still ~100 MB.
MAX_PIXELS = 25_000_000
TOO_MANY_PIXELS = "Please upload images of at most 25 megapixels."
# Only decoders for formats browsers and phones produce; Pillow's others (EPS, PSD, ...) stay off.
ACCEPTED_FORMATS = ("JPEG", "PNG", "GIF", "WEBP", "BMP", "TIFF")  # JPEG also opens MPO (phone photos)
Image.init()  # register every decoder now, so `formats=` can name them
# EXIF orientation -> the turn that shows the photo upright (as ImageOps.exif_transpose does).
ORIENTATIONS = {
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_270,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_90,
}


@dataclass(frozen=True)
class EncodedImage:
    data: bytes
    width: int
    height: int
    # The large version for the viewer (None when the picture is no wider than the card version).
    full: "EncodedImage | None" = None


def _jpeg(rgb: Image.Image) -> bytes:
    out = io.BytesIO()
    # No exif= / icc_profile= arguments: the new file carries no metadata at all.
    rgb.save(out, "JPEG", quality=JPEG_QUALITY, optimize=True)
    return out.getvalue()


def _fit(rgb: Image.Image, width: int) -> Image.Image:
    if rgb.width <= width:
        return rgb
    height = max(1, round(rgb.height * width / rgb.width))
    return rgb.resize((width, height), Image.Resampling.LANCZOS)


def encode_image(raw: bytes, *, full: bool = False) -> EncodedImage:
    """Verify the bytes are an image, then re-encode them as a metadata-free RGB JPEG <= 800 px wide
    (and, with `full`, another <= 2048 px wide when the picture is wider than 800 px).

    The pixel count is read from the header and checked before anything is decoded: a small file can
    declare an enormous picture, and decoding costs memory by pixels, not by bytes.
    """
    try:
        with Image.open(io.BytesIO(raw), formats=ACCEPTED_FORMATS) as probe:
            if probe.width * probe.height > MAX_PIXELS:
                raise Invalid(TOO_MANY_PIXELS, code="image_too_many_pixels")
            probe.verify()
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError, SyntaxError, ValueError) as exc:
        raise Invalid(NOT_AN_IMAGE, code="not_an_image") from exc
    try:
        with Image.open(io.BytesIO(raw), formats=ACCEPTED_FORMATS) as img:
            img.seek(0)  # first frame of animations
            orientation = img.getexif().get(ExifTags.Base.Orientation, 1)
            oriented = _decode_small(img, FULL_WIDTH if full else MAX_WIDTH)
            # Apply the camera's rotation before the metadata is dropped.
            if orientation in ORIENTATIONS:
                oriented = oriented.transpose(ORIENTATIONS[orientation])
            if oriented.mode in ("RGBA", "LA", "P", "PA") or "transparency" in oriented.info:
                rgba = oriented.convert("RGBA")
                flat = Image.new("RGB", rgba.size, (255, 255, 255))
                flat.paste(rgba, mask=rgba.getchannel("A"))
                oriented = flat
            rgb = oriented.convert("RGB")
            large = _fit(rgb, FULL_WIDTH) if full and rgb.width > MAX_WIDTH else None
            card = _fit(large or rgb, MAX_WIDTH)
            big = EncodedImage(_jpeg(large), large.width, large.height) if large is not None else None
            return EncodedImage(_jpeg(card), card.width, card.height, big)
    except Invalid:
        raise
    except Exception as exc:  # any decoder failure on a file that passed verify()
        raise Invalid(PROCESSING_FAILED, code="image_processing_failed") from exc


def _decode_small(img: Image.Image, width: int) -> Image.Image:
    """The decoded picture with no more pixels than a `width` px result needs, whichever way it is rotated.

    JPEG decodes straight to 1/2, 1/4 or 1/8 size (`draft`); other formats are reduced by a whole factor
    right after decoding, before the conversions that would copy them at full size.
    """
    scale = min(img.width, img.height) // width
    if scale >= 2:
        img.draft(None, (img.width // scale, img.height // scale))
    img.load()
    scale = min(img.width, img.height) // width
    return img.reduce(scale) if scale >= 2 else img


_decode_slots: "WeakKeyDictionary[asyncio.AbstractEventLoop, anyio.CapacityLimiter]" = WeakKeyDictionary()


def _decode_limiter(settings: Settings) -> anyio.CapacityLimiter:
    """At most IMAGE_DECODE_CONCURRENCY decodes at once in this process (each may take ~100 MB)."""
    loop = asyncio.get_running_loop()
    limiter = _decode_slots.get(loop)
    if limiter is None:
        limiter = _decode_slots[loop] = anyio.CapacityLimiter(settings.image_decode_concurrency)
    return limiter


async def read_upload(upload: UploadFile, too_large: str = TOO_LARGE) -> bytes:
    raw = await upload.read(MAX_UPLOAD_BYTES + 1)
    if len(raw) > MAX_UPLOAD_BYTES:
        raise Invalid(too_large, code="image_too_large" if too_large == TOO_LARGE else "audio_too_large")
    if not raw:
        raise Invalid(NOT_AN_IMAGE, code="not_an_image")
    return raw


async def _put_all(settings: Settings, files: list[tuple[str, bytes]]) -> None:
    """Write every file to the media store before any row refers to them; on failure remove the ones written
    (best effort) and raise StorageUnavailable, so nothing points at a missing file."""
    store = media_store(settings)
    written: list[str] = []
    try:
        for name, data in files:
            await store.put(name, data)
            written.append(name)
    except StorageUnavailable:
        for name in written:
            with contextlib.suppress(StorageUnavailable):
                await store.delete(name)
        raise


def _new_name(suffix: str) -> str:
    return secrets.token_urlsafe(24) + suffix  # 192 random bits: unguessable, URL-safe, 32 chars + suffix


async def store_image_bytes(
    db: AsyncSession, settings: Settings, owner_id: int, raw: bytes, *, full: bool = False
) -> MediaFile:
    encoded = await anyio.to_thread.run_sync(lambda: encode_image(raw, full=full), limiter=_decode_limiter(settings))
    name = _new_name(".jpg")
    files = [(name, encoded.data)]
    full_name = None
    if encoded.full is not None:
        full_name = _new_name(".jpg")
        files.append((full_name, encoded.full.data))
    await _put_all(settings, files)
    media = MediaFile(
        owner_id=owner_id,
        file_name=name,
        width=encoded.width,
        height=encoded.height,
        kind="image",
        full_file_name=full_name,
    )
    db.add(media)
    await db.flush()
    return media


async def store_image(
    db: AsyncSession, settings: Settings, owner_id: int, upload: UploadFile, *, full: bool = False
) -> MediaFile:
    """Check, re-encode and save an uploaded image owned by `owner_id`; its URL is `media.url`."""
    return await store_image_bytes(db, settings, owner_id, await read_upload(upload), full=full)


async def store_audio_bytes(db: AsyncSession, settings: Settings, owner_id: int, raw: bytes) -> MediaFile:
    """Decode, re-encode (AAC in MP4) and save a voice note owned by `owner_id`."""
    encoded = await anyio.to_thread.run_sync(encode_audio, raw, limiter=_decode_limiter(settings))
    name = _new_name(".m4a")
    await _put_all(settings, [(name, encoded.data)])
    media = MediaFile(
        owner_id=owner_id, file_name=name, width=0, height=0, kind="audio", duration_seconds=encoded.duration_seconds
    )
    db.add(media)
    await db.flush()
    return media


async def store_upload(db: AsyncSession, settings: Settings, owner_id: int, upload: UploadFile) -> MediaFile:
    """An image (card and large versions) or, when it is declared or recognised as audio, a voice note.

    Declared audio that does not decode as audio is refused as audio, never kept as something else.
    """
    declared_audio = (upload.content_type or "").lower().startswith("audio/")
    head = await upload.read(16)
    await upload.seek(0)
    if declared_audio or audio_container(head) is not None:
        return await store_audio_bytes(db, settings, owner_id, await read_upload(upload, AUDIO_TOO_LARGE))
    return await store_image(db, settings, owner_id, upload, full=True)


async def media_response(settings: Settings, name: str, byte_range: str | None) -> Response:
    """The answer serving /media/{name} from the configured store; NotFound for anything that is not one of our
    names or is not there."""
    if not is_media_name(name):
        raise NotFound("Image not found")
    return await media_store(settings).response(name, byte_range)


async def store_reachable(settings: Settings) -> bool:
    """Whether the configured media store answers (within a couple of seconds) and may be written to."""
    return await media_store(settings).reachable()


def mark_in_use(*media: MediaFile) -> None:
    """These files are being attached to something: housekeeping no longer counts them as unused."""
    for item in media:
        item.orphaned_at = None


async def owned_media(db: AsyncSession, owner_id: int, ids: list[int]) -> dict[int, MediaFile]:
    """The given media rows, marked in use, if every one exists and belongs to `owner_id`; else Invalid.

    Every domain that attaches images calls it, so an upload attached now is never deleted as unused."""
    if not ids:
        return {}
    rows = (await db.execute(select(MediaFile).where(MediaFile.id.in_(ids), MediaFile.owner_id == owner_id))).scalars()
    found = {m.id: m for m in rows}
    if len(found) != len(set(ids)):
        raise Invalid("Image not found: upload it first with POST /api/media", code="unknown_image")
    if any(m.kind != "image" for m in found.values()):
        raise Invalid("imageIds must name images, not voice notes", code="unknown_image")
    mark_in_use(*found.values())
    return found


async def urls(db: AsyncSession, ids: Iterable[int]) -> dict[int, str]:
    """Where each of these media files is served, by id (those that exist)."""
    wanted = set(ids)
    if not wanted:
        return {}
    return {
        media.id: media.url for media in (await db.execute(select(MediaFile).where(MediaFile.id.in_(wanted)))).scalars()
    }


async def owned_audio(db: AsyncSession, owner_id: int, media_id: int) -> MediaFile:
    """The caller's voice note `media_id`, marked in use; Invalid when it is not theirs or not audio."""
    media = await db.get(MediaFile, media_id)
    if media is None or media.owner_id != owner_id or media.kind != "audio":
        raise Invalid("Voice note not found: upload it first with POST /api/media", code="unknown_audio")
    mark_in_use(media)
    return media
