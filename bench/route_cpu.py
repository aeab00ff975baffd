"""Benchmark: CPU per request of several routes, called in-process through the whole app (every middleware, the
router, the route's handler), with the app's demo data on SQLite and its caches on.

End-to-end runs (`request_path.py`) move with everything else on a shared machine; this one calls the ASGI app
directly, many times per route, and keeps the best of several rounds of process CPU time, so two versions of the
code can be compared back to back on the same machine. Compare them by running it with each version first on the
path:

    cd backend && uv run python ../bench/route_cpu.py                       # this checkout
    cd backend && PYTHONPATH=/path/to/other/backend uv run python ../bench/route_cpu.py   # another one

Run from backend/:  uv run python ../bench/route_cpu.py [--requests 2000] [--rounds 5]
"""

import argparse
import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from asgi_lifespan import LifespanManager

import tradeideas
from tradeideas.app import create_app
from tradeideas.cli import migrate
from tradeideas.seed import seed_demo
from tradeideas.settings import Settings

PASSWORD = "bench-password-123"


async def _login(app: Any, email: str, path: str) -> str:
    transport = httpx.ASGITransport(app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as client:
        answer = await client.post(path, json={"email": email, "password": PASSWORD})
        answer.raise_for_status()
        return str(answer.json()["sessionToken"])


def _call(app: Any, method: str, path: str, query: bytes, token: str | None) -> Any:
    headers = [(b"host", b"127.0.0.1:8000"), (b"accept", b"application/json")]
    if token:
        headers.append((b"authorization", f"Bearer {token}".encode()))
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": query,
        "headers": headers,
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }
    status: list[int] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            status.append(message["status"])

    async def run() -> int:
        await app(scope, receive, send)
        return status[-1]

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    data_dir = Path(tempfile.mkdtemp(prefix="bench-routes-"))
    settings = Settings(data_dir=data_dir, demo_password=PASSWORD, static_dir=data_dir / "no-spa", log_level="warning")
    migrate(settings)
    asyncio.run(measure(settings, args))


async def measure(settings: Settings, args: argparse.Namespace) -> None:
    app = create_app(settings)
    async with LifespanManager(app):
        async with app.state.db.sessionmaker() as session, session.begin():
            await seed_demo(session, settings)
        customer = await _login(app, "customer@example.com", "/api/auth/login")
        educator = await _login(app, "educator1@example.com", "/api/auth/login")
        routes = [
            (
                "GET /api/trade-ideas (customer, cached)",
                "GET",
                "/api/trade-ideas",
                b"market=forex&status=active&limit=100",
                customer,
            ),
            (
                "GET /api/trade-ideas (educator, cached)",
                "GET",
                "/api/trade-ideas",
                b"market=forex&status=active",
                educator,
            ),
            ("GET /api/trade-ideas/1", "GET", "/api/trade-ideas/1", b"", customer),
            ("GET /api/me/unseen-counts", "GET", "/api/me/unseen-counts", b"", customer),
            ("GET /api/me/profile", "GET", "/api/me/profile", b"", customer),
            ("GET /api/health", "GET", "/api/health", b"", None),
            ("GET /api/config", "GET", "/api/config", b"", None),
            ("GET /api/educators/track-records", "GET", "/api/educators/track-records", b"", customer),
            ("GET /api/no-such-route (404)", "GET", "/api/no-such-route", b"", None),
        ]
        print(f"code: {Path(tradeideas.__file__).parent}")
        print("| route | status | CPU per request (µs, best of rounds) |")
        print("|---|---|---|")
        for name, method, path, query, token in routes:
            call = _call(app, method, path, query, token)
            status = await call()
            for _ in range(200):  # warm caches
                await call()
            best = float("inf")
            for _ in range(args.rounds):
                started = time.process_time()
                for _ in range(args.requests):
                    await call()
                best = min(best, (time.process_time() - started) / args.requests)
            print(f"| {name} | {status} | {best * 1e6:.0f} |", flush=True)


if __name__ == "__main__":
    main()
