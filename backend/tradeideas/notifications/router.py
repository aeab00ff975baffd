"""HTTP routes for a customer's notification settings."""

from tradeideas.core.deps import DbSession
from tradeideas.core.routing import api_router
from tradeideas.notifications import service
from tradeideas.notifications.schemas import NotificationSettings
from tradeideas.permissions import CustomerOnly

router = api_router(prefix="/api", tags=["notifications"])


@router.get("/me/notification-settings")
async def get_notification_settings(principal: CustomerOnly, db: DbSession) -> NotificationSettings:
    """The customer's switches: markets, educators, events and quiet hours (all on by default but chat)."""
    return await service.get_settings(db, principal.id)


@router.put("/me/notification-settings")
async def put_notification_settings(
    body: NotificationSettings, principal: CustomerOnly, db: DbSession
) -> NotificationSettings:
    """Turn markets, educators and events on or off and set quiet hours (markets also shape unseen counts)."""
    return await service.set_settings(db, principal.id, body)
