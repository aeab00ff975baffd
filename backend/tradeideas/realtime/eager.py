"""Run an ASGI `send` call on the spot, from plain (non-async) code, when it does not have to wait.

Fanning one event out to thousands of streams used to wake one task per stream to call `send`: a loop
callback, a task step and a queue round trip per connection, which cost more than the write itself. An
ASGI server's `send` only waits when the connection applies back-pressure (the client is not reading), so
the broker starts each `send` coroutine itself and nearly always sees it finish at once. When it does
wait, what is left of it is handed back as an awaitable for a task to finish. This is what Python 3.12's
eager tasks do; it relies only on the coroutine protocol, not on the server's internals.
"""

from collections.abc import Awaitable, Coroutine, Generator
from typing import Any

from starlette.types import Message, Send


def send_now(send: Send, message: Message) -> Awaitable[None] | None:
    """Call `send(message)` up to its first wait: None when it completed, else an awaitable of the rest.

    The caller must await (or `close()`) the returned awaitable; exceptions raised by `send` before it
    waits propagate to the caller.
    """
    call = send(message)
    assert isinstance(call, Coroutine), "ASGI send must be a coroutine function"
    try:
        waiting_on = call.send(None)
    except StopIteration:
        return None
    return Unfinished(call, waiting_on)


class Unfinished:
    """The rest of a coroutine that was started by hand and is now waiting on `waiting_on`.

    Awaiting it from a task hands the awaited object to that task and then keeps driving the coroutine,
    exactly as if the task had been running it from the start (results, exceptions and cancellation pass
    through unchanged).
    """

    __slots__ = ("call", "waiting_on")

    def __init__(self, call: Coroutine[Any, Any, None], waiting_on: Any) -> None:
        self.call = call
        self.waiting_on = waiting_on

    def __await__(self) -> Generator[Any, Any, None]:
        waiting_on = self.waiting_on
        while True:
            try:
                sent = yield waiting_on
            except BaseException as exc:  # the awaiting task was cancelled (or closed): pass it on
                try:
                    waiting_on = self.call.throw(exc)
                except StopIteration:
                    return
            else:
                try:
                    waiting_on = self.call.send(sent)
                except StopIteration:
                    return

    def close(self) -> None:
        """Abandon the call (when nothing will await it)."""
        self.call.close()
