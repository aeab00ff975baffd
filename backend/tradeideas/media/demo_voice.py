"""A voice note for the demo data, made at seed time (no audio files in the repository): a short WAV of
two soft tones, stored through the same decode-and-re-encode path as an uploaded voice note."""

import io
import math
import struct
import wave

RATE = 16_000


def _tone(freq: int, seconds: float) -> bytes:
    samples = RATE // freq  # a whole number of samples per period, repeated: quick to build
    period = b"".join(struct.pack("<h", int(6000 * math.sin(2 * math.pi * i / samples))) for i in range(samples))
    return period * int(seconds * freq)


def voice_note_wav(seconds: float = 4.0) -> bytes:
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(_tone(400, seconds / 2) + _tone(500, seconds / 2))
    return buf.getvalue()
