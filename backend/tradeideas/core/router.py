"""Service routes: health and the public client configuration."""

from typing import Annotated

from fastapi import APIRouter, Depends
from sqlalchemy import select, text

from tradeideas.auth.models import Role, User
from tradeideas.auth.schemas import AppConfig, HealthResponse
from tradeideas.core.cache import SingleValueCache
from tradeideas.core.deps import AppSettings, DbSession, component
from tradeideas.core.errors import AppError
from tradeideas.permissions import Public
from tradeideas.realtime.broker import Broker

router = APIRouter(prefix="/api", tags=["system"], dependencies=[Public])


@router.get("/health")
async def health(db: DbSession, broker: Annotated[Broker, Depends(component(Broker))]) -> HealthResponse:
    """Liveness, database and cross-process event check."""
    try:
        await db.execute(text("SELECT 1"))
    except Exception as exc:
        raise AppError("Database unavailable", code="database_unavailable", status_code=503) from exc
    return HealthResponse(status="ok", database="ok", events="live" if broker.events_live else "degraded")


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
    slugs = (
        await db.execute(
            select(User.slug)
            .where(User.role == Role.EDUCATOR, User.slug.is_not(None), User.disabled.is_(False))
            .order_by(User.id)
        )
    ).scalars()
    config = AppConfig(
        app_name=settings.app_name, channel_url=settings.channel_url, educator_slugs=[s for s in slugs if s]
    )
    cache.put(config, generation)
    return config
