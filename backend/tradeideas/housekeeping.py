"""Housekeeping: delete what is no longer needed (expired sessions, old login failures, used or expired
account links, events past their replay window). `tradeideas housekeeping` runs it once and reports."""

from sqlalchemy import delete, or_
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.admin.models import AccountToken
from tradeideas.auth import service as auth_service
from tradeideas.db import utcnow
from tradeideas.realtime.service import prune_events
from tradeideas.settings import Settings


async def run_once(db: AsyncSession, settings: Settings) -> dict[str, int]:
    """What was removed, by kind."""
    sessions, attempts = await auth_service.purge_expired(db, settings)
    links = await db.execute(
        delete(AccountToken).where(or_(AccountToken.used_at.is_not(None), AccountToken.expires_at <= utcnow()))
    )
    events = await prune_events(db, settings.events_keep_days)
    return {
        "expired sessions": sessions,
        "old login failures": attempts,
        "used or expired invitation and reset links": int(getattr(links, "rowcount", 0) or 0),
        "events past the replay window": events,
    }
