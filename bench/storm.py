"""The storm benchmark: one idea published to 1,000 connected customers on a table of 100,000 ideas.

Run from backend/ (the SPA must be built: `cd frontend && npm run build`):
    uv run python ../bench/storm.py [--customers 1000] [--tabs 10] [--ideas 100000]

What it does (loopback only):
  1. Creates a fresh PostgreSQL database, migrates and seeds it, adds `--ideas` ideas (COPY) and
     `--customers` customers, each with their own session (rows written directly: logging 1,000 people in
     would only measure password hashing and the login limits).
  2. Starts one uvicorn worker of the app (as `make run` ships) with its access log on, so every request
     the server receives is counted from the log.
  3. Connects the customers: `--tabs` of them are real pages in headless Chromium at /customer/forex
     (the shipped front end, with its own event handlers and unseen badges); the others are raw SSE
     connections (the fan-out load). Each customer has its own session, so its own NEW marks and counts.
  4. The demo educator publishes one idea through POST /api/trade-ideas. Measured: when each tab shows
     the new card and each raw connection has parsed the event (from the moment the request was sent),
     how many requests the server receives in the 10 s after the publish (the storm: none are needed),
     and whether each tab's bell then reads the unseen count the server has for that customer.
"""

import argparse
import asyncio
import functools
import hashlib
import json
import multiprocessing as mp
import os
import platform
import re
import secrets
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import realtime
from ideas import COLUMNS, rows

BACKEND = realtime.BACKEND
STORM_DB = "tradeideas_storm"
TIME_FRAME = "STORM"  # the published idea's time frame: how the tabs recognise its card
WINDOW_SECONDS = 10.0


def new_token() -> tuple[str, str]:
    token = secrets.token_urlsafe(32)
    return token, hashlib.sha256(token.encode()).hexdigest()


async def load_data(url: str, ideas: int, customers: int) -> tuple[list[str], str]:
    """Adds `ideas` ideas and `customers` customers with a session each; returns their tokens and the educator's."""
    import asyncpg

    from tradeideas.db import utcnow

    conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        step = 100_000
        for lo in range(0, ideas, step):
            records = [(*r, False) for r in rows(lo, min(ideas, lo + step))]
            await conn.copy_records_to_table("trade_ideas", records=records, columns=[*COLUMNS, "edited_after_publish"])
        await conn.execute("ANALYZE trade_ideas")
        password_hash = await conn.fetchval("SELECT password_hash FROM users WHERE email = 'customer@example.com'")
        now = utcnow()
        users = [
            (
                f"storm.customer{i}@example.com",
                password_hash,
                "customer",
                "Storm",
                str(i),
                "",
                0,
                True,
                False,
                False,
                now,
                now,
            )
            for i in range(customers)
        ]
        await conn.copy_records_to_table(
            "users",
            records=users,
            columns=[
                "email", "password_hash", "role", "first_name", "last_name", "bio", "years_experience", "is_public",
                "disabled", "invited", "created_at", "updated_at",
            ],
        )  # fmt: skip
        ids = [r["id"] for r in await conn.fetch("SELECT id FROM users WHERE email LIKE 'storm.customer%' ORDER BY id")]
        educator = await conn.fetchval("SELECT id FROM users WHERE email = 'educator1@example.com'")
        tokens = [new_token() for _ in ids]
        educator_token = new_token()
        expires = now + timedelta(days=7)
        await conn.copy_records_to_table(
            "sessions",
            records=[
                (uid, h, now, now, expires)
                for uid, (_, h) in zip([*ids, educator], [*tokens, educator_token], strict=True)
            ],
            columns=["user_id", "token_hash", "created_at", "refreshed_at", "expires_at"],
        )
        return [t for t, _ in tokens], educator_token[0]
    finally:
        await conn.close()


def sse_clients(tokens: list[str], port: int, pipe: Connection) -> None:
    """One SSE connection per token (each its own customer); reports parse times of `seq=` events."""
    realtime.raise_nofile()

    async def run() -> None:
        loop = asyncio.get_running_loop()
        received: dict[int, list[float]] = {}
        transports = []
        connected = 0
        for token in tokens:
            request = (
                f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {token}\r\n"
                "Accept: text/event-stream\r\n\r\n"
            ).encode()
            waiter: asyncio.Future[bool] = loop.create_future()
            transport, _ = await loop.create_connection(
                functools.partial(realtime.SSEProtocol, request, received, waiter), "127.0.0.1", port
            )
            transports.append(transport)
            connected += await asyncio.wait_for(waiter, 60)
        pipe.send(("connected", connected))
        await loop.run_in_executor(None, pipe.recv)
        for t in transports:
            t.close()
        pipe.send(("received", received))

    asyncio.run(run())


_STAMP = """([frame]) => {
  window.__stormSeenAt = null;
  const found = () => [...document.querySelectorAll('article')].some(a => a.textContent.includes(frame));
  new MutationObserver((_, observer) => {
    if (found()) { window.__stormSeenAt = Date.now(); observer.disconnect(); }
  }).observe(document.body, { childList: true, subtree: true });
}"""


def bell_count(label: str | None) -> str | None:
    """What the bell says ("3", "99+"): the server counts up to 100, so the bell stops at 99+."""
    match = re.match(r"(\d+\+?) new idea", label or "")
    return match.group(1) if match else None


