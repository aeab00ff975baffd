"""Benchmark: server CPU per request of a list page, through the route, against reference endpoints.

The request is the one the SPA sends on a customer's market page,
    GET /api/trade-ideas?market=forex&status=active&limit=100
or, with `--page history`, on the market's history page (`status=completed`), as 64 different customers.
Six single-process uvicorn servers (uvloop + httptools) are measured back to back in one run, so the ratios
hold on a shared, noisy machine:

- `bare`: Starlette returning the same bytes from memory (the floor for a request through uvicorn);
- `bare + headers`: the same with the response headers every API answer of the app carries;
- `fastapi bare`: the same through one FastAPI route with no dependency (the floor for a FastAPI route);
- `app cached`: the app with its default caches;
- `asyncpg`: the same SQL as one uncached app request, through asyncpg, rows encoded with orjson;
- `app uncached`: the app with `CACHE_ENTRIES=0`.

Server CPU per request is read from /proc/<pid>/stat (user + system time) around the measured window.
Ratios: app cached / bare (target <= 2.5) and app uncached / asyncpg (target <= 2).

Run from backend/:  uv run python ../bench/request_path.py [--sizes 1000,100000] [--duration 8]
                        [--client wrk] [--page history]
PostgreSQL: the local server (database bench_ideas is reset; override with BENCH_POSTGRES_URL).
"""

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ideas as base

from tradeideas.cli import migrate
from tradeideas.settings import Settings

PAGES = {
    "market": "/api/trade-ideas?market=forex&status=active&limit=100",  # a customer's market screen
    "history": "/api/trade-ideas?market=forex&status=completed&limit=100",  # the market's history screen
}
BENCH = Path(__file__).resolve().parent
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime


