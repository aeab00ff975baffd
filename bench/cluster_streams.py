"""Benchmark: an event reaching 3 x 1,000 event streams held through HAProxy (1,000 per node), issue #41's bar
p99 <= 150 ms.

Starts the cluster of the cluster tests (backend/tests/cluster.py: three `tradeideas serve` nodes with their
background workers, HAProxy running deploy/haproxy.cfg, moto's S3 server) on a fresh PostgreSQL database with the
demo data, then opens the streams through the balancer from client processes (bare asyncio SSE clients, the ones of
bench/realtime.py), checks each node's own count of open streams, and publishes ideas as the demo educator through
the balancer. Latency = the moment a client has parsed the idea.created event - the moment the educator's request
was sent (so it includes the request, its commit, the NOTIFY on PostgreSQL, every node's listener loading the
event and its fan-out).

Run from backend/:  DEMO_HISTORY=false uv run python ../bench/cluster_streams.py [--per-node 1000] [--events 30]
PostgreSQL: the local server (database bench_cluster_streams is reset; override with BENCH_POSTGRES_URL).
"""

import argparse
import asyncio
import logging
import multiprocessing as mp
import os
import platform
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "backend"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from realtime import client_process, idea_body, pct, raise_nofile

from tests.cluster import (
    Balancer,
    Node,
    S3Store,
    create_database,
    drop_database,
    haproxy_missing,
    node_env,
    prepare,
)
from tests.realtime.conftest import free_port

PASSWORD = "bench-demo-password"
DATABASE = "bench_cluster_streams"
CLIENTS_PER_PROCESS = 1000


async def login(url: str, email: str, role: str) -> str:
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        r = await http.post("/api/auth/login", json={"email": email, "password": PASSWORD, "selectedRole": role})
        r.raise_for_status()
        token: str = r.json()["sessionToken"]
        return token


async def streams_open(node: Node) -> int:
    async with httpx.AsyncClient(base_url=node.url, timeout=30) as http:
        for line in (await http.get("/metrics")).text.splitlines():
            if line.startswith("tradeideas_event_streams_open "):
                return int(float(line.split()[1]))
    return 0


async def main(per_node: int, events: int, interval: float) -> None:
    reason = haproxy_missing()
    if reason:
        raise SystemExit(reason)
    raise_nofile()
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # moto's server logs every request otherwise
    admin = os.environ.get("BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    work = Path(tempfile.mkdtemp(prefix="bench-cluster-streams-"))
    database_url = await create_database(admin, DATABASE)
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
    workers: list[mp.Process] = []
    try:
        for node in nodes:
            node.start()
        await asyncio.gather(*(node.ready() for node in nodes))
        balancer.start()
        await asyncio.sleep(5)  # every node passes its health checks (rise 2, every 2 s) and leaves slow start
        token = await login(balancer.url, "customer@example.com", "customer")
        educator = await login(balancer.url, "educator1@example.com", "educator")

        clients = per_node * len(nodes)
        pipes: list[Connection] = []
        started = time.monotonic()
        for i in range(0, clients, CLIENTS_PER_PROCESS):
            parent, child = mp.Pipe()
            share = min(CLIENTS_PER_PROCESS, clients - i)
            process = mp.Process(target=client_process, args=(share, balancer.port, token, child), daemon=True)
            process.start()
            pipes.append(parent)
            workers.append(process)
        loop = asyncio.get_running_loop()
        connected = failed = 0
        for pipe in pipes:
            _, ok, bad = await loop.run_in_executor(None, pipe.recv)
            connected += ok
            failed += bad
        connect_seconds = time.monotonic() - started
        per_node_open = {node.name: await streams_open(node) for node in nodes}
        print(f"{connected} streams connected ({failed} failed) in {connect_seconds:.1f} s; open per node: "
              f"{per_node_open}", flush=True)  # fmt: skip

        sent_at: dict[int, float] = {}
        async with httpx.AsyncClient(
            base_url=balancer.url, headers={"Authorization": f"Bearer {educator}"}, timeout=60
        ) as publisher:
            (await publisher.post("/api/trade-ideas", json=idea_body(-1))).raise_for_status()  # warm-up
            await asyncio.sleep(3)
            for seq in range(events):
                sent_at[seq] = time.time()
                (await publisher.post("/api/trade-ideas", json=idea_body(seq))).raise_for_status()
                await asyncio.sleep(interval)
            await asyncio.sleep(3)
        latencies: list[float] = []
        for pipe in pipes:
            pipe.send("stop")
        for pipe in pipes:
            _, received = await loop.run_in_executor(None, pipe.recv)
            for seq, times in received.items():
                if seq >= 0:
                    latencies += [(t - sent_at[seq]) * 1000 for t in times]
        expected = connected * events
        print(
            f"machine: {platform.node()}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}\n"
            f"events: {events} every {interval} s; delivered {len(latencies)} of {expected}\n"
            f"latency p50 {pct(latencies, 50):.1f} ms, p99 {pct(latencies, 99):.1f} ms, max {max(latencies):.1f} ms "
            f"(bar: p99 <= 150 ms: {'met' if pct(latencies, 99) <= 150 else 'missed'})",
            flush=True,
        )
    finally:
        for process in workers:
            process.join(10)
            if process.is_alive():
                process.kill()
        balancer.stop()
        for node in nodes:
            node.terminate(15)
        s3.stop()
        await drop_database(admin, DATABASE)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--per-node", type=int, default=1000)
    parser.add_argument("--events", type=int, default=30)
    parser.add_argument("--interval", type=float, default=1.0)
    args = parser.parse_args()
    asyncio.run(main(args.per_node, args.events, args.interval))
