"""Three `tradeideas serve` nodes behind HAProxy (deploy/haproxy.cfg), on one PostgreSQL database, with media in
moto's S3 server: the cluster of issue #41 on one machine.

Used by tests/test_cluster.py, and by `make cluster` (`python -m tests.cluster`), which keeps one running with the
demo data for trying it (ports in the README, "Running on several machines").
"""

import asyncio
import contextlib
import logging
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Mapping
from pathlib import Path

import asyncpg
import boto3
import httpx
from moto.server import ThreadedMotoServer

from tests.serve import background_workers

REPO = Path(__file__).resolve().parents[2]
HAPROXY_CFG = REPO / "deploy" / "haproxy.cfg"
S3_KEY_ID, S3_SECRET = "cluster-key-id", "cluster-secret"  # moto accepts any
LEADER_QUERY = """
SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
WHERE l.locktype = 'advisory' AND l.granted AND a.datname = current_database()
  AND a.application_name LIKE 'tradeideas-leader-%'
"""


def haproxy_missing() -> str | None:
    """Why HAProxy cannot run here (None when it can)."""
    if shutil.which("haproxy") is None:
        return "haproxy is not installed (`make deps-haproxy` installs Debian's package)"
    return None


def plain_dsn(database_url: str) -> str:
    return database_url.replace("postgresql+asyncpg://", "postgresql://")


class S3Store:
    """moto's S3 REST server with one bucket."""

    def __init__(self, port: int) -> None:
        self.url = f"http://127.0.0.1:{port}"
        self.server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
        self.bucket = f"media-{uuid.uuid4().hex[:12]}"

    def start(self) -> None:
        self.server.start()
        boto3.client(
            "s3", endpoint_url=self.url, region_name="us-east-1", aws_access_key_id=S3_KEY_ID,
            aws_secret_access_key=S3_SECRET,
        ).create_bucket(Bucket=self.bucket)  # fmt: skip

    def stop(self) -> None:
        self.server.stop()


class Node:
    """One machine of the cluster: `tradeideas serve` (a serving process and its background worker)."""

    def __init__(self, name: str, port: int, env: Mapping[str, str], data_dir: Path, log_dir: Path) -> None:
        self.name = name
        self.port = port
        self.env = {**env, "PORT": str(port), "DATA_DIR": str(data_dir)}
        self.log_path = log_dir / f"{name}.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.workers: list[int] = []  # its background workers' pids, once it answers

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        Path(self.env["DATA_DIR"]).mkdir(parents=True, exist_ok=True)
        with self.log_path.open("ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "tradeideas.cli", "serve", "--no-seed"],
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )

    async def ready(self, seconds: float = 300) -> None:
        """Until the node answers its health check and its background worker runs (a hang guard)."""
        assert self.proc is not None
        deadline = time.monotonic() + seconds
        async with httpx.AsyncClient(base_url=self.url, timeout=10) as client:
            while time.monotonic() < deadline:
                assert self.proc.poll() is None, f"{self.name} exited: {self.log_path.read_text()[-3000:]}"
                try:
                    if (await client.get("/api/health")).status_code == 200:
                        self.workers = background_workers(self.proc.pid)
                        if self.workers:
                            return
                except httpx.TransportError:
                    pass
                await asyncio.sleep(0.2)
        raise AssertionError(f"{self.name} never became ready: {self.log_path.read_text()[-3000:]}")

    @property
    def pids(self) -> list[int]:
        return ([self.proc.pid] if self.proc else []) + self.workers

    def kill(self) -> None:
        """The machine dies: every process of the node at once (SIGKILL)."""
        assert self.proc is not None
        self.workers = background_workers(self.proc.pid) or self.workers
        for pid in self.pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.proc.wait(30)

    def terminate(self, seconds: float = 60) -> None:
        """SIGTERM, as a supervisor stops it (the node drains); SIGKILL if it has not exited in time."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(seconds)
        except subprocess.TimeoutExpired:
            self.kill()


class Balancer:
    """HAProxy running deploy/haproxy.cfg in the foreground, with the nodes' addresses in its environment."""

    def __init__(self, port: int, stats_port: int, nodes: list[Node], log_dir: Path) -> None:
        self.port = port
        self.env = {
            **os.environ,
            "HAPROXY_BIND": f"127.0.0.1:{port}",
            "HAPROXY_STATS": f"127.0.0.1:{stats_port}",
            **{f"NODE{i}": f"127.0.0.1:{node.port}" for i, node in enumerate(nodes, start=1)},
        }
        self.log_path = log_dir / "haproxy.log"
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        check = subprocess.run(
            ["haproxy", "-c", "-q", "-f", str(HAPROXY_CFG)], env=self.env, capture_output=True, text=True
        )
        assert check.returncode == 0, check.stdout + check.stderr
        with self.log_path.open("ab") as log:
            self.proc = subprocess.Popen(
                ["haproxy", "-db", "-f", str(HAPROXY_CFG)], env=self.env, stdout=log, stderr=subprocess.STDOUT
            )

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