def start(cmd: list[str], cwd: Path, env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(cmd, cwd=cwd, env={**os.environ, **env})
    deadline = time.time() + 180  # a loaded machine starts Python slowly
    while time.time() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/trade-ideas", timeout=1)
            return proc
        except httpx.HTTPError:
            time.sleep(0.3)
    proc.kill()
    raise SystemExit(f"{cmd} did not start")


def uvicorn(target: str, port: int, factory: bool = False) -> list[str]:
    cmd = [sys.executable, "-m", "uvicorn", target, "--host", "127.0.0.1", "--port", str(port), "--workers", "1"]
    cmd += ["--no-access-log", "--log-level", "warning", "--loop", "uvloop", "--http", "httptools"]
    return [*cmd, "--factory"] if factory else cmd


def measure(proc: subprocess.Popen[bytes], port: int, tokens: list[str], args: argparse.Namespace) -> dict[str, float]:
    def load(seconds: float) -> dict[str, float]:
        if args.client == "wrk":
            return base.load_wrk(port, tokens, args.concurrency, seconds, 0)
        return asyncio.run(base.load(port, tokens, args.concurrency, seconds, 0))

    load(args.warmup)
    cpu0 = cpu_seconds(proc.pid)
    result = load(args.duration)
    cpu = cpu_seconds(proc.pid) - cpu0
    result["cpu_us_per_request"] = cpu / max(1, result["requests"] + result["errors"]) * 1e6
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,100000")
    parser.add_argument("--customers", type=int, default=64)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--duration", type=float, default=8.0)
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--page", choices=sorted(PAGES), default="market", help="which list page is asked for")
    parser.add_argument(
        "--client",
        choices=("python", "wrk"),
        default="python",
        help="load generator: the asyncio client, or wrk (Debian's package), which leaves the server more CPU",
    )
    parser.add_argument("--app-dir", type=Path, default=base.BACKEND, help="backend/ of the code to measure")
    args = parser.parse_args()
    base.PATH = path = PAGES[args.page]

    data_dir = Path(tempfile.mkdtemp(prefix="bench-path-"))
    asyncio.run(base.reset_postgres())
    settings = Settings(
        data_dir=data_dir, database_url=base.PG_URL, demo_password=base.PASSWORD, static_dir=data_dir / "no-spa"
    )
    migrate(settings)
    have = asyncio.run(base.seed(settings))
    asyncio.run(base.add_customers(settings, args.customers))
    dsn = base.PG_URL.replace("postgresql+asyncpg://", "postgresql://")
    print(f"load average before: {Path('/proc/loadavg').read_text().strip()}", flush=True)
    for size in [int(s) for s in args.sizes.split(",")]:
        if size > have:
            asyncio.run(base.insert_postgres(settings, have, size))
            have = size
        ports = [base.free_port() for _ in range(6)]
        app_env = {"DATABASE_URL": base.PG_URL, "DATA_DIR": str(data_dir), "DEMO_PASSWORD": base.PASSWORD}
        app_env |= {"LOG_LEVEL": "warning", "STATIC_DIR": str(data_dir / "no-spa")}
        # As under `tradeideas serve`: the app reads proxy headers itself (FORWARDED_ALLOW_IPS), inside its edge.
        # (Code from before it did, measured with --app-dir, then runs with no proxy layer at all.)
        app_cmd = [*uvicorn("tradeideas.app:create_app", ports[0], True), "--no-proxy-headers"]
        proc = start(app_cmd, args.app_dir, app_env, ports[0])
        rows: dict[str, dict[str, float]] = {}
        try:
            tokens = base.customer_tokens(ports[0], args.customers)
            body = httpx.get(f"http://127.0.0.1:{ports[0]}{path}", headers={"Authorization": f"Bearer {tokens[0]}"})
            assert body.status_code == 200 and body.json()["items"], body.text[:200]
            body_file = data_dir / "body.json"
            body_file.write_bytes(body.content)
            rows["app cached"] = measure(proc, ports[0], tokens, args)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
        servers = {
            "bare": (uvicorn("reference_servers:bare", ports[1]), BENCH, {"BENCH_BODY_FILE": str(body_file)}),
            "bare + headers": (
                uvicorn("reference_servers:bare_with_headers", ports[5]),
                BENCH,
                {"BENCH_BODY_FILE": str(body_file)},
            ),
            "fastapi bare": (
                uvicorn("reference_servers:fastapi_bare", ports[4]),
                BENCH,
                {"BENCH_BODY_FILE": str(body_file)},
            ),
            "asyncpg": (uvicorn("reference_servers:asyncpg_orjson", ports[2]), BENCH, {"BENCH_PG_DSN": dsn}),
            "app uncached": (
                uvicorn("tradeideas.app:create_app", ports[3], True),
                args.app_dir,
                {**app_env, "CACHE_ENTRIES": "0"},
            ),
        }
        for name, (cmd, cwd, env) in servers.items():
            port = int(cmd[cmd.index("--port") + 1])
            proc = start(cmd, cwd, env, port)
            try:
                rows[name] = measure(proc, port, tokens, args)
            finally:
                proc.terminate()
                proc.wait(timeout=30)
        print(f"\n{size:,} ideas (load average {Path('/proc/loadavg').read_text().split()[0]})")
        print("| server | req/s | p50 (ms) | p99 (ms) | errors | server CPU / request (µs) |")
        print("|---|---|---|---|---|---|")
        for name in ("bare", "bare + headers", "fastapi bare", "app cached", "asyncpg", "app uncached"):
            r = rows[name]
            print(
                f"| {name} | {r['rps']:.0f} | {r['p50_ms']:.1f} | {r['p99_ms']:.1f} | {r['errors']:.0f} "
                f"| {r['cpu_us_per_request']:.0f} |"
            )
        cached = rows["app cached"]["cpu_us_per_request"] / rows["bare"]["cpu_us_per_request"]
        uncached = rows["app uncached"]["cpu_us_per_request"] / rows["asyncpg"]["cpu_us_per_request"]
        floor = rows["fastapi bare"]["cpu_us_per_request"] / rows["bare"]["cpu_us_per_request"]
        print(f"ratio app cached / bare: {cached:.2f} (target <= 2.5); app uncached / asyncpg: {uncached:.2f} (<= 2)")
        print(f"ratio fastapi bare / bare: {floor:.2f} (what any FastAPI route costs before its own code)")
        headers = rows["bare + headers"]["cpu_us_per_request"] / rows["bare"]["cpu_us_per_request"]
        print(f"ratio bare + headers / bare: {headers:.2f} (what writing the app's response headers costs uvicorn)")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
