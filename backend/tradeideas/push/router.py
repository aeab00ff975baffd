"""HTTP routes of Web Push: the VAPID key, subscriptions and test notifications."""

from typing import Annotated

from fastapi import Depends, status

from tradeideas.core.deps import AppSettings, DbSession, component
from tradeideas.core.routing import api_router
from tradeideas.permissions import AnyUser, CustomerOnly, EducatorOnly
from tradeideas.push import service
from tradeideas.push.schemas import (
    PublicKeyOut,
    PushTestIn,
    PushTestOut,
    SubscriptionIn,
    SubscriptionOut,
    UnsubscribeIn,
)
from tradeideas.push.worker import PushRuntime

PushRuntimeDep = Annotated[PushRuntime, Depends(component(PushRuntime))]

router = api_router(prefix="/api/push", tags=["push"])


@router.get("/public-key")
async def push_public_key(principal: AnyUser, push: PushRuntimeDep) -> PublicKeyOut:
    """The VAPID public key to pass to pushManager.subscribe as applicationServerKey."""
    assert push.keys is not None  # loaded before the app serves requests
    return PublicKeyOut(public_key=push.keys.public_key)


@router.post("/subscriptions", status_code=status.HTTP_201_CREATED)
async def subscribe_push(
    body: SubscriptionIn, principal: AnyUser, db: DbSession, settings: AppSettings
) -> SubscriptionOut:
    """Save this browser's push subscription for the caller (upsert by endpoint; allowed push services only)."""
    sub = await service.subscribe(db, principal.id, body, settings)
    return SubscriptionOut(id=sub.id, endpoint=sub.endpoint)


@router.delete("/subscriptions", status_code=status.HTTP_204_NO_CONTENT)
async def unsubscribe_push(body: UnsubscribeIn, principal: AnyUser, db: DbSession) -> None:
    """Forget one of the caller's push subscriptions by endpoint."""
    await service.unsubscribe(db, principal.id, body.endpoint)


@router.post("/test")
async def send_test_push(
    body: PushTestIn, principal: EducatorOnly, db: DbSession, settings: AppSettings, push: PushRuntimeDep
) -> PushTestOut:
    """Send a test or sample trade notification to the caller's own subscriptions, now."""
    sender = push.sender
    assert sender is not None  # started before the app serves requests
    return await service.send_test_notification(
        db, sender, principal.id, principal.user.display_name, body, settings.app_name
    )


@router.post("/test-notification")
async def send_my_test_notification(
    principal: CustomerOnly, db: DbSession, settings: AppSettings, push: PushRuntimeDep
) -> PushTestOut:
    """Send a plain test notification to the customer's own subscriptions now and report what happened."""
    sender = push.sender
    assert sender is not None  # started before the app serves requests
    return await service.send_test_notification(
        db, sender, principal.id, principal.user.display_name, PushTestIn(kind="test"), settings.app_name
    )
