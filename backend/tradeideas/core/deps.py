"""Request-scoped dependencies shared by every domain, and the typed way to reach the app's components.

`create_app` builds each long-lived component once (database, settings, caches, broker, push runtime) and
registers it by its class; routes and permissions receive them as typed dependencies (`component(Class)`),
so no code outside this module looks anything up on the app.
"""

from collections.abc import AsyncIterator, Callable, Coroutine
from typing import Annotated, Any, TypeVar

from fastapi import Depends, FastAPI, Request
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.db import Database
from tradeideas.settings import Settings

T = TypeVar("T")
# The registry lives in the app object's own attributes: `app.state` answers through a Python-level
# `__getattr__`, which several lookups on every request made a measurable part of the cached list's cost.
_COMPONENTS = "tradeideas_components"


def register_components(app: FastAPI, *components: object) -> None:
    registry: dict[type, object] = vars(app).setdefault(_COMPONENTS, {})
    for item in components:
        registry[type(item)] = item


def component_of(app: FastAPI, kind: type[T]) -> T:
    item = vars(app)[_COMPONENTS][kind]
    assert isinstance(item, kind)
    return item


def component(kind: type[T]) -> Callable[[Request], Coroutine[Any, Any, T]]:
    """A dependency returning the app's `kind` (async: FastAPI would run a plain def in a thread)."""

    async def provide(request: Request) -> T:
        return component_of(request.app, kind)

    provide.__name__ = f"provide_{kind.__name__}"
    return provide


_REQUEST_SESSION = "tradeideas.db_session"


def request_session(request: Request) -> AsyncSession:
    """The request's database session, made on first use: many requests are answered from memory and never
    need one. The `DbSession` dependency and `Principal.user` share it; `DbSession` commits and closes it."""
    session: AsyncSession | None = request.scope.get(_REQUEST_SESSION)
    if session is None:
        session = component_of(request.app, Database).sessionmaker()
        request.scope[_REQUEST_SESSION] = session
    return session


async def _db_session(request: Request) -> AsyncIterator[AsyncSession]:
    # One dependency with no sub-dependencies: FastAPI's cost per request grows with every dependency it solves.
    session = request_session(request)
    try:
        yield session
        if session.in_transaction():  # nothing to commit for requests that never touched the database
            await session.commit()
    except BaseException:
        await session.rollback()
        raise
    finally:
        await session.close()


# scope="function": commit (or roll back) as soon as the handler returns, before the response is
# sent, so a failed commit becomes an error response and after-commit hooks see committed data.
DbSession = Annotated[AsyncSession, Depends(_db_session, scope="function")]
AppSettings = Annotated[Settings, Depends(component(Settings))]
