"""Voice notes and large images through POST /api/media, and ideas that carry a voice note and a video link."""

import io
import math
import struct
import wave
from typing import Any

import av
import httpx
import pytest
from fastapi import FastAPI
from PIL import Image
from sqlalchemy import func, select

from tests.ideas.test_ideas import create, idea_body
from tradeideas.media.audio import AUDIO_SAMPLE_RATE, AUDIO_TOO_LARGE, AUDIO_TOO_LONG, AUDIO_TOO_SHORT, NOT_AUDIO
from tradeideas.media.models import MediaFile


def tone_wav(seconds: float, rate: int = 8000, freq: int = 440) -> bytes:
    """A real mono 16-bit WAV of a sine tone (one period, repeated: fast to build even for minutes)."""
    samples = rate // freq
    one = b"".join(struct.pack("<h", int(9000 * math.sin(2 * math.pi * i / samples))) for i in range(samples))
    frames = one * (int(seconds * rate) // samples)
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(frames)
    return buf.getvalue()


def with_declared_rate(wav: bytes, rate: int) -> bytes:
    """The same samples with another sample rate written in the header (and the byte rate to match)."""
    header = bytearray(wav)
    header[24:28] = struct.pack("<I", rate)
    header[28:32] = struct.pack("<I", min(rate * 2, 2**32 - 1))
    return bytes(header)


def png(width: int, height: int) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (width, height), (40, 90, 200)).save(buf, "PNG")
    return buf.getvalue()


async def media_count(app: FastAPI) -> int:
    async with app.state.db.sessionmaker() as s:
        n: int = (await s.execute(select(func.count()).select_from(MediaFile))).scalar_one()
        return n


async def upload_audio(client: httpx.AsyncClient, data: bytes, name: str = "voice.wav", kind: str = "audio/wav") -> Any:
    return await client.post("/api/media", files={"file": (name, data, kind)})


async def test_a_voice_note_is_re_encoded_as_aac_in_mp4(educator_a: httpx.AsyncClient, anon: httpx.AsyncClient) -> None:
    # Named like an image and sent without an audio type: recognised by its content, not its name.
    r = await upload_audio(educator_a, tone_wav(2.0), name="chart.png", kind="application/octet-stream")
    assert r.status_code == 201, r.text
    body = r.json()
    assert body["kind"] == "audio" and body["durationSeconds"] == pytest.approx(2.0, abs=0.05)
    assert body["url"].startswith("/media/") and body["url"].endswith(".m4a")
    served = await anon.get(body["url"])
    assert served.status_code == 200 and served.headers["content-type"] == "audio/mp4"
    assert served.headers["x-content-type-options"] == "nosniff"
    with av.open(io.BytesIO(served.content), mode="r") as played:
        assert played.streams.audio[0].codec_context.name == "aac"
        assert played.duration is not None and abs(played.duration / 1e6 - 2.0) < 0.1
        assert not {
            k for k in played.metadata if k not in {"major_brand", "minor_version", "compatible_brands", "encoder"}
        }


@pytest.mark.parametrize(
    ("data", "kind", "message"),
    [
        (png(40, 30), "audio/mpeg", NOT_AUDIO),  # an image declared as audio is not kept as an image
        (b"#EXTM3U\n#EXTINF:1,\nfile:///etc/passwd\n", "audio/x-mpegurl", NOT_AUDIO),  # a playlist opens nothing
        (b"RIFF\x24\x00\x00\x00WAVEfmt garbage that is not audio", "audio/wav", NOT_AUDIO),
        (b"just some text", "audio/ogg", NOT_AUDIO),
        (tone_wav(301), "audio/wav", AUDIO_TOO_LONG),
        (b"RIFF" + b"\x00" * (10 * 1024 * 1024 + 10), "audio/wav", AUDIO_TOO_LARGE),
        (with_declared_rate(tone_wav(2), 2_000_000_000), "audio/wav", AUDIO_SAMPLE_RATE),  # was a 0-second note
        (with_declared_rate(tone_wav(2), 4000), "audio/wav", AUDIO_SAMPLE_RATE),
        (with_declared_rate(tone_wav(2), 200_000), "audio/wav", AUDIO_SAMPLE_RATE),
        (tone_wav(0.3), "audio/wav", AUDIO_TOO_SHORT),
    ],
    ids=[
        "image-as-audio",
        "playlist",
        "broken-wav",
        "text",
        "over-5-minutes",
        "over-10-MB",
        "2-GHz",
        "4-kHz",
        "200-kHz",
        "0.3-seconds",
    ],
)
async def test_hostile_or_oversized_audio_is_refused_and_nothing_is_saved(
    app: FastAPI, educator_a: httpx.AsyncClient, data: bytes, kind: str, message: str
) -> None:
    before = await media_count(app)
    r = await upload_audio(educator_a, data, kind=kind)
    assert r.status_code == 422, r.text
    assert r.json()["message"] == message
    assert await media_count(app) == before


