"""What an idle event stream keeps in memory, by package and by the line that allocated it (tracemalloc).

Serves the app in this process with uvicorn (SQLite, demo data), opens STREAMS idle `GET /api/events` streams
from a client subprocess as the realtime benchmark does (raw HTTP/1.1, one customer), and compares tracemalloc
snapshots taken before and after: the Python objects each open stream holds, attributed to uvicorn, FastAPI,
Starlette, this app and the standard library. `realtime.py` measures the same from outside (RSS per client);
this says where it goes.

Run from backend/:  uv run python ../bench/stream_memory.py [--streams 500] [--lines 30]
The server runs on asyncio's own event loop (tracemalloc sees uvloop's C objects only as their Python wrappers).
"""

import argparse
import asyncio
import gc
import os
import socket
import subprocess
import sys
import tempfile
import tracemalloc
from collections import Counter
from pathlib import Path

import httpx
import uvicorn

PASSWORD = "bench-password-123"
CLIENT = """
import asyncio, sys

async def stream(port, token, ready):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET /api/events HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nAuthorization: Bearer {token}\\r\\n"
                 "Accept: text/event-stream\\r\\n\\r\\n".encode())
    seen = b""
    while b"connected" not in seen:
        seen += await reader.read(4096)
    ready.append(writer)
    await asyncio.sleep(3600)

async def main():
    port, token, count = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    ready = []
    tasks = [asyncio.create_task(stream(port, token, ready)) for _ in range(count)]
    while len(ready) < count:
        await asyncio.sleep(0.1)
    print("ready", flush=True)
    await asyncio.gather(*tasks)

asyncio.run(main())
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def package_of(path: str) -> str:
    if "site-packages/" in path:
        return path.split("site-packages/", 1)[1].split("/", 1)[0]
    if "/tradeideas/" in path:
        return "tradeideas"
    return "stdlib"


def place_of(trace: tracemalloc.Traceback) -> tuple[str, str]:
    """The innermost frame outside the standard library (the code that asked), else the innermost frame."""
    for frame in reversed(trace):
        package = package_of(frame.filename)
        if package != "stdlib":
            short = frame.filename.split("site-packages/", 1)[-1].split("/backend/", 1)[-1]
            return package, f"{short}:{frame.lineno}"
    frame = trace[-1]
    return "stdlib", f"{Path(frame.filename).name}:{frame.lineno}"


async def open_streams(port: int, token: str, count: int) -> asyncio.subprocess.Process:
    client = await asyncio.create_subprocess_exec(
        sys.executable, "-c", CLIENT, str(port), token, str(count), stdout=subprocess.PIPE
    )
    assert client.stdout is not None
    await client.stdout.readline()
    return client


async def measure(streams: int, lines: int) -> None:
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            "tradeideas.app:create_app", factory=True, port=port, log_level="warning", access_log=False, loop="asyncio"
        )
    )
    serving = asyncio.create_task(server.serve())
    for _ in range(1800):  # a loaded machine starts Python slowly
        if server.started:
            break
        await asyncio.sleep(0.1)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as client:
        login = {"email": "customer@example.com", "password": PASSWORD, "selectedRole": "customer"}
        token = (await client.post("/api/auth/login", json=login)).json()["sessionToken"]
    warm = await open_streams(port, token, 5)  # first use of every code path: not counted
    await asyncio.sleep(1)
    gc.collect()
    tracemalloc.start(30)
    before = tracemalloc.take_snapshot()
    held = await open_streams(port, token, streams)
    await asyncio.sleep(2)
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    own = [tracemalloc.Filter(False, tracemalloc.__file__)]
    by_package: Counter[str] = Counter()
    by_place: Counter[str] = Counter()
    for stat in after.filter_traces(own).compare_to(before.filter_traces(own), "traceback"):
        package, place = place_of(stat.traceback)
        by_package[package] += stat.size_diff
        by_place[place] += stat.size_diff
    print(f"{streams} idle streams: {sum(by_package.values()) / streams:,.0f} bytes of Python objects per stream")
    for package, size in by_package.most_common():
        print(f"  {size / streams:7,.0f}  {package}")
    print(f"largest allocations per stream (top {lines}):")
    for place, size in by_place.most_common(lines):
        print(f"  {size / streams:7,.0f}  {place}")
    for process in (held, warm):
        process.kill()
        await process.wait()
    server.should_exit = True
    await serving


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--streams", type=int, default=500)
    parser.add_argument("--lines", type=int, default=30)
    args = parser.parse_args()
    data = tempfile.mkdtemp(prefix="bench-streams-")
    os.environ.update({"DATA_DIR": data, "DEMO_PASSWORD": PASSWORD, "LOG_LEVEL": "warning", "STATIC_DIR": data})
    os.environ.pop("DATABASE_URL", None)  # the embedded SQLite database in DATA_DIR
    for command in ("migrate", "seed"):
        subprocess.run([sys.executable, "-m", "tradeideas.cli", command], check=True, stdout=subprocess.DEVNULL)
    asyncio.run(measure(args.streams, args.lines))


if __name__ == "__main__":
    main()
