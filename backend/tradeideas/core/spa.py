"""Serves the built single-page app: hashed assets cached forever, everything else falls back to index.html."""

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse, HTMLResponse, Response

from tradeideas.core.errors import NotFound

IMMUTABLE = "public, max-age=31536000, immutable"
NO_CACHE = "no-cache"

MISSING_BUILD = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Build missing</title></head>
<body><h1>The web app has not been built</h1><p>Run <code>make run</code> (or <code>make build</code>).</p>
</body></html>"""


def mount_spa(app: FastAPI, static_dir: Path) -> None:
    root = static_dir.resolve()

    @app.get("/{path:path}", include_in_schema=False)
    async def spa(path: str) -> Response:
        if path.startswith("api/") or path == "api":
            raise NotFound("Not found")
        index = root / "index.html"
        if not index.is_file():
            return HTMLResponse(MISSING_BUILD, status_code=503)
        candidate = (root / path).resolve()
        if path and candidate.is_file() and candidate.is_relative_to(root):
            cache = IMMUTABLE if path.startswith("assets/") else NO_CACHE
            return FileResponse(candidate, headers={"Cache-Control": cache})
        return FileResponse(index, headers={"Cache-Control": NO_CACHE})
