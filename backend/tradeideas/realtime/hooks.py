"""After-commit hooks: code that must run only once a session's transaction has really committed.

A service marks its session with `after_commit(db, key)`; when that session commits, every callback
registered for `key` on the same database (by URL, so several app instances in one process all hear it)
runs. A rollback drops the marks. Callbacks must be quick and non-blocking (they wake background tasks).
"""

import logging
from collections.abc import Callable
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

log = logging.getLogger(__name__)

_MARKS = "tradeideas.after_commit"
_CALLBACKS: dict[tuple[str, str], list[Callable[[], None]]] = {}


def engine_key(engine: Engine) -> str:
    return engine.url.render_as_string(hide_password=True)


def after_commit(db: AsyncSession, key: str) -> None:
    """Run the callbacks registered for `key` after this session's current transaction commits."""
    db.info.setdefault(_MARKS, set()).add(key)


def register(engine: Engine, key: str, callback: Callable[[], None]) -> Callable[[], None]:
    """Call `callback` after any commit marked with `key` on this database; returns the unregister function."""
    slot = _CALLBACKS.setdefault((engine_key(engine), key), [])
    slot.append(callback)

    def unregister() -> None:
        if callback in slot:
            slot.remove(callback)

    return unregister


@event.listens_for(Session, "after_commit")
def _run_after_commit(session: Session) -> None:
    root = session.get_transaction()
    if root is not None and root.is_active:
        # SQLAlchemy also signals after_commit when a savepoint (begin_nested) is released; the outer
        # transaction is still open then, and its changes are not visible to other connections yet.
        return
    marks: set[str] | None = session.info.pop(_MARKS, None)
    if not marks:
        return
    bind = session.get_bind()
    url = engine_key(bind if isinstance(bind, Engine) else bind.engine)
    for key in marks:
        for callback in list(_CALLBACKS.get((url, key), ())):
            try:
                callback()
            except Exception:
                log.exception("after-commit callback %s failed", key)


@event.listens_for(Session, "after_rollback")
def _drop_marks(session: Session, *_: Any) -> None:
    session.info.pop(_MARKS, None)
