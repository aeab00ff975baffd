"""Push deliveries in `/metrics`: attempts by result, and the queue's depth read from the database."""

import asyncio
from datetime import timedelta

import httpx
from fastapi import FastAPI

from tests.push.conftest import FakePushService
from tests.push.test_push import IDEA, add_subscription, new_customer, publish_idea
from tests.scrape import Samples, scrape, value
from tradeideas.core.deps import component_of
from tradeideas.db import utcnow
from tradeideas.push.models import Channel, DeliveryStatus, PushDelivery
from tradeideas.push.worker import PushRuntime

DELIVERIES = "tradeideas_push_deliveries_total"


def _attempts(samples: Samples, result: str) -> float:
    return value(samples, DELIVERIES, channel="webpush", result=result)


async def test_deliveries_are_counted_by_result(
    app: FastAPI, anon: httpx.AsyncClient, push_service: FakePushService
) -> None:
    # A batch an earlier test's worker still has in flight would count after `before`: stop it first.
    worker = component_of(app, PushRuntime).worker
    assert worker is not None
    await worker.stop()
    before = await scrape(anon)
    await worker.start()
    user = await new_customer(app)
    await add_subscription(app, user, push_service.browser("gone"))
    await add_subscription(app, user, push_service.browser("alive"))
    push_service.always["gone"] = 410
    await publish_idea(app, IDEA)
    await push_service.wait_for(lambda: "alive" in push_service.received)
    for _ in range(100):  # the worker records the results just after the pushes answer (a hang guard)
        after = await scrape(anon)
        if _attempts(after, "gone") > _attempts(before, "gone") and _attempts(after, "sent") > _attempts(
            before, "sent"
        ):
            break
        await asyncio.sleep(0.05)
    assert _attempts(after, "sent") - _attempts(before, "sent") == 1
    assert _attempts(after, "gone") - _attempts(before, "gone") == 1


async def test_queue_depth_by_state(app: FastAPI, anon: httpx.AsyncClient, push_service: FakePushService) -> None:
    later = utcnow() + timedelta(hours=1)
    async with app.state.db.sessionmaker() as session, session.begin():
        session.add_all(
            [
                PushDelivery(
                    channel=Channel.TELEGRAM, payload={}, status=DeliveryStatus.PENDING, next_attempt_at=later
                ),
                PushDelivery(channel=Channel.TELEGRAM, payload={}, status=DeliveryStatus.HELD, next_attempt_at=later),
                PushDelivery(channel=Channel.TELEGRAM, payload={}, status=DeliveryStatus.HELD, next_attempt_at=later),
            ]
        )
    samples = await scrape(anon)  # the fixture emptied the queue before this test
    assert value(samples, "tradeideas_push_queue_depth", state="scheduled") == 1
    assert value(samples, "tradeideas_push_queue_depth", state="held") == 2
    assert value(samples, "tradeideas_push_queue_depth", state="due") == 0
