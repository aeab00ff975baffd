"""After-commit hooks: code that must run only once a session's transaction has really committed.

A service marks its session with `after_commit(db, key, item)`; when that session commits, every callback
registered for `key` on the same database (by URL, so several app instances in one process all hear it)
runs once with the items marked under that key (for example the events the transaction recorded). A rollback
drops the marks. Callbacks must be quick and non-blocking (they wake background tasks, drop cache entries).
"""

import logging
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

log = logging.getLogger(__name__)

_MARKS = "tradeideas.after_commit"
CommitCallback = Callable[[Sequence[Any]], None]
_CALLBACKS: dict[tuple[str, str], list[CommitCallback]] = {}


def engine_key(engine: Engine) -> str:
    return engine.url.render_as_string(hide_password=True)


def after_commit(db: AsyncSession, key: str, item: Any = None) -> None:
    """Run the callbacks registered for `key` after this session's current transaction commits.

    `item` (when given) is passed on to the callbacks, with the others marked under `key`.
    """
    items: list[Any] = db.info.setdefault(_MARKS, {}).setdefault(key, [])
    if item is not None:
        items.append(item)


def register(engine: Engine, key: str, callback: CommitCallback) -> Callable[[], None]:
    """Call `callback(items)` after any commit marked with `key` on this database; returns the unregister function."""
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
    marks: dict[str, list[Any]] | None = session.info.pop(_MARKS, None)
    if not marks:
        return
    bind = session.get_bind()
    url = engine_key(bind if isinstance(bind, Engine) else bind.engine)
    for key, items in marks.items():
        for callback in list(_CALLBACKS.get((url, key), ())):
            try:
                callback(items)
            except Exception:
                log.exception("after-commit callback %s failed", key)


@event.listens_for(Session, "after_rollback")
def _drop_marks(session: Session, *_: Any) -> None:
    session.info.pop(_MARKS, None)