async def create_database(admin_url: str, name: str) -> str:
    """A new, empty database `name` on the server of `admin_url` (dropped first if it exists); its URL."""
    conn = await asyncpg.connect(plain_dsn(admin_url))
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return admin_url.rsplit("/", 1)[0] + f"/{name}"


async def drop_database(admin_url: str, name: str) -> None:
    conn = await asyncpg.connect(plain_dsn(admin_url))
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


def node_env(database_url: str, s3: S3Store, extra: Mapping[str, str]) -> dict[str, str]:
    """What every node is given: the same database, bucket and settings (README, "Running on several machines")."""
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "HOST": "127.0.0.1",
        "CLUSTER_NODES": "3",
        "BACKGROUND_WORKERS": "1",
        "FORWARDED_ALLOW_IPS": "127.0.0.1",  # the balancer's address
        "MEDIA_STORE": "s3",
        "S3_ENDPOINT_URL": s3.url,
        "S3_BUCKET": s3.bucket,
        "S3_REGION": "us-east-1",
        "S3_ACCESS_KEY_ID": S3_KEY_ID,
        "S3_SECRET_ACCESS_KEY": S3_SECRET,
        **extra,
    }


def prepare(database_url: str, env: Mapping[str, str], seed: bool) -> None:
    """Migrate (and seed) once, before the nodes start side by side."""
    for step in ("migrate", "seed") if seed else ("migrate",):
        done = subprocess.run(
            [sys.executable, "-m", "tradeideas.cli", step],
            env={**env, "DATABASE_URL": database_url},
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, done.stdout + done.stderr


async def leader_pid(database_url: str) -> int | None:
    """The pid of the background worker holding the leader's lock, if any holds it now."""
    conn = await asyncpg.connect(plain_dsn(database_url))
    try:
        names = [row[0] for row in await conn.fetch(LEADER_QUERY)]
    finally:
        await conn.close()
    return int(names[0].rsplit("-", 1)[1]) if names else None


async def run_for_trying(
    admin_url: str, balancer_port: int, node_ports: list[int], s3_port: int, stats_port: int
) -> None:
    """`make cluster`: the cluster with the demo data, until Ctrl+C."""
    reason = haproxy_missing()
    if reason:
        raise SystemExit(reason)
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # moto's server logs every request otherwise
    work = REPO / "data" / "cluster"
    work.mkdir(parents=True, exist_ok=True)
    database_url = await create_database(admin_url, "tradeideas_cluster")
    s3 = S3Store(s3_port)
    s3.start()
    env = node_env(database_url, s3, {})
    print("Migrating and seeding the demo data...", flush=True)
    prepare(database_url, env, seed=True)
    nodes = [Node(f"node{i}", port, env, work / f"node{i}", work) for i, port in enumerate(node_ports, start=1)]
    balancer = Balancer(balancer_port, stats_port, nodes, work)
    try:
        for node in nodes:
            node.start()
        await asyncio.gather(*(node.ready() for node in nodes))
        balancer.start()
        print(
            f"Cluster ready: {balancer.url} (HAProxy; statistics on http://127.0.0.1:{stats_port}/)\n"
            + "".join(f"  {node.name}: {node.url} (log {node.log_path})\n" for node in nodes)
            + f"  S3 (moto): {s3.url}, bucket {s3.bucket}\n  PostgreSQL: {database_url}\n"
            "Ctrl+C stops everything.",
            flush=True,
        )
        exits = [asyncio.create_task(asyncio.to_thread(node.proc.wait)) for node in nodes if node.proc is not None]
        await asyncio.wait(exits, return_when=asyncio.FIRST_COMPLETED)
        print("A node exited; stopping the cluster.", flush=True)
    finally:
        balancer.stop()
        for node in nodes:
            node.terminate(20)
        s3.stop()


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(
            run_for_trying(
                os.environ.get("CLUSTER_ADMIN_URL", "postgresql://postgres@127.0.0.1:5432/postgres"),
                8080,
                [8001, 8002, 8003],
                9000,
                8404,
            )
        )