@pytest.mark.parametrize(("seconds", "rate"), [(0.5, 8000), (1, 192_000)])
async def test_the_shortest_and_the_highest_rate_voice_notes_are_taken(
    educator_a: httpx.AsyncClient, seconds: float, rate: int
) -> None:
    r = await upload_audio(educator_a, tone_wav(seconds, rate=rate, freq=500))
    assert r.status_code == 201, r.text
    assert r.json()["durationSeconds"] == pytest.approx(seconds, abs=0.05)


async def test_customers_cannot_upload_audio(customer: httpx.AsyncClient) -> None:
    assert (await upload_audio(customer, tone_wav(1))).status_code == 403


async def test_large_images_keep_a_full_size_version(educator_a: httpx.AsyncClient, anon: httpx.AsyncClient) -> None:
    r = await educator_a.post("/api/media", files={"file": ("wide.png", png(3000, 1500), "image/png")})
    assert r.status_code == 201, r.text
    body = r.json()
    assert body["kind"] == "image" and (body["width"], body["height"]) == (800, 400)
    assert body["fullUrl"] != body["url"]
    with Image.open(io.BytesIO((await anon.get(body["fullUrl"])).content)) as full:
        assert full.size == (2048, 1024) and full.format == "JPEG"
    # A small picture has one file: fullUrl is the card image.
    small = (await educator_a.post("/api/media", files={"file": ("s.png", png(600, 300), "image/png")})).json()
    assert small["fullUrl"] == small["url"]

    idea = await create(educator_a, imageIds=[body["id"], small["id"]])
    assert idea["imageUrls"] == [body["url"], small["url"]]
    assert idea["imageFullUrls"] == [body["fullUrl"], small["url"]]


async def test_ideas_take_a_voice_note_and_a_video_link(
    educator_a: httpx.AsyncClient, educator_b: httpx.AsyncClient, customer: httpx.AsyncClient
) -> None:
    audio = (await upload_audio(educator_a, tone_wav(1.5))).json()
    idea = await create(educator_a, audioId=audio["id"], videoUrl="https://www.youtube.com/watch?v=dQw4w9WgXcQ")
    assert idea["audioUrl"] == audio["url"] and idea["videoUrl"] == "https://www.youtube.com/watch?v=dQw4w9WgXcQ"
    seen = (await customer.get(f"/api/trade-ideas/{idea['id']}")).json()
    assert seen["audioUrl"] == audio["url"]

    # Removing the voice note is an edit with a revision.
    r = await educator_a.patch(f"/api/trade-ideas/{idea['id']}", json={"audioId": None})
    assert r.status_code == 200 and r.json()["audioUrl"] is None
    revisions = (await educator_a.get(f"/api/trade-ideas/{idea['id']}/revisions")).json()
    assert any(rev["field"] == "audioUrl" and rev["oldValue"] == audio["url"] for rev in revisions)

    # Another educator's voice note, or an image, is not a voice note of yours.
    other = (await upload_audio(educator_b, tone_wav(1))).json()
    image = (await educator_a.post("/api/media", files={"file": ("c.png", png(50, 50), "image/png")})).json()
    for bad in (other["id"], image["id"], 999999):
        r = await educator_a.patch(f"/api/trade-ideas/{idea['id']}", json={"audioId": bad})
        assert r.status_code == 422 and r.json()["code"] == "unknown_audio"
    # And a voice note is not an image.
    r = await educator_a.post("/api/trade-ideas", json=idea_body(imageIds=[audio["id"]]))
    assert r.status_code == 422


@pytest.mark.parametrize(
    "link",
    ["javascript:alert(1)", "http://example.com/video", "data:text/html,hi", "https://", "https://exa mple.com"],
)
async def test_only_https_video_links_are_taken(app: FastAPI, educator_a: httpx.AsyncClient, link: str) -> None:
    r = await educator_a.post("/api/trade-ideas", json=idea_body(videoUrl=link, pair="NZD/USD"))
    assert r.status_code == 422
    assert r.json()["message"] == "videoUrl must be an https:// link of at most 500 characters"


async def test_the_policy_allows_only_our_media_the_two_players_and_our_own_microphone(anon: httpx.AsyncClient) -> None:
    r = await anon.get("/api/health")
    csp = dict(part.strip().split(" ", 1) for part in r.headers["content-security-policy"].split(";"))
    assert csp["media-src"] == "'self' blob:"
    assert csp["frame-src"] == "https://www.youtube-nocookie.com https://player.vimeo.com"
    assert csp["frame-ancestors"] == "'none'"
    assert "microphone=(self)" in r.headers["permissions-policy"]
    assert "camera=()" in r.headers["permissions-policy"]
