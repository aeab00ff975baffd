"""Benchmark: forex on Dukascopy's hour files (issue #36).

Writes one hour of scripted ticks per instrument as bi5 files (LZMA over 20-byte big-endian ticks, Dukascopy's
layout `/{INSTRUMENT}/{YYYY}/{MM}/{DD}/{HH}h_ticks.bi5`), serves them from a plain static file server in its own
process, and has `DukascopyFeed` read every instrument's hours the way the poller does (each hour once, then the
one-second candles of a few minutes from memory). Measures:
- requests per instrument and hour: the bar is exactly one;
- this process's CPU (fetch, decompress, check and turn ticks into candles; the server is elsewhere) per hour of
  ticks for all the instruments: the bar is <= 1 s for 300 instruments;
- the longest the event loop went without running a 5 ms ticker meanwhile (the decoding runs in a worker thread).

Run from backend/:  uv run python ../bench/dukascopy.py [--instruments 300] [--hours 3] [--ticks 3600]
"""

import argparse
import asyncio
import itertools
import lzma
import random
import resource
import socket
import struct
import subprocess
import sys
import tempfile
import time
from decimal import Decimal
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import aiohttp

BACKEND = Path(__file__).resolve().parents[1] / "backend"
sys.path.insert(0, str(BACKEND))

from tradeideas.prices.feeds.dukascopy import (  # noqa: E402
    DUKASCOPY_CURRENCIES,
    DUKASCOPY_METALS,
    DukascopyFeed,
    dukascopy_instrument,
    hour_path,
)

HOUR = 3600
START = 1_764_000_000 - 1_764_000_000 % HOUR  # a fixed past hour: runs are comparable


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def instruments(count: int) -> list[str]:
    """Every instrument the feed maps (132 currency pairs, 2 metals); past that, the same files under numbered
    copies of the names, which cost the client exactly what the originals do."""
    known = [b + q for b, q in itertools.permutations(sorted(DUKASCOPY_CURRENCIES), 2)]
    known += [m + "USD" for m in sorted(DUKASCOPY_METALS)]
    return [known[i % len(known)] + (f"~{i // len(known)}" if i >= len(known) else "") for i in range(count)]


def write_files(root: Path, names: list[str], hours: int, ticks: int) -> int:
    record = struct.Struct(">IIIff")
    rng = random.Random(36)
    total = 0
    for name in names:
        symbol = name.split("~")[0]
        found = dukascopy_instrument(symbol)
        assert found is not None
        points = 108_500 if found[1] == Decimal("0.00001") else 150_000
        for h in range(hours):
            ms = sorted(rng.randrange(HOUR * 1000) for _ in range(ticks))
            rows = []
            for m in ms:
                points += rng.choice((-2, -1, 0, 1, 2))
                rows.append(record.pack(m, points + 3, points, 1.0, 1.0))
            path = root / hour_path(name, START + h * HOUR).lstrip("/")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(lzma.compress(b"".join(rows), format=lzma.FORMAT_ALONE))
            total += path.stat().st_size
    return total


class Renamed(DukascopyFeed):
    """Numbered copies read the original instrument's point size."""

    def point(self, symbol: str) -> Decimal:
        return super().point(symbol.split("~")[0])


async def run(names: list[str], url: str, hours: int) -> tuple[float, float, int]:
    longest = 0.0

    async def ticker() -> None:
        nonlocal longest
        last = time.perf_counter()
        while True:
            await asyncio.sleep(0.005)
            now = time.perf_counter()
            longest = max(longest, now - last - 0.005)
            last = now

    tick = asyncio.create_task(ticker())
    limit = asyncio.Semaphore(8)  # the poller's SERIES_CONCURRENCY
    candles = 0
    async with aiohttp.ClientSession() as http:
        feed = Renamed(http, url)
        now = START + hours * HOUR + 60

        async def one(name: str) -> int:
            async with limit:
                answer = await feed.candles(name, "T1m", START, now=now)
                assert not answer.rejected and feed.resume_from(name) == START + hours * HOUR
                for minute in (START + 600, START + 1800):  # a few minutes need their one-second candles
                    await feed.candles(name, "T1s", minute, now=now, end=minute + 60)
                return len(answer.candles)

        started = cpu()
        counts = await asyncio.gather(*(one(n) for n in names))
        spent = cpu() - started
        candles = sum(counts)
    tick.cancel()
    return spent, longest, candles


def serve(root: str, port: int) -> None:
    """The files, over HTTP/1.1 with connections kept alive as Dukascopy's are (the standard library's own
    `http.server` command speaks HTTP/1.0 and closes each one)."""

    class Handler(SimpleHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=root, **kwargs)

    ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--instruments", type=int, default=300)
    parser.add_argument("--hours", type=int, default=3)
    parser.add_argument("--ticks", type=int, default=3600, help="ticks per instrument and hour")
    parser.add_argument("--serve", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.port)
        return
    names = instruments(args.instruments)
    with tempfile.TemporaryDirectory() as root:
        size = write_files(Path(root), names, args.hours, args.ticks)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        log = Path(root) / "server.log"
        server = subprocess.Popen(
            [sys.executable, __file__, "--serve", root, "--port", str(port)],
            stdout=subprocess.DEVNULL,
            stderr=log.open("w"),
        )
        try:
            for _ in range(600):  # up to 30 s: a loaded machine starts Python slowly
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
                    break
                except OSError:
                    time.sleep(0.05)
            spent, longest, candles = asyncio.run(run(names, f"http://127.0.0.1:{port}", args.hours))
        finally:
            server.terminate()
            server.wait()
        requests = [line for line in log.read_text().splitlines() if '"GET ' in line]
    paths = [line.split('"GET ')[1].split(" ")[0] for line in requests]
    files = args.instruments * args.hours
    print(
        f"instruments {args.instruments}, hours {args.hours}, ticks per hour {args.ticks}, {size / 1e6:.1f} MB of files"
    )
    print(f"requests {len(paths)} for {files} instrument-hours; repeated {len(paths) - len(set(paths))} (bar: 0)")
    print(f"minute candles {candles}")
    print(f"CPU {spent:.2f} s in all, {spent / args.hours:.3f} s per hour of ticks for all instruments (bar: <= 1 s)")
    print(f"longest event-loop stall {longest * 1000:.0f} ms")


if __name__ == "__main__":
    main()
