"""`tradeideas serve` as a real process, started and stopped the way an operator's supervisor does."""

import asyncio
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

import httpx


def start_serve(
    env: dict[str, str], *args: str, stdout: int | IO[Any] | None = None, stderr: int | IO[Any] | None = None
) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "tradeideas.cli", "serve", *args], env=env, stdout=stdout, stderr=stderr
    )


def stop_serve(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM, then a kill if it has not exited within 20 s."""
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


async def wait_healthy(proc: subprocess.Popen[bytes], url: str, seconds: float = 300) -> None:
    """Until `/api/health` answers 200; fails if the process exits or the deadline passes (a hang guard:
    on a busy machine starting takes a while)."""
    deadline = time.monotonic() + seconds
    async with httpx.AsyncClient(base_url=url) as client:
        while time.monotonic() < deadline:
            assert proc.poll() is None, "the server exited"
            try:
                if (await client.get("/api/health")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.1)
    raise AssertionError("the server never answered /api/health")


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def background_workers(serve_pid: int) -> list[int]:
    """The `tradeideas worker` processes `tradeideas serve` (process `serve_pid`) supervises now."""

    def command(pid: int) -> list[str]:
        try:
            return (Path("/proc") / str(pid) / "cmdline").read_bytes().decode().split("\0")
        except OSError:
            return []

    return [pid for pid in _children(serve_pid) if "worker" in command(pid)[3:4]]
