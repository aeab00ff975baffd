"""`tradeideas serve` as a real process, started and stopped the way an operator's supervisor does."""

import signal
import subprocess
import sys
from typing import IO, Any


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
