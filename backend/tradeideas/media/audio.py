"""Voice notes: checked by decoding (not by name or declared type), re-encoded as AAC in MP4 with no metadata.

The container is recognised from its first bytes and opened with that one demuxer, with every nested
protocol refused, so an uploaded playlist or reference file can never make FFmpeg open another file or URL.
Decoding stops as soon as the audio passes the length limit.
"""

import io
import tempfile
from dataclasses import dataclass
from pathlib import Path

import av
import av.error

from tradeideas.core.errors import Invalid

NOT_AUDIO = "Please upload an audio file (MP3, M4A, WAV, OGG or WebM); this one could not be decoded as audio."
AUDIO_TOO_LONG = "Voice explanations can be at most 5 minutes long."
AUDIO_TOO_LARGE = "Please upload audio files smaller than 10MB."
AUDIO_EMPTY = "This audio file has no sound in it."
AUDIO_TOO_SHORT = "Voice explanations must be at least half a second long."
AUDIO_SAMPLE_RATE = "This audio file's sample rate is not supported: use one from 8 to 192 kHz."
MIN_AUDIO_SECONDS = 0.5
# What microphones and audio files use (telephone 8 kHz to studio 192 kHz). A header may declare any rate: a WAV
# claiming 2 GHz decoded to a 0-second note, one claiming a few Hz to hours of samples.
MIN_SAMPLE_RATE, MAX_SAMPLE_RATE = 8_000, 192_000
MAX_AUDIO_SECONDS = 300
OUTPUT_RATE = 48_000
OUTPUT_BIT_RATE = 96_000


@dataclass(frozen=True)
class EncodedAudio:
    data: bytes
    duration_seconds: float


def audio_container(raw: bytes) -> str | None:
    """The FFmpeg demuxer for the container these bytes start with, or None when it is not one we take."""
    head = raw[:16]
    if head[:4] == b"RIFF" and head[8:12] == b"WAVE":
        return "wav"
    if head[:4] == b"OggS":
        return "ogg"
    if head[:4] == b"\x1a\x45\xdf\xa3":
        return "matroska"  # also WebM, what MediaRecorder makes in Chrome and Firefox
    if head[4:8] == b"ftyp":
        return "mov"  # MP4 / M4A, what Safari's MediaRecorder makes
    if head[:4] == b"fLaC":
        return "flac"
    if head[:3] == b"ID3" or (len(head) > 1 and head[0] == 0xFF and head[1] & 0xE6 == 0xE2):
        return "mp3"
    if len(head) > 1 and head[0] == 0xFF and head[1] & 0xF6 == 0xF0:
        return "aac"  # ADTS
    return None


def encode_audio(raw: bytes) -> EncodedAudio:
    """Decode the first audio stream and re-encode it as mono AAC (96 kb/s) in MP4; Invalid when it is not audio."""
    container = audio_container(raw)
    if container is None:
        raise Invalid(NOT_AUDIO, code="not_audio")
    with tempfile.TemporaryDirectory(prefix="voice-") as tmp:
        out_path = Path(tmp) / "voice.m4a"
        try:
            seconds = _transcode(raw, container, out_path)
        except Invalid:
            raise
        except (av.error.FFmpegError, ValueError, IndexError, OSError) as exc:
            raise Invalid(NOT_AUDIO, code="not_audio") from exc
        if seconds <= 0:
            raise Invalid(AUDIO_EMPTY, code="not_audio")
        if seconds < MIN_AUDIO_SECONDS:
            raise Invalid(AUDIO_TOO_SHORT, code="audio_too_short")
        return EncodedAudio(out_path.read_bytes(), round(seconds, 2))


def _transcode(raw: bytes, container: str, out_path: Path) -> float:
    options = {"protocol_whitelist": "none"}  # nested opens (playlists, references) match no protocol
    with av.open(io.BytesIO(raw), mode="r", format=container, options=options, metadata_errors="ignore") as source:
        if not source.streams.audio:
            raise Invalid(NOT_AUDIO, code="not_audio")
        stream = source.streams.audio[0]
        if stream.codec_context.sample_rate:  # declared in the header: refused before decoding anything
            _check_rate(stream.codec_context.sample_rate)
        # faststart moves the index to the front (playback starts before the whole file is loaded); the muxer
        # rewrites the file for that, so it needs a real path.
        with av.open(str(out_path), mode="w", format="mp4", options={"movflags": "+faststart"}) as sink:
            sink.metadata.clear()
            target = sink.add_stream("aac", rate=OUTPUT_RATE, layout="mono")
            target.bit_rate = OUTPUT_BIT_RATE
            resampler = av.AudioResampler(format="fltp", layout="mono", rate=OUTPUT_RATE)
            seconds = 0.0
            for frame in source.decode(stream):
                _check_rate(frame.sample_rate)  # a stream may change its rate midway
                seconds += frame.samples / frame.sample_rate
                if seconds > MAX_AUDIO_SECONDS:
                    raise Invalid(AUDIO_TOO_LONG, code="audio_too_long")
                for resampled in resampler.resample(frame):
                    sink.mux(target.encode(resampled))
            for resampled in resampler.resample(None):
                sink.mux(target.encode(resampled))
            sink.mux(target.encode(None))
    return seconds


def _check_rate(rate: int | None) -> None:
    if rate is None or not MIN_SAMPLE_RATE <= rate <= MAX_SAMPLE_RATE:
        raise Invalid(AUDIO_SAMPLE_RATE, code="audio_sample_rate")
