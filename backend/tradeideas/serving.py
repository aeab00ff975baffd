"""Running the app under uvicorn: one process, or uvicorn's supervisor with `WORKERS` processes that each accept
connections on a listening socket of their own (decision record 0066).

uvicorn's supervisor binds one socket and hands a copy of it to every worker. All of them then wait on the same
queue of new connections, and the first worker to wake accepts every connection waiting there (the event loop
accepts until none is left): sixteen connections opened together mostly landed on one worker, which ran at full
CPU while the other idled (bench/RESULTS.md). With `SO_REUSEPORT` each worker listens on its own socket bound to
the same address, and the kernel deals new connections among them.
"""

import contextlib
import logging
import socket
import sys
from typing import Any

import uvicorn
from uvicorn.config import STARTUP_FAILURE
from uvicorn.supervisors import Multiprocess

logger = logging.getLogger("uvicorn.error")


class WorkerSocket(socket.socket):
    """The server's address, bound with `SO_REUSEPORT` (and never listened on here). uvicorn's supervisor pickles
    the sockets it is given into each worker it starts; this one arrives there as a new socket bound to the same
    address, so each worker listens on its own. A worker started later (one that died, or a reload) binds its own
    in the same way."""

    def __reduce__(self) -> tuple[Any, ...]:
        host, port = self.getsockname()[:2]
        return bind_shared_port, (self.family, host, port)


def bind_shared_port(family: socket.AddressFamily, host: str, port: int) -> WorkerSocket:
    """A TCP socket bound to `host:port` that other sockets of this user may bind too (`SO_REUSEPORT`)."""
    sock = WorkerSocket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


def free_port(family: socket.AddressFamily, host: str, port: int) -> int:
    """`port` (or a free one for 0) once nothing listens on it. Checked with a plain bind, which fails while
    anything holds the port, another server whose sockets share it included: two servers started on one port by
    mistake would otherwise share its connections without a word."""
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds: past TIME_WAIT connections
        probe.bind((host, port))
        return int(probe.getsockname()[1])


def serve(config: uvicorn.Config) -> None:
    """Serve `config` (its app an import string) in this process, or with `config.workers` worker processes
    supervised by uvicorn (health checks, replacing a dead worker, SIGHUP restarts), each on its own socket."""
    if config.workers <= 1:
        server = uvicorn.Server(config)
        # As `uvicorn.run`: the server hands a Ctrl+C back once it has shut down, which is no error here.
        with contextlib.suppress(KeyboardInterrupt):
            server.run()
        if not server.started:
            sys.exit(STARTUP_FAILURE)
        return
    family = socket.AF_INET6 if ":" in config.host else socket.AF_INET
    try:
        port = free_port(family, config.host, config.port)
        sock = bind_shared_port(family, config.host, port)
    except OSError as error:
        logger.error("Cannot listen on %s:%s: %s", config.host, config.port, error)
        sys.exit(STARTUP_FAILURE)
    try:
        Multiprocess(config, sockets=[sock]).run()
    finally:
        sock.close()
