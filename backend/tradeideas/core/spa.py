"""Serves the built single-page app: hashed assets cached forever, everything else falls back to index.html.

The build writes brotli (.br) and gzip (.gz) copies beside each text asset; the best one the browser
accepts is sent as is, so nothing is compressed per request. Hashed assets never change under their name,
so each is read from disk once and then sent from memory: a page's first load asks for ~20 files at once,
and sending files through a thread each made the last of them wait ~150 ms in a busy worker.
"""

import mimetypes
from pathlib import Path as FilePath
from typing import Annotated

from fastapi import FastAPI, Path, Request
from fastapi.responses import FileResponse, HTMLResponse, Response
from starlette.convertors import Convertor, register_url_convertor

IMMUTABLE = "public, max-age=31536000, immutable"
NO_CACHE = "no-cache"
# Preferred first.
PRECOMPRESSED = (("br", ".br"), ("gzip", ".gz"))

MISSING_BUILD = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Build missing</title></head>
<body><h1>The web app has not been built</h1><p>Run <code>make run</code> (or <code>make build</code>).</p>
</body></html>"""


def _accepted_encodings(request: Request) -> set[str]:
    accepted = set()
    for part in request.headers.get("accept-encoding", "").split(","):
        name, _, params = part.strip().partition(";")
        if name and params.replace(" ", "") not in ("q=0", "q=0.0", "q=0.00", "q=0.000"):
            accepted.add(name.lower())
    return accepted


def _variant(request: Request, path: FilePath) -> tuple[FilePath, str | None]:
    """`path`, or its precompressed copy when the browser accepts that encoding (with the encoding)."""
    accepted = _accepted_encodings(request)
    for encoding, suffix in PRECOMPRESSED:
        compressed = path.with_name(path.name + suffix)
        if encoding in accepted and compressed.is_file():
            return compressed, encoding
    return path, None


def _headers(cache: str, encoding: str | None) -> dict[str, str]:
    headers = {"Cache-Control": cache, "Vary": "Accept-Encoding"}
    return headers if encoding is None else {**headers, "Content-Encoding": encoding}


def _media_type(path: FilePath) -> str:
    return mimetypes.guess_type(path.name)[0] or "application/octet-stream"


def _file(request: Request, path: FilePath, cache: str) -> FileResponse:
    """`path` (or its precompressed copy) streamed from disk."""
    sent, encoding = _variant(request, path)
    return FileResponse(sent, media_type=_media_type(path), headers=_headers(cache, encoding))


class HashedAssets:
    """Files under `assets/` (content-hashed names) kept in memory once read, by file and encoding sent."""

    def __init__(self) -> None:
        self._bodies: dict[FilePath, bytes] = {}

    def response(self, request: Request, path: FilePath) -> Response:
        sent, encoding = _variant(request, path)
        body = self._bodies.get(sent)
        if body is None:
            body = self._bodies[sent] = sent.read_bytes()
        return Response(body, media_type=_media_type(path), headers=_headers(IMMUTABLE, encoding))


class OutsideApiConvertor(Convertor[str]):
    """Any path except `/api` and below: unknown API paths get the router's 404 (or 405 with the methods
    the path does have) instead of being claimed by the app's fallback route."""

    regex = r"(?!api(?:/|$)).*"

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return value


register_url_convertor("outside_api", OutsideApiConvertor())


def mount_spa(app: FastAPI, static_dir: FilePath) -> None:
    root = static_dir.resolve()
    assets = HashedAssets()

    @app.get("/{path:outside_api}", include_in_schema=False)
    async def spa(path: Annotated[str, Path()], request: Request) -> Response:
        index = root / "index.html"
        if not index.is_file():
            return HTMLResponse(MISSING_BUILD, status_code=503)
        candidate = (root / path).resolve()
        if path and candidate.is_file() and candidate.is_relative_to(root):
            if path.startswith("assets/"):
                return assets.response(request, candidate)
            return _file(request, candidate, NO_CACHE)
        return _file(request, index, NO_CACHE)
