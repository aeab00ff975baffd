"""Uploads: checked by content, re-encoded to a metadata-free JPEG <= 800 px wide, served safely."""

import asyncio
import io
import threading
import time

import httpx
import pytest
from fastapi import FastAPI
from PIL import ExifTags, Image
from sqlalchemy import select

from tradeideas.media import service as media_service
from tradeideas.media.models import MediaFile
from tradeideas.media.service import encode_image
from tradeideas.settings import Settings

NOT_AN_IMAGE = "Please upload only image files."
TOO_LARGE = "Please upload images smaller than 10MB."
TOO_MANY_PIXELS = "Please upload images of at most 25 megapixels."


def image_bytes(fmt: str, size: tuple[int, int], mode: str = "RGB", exif: bool = False) -> bytes:
    img = Image.new(mode, size, (200, 30, 30) if mode == "RGB" else (200, 30, 30, 128))
    buf = io.BytesIO()
    if exif:
        data = Image.Exif()
        data[0x010F] = "SecretCam"  # Make
        data[0x8825] = {2: (51.0, 30.0, 0.0)}  # GPS info
        img.save(buf, fmt, exif=data.tobytes())
    else:
        img.save(buf, fmt)
    return buf.getvalue()


async def post_file(client: httpx.AsyncClient, name: str, data: bytes, ctype: str = "image/jpeg") -> httpx.Response:
    return await client.post("/api/media", files={"file": (name, data, ctype)})


async def test_large_jpeg_with_exif_is_resized_and_stripped(
    educator_a: httpx.AsyncClient, anon: httpx.AsyncClient, app: FastAPI
) -> None:
    raw = image_bytes("JPEG", (1600, 900), exif=True)
    assert Image.open(io.BytesIO(raw)).getexif()  # the upload really carries EXIF
    r = await post_file(educator_a, "photo.jpg", raw)
    assert r.status_code == 201, r.text
    body = r.json()
    assert (body["width"], body["height"]) == (800, 450)
    assert body["url"].startswith("/media/") and body["url"].endswith(".jpg")
    assert "photo" not in body["url"]  # server-chosen name
    served = await anon.get(body["url"])  # public: <img> tags carry no token
    assert served.status_code == 200
    assert served.headers["content-type"] == "image/jpeg"
    assert served.headers["x-content-type-options"] == "nosniff"
    assert served.headers["cache-control"] == "public, max-age=31536000, immutable"
    img = Image.open(io.BytesIO(served.content))
    assert img.format == "JPEG" and img.size == (800, 450) and img.mode == "RGB"
    assert not img.getexif()
    assert "exif" not in img.info and "icc_profile" not in img.info
    async with app.state.db.sessionmaker() as s:
        media = (await s.execute(select(MediaFile).where(MediaFile.id == body["id"]))).scalar_one()
    assert media.owner_id == 1 and media.width == 800


async def test_png_with_alpha_becomes_rgb_jpeg_and_small_images_keep_their_size(
    educator_a: httpx.AsyncClient, anon: httpx.AsyncClient
) -> None:
    r = await post_file(educator_a, "chart.png", image_bytes("PNG", (300, 200), mode="RGBA"), "image/png")
    assert r.status_code == 201, r.text
    assert (r.json()["width"], r.json()["height"]) == (300, 200)
    img = Image.open(io.BytesIO((await anon.get(r.json()["url"])).content))
    assert img.format == "JPEG" and img.mode == "RGB"


async def test_content_is_checked_not_the_name(educator_a: httpx.AsyncClient) -> None:
    r = await post_file(educator_a, "chart.jpg", b"this is not an image at all\n" * 10)
    assert r.status_code == 422 and r.json()["message"] == NOT_AN_IMAGE
    r = await post_file(educator_a, "page.jpg", b"<html><script>alert(1)</script></html>", "image/jpeg")
    assert r.status_code == 422 and r.json()["message"] == NOT_AN_IMAGE
    r = await post_file(educator_a, "empty.png", b"", "image/png")
    assert r.status_code == 422 and r.json()["message"] == NOT_AN_IMAGE
    # A real image with a misleading name and type is still accepted (content decides).
    r = await post_file(educator_a, "notes.txt", image_bytes("PNG", (10, 10)), "text/plain")
    assert r.status_code == 201


