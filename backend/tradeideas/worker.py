"""`tradeideas worker`: a background worker process, and how `tradeideas serve` supervises its workers.

A worker runs the work no request waits for (`runtime.Background`: price checks and their adoption, push delivery,
housekeeping with the day fingerprints, event pruning) on an event loop of its own, so a backlog of 100,000 ideas
to adopt costs the serving processes nothing but the database's time (decision 0110). Any number of workers may
run, on any machine that reaches the database: the once-only work runs in the one that leads (decision 0049), and
each delivers pushes (deliveries are claimed, never sent twice).

`tradeideas serve` starts `BACKGROUND_WORKERS` of them beside the server and starts a new one when one exits;
each watches the process that started it and stops when it is gone, so a killed supervisor leaves no worker
behind holding the lead.
"""

import asyncio
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from contextlib import suppress

from tradeideas.backup import ServerPresence
from tradeideas.core import metrics
from tradeideas.runtime import Background, Runtime
from tradeideas.settings import Settings

log = logging.getLogger(__name__)

# How often a supervised worker checks that its supervisor still runs.
SUPERVISOR_CHECK_SECONDS = 1.0
# A worker that exits is started again after this long, doubling while it keeps exiting within a minute.
RESTART_FIRST_SECONDS = 1.0
RESTART_MAX_SECONDS = 30.0
STEADY_SECONDS = 60.0
STOP_TIMEOUT_SECONDS = 15.0


async def run(settings: Settings, supervisor_pid: int | None = None) -> None:
    """Run the background work until SIGTERM or SIGINT (or until the supervisor `supervisor_pid` is gone)."""
    os.nice(settings.background_nice)  # on a shared machine the serving processes' requests get the CPU first
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stopping.set)
    runtime = Runtime(settings, prune_events=True)
    background = Background(runtime)
    presence = ServerPresence(settings)  # `tradeideas restore` refuses while a worker writes to the database
    presence.enter()
    shared_metrics = metrics.multiprocess_dir()
    if shared_metrics is not None:
        metrics.forget_dead_processes(shared_metrics)
    await runtime.broker.start()  # hears every process's events: new ideas wake the push delivery
    await runtime.push.start()
    await background.start()
    log.info("background worker %d started", os.getpid())
    watch = asyncio.create_task(_watch_supervisor(supervisor_pid, stopping)) if supervisor_pid else None
    try:
        await stopping.wait()
    finally:
        if watch is not None:
            watch.cancel()
        await background.stop()
        await runtime.push.stop()
        await runtime.broker.stop()
        await runtime.db.dispose()
        metrics.process_stopping()
        presence.exit()
        log.info("background worker %d stopped", os.getpid())


async def _watch_supervisor(pid: int, stopping: asyncio.Event) -> None:
    while True:  # nothing signals a parent's death to a child: look
        await asyncio.sleep(SUPERVISOR_CHECK_SECONDS)
        if os.getppid() != pid:
            break
    log.warning("the supervisor (process %d) is gone: stopping", pid)
    stopping.set()


class Supervisor:
    """`BACKGROUND_WORKERS` worker processes beside `tradeideas serve`, each started again when it exits.

    Workers run in a session of their own: a Ctrl+C in the terminal reaches the server, which stops them when it
    has stopped (`stop`), instead of racing it."""

    def __init__(self, count: int) -> None:
        self.count = count
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self.processes: list[subprocess.Popen[bytes] | None] = [None] * count
        self._threads: list[threading.Thread] = []

    def start(self) -> None:
        for slot in range(self.count):
            thread = threading.Thread(target=self._keep, args=(slot,), name=f"background-worker-{slot}", daemon=True)
            thread.start()
            self._threads.append(thread)

    def _spawn(self) -> subprocess.Popen[bytes]:
        command = [sys.executable, "-m", "tradeideas.cli", "worker", "--supervised-by", str(os.getpid())]
        return subprocess.Popen(command, start_new_session=True)  # noqa: S603 - our own interpreter and module

    def _keep(self, slot: int) -> None:
        delay = RESTART_FIRST_SECONDS
        while True:
            with self._lock:
                if self._stopping.is_set():
                    return
                proc = self._spawn()
                self.processes[slot] = proc
            started = time.monotonic()
            code = proc.wait()
            if self._stopping.is_set():
                return
            if time.monotonic() - started > STEADY_SECONDS:
                delay = RESTART_FIRST_SECONDS
            log.warning("background worker %d exited with %s; starting another in %.0f s", proc.pid, code, delay)
            self._stopping.wait(delay)  # a pause that `stop` cuts short
            delay = min(delay * 2, RESTART_MAX_SECONDS)

    def stop(self) -> None:
        """SIGTERM every worker and wait for it (a kill after `STOP_TIMEOUT_SECONDS`)."""
        with self._lock:
            self._stopping.set()
            running = [p for p in self.processes if p is not None and p.poll() is None]
        for proc in running:
            with suppress(ProcessLookupError):
                proc.send_signal(signal.SIGTERM)
        for proc in running:
            try:
                proc.wait(STOP_TIMEOUT_SECONDS)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
