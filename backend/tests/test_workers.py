"""`tradeideas serve` with several workers: it comes up even when each process is slow to start, and every worker
accepts connections on a listening socket of its own."""

import asyncio
import contextlib
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.realtime.conftest import free_port
from tests.serve import start_serve, stop_serve, wait_healthy
from tradeideas.settings import Settings

pytestmark = pytest.mark.skipif(os.environ.get("TEST_DB") != "postgres", reason="several workers need PostgreSQL")

# Imported by every Python process started with this directory on PYTHONPATH, the workers included: each
# takes longer to start than uvicorn's fixed 5 s health check allowed (twice over: its checks run one worker
# after the other), as on a busy machine.
SLOW_START = "import time\ntime.sleep(12)\n"
LISTEN, ESTABLISHED = "0A", "01"  # TCP states as /proc/net/tcp writes them


def two_workers(settings: Settings, port: int) -> dict[str, str]:
    """The environment of `tradeideas serve` with two workers on `port`, on the tests' database."""
    return {
        **os.environ,
        "DATABASE_URL": settings.resolved_database_url,
        "DATA_DIR": str(settings.data_dir),
        "STATIC_DIR": str(settings.static_dir),
        "WORKERS": "2",
        "PORT": str(port),
        "LOG_LEVEL": "warning",
    }


async def test_slow_starting_workers_are_waited_for(settings: Settings, tmp_path: Path) -> None:
    (tmp_path / "sitecustomize.py").write_text(SLOW_START)
    port = free_port()
    env = two_workers(settings, port) | {
        "PYTHONPATH": os.pathsep.join([str(tmp_path), *filter(None, [os.environ.get("PYTHONPATH")])])
    }
    proc = start_serve(env, "--no-seed")
    try:
        await wait_healthy(proc, f"http://127.0.0.1:{port}")
    finally:
        stop_serve(proc)


def _worker_pids(server_pid: int) -> list[int]:
    """uvicorn's worker processes (its supervisor's children, without multiprocessing's resource tracker)."""
    children = Path(f"/proc/{server_pid}/task/{server_pid}/children").read_text().split()
    return [int(pid) for pid in children if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()]


def _tcp_sockets(port: int) -> list[tuple[str, int, int]]:
    """(state, remote port, inode) of every IPv4 TCP socket whose local port is `port` (Linux /proc/net/tcp)."""
    out = []
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote, state, inode = fields[1], fields[2], fields[3], int(fields[9])
        if int(local.split(":")[1], 16) == port:
            out.append((state, int(remote.split(":")[1], 16), inode))
    return out


def _socket_owners(pids: list[int]) -> dict[int, int]:
    """Socket inode -> the process (of `pids`) that holds it."""
    owners = {}
    for pid in pids:
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            with contextlib.suppress(OSError):  # closed meanwhile
                target = os.readlink(fd)
                if target.startswith("socket:["):
                    owners[int(target[8:-1])] = pid
    return owners


@pytest.mark.skipif(sys.platform != "linux", reason="reads the sockets' owners from /proc")
async def test_each_worker_listens_on_its_own_socket_and_connections_opened_together_reach_both(
    settings: Settings,
) -> None:
    """With one shared socket, the first worker to wake accepted every waiting connection: 16 opened together
    mostly landed on one worker (bench/RESULTS.md). Each worker now has a socket of its own on the port."""
    port = free_port()
    env = two_workers(settings, port)
    proc = start_serve(env, "--no-seed", stdout=subprocess.DEVNULL)
    try:
        await wait_healthy(proc, f"http://127.0.0.1:{port}")
        workers = _worker_pids(proc.pid)
        assert len(workers) == 2

        def listening() -> list[int | None]:
            owners = _socket_owners(workers)
            return sorted((owners.get(inode) for state, _, inode in _tcp_sockets(port) if state == LISTEN), key=str)

        # The first worker to start answers the health check; the other may still be starting (a busy machine).
        for _ in range(600):
            if len(listening()) == 2:
                break
            await asyncio.sleep(0.2)
        assert listening() == sorted(workers)  # one each, none in the supervisor

        clients = []
        try:
            for _ in range(32):
                client = socket.create_connection(("127.0.0.1", port), timeout=10)
                clients.append(client)
            for client in clients:  # each answered, so accepted by a worker
                client.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                assert client.recv(12) == b"HTTP/1.1 200"
            client_ports = {c.getsockname()[1] for c in clients}
            owners = _socket_owners(workers)
            served_by = [
                owners[inode]
                for state, peer, inode in _tcp_sockets(port)
                if state == ESTABLISHED and peer in client_ports
            ]
            assert len(served_by) == 32
            # Dealt by a hash of the addresses: all 32 on one of two workers would happen once in two billion runs.
            assert set(served_by) == set(workers)
        finally:
            for client in clients:
                client.close()
        # A second server on the same port is refused, not let in to share its connections.
        second = start_serve({**env, "DATA_DIR": str(settings.data_dir / "second")}, "--no-seed",
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)  # fmt: skip
        assert second.wait(120) != 0
        assert second.stderr is not None and b"Address already in use" in second.stderr.read()
    finally:
        stop_serve(proc)
