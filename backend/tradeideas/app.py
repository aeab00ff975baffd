"""Application factory: wires settings, database, middleware, the domains' routers (`domains.DOMAINS`) and the SPA."""

import asyncio
import gc
import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

from fastapi import FastAPI
from starlette.types import Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from tradeideas.backup import ServerPresence
from tradeideas.billing.gateway import Payments
from tradeideas.core import metrics
from tradeideas.core.deps import register_components
from tradeideas.core.domain import Domain
from tradeideas.core.drain import CountInFlight, Drain
from tradeideas.core.errors import install_error_handlers
from tradeideas.core.fastlane import FrontLane, check_fast_routes
from tradeideas.core.logs import ACCESS_LOGGER, configure_logging
from tradeideas.core.middleware import EVENTS_PATH, SERVER_SEND, AppEdge, CompressJSON, SecurityMiddleware
from tradeideas.core.proxies import TrustedProxies
from tradeideas.core.spa import mount_spa
from tradeideas.domains import DOMAINS
from tradeideas.ideas.pages import IdeaPages
from tradeideas.realtime.schemas import document_events
from tradeideas.realtime.shutdown import before_exit_signals
from tradeideas.runtime import Runtime
from tradeideas.settings import Settings, get_settings


class TradeIdeasApp(FastAPI):
    """FastAPI, with its fast routes answered in front of FastAPI's own layers (`core.fastlane.FrontLane`, decision
    0197), and keeping the server's own `send` in each request's scope (`core.middleware.server_send`): an event
    stream's frames go out there, not through a wrapper per middleware layer, once its answer has started through
    all of them (decision 0111)."""

    front_lane: FrontLane | None = None  # set by `create_app` once the routes and middleware are declared

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        # A coroutine function (servers tell ASGI 3 apps by it), so one small frame per request.
        scope[SERVER_SEND] = send
        lane = self.front_lane
        if lane is not None and scope["type"] == "http":
            route = lane.route_for(scope)
            if route is not None:
                await lane.serve(route, scope, receive, send)
                return
        await super().__call__(scope, receive, send)


def create_app(settings: Settings | None = None, domains: Sequence[Domain] = DOMAINS) -> TradeIdeasApp:
    """The serving process: requests and event streams only. Background work (price checks, push delivery,
    housekeeping) runs in `tradeideas worker` processes, which `tradeideas serve` supervises (decision 0110).

    Its routes and events are those of `domains` (`tradeideas.domains.DOMAINS`, in their order); tests pass another
    list to add a domain of their own."""
    settings = settings or get_settings()
    configure_logging(settings)
    runtime = Runtime(settings, prune_events=False, domains=domains)
    db, broker, push = runtime.db, runtime.broker, runtime.push
    presence = ServerPresence(settings)  # `tradeideas restore` refuses to replace a database in use
    # On SIGTERM: not-ready at once, requests in flight finish, then the event streams end (decision 0160).
    drain = Drain(settings.drain_seconds, frozenset({EVENTS_PATH}))
    drain.on_drained.append(broker.close_streams)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        presence.enter()
        shared_metrics = metrics.multiprocess_dir()
        if shared_metrics is not None:  # a worker that crashed before this one started left its streams counted
            metrics.forget_dead_processes(shared_metrics)
        await broker.start()
        await push.start()  # keys and sender for test notifications; delivery is the background worker's
        # uvicorn would wait for open streams before it stops: they end once the drain is over.
        undo_exit_hook = before_exit_signals(asyncio.get_running_loop(), drain.begin)
        try:
            # Everything loaded so far (modules, models, routes) lives as long as the process: move it out of
            # the garbage collector's reach, so full collections stay short and do not stall requests.
            gc.collect()
            gc.freeze()
            yield
        finally:
            undo_exit_hook()
            await push.stop()
            await broker.stop()
            await db.dispose()
            metrics.process_stopping()
            presence.exit()

    app = TradeIdeasApp(
        title=settings.app_name,
        version="1.0.0",
        description="API of the educational trade-ideas platform for forex and crypto.",
        lifespan=lifespan,
        docs_url="/api/docs",
        redoc_url=None,
        openapi_url="/openapi.json",
        # FastAPI's OpenTelemetry hooks look for providers on every request; this app exports none.
        telemetry={"tracing": False, "metrics": False, "logs": False},
    )
    idea_pages = IdeaPages(db, runtime.ideas, runtime.clock.now)
    components = (
        settings,
        db,
        runtime.bus,
        broker,
        runtime.sessions,
        runtime.ideas,
        idea_pages,
        runtime.public_config,
        runtime.records,
        push,
        runtime.clock,
        runtime.access,
        Payments(settings),
        drain,
    )
    register_components(app, *components)
    # Kept for tests and operator scripts; application code reaches components through `core.deps`.
    app.state.settings, app.state.db, app.state.runtime = settings, db, runtime
    unexpected_error = install_error_handlers(app)
    for domain in domains:
        for router in domain.routers():
            app.include_router(router)
    check_fast_routes(app)  # a route declared fast that no longer qualifies stops the app here, named
    document_events(app, runtime.events)
    mount_spa(app, settings.static_dir)
    # Added first, so it sits inside the security middleware (last added is outermost).
    app.add_middleware(CompressJSON)
    app.add_middleware(
        SecurityMiddleware,
        max_body_bytes=settings.max_body_bytes,
        max_json_body_bytes=settings.max_json_body_bytes,
    )
    # Outermost of these, inside `AppEdge` (which judges X-Request-ID by the peer itself): the client address
    # (login limits, the metrics check) and scheme (secure cookies) a trusted proxy forwards. `tradeideas serve`
    # leaves this to the app, not to uvicorn (its proxy_headers would hide the peer from the edge).
    app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=settings.forwarded_allow_ips)
    # Counts the requests a drain waits for: every one that reached the app, its errors included.
    app.add_middleware(CountInFlight, drain=drain)
    # Outermost of the app's own layers (inside Starlette's `ServerErrorMiddleware`): request id, security headers,
    # metrics and access lines for every answer, an unexpected error's 500 included.
    app.add_middleware(
        AppEdge,
        on_error=unexpected_error,
        access_log=logging.getLogger(ACCESS_LOGGER),
        trusted_proxies=TrustedProxies(settings.forwarded_allow_ips),
        stream_position=lambda: broker.high_water,
    )
    app.front_lane = FrontLane(app)  # last: it is built from the routes and middleware declared above
    return app
