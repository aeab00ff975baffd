"""Application factory: wires settings, database, middleware, domain routers and the SPA."""

import gc
import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

from fastapi import FastAPI
from sqlalchemy.ext.asyncio import AsyncSession
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from tradeideas.admin import service as admin_service
from tradeideas.admin.router import links_router as admin_links_router
from tradeideas.admin.router import router as admin_router
from tradeideas.auth import events as auth_events
from tradeideas.auth.cache import SessionCache
from tradeideas.auth.events import LoginLockedOut, UserChanged
from tradeideas.auth.models import Role
from tradeideas.auth.router import router as auth_router
from tradeideas.backup import ServerPresence
from tradeideas.chat import events as chat_events
from tradeideas.chat import service as chat_service
from tradeideas.chat.events import ChatMessageCreated, ChatMessageDeleted
from tradeideas.chat.router import router as chat_router
from tradeideas.core import metrics
from tradeideas.core.clock import Clock
from tradeideas.core.deps import register_components
from tradeideas.core.errors import install_error_handlers
from tradeideas.core.events import EventBus
from tradeideas.core.fastlane import check_fast_routes
from tradeideas.core.leader import Leader
from tradeideas.core.logs import ACCESS_LOGGER, configure_logging
from tradeideas.core.middleware import AppEdge, CompressJSON, SecurityMiddleware
from tradeideas.core.proxies import TrustedProxies
from tradeideas.core.spa import mount_spa
from tradeideas.db import Database
from tradeideas.desk import events as desk_events
from tradeideas.desk.router import router as desk_router
from tradeideas.housekeeping import Housekeeping
from tradeideas.ideas import events as idea_events
from tradeideas.ideas import service as ideas_service
from tradeideas.ideas.cache import IdeaCache
from tradeideas.ideas.events import (
    IdeaCreated,
    IdeaDeleted,
    IdeaRecordChanged,
    IdeasSeen,
    IdeaStatusChanged,
    IdeaUpdated,
    IdeaWithdrawn,
)
from tradeideas.ideas.pages import IdeaPages
from tradeideas.ideas.router import fast as ideas_fast_router
from tradeideas.ideas.router import router as ideas_router
from tradeideas.ledger import service as ledger
from tradeideas.ledger.router import router as proof_router
from tradeideas.media.router import files_router as media_files_router
from tradeideas.media.router import router as media_router
from tradeideas.notifications import events as notification_events
from tradeideas.notifications.events import NotificationSettingsChanged
from tradeideas.notifications.router import router as notifications_router
from tradeideas.prices import events as price_events
from tradeideas.prices import service as price_checks
from tradeideas.prices.events import IdeaPriceChecked, IdeaVerificationChanged
from tradeideas.prices.poller import PricePoller
from tradeideas.prices.router import router as prices_router
from tradeideas.profiles.router import router as profiles_router
from tradeideas.push.router import router as push_router
from tradeideas.push.service import enqueue_chat_push, enqueue_idea_closed_push, enqueue_idea_push
from tradeideas.push.worker import PushRuntime
from tradeideas.realtime.broker import Broker
from tradeideas.realtime.router import router as realtime_router
from tradeideas.realtime.schemas import document_events
from tradeideas.settings import Settings, get_settings
from tradeideas.system.router import PublicConfigCache, metrics_router
from tradeideas.system.router import router as system_router
from tradeideas.trackrecords import service as track_records
from tradeideas.trackrecords.cache import FOLLOWERS, PARTS, VERIFIED, TrackRecordCache
from tradeideas.trackrecords.router import fast as track_records_fast_router
from tradeideas.trackrecords.router import router as track_records_router

# The composition root: every router, included in this order (FastAPI matches routes first to last, so the
# busiest, the idea lists and the event stream, come first). A new domain adds its router here.
ROUTERS = [ideas_fast_router, ideas_router, realtime_router, system_router, auth_router]
ROUTERS += [chat_router, profiles_router, notifications_router]
ROUTERS += [
    media_router,
    media_files_router,
    push_router,
    track_records_fast_router,
    track_records_router,
    desk_router,
    prices_router,
]
ROUTERS += [admin_router, admin_links_router, proof_router, metrics_router]

