"""Answers whose body is already encoded JSON (a cached page of ideas, a track record): sent as they are."""

from starlette.responses import Response

JSON = b"application/json"


class EncodedJSON(Response):
    """Starlette's `Response` for bytes that are already JSON, with the two headers such an answer needs set
    directly: the busiest reads answer from memory, and the general constructor costs more than the lookup."""

    media_type = JSON.decode()

    def __init__(self, body: bytes) -> None:
        self.status_code = 200
        self.background = None
        self.body = body
        self.raw_headers = [(b"content-length", b"%d" % len(body)), (b"content-type", JSON)]
