"""Reference endpoints for `request_path.py`, served by uvicorn like the app.

- `bare`: a Starlette endpoint returning the app's response bytes from memory (BENCH_BODY_FILE): the floor
  for "a request through uvicorn that answers the same bytes".
- `fastapi_bare`: the same through one FastAPI route with no dependency, parameter or middleware: the floor
  for any request that goes through a FastAPI route.
- `bare_with_headers`: `bare` plus the response headers every API answer of the app carries (security headers,
  `cache-control`, a request id): what writing those headers alone costs uvicorn.
- `asyncpg_orjson`: the same SQL the app runs for one uncached request (session, page, images, the
  customer's seen marks), through one asyncpg pool of 10 connections (the app's default pool) and two checkouts
  (the app's session lookup and its page read), rows encoded with orjson: the floor for the database path.
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

# The app's statements for one uncached list request, as it sends them to PostgreSQL (its columns, its one
# UNION ALL for the customer's marks, the market and row count written into the page statement: decision 0046).
_COLUMNS = """i.id, i.educator_id, u.first_name, u.last_name, u.role, u.slug, u.avatar_path, u.specialty, i.pair,
       i.time_frame, i.order_type, i.idea_type, i.market_type, i.market, i.entry_1, i.entry_2, i.invalidation_level,
       i.exit_1, i.exit_2, i.exit_3, i.notes, i.status, i.completed, i.video_url, i.audio_url, i.created_at,
       i.updated_at, i.edited, i.edited_after_publish, i.outcome, i.close_price, i.closed_at, i.r_multiple"""
PAGE_SQL = {
    (market, completed): f"""SELECT {_COLUMNS}
FROM trade_ideas i JOIN users u ON u.id = i.educator_id
WHERE i.market = '{market}' AND i.completed = {str(completed).lower()}
ORDER BY i.created_at DESC, i.id DESC LIMIT {LIMIT + 1}"""  # noqa: S608 - from the two sets here, not input
    for market in ("forex", "crypto")
    for completed in (False, True)
}
SESSION_SQL = """SELECT s.id, s.refreshed_at, s.expires_at, u.id, u.email, u.password_hash, u.role, u.first_name,
       u.last_name, u.slug, u.specialty, u.bio, u.years_experience, u.trading_style, u.timezone, u.is_public,
       u.avatar_path, u.disabled, u.invited, u.last_seen_at, u.created_at, u.updated_at
FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = $1"""
IMAGES_SQL = """SELECT ii.idea_id, m.id, m.file_name, m.full_file_name
FROM idea_images ii JOIN media_files m ON m.id = ii.media_id
WHERE ii.idea_id = ANY($1::int[]) ORDER BY ii.idea_id, ii.position"""
MARKS_SQL = """SELECT 0 AS kind, NULL AS marked_id, forex_seen_until, crypto_seen_until, notify_forex, notify_crypto
FROM customer_idea_state WHERE user_id = $1
UNION ALL SELECT 1, idea_id, NULL, NULL, NULL, NULL FROM idea_views WHERE user_id = $1
UNION ALL SELECT 2, educator_id, NULL, NULL, NULL, NULL FROM customer_muted_educators WHERE user_id = $1"""

pool: Any = None


@asynccontextmanager
async def _lifespan(_app: Starlette) -> AsyncIterator[None]:
    global pool
    pool = await asyncpg.create_pool(os.environ["BENCH_PG_DSN"], min_size=10, max_size=10)
    yield
    await pool.close()


async def asyncpg_endpoint(request: Request) -> Response:
    token = request.headers.get("authorization", "")[7:]
    async with pool.acquire() as conn:
        session = await conn.fetchrow(SESSION_SQL, hashlib.sha256(token.encode()).hexdigest())
    if session is None or session["disabled"]:
        return Response(b'{"message":"Authentication required","code":"unauthorized"}', status_code=401)
    user_id = session[3]
    completed = request.query_params.get("status") == "completed"
    async with pool.acquire() as conn:
        rows = (await conn.fetch(PAGE_SQL[request.query_params.get("market", "forex"), completed]))[:LIMIT]
        images = await conn.fetch(IMAGES_SQL, [r["id"] for r in rows])
        marks = await conn.fetch(MARKS_SQL, user_id)
    by_idea: dict[int, list[str]] = {}
    for idea_id, _media_id, name, _full_name in images:
        by_idea.setdefault(idea_id, []).append(f"/media/{name}")
    until, seen = None, set()
    for mark in marks:
        if mark[0] == 0:
            until = mark["forex_seen_until"]
        elif mark[0] == 1:
            seen.add(mark[1])
    items = []
    for r in rows:
        item = dict(r)
        item["imageUrls"] = by_idea.get(r["id"], [])
        item["isNew"] = not r["completed"] and r["id"] not in seen and (until is None or r["created_at"] > until)
        items.append(item)
    return Response(orjson.dumps({"items": items, "nextCursor": None}), media_type="application/json")


asyncpg_orjson = Starlette(routes=[Route("/api/trade-ideas", asyncpg_endpoint)], lifespan=_lifespan)
