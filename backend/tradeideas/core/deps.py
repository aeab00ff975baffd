"""Request-scoped dependencies shared by every domain, and the typed way to reach the app's components.

`create_app` builds each long-lived component once (database, settings, caches, broker, push runtime) and
registers it by its class; routes and permissions receive them as typed dependencies (`component(Class)`),
so no code outside this module looks anything up on the app.
"""

from collections.abc import AsyncIterator, Callable, Coroutine
from typing import Annotated, Any, TypeVar

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from lru import LRU
from pydantic import BaseModel, ValidationError
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


M = TypeVar("M", bound=BaseModel)
QUERY_MEMO_ENTRIES = 256
QUERY_MEMO_MAX_BYTES = 512


def query_model(model: type[M]) -> tuple[Callable[[Request], Coroutine[Any, Any, M]], dict[str, Any]]:
    """A dependency that validates a route's query string as one pydantic model, and the OpenAPI text of
    its parameters (pass it as the route's `openapi_extra`).

    For the busiest reads: FastAPI validates declared query parameters one by one and re-inspects each
    annotation on every request, which costs several times one model validation. Unknown parameters are
    ignored and errors are the usual 422, as with declared parameters.
    """
    schema = model.model_json_schema(by_alias=True)
    assert "$defs" not in schema, "query models hold plain values (literals, numbers, strings)"
    parameters = [
        {"in": "query", "name": name, "required": name in schema.get("required", ()), "schema": field}
        for name, field in schema["properties"].items()
    ]

    def validate(request: Request) -> M:
        try:
            return model.model_validate(dict(request.query_params))
        except ValidationError as exc:
            errors = [{**error, "loc": ("query", *error["loc"])} for error in exc.errors(include_url=False)]
            raise RequestValidationError(errors) from None

    if not model.model_config.get("frozen"):

        async def parse(request: Request) -> M:
            return validate(request)

    else:
        # A frozen model can be shared: the same query string (a market page asks for the same one again and
        # again) gets the same object back without parsing it again, and as the key of a cached answer that
        # object is found by identity. Only valid queries are kept, at most QUERY_MEMO_ENTRIES of them.
        seen: LRU[bytes, M] = LRU(QUERY_MEMO_ENTRIES)

        async def parse(request: Request) -> M:
            raw: bytes = request.scope["query_string"]
            found = seen.get(raw)
            if found is None:
                found = validate(request)
                if len(raw) <= QUERY_MEMO_MAX_BYTES:  # unknown parameters are ignored: keep no junk-filled keys
                    seen[raw] = found
            return found

    parse.__name__ = f"parse_{model.__name__}"
    return parse, {"parameters": parameters}
