"""Benchmark: how long the first requests wait on a server that has just started, as `make run` starts it.

On a fresh data directory `tradeideas serve` seeds the demo, and its first price-check round replays every seeded
idea over the stored demo candles and records their steps (hundreds of ledger entries). The round runs in the
process that serves the requests. This starts the server on an empty temporary data directory (SQLite, the demo
seed, the demo price feed as `make run` has it), waits for /api/health, then signs the demo customer in LOGINS
times one after the other and reports each login's time. It repeats that RUNS times.

Run from backend/:  uv run python ../bench/first_start.py [--runs 3] [--logins 6]
"""

import argparse
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

LOGIN = {"email": "customer@example.com", "password": base.PASSWORD, "selectedRole": "customer"}


def one_run(logins: int) -> list[float]:
    port = base.free_port()
    with tempfile.TemporaryDirectory() as data_dir:
        env = {**os.environ, "DATA_DIR": data_dir, "DEMO_PASSWORD": base.PASSWORD, "LOG_LEVEL": "warning"}
        env |= {"HOST": "127.0.0.1", "PORT": str(port)}
        env.pop("DATABASE_URL", None)
        proc = subprocess.Popen([sys.executable, "-m", "tradeideas.cli", "serve"], cwd=base.APP_DIR, env=env)
        try:
            deadline = time.time() + 120
            while time.time() < deadline:
                try:
                    if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                time.sleep(0.05)
            else:
                raise SystemExit("server did not start")
            times = []
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=120) as client:
                for _ in range(logins):
                    started = time.perf_counter()
                    answer = client.post("/api/auth/login", json=LOGIN)
                    times.append(time.perf_counter() - started)
                    if answer.status_code != 200:
                        raise SystemExit(f"login failed: {answer.status_code} {answer.text}")
            return times
        finally:
            proc.terminate()
            proc.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--logins", type=int, default=6)
    args = parser.parse_args()
    firsts = []
    for run in range(1, args.runs + 1):
        times = one_run(args.logins)
        firsts.append(times[0])
        print(f"run {run}: logins " + ", ".join(f"{t:.2f}" for t in times) + " s", flush=True)
    print(f"first login: median {statistics.median(firsts):.2f} s, max {max(firsts):.2f} s over {args.runs} runs")


if __name__ == "__main__":
    main()
