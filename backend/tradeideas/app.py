"""Application factory: wires settings, database, middleware, domain routers and the SPA."""

import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.routing import APIRoute

from tradeideas.auth.cache import SessionCache
from tradeideas.auth.router import router as auth_router
from tradeideas.chat.router import router as chat_router
from tradeideas.core.errors import install_error_handlers
from tradeideas.core.middleware import SecurityMiddleware
from tradeideas.core.router import router as system_router
from tradeideas.core.schemas import ErrorResponse
from tradeideas.core.spa import mount_spa
from tradeideas.db import Database
from tradeideas.ideas.cache import IdeaCache
from tradeideas.ideas.memory import IdeaListFromMemory
from tradeideas.ideas.router import router as ideas_router
from tradeideas.media.router import files_router as media_files_router
from tradeideas.media.router import router as media_router
from tradeideas.profiles.router import router as profiles_router
from tradeideas.push.router import router as push_router
from tradeideas.push.worker import push_lifespan
from tradeideas.realtime.broker import realtime_lifespan
from tradeideas.realtime.memory import EventStreamFromMemory
from tradeideas.realtime.router import router as realtime_router
from tradeideas.settings import Settings, get_settings

ROUTERS = [system_router, auth_router]
ROUTERS += [chat_router, profiles_router]
ROUTERS += [ideas_router, media_router, media_files_router]
ROUTERS += [realtime_router, push_router]


def _operation_id(route: APIRoute) -> str:
    return route.name


def _events_live(app: FastAPI) -> bool:
    """Caches are only trusted while this process hears every change (no broker yet: not at all)."""
    broker = getattr(app.state, "broker", None)
    return broker is not None and bool(broker.events_live)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    logging.basicConfig(level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with realtime_lifespan(app), push_lifespan(app):
            for cache in (app.state.session_cache, app.state.idea_cache):
                app.state.broker.add_listener(cache.on_event)
            # Everything loaded so far (modules, models, routes) lives as long as the process: move it out of
            # the garbage collector's reach, so full collections stay short and do not stall requests.
            gc.collect()
            gc.freeze()
            yield
        await app.state.db.dispose()

    app = FastAPI(
        title=settings.app_name,
        version="1.0.0",
        description="API of the educational trade-ideas platform for forex and crypto.",
        lifespan=lifespan,
        generate_unique_id_function=_operation_id,
        responses={422: {"model": ErrorResponse}, "4XX": {"model": ErrorResponse}},
        docs_url="/api/docs",
        redoc_url=None,
        openapi_url="/openapi.json",
    )
    app.state.settings = settings
    app.state.db = Database(settings)
    cache_size, cache_age = settings.cache_entries, settings.cache_max_age_seconds
    app.state.session_cache = SessionCache(cache_size, cache_age, lambda: _events_live(app))
    app.state.idea_cache = IdeaCache(cache_size, cache_age, lambda: _events_live(app))
    install_error_handlers(app)
    for router in ROUTERS:
        app.include_router(router)
    mount_spa(app, settings.static_dir)
    # Added first, so they sit inside the security middleware (last added is outermost).
    app.add_middleware(EventStreamFromMemory)
    app.add_middleware(IdeaListFromMemory)
    app.add_middleware(
        SecurityMiddleware,
        max_body_bytes=settings.max_body_bytes,
        max_json_body_bytes=settings.max_json_body_bytes,
    )
    return app