# Every event any domain publishes; the `/api/events` OpenAPI text documents their union.
EVENTS = (
    *idea_events.EVENTS,
    *chat_events.EVENTS,
    *auth_events.EVENTS,
    *desk_events.EVENTS,
    *notification_events.EVENTS,
    *price_events.EVENTS,
)


def subscribe(
    bus: EventBus,
    settings: Settings,
    sessions: SessionCache,
    ideas: IdeaCache,
    public_config: PublicConfigCache,
    push: PushRuntime,
    broker: Broker,
    records: TrackRecordCache,
) -> None:
    """Who reacts to which event: the one place where domains are wired to each other's changes."""

    async def queue_pushes(db: AsyncSession, idea: IdeaCreated) -> None:
        await enqueue_idea_push(db, idea, settings)

    async def queue_closed_pushes(db: AsyncSession, idea: IdeaStatusChanged) -> None:
        await enqueue_idea_closed_push(db, idea, settings)

    async def queue_chat_pushes(db: AsyncSession, message: ChatMessageCreated) -> None:
        room = await chat_service.get_room(db, message.room_id)
        await enqueue_chat_push(db, message, room.name)

    async def recount_unseen(db: AsyncSession, event: NotificationSettingsChanged) -> None:
        await ideas_service.recount_unseen(db, event.user_id)

    def user_changed(event: UserChanged) -> None:
        sessions.forget_user(event.user_id)
        broker.on_user_changed(event.user_id)  # streams opened with an ended session close
        if event.role == Role.EDUCATOR:  # names and photos appear on ideas, URL slugs in the public config
            ideas.drop_pages()
            public_config.clear()
            records.drop_all()  # profiles are part of every record

    def educator_ideas_changed(event: idea_events.EducatorIdeaEvent) -> None:
        # A deleted idea takes its price check and its members' "taken" sums with it (cascades, no event of theirs).
        gone = isinstance(event, (IdeaDeleted, IdeaWithdrawn))
        records.drop_educator(event.educator_id, PARTS if gone else ())

    # Every change that shapes the record is appended to the ledger in its own transaction, as it commits (the
    # append turn is taken last, after any other lock, in every transaction: decision 0065).
    bus.during(IdeaCreated, ledger.on_idea_published)
    bus.during(IdeaUpdated, ledger.on_idea_edited)
    bus.during(IdeaStatusChanged, ledger.on_idea_result)
    bus.during(IdeaDeleted, ledger.on_idea_deleted)
    bus.during(IdeaPriceChecked, ledger.on_price_checked)  # each step of the independent settlement
    bus.during(IdeaCreated, queue_pushes)  # same transaction: the deliveries commit with the idea
    # Same transaction: a track record never differs from the ideas it counts.
    bus.during(IdeaRecordChanged, track_records.on_record_changed)
    bus.during(IdeaWithdrawn, track_records.on_withdrawn)
    bus.after_commit(IdeaCreated, push.wake)
    bus.during(IdeaStatusChanged, queue_closed_pushes)  # ideaClosed pushes, when the status ends the idea

    async def educator_outcome(db: AsyncSession, idea: IdeaStatusChanged) -> None:
        await price_checks.educator_outcome_changed(db, idea.id, idea.outcome, settings)

    # Same transaction: the price check's `agrees` follows the educator's call as it is recorded.
    bus.during(IdeaStatusChanged, educator_outcome)

    # A price check shows on every idea (list pages) and in verified track-record figures. A poll round commits its
    # changes together: the pages are dropped once per round, and each educator's record once.
    def verifications_changed(events: Sequence[IdeaVerificationChanged]) -> None:
        ideas.drop_pages()
        for educator_id in {event.educator_id for event in events}:
            records.drop_educator(educator_id, [VERIFIED])

    bus.after_commit_batch(IdeaVerificationChanged, verifications_changed)
    bus.after_commit(IdeaStatusChanged, push.wake)
    bus.during(ChatMessageCreated, queue_chat_pushes)  # chatMessage pushes, for those who switched them on
    bus.after_commit(ChatMessageCreated, push.wake)
    bus.after_commit(idea_events.IDEA_CHANGES, ideas.drop_pages)
    # Open ideas are counted in records too: any change to an educator's ideas drops their answers.
    bus.after_commit(idea_events.EDUCATOR_IDEA_CHANGES, educator_ideas_changed)
    bus.after_commit(IdeasSeen, lambda event: ideas.forget_seen(event.user_id))

    # Called versus taken: an idea shows its members' aggregate, an educator's record their followers.
    def taken_changed(event: desk_events.IdeaTakenChanged) -> None:
        if event.shown_changed:
            ideas.drop_pages()
        records.drop_educator(event.educator_id, [FOLLOWERS])

    bus.after_commit(desk_events.IdeaTakenChanged, taken_changed)
    # Unseen counts and NEW tags follow the markets and educators a customer hears about.
    bus.during(NotificationSettingsChanged, recount_unseen)
    bus.after_commit(UserChanged, user_changed)
    # The audit log records educators' deletions and login lockouts in the transaction that makes them.
    bus.during(IdeaDeleted, admin_service.audit_idea_deleted)
    bus.during(ChatMessageDeleted, admin_service.audit_message_deleted)
    bus.during(LoginLockedOut, admin_service.audit_lockout(settings))


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    configure_logging(settings)
    bus = EventBus(EVENTS)
    db = Database(settings, bus)
    broker = Broker(db, settings, bus)
    cache_size, cache_age = settings.cache_entries, settings.cache_max_age_seconds
    session_cache = SessionCache(cache_size, cache_age, lambda: broker.events_live)
    idea_cache = IdeaCache(cache_size, cache_age, lambda: broker.events_live)
    public_config = PublicConfigCache(cache_size > 0, cache_age, lambda: broker.events_live)
    record_cache = TrackRecordCache(cache_size, cache_age, lambda: broker.events_live)
    push = PushRuntime(db, settings)
    clock = Clock()
    leader = Leader(db, settings)  # background work that must run once runs in the process that leads
    housekeeping = Housekeeping(db, settings, leader, clock.now)
    price_poller = PricePoller(db, settings, leader, clock.now)
    presence = ServerPresence(settings)  # `tradeideas restore` refuses to replace a database in use
    subscribe(bus, settings, session_cache, idea_cache, public_config, push, broker, record_cache)

    # Changes made elsewhere may have been missed while the listener was down (and caches were short-lived).
    def events_live_changed(_live: bool) -> None:
        session_cache.clear()
        idea_cache.clear()
        public_config.clear()
        record_cache.clear()

    broker.live_listeners.append(events_live_changed)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        presence.enter()
        shared_metrics = metrics.multiprocess_dir()
        if shared_metrics is not None:  # a worker that crashed before this one started left its streams counted
            metrics.forget_dead_processes(shared_metrics)
        await broker.start()
        await push.start()
        await leader.start()
        await housekeeping.start()
        await price_poller.start()
        try:
            # Everything loaded so far (modules, models, routes) lives as long as the process: move it out of
            # the garbage collector's reach, so full collections stay short and do not stall requests.
            gc.collect()
            gc.freeze()
            yield
        finally:
            await price_poller.stop()
            await housekeeping.stop()
            await leader.stop()
            await push.stop()
            await broker.stop()
            await db.dispose()
            metrics.process_stopping()
            presence.exit()

    app = FastAPI(
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
    idea_pages = IdeaPages(db, idea_cache, clock.now)
    components = (
        settings,
        db,
        bus,
        broker,
        session_cache,
        idea_cache,
        idea_pages,
        public_config,
        record_cache,
        push,
        clock,
        leader,
        price_poller,
    )
    register_components(app, *components)
    # Kept for tests and operator scripts; application code reaches components through `core.deps`.
    app.state.settings, app.state.db = settings, db
    unexpected_error = install_error_handlers(app)
    for router in ROUTERS:
        app.include_router(router)
    check_fast_routes(app)  # a route declared fast that no longer qualifies stops the app here, named
    document_events(app, EVENTS)
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
    # Outermost of the app's own layers (inside Starlette's `ServerErrorMiddleware`): request id, security headers,
    # metrics and access lines for every answer, an unexpected error's 500 included.
    app.add_middleware(
        AppEdge,
        on_error=unexpected_error,
        access_log=logging.getLogger(ACCESS_LOGGER),
        trusted_proxies=TrustedProxies(settings.forwarded_allow_ips),
        stream_position=lambda: broker.high_water,
    )
    return app
