"""Benchmark: what HAProxy (deploy/haproxy.cfg) adds to a request, and how fast the lead moves when a node dies.

Starts the cluster of the cluster test (backend/tests/cluster.py: three `tradeideas serve` nodes with their
background workers, HAProxy, moto's S3 server) on a fresh PostgreSQL database, then:

- latency of the cached list the SPA asks for first (`GET /api/trade-ideas?market=forex&status=active&limit=100`,
  as the demo customer), one request at a time over a kept-alive connection, alternating rounds straight to
  node 1 and through the balancer (which deals them to the three nodes), so both see the same machine load;
  reports p50 and p99 of each and the balancer's p50 over the node's (issue #41's bar: <= 1.15);
- the lead's move: the node whose background worker holds the leader's lock is killed (SIGKILL) and the time
  until another node's worker holds it is measured (bar: <= 15 s).

Run from backend/:  uv run python ../bench/balancer.py [--requests 2000]
PostgreSQL: the local server (database bench_cluster is reset; override with BENCH_POSTGRES_URL).
"""

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "backend"))

from tests.cluster import (
    Balancer,
    Node,
    S3Store,
    create_database,
    drop_database,
    haproxy_missing,
    leader_pid,
    node_env,
    prepare,
)
from tests.realtime.conftest import free_port

PASSWORD = "bench-demo-password"
LIST = "/api/trade-ideas?market=forex&status=active&limit=100"


async def timings(url: str, token: str, count: int) -> list[float]:
    async with httpx.AsyncClient(base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=30) as http:
        await http.get(LIST)  # a warm cache and connection
        out = []
        for _ in range(count):
            started = time.perf_counter()
            r = await http.get(LIST)
            out.append(time.perf_counter() - started)
            assert r.status_code == 200, r.text
        return out


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000


async def main(requests: int) -> None:
    reason = haproxy_missing()
    if reason:
        raise SystemExit(reason)
    admin = os.environ.get("BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    work = Path(tempfile.mkdtemp(prefix="bench-cluster-"))
    database_url = await create_database(admin, "bench_cluster")
    s3 = S3Store(free_port())
    s3.start()
    env = node_env(
        database_url,
        s3,
        {"DEMO_PASSWORD": PASSWORD, "DEMO_HISTORY": "false", "PRICE_FEED": "off", "TSA_URLS": "",
         "LOG_LEVEL": "warning", "STATIC_DIR": str(work / "no-spa")},
    )  # fmt: skip
    await asyncio.to_thread(prepare, database_url, env, True)
    nodes = [Node(f"node{i}", free_port(), env, work / f"node{i}", work) for i in (1, 2, 3)]
    balancer = Balancer(free_port(), free_port(), nodes, work)
    try:
        for node in nodes:
            node.start()
        await asyncio.gather(*(node.ready() for node in nodes))
        balancer.start()
        await asyncio.sleep(3)
        async with httpx.AsyncClient(base_url=balancer.url, timeout=30) as http:
            r = await http.post(
                "/api/auth/login",
                json={"email": "customer@example.com", "password": PASSWORD, "selectedRole": "customer"},
            )
            token = r.json()["sessionToken"]
        direct: list[float] = []
        balanced: list[float] = []
        rounds = 10
        for _ in range(rounds):
            direct += await timings(nodes[0].url, token, requests // rounds)
            balanced += await timings(balancer.url, token, requests // rounds)
        print(f"list p50: node {percentile(direct, 0.5):.2f} ms, balancer {percentile(balanced, 0.5):.2f} ms, "
              f"ratio {statistics.median(balanced) / statistics.median(direct):.3f}")  # fmt: skip
        print(f"list p99: node {percentile(direct, 0.99):.2f} ms, balancer {percentile(balanced, 0.99):.2f} ms")

        before = await leader_pid(database_url)
        leading = next(node for node in nodes if before in node.workers)
        leading.kill()
        killed = time.monotonic()
        while True:
            now = await leader_pid(database_url)
            if now is not None and now != before and any(now in node.workers for node in nodes):
                break
            await asyncio.sleep(0.05)
        print(f"lead moved from {leading.name} in {time.monotonic() - killed:.2f} s")
    finally:
        balancer.stop()
        for node in nodes:
            node.terminate(15)
        s3.stop()
        await drop_database(admin, "bench_cluster")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=2000)
    asyncio.run(main(parser.parse_args().requests))
