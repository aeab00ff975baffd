"""HTTP routes of Web Push: the VAPID key, subscriptions and test notifications."""

from fastapi import APIRouter, Request, status

from tradeideas.core.deps import AppSettings, DbSession
from tradeideas.permissions import AnyUser, EducatorOnly
from tradeideas.push import service
from tradeideas.push.schemas import (
    PublicKeyOut,
    PushTestIn,
    PushTestOut,
    SubscriptionIn,
    SubscriptionOut,
    UnsubscribeIn,
)

router = APIRouter(prefix="/api/push", tags=["push"])


@router.get("/public-key")
async def push_public_key(request: Request, principal: AnyUser) -> PublicKeyOut:
    """The VAPID public key to pass to pushManager.subscribe as applicationServerKey."""
    return PublicKeyOut(public_key=request.app.state.vapid.public_key)


@router.post("/subscriptions", status_code=status.HTTP_201_CREATED)
async def subscribe_push(body: SubscriptionIn, principal: AnyUser, db: DbSession) -> SubscriptionOut:
    """Save this browser's push subscription for the caller (upsert by endpoint)."""
    sub = await service.subscribe(db, principal.id, body)
    return SubscriptionOut(id=sub.id, endpoint=sub.endpoint)


@router.delete("/subscriptions", status_code=status.HTTP_204_NO_CONTENT)
async def unsubscribe_push(body: UnsubscribeIn, principal: AnyUser, db: DbSession) -> None:
    """Forget one of the caller's push subscriptions by endpoint."""
    await service.unsubscribe(db, principal.id, body.endpoint)


@router.post("/test")
async def send_test_push(
    body: PushTestIn, request: Request, principal: EducatorOnly, db: DbSession, settings: AppSettings
) -> PushTestOut:
    """Send a test or sample trade notification to the caller's own subscriptions, now."""
    sender = request.app.state.push_sender
    return await service.send_test_notification(db, sender, principal.user, body, settings.app_name)
