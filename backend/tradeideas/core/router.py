"""Service routes: health and the public client configuration."""

from fastapi import APIRouter
from sqlalchemy import select, text

from tradeideas.auth.models import Role, User
from tradeideas.auth.schemas import AppConfig, HealthResponse
from tradeideas.core.deps import AppSettings, DbSession
from tradeideas.core.errors import AppError
from tradeideas.permissions import Public

router = APIRouter(prefix="/api", tags=["system"], dependencies=[Public])


@router.get("/health")
async def health(db: DbSession) -> HealthResponse:
    """Liveness and database check."""
    try:
        await db.execute(text("SELECT 1"))
    except Exception as exc:
        raise AppError("Database unavailable", code="database_unavailable", status_code=503) from exc
    return HealthResponse(status="ok", database="ok")


@router.get("/config")
async def app_config(db: DbSession, settings: AppSettings) -> AppConfig:
    """Public settings the SPA needs before login: product name, channel link, educator URL slugs."""
    slugs = (
        await db.execute(
            select(User.slug)
            .where(User.role == Role.EDUCATOR, User.slug.is_not(None), User.disabled.is_(False))
            .order_by(User.id)
        )
    ).scalars()
    return AppConfig(
        app_name=settings.app_name, channel_url=settings.channel_url, educator_slugs=[s for s in slugs if s]
    )
