"""Service routes: health, metrics and the public client configuration."""

import logging
from typing import Annotated

from fastapi import Depends, Response
from sqlalchemy import text

from tradeideas.auth import service as auth_service
from tradeideas.auth.schemas import AppConfig, HealthResponse, PriceFeedHealth, PushBacklog, TimestampAuthorityHealth
from tradeideas.core import metrics
from tradeideas.core.cache import SingleValueCache
from tradeideas.core.deps import AppSettings, DbSession, component
from tradeideas.core.drain import Drain
from tradeideas.core.errors import AppError
from tradeideas.core.routing import api_router
from tradeideas.ledger import timestamps
from tradeideas.media import service as media_service
from tradeideas.permissions import MetricsScraper, Public
from tradeideas.prices import reads as price_checks
from tradeideas.push import service as push_service
from tradeideas.realtime.broker import Broker

log = logging.getLogger(__name__)

router = api_router(prefix="/api", tags=["system"], dependencies=[Public])
# Not under /api and not in the OpenAPI document: only operators' scrapers are meant to find it.
metrics_router = api_router(dependencies=[MetricsScraper], include_in_schema=False)


DRAINING = "This server is shutting down."


@router.get("/health", responses={503: {}})
async def health(
    db: DbSession,
    settings: AppSettings,
    broker: Annotated[Broker, Depends(component(Broker))],
    drain: Annotated[Drain, Depends(component(Drain))],
) -> HealthResponse:
    """Readiness: database, listener, media store, push queue, feeds, authorities (503: no database, or draining)."""
    if drain.draining:  # a balancer stops sending here; requests in flight still finish (decision 0160)
        raise AppError(DRAINING, code="draining", status_code=503)
    try:
        await db.execute(text("SELECT 1"))
        backlog = await push_service.backlog(db)
        price_feed, price_feeds = await price_checks.feed_status(db, settings)
        authorities = await timestamps.health(db, settings)
    except Exception as exc:
        raise AppError("Database unavailable", code="database_unavailable", status_code=503) from exc
    media_ok = await media_service.store_reachable(settings)
    return HealthResponse(
        status="ok",
        database="ok",
        events="live" if broker.events_live else "degraded",
        listener=broker.listener_state,
        media="ok" if media_ok else "unavailable",
        media_store=settings.media_store,
        push_backlog=PushBacklog(
            queued=backlog["due"] + backlog["scheduled"] + backlog["sending"], due=backlog["due"], held=backlog["held"]
        ),
        price_feed=price_feed,
        price_feeds={name: PriceFeedHealth.model_validate(report) for name, report in price_feeds.items()},
        timestamp_authorities={
            a.url: TimestampAuthorityHealth(
                last_success=a.last_success, last_failure=a.last_failure, failing=a.last_error
            )
            for a in authorities
        },
    )


@metrics_router.get("/metrics")
async def prometheus_metrics(db: DbSession) -> Response:
    """Prometheus text exposition of every server process's metrics (loopback callers or the metrics token)."""
    try:
        queue = [metrics.push_queue_family(await push_service.backlog(db))]
    except Exception:  # the process's own figures are still worth a scrape while the database is away
        log.warning("push queue depth unavailable for /metrics", exc_info=True)
        await db.rollback()
        queue = []
    return Response(metrics.render(queue), media_type=metrics.CONTENT_TYPE)


class PublicConfigCache(SingleValueCache):
    """The `/api/config` answer; educators' changes (slugs, disabling) drop it (see `create_app`)."""


@router.get("/config")
async def app_config(
    db: DbSession, settings: AppSettings, cache: Annotated[PublicConfigCache, Depends(component(PublicConfigCache))]
) -> AppConfig:
    """Public settings the SPA needs before login: product name, channel link, educator URL slugs."""
    cached = cache.get()
    if isinstance(cached, AppConfig):
        return cached
    generation = cache.generation
    slugs = await auth_service.educator_slugs(db)
    config = AppConfig(
        app_name=settings.app_name,
        channel_url=settings.channel_url,
        support_contact=settings.support_contact,
        educator_slugs=slugs,
    )
    cache.put(config, generation)
    return config
