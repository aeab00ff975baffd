"""Reference endpoints for `request_path.py`, served by uvicorn like the app.

- `bare`: a Starlette endpoint returning the app's response bytes from memory (BENCH_BODY_FILE): the floor
  for "a request through uvicorn that answers the same bytes".
- `fastapi_bare`: the same through one FastAPI route with no dependency, parameter or middleware: the floor
  for any request that goes through a FastAPI route.
- `bare_with_headers`: `bare` plus the response headers every API answer of the app carries (security headers,
  `cache-control`, a request id): what writing those headers alone costs uvicorn.
- `asyncpg_orjson`: the same SQL the app runs for one uncached request (session, page, images, the
  customer's seen state), through one asyncpg pool, rows encoded with orjson: the floor for the database path.
"""

import hashlib
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import asyncpg
import orjson
from fastapi import FastAPI
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from tradeideas.core.middleware import API_HEADERS

BODY = Path(os.environ.get("BENCH_BODY_FILE", "/dev/null")).read_bytes()
LIMIT = int(os.environ.get("BENCH_LIMIT", "100"))


async def bare_endpoint(_request: Request) -> Response:
    return Response(BODY, media_type="application/json")


bare = Starlette(routes=[Route("/api/trade-ideas", bare_endpoint)])

HEADERS = {k.decode(): v.decode() for k, v in [*API_HEADERS, (b"x-request-id", b"0123456789abcdef")]}


async def bare_with_headers_endpoint(_request: Request) -> Response:
    return Response(BODY, media_type="application/json", headers=HEADERS)


bare_with_headers = Starlette(routes=[Route("/api/trade-ideas", bare_with_headers_endpoint)])

fastapi_bare = FastAPI(openapi_url=None)
fastapi_bare.add_api_route("/api/trade-ideas", bare_endpoint, include_in_schema=False)

PAGE_SQL = """
SELECT i.id, i.educator_id, u.first_name, u.last_name, u.avatar_path, u.specialty, i.pair, i.time_frame,
       i.order_type, i.idea_type, i.market_type, i.market, i.entry_1, i.entry_2, i.invalidation_level,
       i.exit_1, i.exit_2, i.exit_3, i.notes, i.status, i.video_url, i.audio_url, i.created_at, i.updated_at,
       i.edited, i.completed
FROM trade_ideas i JOIN users u ON u.id = i.educator_id
WHERE i.market = $1 AND i.completed = $3
ORDER BY i.created_at DESC, i.id DESC LIMIT $2
"""
SESSION_SQL = """SELECT s.id, s.expires_at, s.refreshed_at, u.id, u.role
FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = $1 AND u.disabled = false"""
IMAGES_SQL = """SELECT ii.idea_id, m.id, m.file_name FROM idea_images ii JOIN media_files m ON m.id = ii.media_id
WHERE ii.idea_id = ANY($1::int[]) ORDER BY ii.idea_id, ii.position"""
STATE_SQL = "SELECT * FROM customer_idea_state WHERE user_id = $1"
VIEWS_SQL = "SELECT idea_id FROM idea_views WHERE user_id = $1"

pool: Any = None


@asynccontextmanager
async def _lifespan(_app: Starlette) -> AsyncIterator[None]:
    global pool
    pool = await asyncpg.create_pool(os.environ["BENCH_PG_DSN"], min_size=4, max_size=10)
    yield
    await pool.close()


async def asyncpg_endpoint(request: Request) -> Response:
    token = request.headers.get("authorization", "")[7:]
    async with pool.acquire() as conn:
        session = await conn.fetchrow(SESSION_SQL, hashlib.sha256(token.encode()).hexdigest())
        if session is None:
            return Response(b'{"message":"Authentication required","code":"unauthorized"}', status_code=401)
        user_id = session[3]
        market, completed = request.query_params.get("market", "forex"), request.query_params["status"] == "completed"
        rows = await conn.fetch(PAGE_SQL, market, LIMIT + 1, completed)
        ids = [r["id"] for r in rows[:LIMIT]]
        images = await conn.fetch(IMAGES_SQL, ids)
        state = await conn.fetchrow(STATE_SQL, user_id)
        seen = {r[0] for r in await conn.fetch(VIEWS_SQL, user_id)}
    by_idea: dict[int, list[str]] = {}
    for idea_id, _media_id, name in images:
        by_idea.setdefault(idea_id, []).append(f"/media/{name}")
    until = state["forex_seen_until"] if state is not None else None
    items = []
    for r in rows[:LIMIT]:
        item = dict(r)
        item["imageUrls"] = by_idea.get(r["id"], [])
        item["isNew"] = r["id"] not in seen and (until is None or r["created_at"] > until)
        items.append(item)
    return Response(orjson.dumps({"items": items, "nextCursor": None}), media_type="application/json")


asyncpg_orjson = Starlette(routes=[Route("/api/trade-ideas", asyncpg_endpoint)], lifespan=_lifespan)
