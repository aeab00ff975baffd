"""Ending event streams when the server is asked to stop.

uvicorn answers SIGTERM and SIGINT by waiting for every open response to finish before it shuts the app down, and
an event stream is open until its client leaves. The server's own signal handlers (installed with `signal.signal`
before the app starts, restored when it stops) stay in charge: a handler chained in front of them, with the standard
library's `signal` module, first ends the streams (clients reconnect to another process and replay) and then hands
the signal on. Nothing of the server is replaced or patched.
"""

import asyncio
import signal
import threading
from collections.abc import Callable
from types import FrameType

EXIT_SIGNALS = (signal.SIGTERM, signal.SIGINT)


def before_exit_signals(loop: asyncio.AbstractEventLoop, action: Callable[[], None]) -> Callable[[], None]:
    """Run `action` on `loop` when an exit signal arrives, then the handler that was there before. Only where a
    server installed its own handler (not Python's defaults: a plain process still stops at once). Returns the
    undo, which leaves alone a handler someone installed after this one."""
    if threading.current_thread() is not threading.main_thread():  # signals can only be handled there
        return lambda: None
    installed: dict[int, tuple[Callable[[int, FrameType | None], None], object]] = {}
    for sig in EXIT_SIGNALS:
        previous = signal.getsignal(sig)
        if not callable(previous) or previous is signal.default_int_handler:
            continue

        def handler(
            signum: int, frame: FrameType | None, previous: Callable[[int, FrameType | None], object] = previous
        ) -> None:
            if not loop.is_closed():
                loop.call_soon_threadsafe(action)
            previous(signum, frame)

        signal.signal(sig, handler)
        installed[sig] = (handler, previous)

    def undo() -> None:
        for sig, (handler, previous) in installed.items():
            if signal.getsignal(sig) is handler:
                signal.signal(sig, previous)  # type: ignore[arg-type]

    return undo