def shown_count(total: int) -> str:
    return "99+" if total > 99 else str(total)


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--customers", type=int, default=1000)
    parser.add_argument("--tabs", type=int, default=10, help="how many of the customers are real browser tabs")
    parser.add_argument("--ideas", type=int, default=100_000)
    parser.add_argument("--out", type=Path, default=None, help="write the results as JSON here")
    args = parser.parse_args()
    realtime.raise_nofile()

    import httpx
    from playwright.async_api import async_playwright

    sys.path.insert(0, str(BACKEND.parent))
    from e2e.conftest import CHROMIUM, CHROMIUM_ARGS  # type: ignore[import-not-found,unused-ignore]  # found through sys.path

    await realtime.admin(f"DROP DATABASE IF EXISTS {STORM_DB} WITH (FORCE)")
    await realtime.admin(f"CREATE DATABASE {STORM_DB}")
    data_dir = Path(tempfile.mkdtemp(prefix="storm-"))
    url = realtime.ADMIN_URL.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://") + f"/{STORM_DB}"
    env = {**os.environ, "DATABASE_URL": url, "DATA_DIR": str(data_dir), "DEMO_PASSWORD": realtime.PASSWORD}
    for cmd in ("migrate", "seed"):
        await asyncio.to_thread(
            subprocess.run, [sys.executable, "-m", "tradeideas.cli", cmd], env=env, cwd=BACKEND, check=True
        )
    tokens, educator = await load_data(url, args.ideas, args.customers)

    port = realtime.free_port()
    log_path = data_dir / "access.log"
    server_cmd = [
        sys.executable, "-m", "uvicorn", "tradeideas.app:create_app", "--factory", "--host", "127.0.0.1",
        "--port", str(port), "--log-level", "info", "--access-log", "--backlog", "4096",
    ]  # fmt: skip
    with log_path.open("wb") as log:
        server = subprocess.Popen(server_cmd, env=env, cwd=BACKEND, stdout=log, stderr=subprocess.STDOUT)  # noqa: ASYNC220
    base = f"http://127.0.0.1:{port}"
    results: dict[str, Any] = {
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at start",
        "customers": args.customers,
        "tabs": args.tabs,
        "ideas": args.ideas,
    }
    try:
        rs = realtime.Server.__new__(realtime.Server)
        rs.port, rs.env, rs.proc = port, env, server
        await rs.ready()
        tab_tokens, raw_tokens = tokens[: args.tabs], tokens[args.tabs :]
        parent, child = mp.Pipe()
        clients = mp.Process(target=sse_clients, args=(raw_tokens, port, child), daemon=True)
        clients.start()
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            pages = []
            for token in tab_tokens:
                context = await browser.new_context(base_url=base, viewport={"width": 390, "height": 844})
                await context.add_cookies([{"name": "session", "value": token, "url": base}])
                page = await context.new_page()
                await page.goto("/customer/forex")
                await page.wait_for_selector("html[data-realtime='open']", state="attached", timeout=120_000)
                pages.append(page)
            _, connected = await asyncio.get_running_loop().run_in_executor(None, parent.recv)
            results["raw_connections"] = connected
            await asyncio.sleep(5)  # everything the first screens asked for has been answered
            for page in pages:
                await page.evaluate(_STAMP, [TIME_FRAME])

            body = {**realtime.idea_body(0), "timeFrame": TIME_FRAME}
            async with httpx.AsyncClient(
                base_url=base, headers={"Authorization": f"Bearer {educator}"}, timeout=60
            ) as c:
                log_before = log_path.read_bytes().count(b"\n")
                sent_at = time.time()
                (await c.post("/api/trade-ideas", json=body)).raise_for_status()
            await asyncio.sleep(WINDOW_SECONDS - (time.time() - sent_at))
            window_lines = log_path.read_bytes().splitlines()[log_before:]
            requests = [line.decode(errors="replace") for line in window_lines if b'HTTP/1.1"' in line]
            requests = [r for r in requests if '"POST /api/trade-ideas HTTP' not in r]
            # A tab showing the new card marks it seen: a customer reading it, not a follow-up of the event.
            seen_marks = [r for r in requests if '"POST /api/trade-ideas/seen HTTP' in r]
            requests = [r for r in requests if r not in seen_marks]

            tab_ms = []
            for page in pages:
                seen_at = await page.evaluate("window.__stormSeenAt")
                if seen_at is not None:
                    tab_ms.append(seen_at - sent_at * 1000)
            labels = [
                await p.get_by_role("img", name=re.compile("new idea")).first.get_attribute("aria-label") for p in pages
            ]
            await browser.close()
        parent.send("stop")
        _, received = await asyncio.get_running_loop().run_in_executor(None, parent.recv)
        clients.join(10)
        raw_ms = [(t - sent_at) * 1000 for t in received.get(0, [])]

        wrong_counts = 0
        async with httpx.AsyncClient(base_url=base, timeout=60) as c:
            for token, label in zip(tab_tokens, labels, strict=True):
                counts = (await c.get("/api/me/unseen-counts", headers={"Authorization": f"Bearer {token}"})).json()
                wrong_counts += bell_count(label) != shown_count(counts["total"])
        everyone = sorted(tab_ms + raw_ms)
        results |= {
            "tabs_showing_the_idea": len(tab_ms),
            "raw_connections_receiving_it": len(raw_ms),
            "tab_p50_ms": round(realtime.pct(tab_ms, 50), 1) if tab_ms else None,
            "tab_max_ms": round(max(tab_ms), 1) if tab_ms else None,
            "all_p99_ms": round(realtime.pct(everyone, 99), 1) if everyone else None,
            "requests_in_window": len(requests),
            "seen_marks_in_window": len(seen_marks),
            "request_lines": requests[:20],
            "tabs_with_wrong_unseen_count": wrong_counts,
        }
    finally:
        server.terminate()
        server.wait(20)
        await realtime.admin(f"DROP DATABASE IF EXISTS {STORM_DB} WITH (FORCE)")
    print(json.dumps(results, indent=2))
    if args.out:
        args.out.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    mp.set_start_method("spawn")
    asyncio.run(main())
