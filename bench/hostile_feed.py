"""Benchmark: the serving process's requests while a feed sends hostile answers (issue #36).

Starts `tradeideas serve` as `make run` does (SQLite, the demo seed) with its feeds pointed at the local protocol
server of the tests (`tests.prices.fakefeed`, in its own process) polling every second, signs the demo customer in,
then for each attack makes every demo crypto symbol's answer that attack and times requests elsewhere: the crypto
idea list and /api/health, back to back from one client, for SECONDS each. Prints p50 and p99 per attack (bar:
p99 <= 100 ms), the server's resident memory after each (bar: it grows by no more than PRICE_MAX_RESPONSE_BYTES),
and what /api/health says of the feed.

Run from backend/:  uv run python ../bench/hostile_feed.py [--seconds 15]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ideas as base

SYMBOLS = ["ADAUSDT", "BNBUSDT", "BTCUSDT", "DOGEUSDT", "ETHUSDT", "LINKUSDT", "SOLUSDT", "XRPUSDT"]
DEEP = "[" * 100_000 + "]" * 100_000
KLINE_1E300 = '[1e300,"1","1","1","1","1",1e300,"1",1,"1","1","0"]'
ATTACKS: list[tuple[str, dict[str, object]]] = [
    ("none", {}),
    ("80 MB answer", {"hostile": "huge"}),
    ("100,000-deep JSON", {"status": 200, "body": DEEP}),
    ("4 MB of klines dated 1e300", {"status": 200, "body": "[" + ",".join([KLINE_1E300] * 60_000) + "]"}),
    ("a byte every 0.5 s", {"hostile": "slow"}),
    ("connection reset", {"hostile": "reset"}),
    ("429, Retry-After: 1e12", {"status": 429, "body": "{}"}),
    ("recovered", {}),
]


def rss_mb(pid: int) -> float:
    """Resident memory of the process and its children (the supervisor and its serving worker)."""
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
    total = 0.0
    for one in [pid, *map(int, found)]:
        for line in Path(f"/proc/{one}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1]) / 1024
    return total


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=15.0)
    args = parser.parse_args()
    feed_port, port = base.free_port(), base.free_port()
    feed = subprocess.Popen([sys.executable, "-m", "tests.prices.fakefeed", str(feed_port)], cwd=base.APP_DIR)
    feed_url = f"http://127.0.0.1:{feed_port}"
    with tempfile.TemporaryDirectory() as data_dir:
        env = {**os.environ, "DATA_DIR": data_dir, "DEMO_PASSWORD": base.PASSWORD, "LOG_LEVEL": "error"}
        env |= {"HOST": "127.0.0.1", "PORT": str(port), "BINANCE_API_URL": feed_url, "DUKASCOPY_URL": feed_url}
        env |= {"PRICE_POLL_SECONDS": "1", "FOREX_FEED": "dukascopy"}
        env.pop("DATABASE_URL", None)
        server = subprocess.Popen([sys.executable, "-m", "tradeideas.cli", "serve"], cwd=base.APP_DIR, env=env)
        try:
            program = httpx.Client(base_url=feed_url, timeout=10)
            deadline = time.time() + 60
            while True:
                try:
                    program.post("/_fake/now", json={"now": time.time() + 3600})
                    break
                except httpx.HTTPError:
                    if time.time() > deadline:
                        raise
                    time.sleep(0.1)
            for symbol in SYMBOLS:  # known to the feed, no new candles: only the attacks change anything
                program.post("/_fake/bars", json={"symbol": symbol, "interval": "1m", "bars": []})
            client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60)
            while True:
                try:
                    if client.get("/api/health", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                time.sleep(0.1)
            login = {"email": "customer@example.com", "password": base.PASSWORD, "selectedRole": "customer"}
            assert client.post("/api/auth/login", json=login).status_code == 200
            time.sleep(10)  # past the first round (adoption and the demo's replay)
            pid = server.pid
            print(f"{'attack':32} {'p50 ms':>8} {'p99 ms':>8} {'n':>6} {'RSS MB':>8}  health")
            for name, answer in ATTACKS:
                for symbol in SYMBOLS:
                    program.post("/_fake/answer", json={"symbol": symbol, **answer})
                times: list[float] = []
                until = time.time() + args.seconds
                while time.time() < until:
                    for path in ("/api/trade-ideas?market=crypto", "/api/health"):
                        started = time.perf_counter()
                        assert client.get(path).status_code == 200
                        times.append((time.perf_counter() - started) * 1000)
                health = client.get("/api/health").json()
                failing = sum(len(f["failing"]) for f in health.get("priceFeeds", {}).values())
                print(
                    f"{name:32} {statistics.median(times):8.1f} {percentile(times, 0.99):8.1f} {len(times):6d} "
                    f"{rss_mb(pid):8.1f}  {health['priceFeed']}, {failing} symbols failing"
                )
            print(json.dumps(health.get("priceFeeds", {}).get("binance", {}))[:300])
        finally:
            server.terminate()
            server.wait(30)
            feed.terminate()
            feed.wait(10)


if __name__ == "__main__":
    main()