async def test_truncated_image_fails_processing_or_is_rejected(educator_a: httpx.AsyncClient) -> None:
    raw = image_bytes("PNG", (400, 400))
    r = await post_file(educator_a, "cut.png", raw[: len(raw) // 2], "image/png")
    assert r.status_code == 422
    assert r.json()["message"] in (NOT_AN_IMAGE, "Image processing failed, Please try a different image.")


async def test_over_10mb_is_rejected(educator_a: httpx.AsyncClient) -> None:
    big = b"\xff\xd8\xff" + b"\0" * (10 * 1024 * 1024 + 10)
    r = await post_file(educator_a, "big.jpg", big)
    assert r.status_code == 422 and r.json()["message"] == TOO_LARGE
    huge = b"\0" * (11 * 1024 * 1024 + 10)  # beyond the request-body limit: stopped before parsing
    r = await post_file(educator_a, "huge.jpg", huge)
    assert r.status_code == 413


async def test_only_educators_upload(
    anon: httpx.AsyncClient, customer: httpx.AsyncClient, educator_b: httpx.AsyncClient
) -> None:
    raw = image_bytes("PNG", (10, 10))
    assert (await post_file(anon, "a.png", raw)).status_code == 401
    r = await post_file(customer, "a.png", raw)
    assert r.status_code == 403 and r.json()["code"] == "educator_only"
    assert (await post_file(educator_b, "a.png", raw)).status_code == 201


@pytest.mark.parametrize(
    "path",
    [
        "/media/doesnotexist.jpg",
        "/media/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.jpg",
        "/media/..%2F..%2Fetc%2Fpasswd",
        "/media/%2E%2E%2Ftest.db",
        "/media/.hidden.jpg.tmp",
    ],
)
async def test_unknown_or_traversing_names_are_404_json(anon: httpx.AsyncClient, path: str) -> None:
    r = await anon.get(path)
    assert r.status_code == 404
    assert r.json()["code"] == "not_found"


async def test_store_image_is_reusable_and_files_live_under_media_dir(
    educator_a: httpx.AsyncClient, settings: Settings
) -> None:
    r = await post_file(educator_a, "x.png", image_bytes("PNG", (20, 20)), "image/png")
    name = r.json()["url"].removeprefix("/media/")
    assert (settings.media_dir / name).is_file()


def test_encode_image_handles_portrait_and_gif() -> None:
    out = encode_image(image_bytes("GIF", (1000, 2000), mode="RGB"))
    assert (out.width, out.height) == (800, 1600)
    assert Image.open(io.BytesIO(out.data)).format == "JPEG"


def _huge_png() -> bytes:
    """116 KB-ish on disk, 39.7 megapixels once decoded: the size of a file says nothing about its pixels."""
    buf = io.BytesIO()
    Image.new("1", (6300, 6300)).save(buf, "PNG")
    return buf.getvalue()


async def test_images_over_the_pixel_budget_are_refused_before_decoding(
    educator_a: httpx.AsyncClient, customer: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def must_not_decode(img: Image.Image) -> Image.Image:
        raise AssertionError("decoded an image over the pixel budget")

    monkeypatch.setattr(media_service, "_decode_small", must_not_decode)
    raw = _huge_png()
    for r in (
        await post_file(educator_a, "bomb.png", raw, "image/png"),
        await customer.post("/api/me/avatar", files={"file": ("bomb.png", raw, "image/png")}),
    ):
        assert r.status_code == 422, r.text
        assert r.json() == {
            "message": "Please upload images of at most 25 megapixels.",
            "code": "image_too_many_pixels",
        }


def test_big_images_are_decoded_at_no_more_than_the_size_they_need() -> None:
    with Image.open(io.BytesIO(image_bytes("JPEG", (4000, 3000)))) as jpeg:
        assert media_service._decode_small(jpeg, 800).size == (2000, 1500)  # decoded at half size, never in full
    with Image.open(io.BytesIO(image_bytes("PNG", (4000, 3000)))) as png:
        assert media_service._decode_small(png, 800).size == (1334, 1000)
    out = encode_image(image_bytes("PNG", (4000, 3000)))
    assert (out.width, out.height) == (800, 600) and out.full is None
    both = encode_image(image_bytes("PNG", (4000, 3000)), full=True)
    assert (both.width, both.height) == (800, 600)
    assert both.full is not None and (both.full.width, both.full.height) == (2048, 1536)


@pytest.mark.parametrize(("fmt", "size"), [("JPEG", (1600, 900)), ("PNG", (2000, 1700))])
def test_camera_rotation_is_applied_also_when_decoding_small(fmt: str, size: tuple[int, int]) -> None:
    exif = Image.Exif()
    exif[ExifTags.Base.Orientation] = 6  # the camera was turned: show the picture rotated 90° clockwise
    buf = io.BytesIO()
    Image.new("RGB", size, (10, 20, 30)).save(buf, fmt, exif=exif.tobytes())
    out = encode_image(buf.getvalue())
    assert (out.width, out.height) == (800, round(size[0] * 800 / size[1]))


async def test_only_a_few_images_are_decoded_at_once(
    educator_a: httpx.AsyncClient, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    running, most = 0, 0
    lock = threading.Lock()
    real = media_service.encode_image

    def counting(raw: bytes, *, full: bool = False) -> media_service.EncodedImage:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        try:
            time.sleep(0.05)  # long enough for the other uploads to arrive while this one decodes
            return real(raw, full=full)
        finally:
            with lock:
                running -= 1

    monkeypatch.setattr(media_service, "encode_image", counting)
    raw = image_bytes("PNG", (1200, 900))
    answers = await asyncio.gather(*(post_file(educator_a, f"{i}.png", raw, "image/png") for i in range(6)))
    assert [r.status_code for r in answers] == [201] * 6
    assert 1 <= most <= settings.image_decode_concurrency
