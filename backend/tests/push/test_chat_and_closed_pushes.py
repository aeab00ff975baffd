"""chatMessage pushes (off by default; educator switches and quiet hours apply) and ideaClosed pushes that
say how the idea ended and open it."""

from dataclasses import replace
from datetime import timedelta

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select

from tests.conftest import EDUCATOR_A
from tests.ideas.test_ideas import create
from tests.push.conftest import FakePushService
from tests.push.test_matrix import _queued_for, _subscribed
from tradeideas.auth.models import User
from tradeideas.db import utcnow
from tradeideas.ideas.schemas import IdeaOutcome
from tradeideas.push.texts import IdeaNotice, closed_notification, summary_notification


async def _educator_id(app: FastAPI, email: str) -> int:
    async with app.state.db.sessionmaker() as session:
        return int((await session.execute(select(User.id).where(User.email == email))).scalar_one())


async def test_an_educators_chat_message_is_pushed_to_those_who_switched_chat_on(
    app: FastAPI, educator_a: httpx.AsyncClient, educator_b: httpx.AsyncClient, push_service: FakePushService
) -> None:
    a_id = await _educator_id(app, EDUCATOR_A)
    now = utcnow()
    quiet_now = {
        "quiet_start": (now - timedelta(hours=1)).strftime("%H:%M"),
        "quiet_end": (now + timedelta(hours=1)).strftime("%H:%M"),
        "quiet_timezone": "UTC",
    }
    await _subscribed(app, push_service, "chat-on", notify_chat=True)
    await _subscribed(app, push_service, "chat-default")  # chatMessage is off by default
    await _subscribed(app, push_service, "chat-off-ideas-on", notify_chat=False, notify_new_idea=True)
    await _subscribed(app, push_service, "chat-on-a-muted", notify_chat=True, muted=[a_id])
    await _subscribed(app, push_service, "chat-on-sleeping", notify_chat=True, **quiet_now)
    room = (await educator_a.get("/api/chat/rooms")).json()[0]
    text = "Watching EUR/USD into the London open. " * 5
    posted = await educator_a.post(f"/api/chat/rooms/{room['id']}/messages", json={"message": text})
    assert posted.status_code == 201, posted.text

    await push_service.wait_for(lambda: "chat-on" in push_service.received)
    (pushed,) = push_service.received["chat-on"]
    assert pushed["title"] == f"{posted.json()['userName']} in {room['name']}"
    assert pushed["url"] == f"/customer/chat?room={room['id']}"
    assert pushed["kind"] == "chat-message" and pushed["roomId"] == room["id"]
    assert pushed["body"].startswith("Watching EUR/USD into the London open.") and len(pushed["body"]) <= 120
    queued = await _queued_for(app)
    assert set(queued) == {"chat-on", "chat-on-sleeping"} and queued["chat-on-sleeping"] == "held"

    # The customer who switched educator A off still hears from educator B.
    posted_b = await educator_b.post(f"/api/chat/rooms/{room['id']}/messages", json={"message": "Gold looks heavy"})
    assert posted_b.status_code == 201
    await push_service.wait_for(lambda: "chat-on-a-muted" in push_service.received)
    assert push_service.received["chat-on-a-muted"][0]["body"] == "Gold looks heavy"
    await push_service.wait_for(lambda: len(push_service.received["chat-on"]) == 2)
    assert set(push_service.received) == {"chat-on", "chat-on-a-muted"}


async def test_a_closed_idea_push_opens_the_idea_and_says_how_it_ended_for_not_triggered_too(
    app: FastAPI, educator_a: httpx.AsyncClient, push_service: FakePushService
) -> None:
    await _subscribed(app, push_service, "closer")
    idea = await create(educator_a, pair="GBP/JPY", orderType="SELL")
    await push_service.wait_for(lambda: len(push_service.received.get("closer", [])) == 1)
    r = await educator_a.put(f"/api/trade-ideas/{idea['id']}", json={"status": "invalidated"})
    assert r.status_code == 200, r.text
    await push_service.wait_for(lambda: len(push_service.received["closer"]) == 2)
    closed = push_service.received["closer"][1]
    assert closed["title"] == "GBP/JPY SELL not triggered"
    assert closed["url"] == f"/customer/ideas/{idea['id']}"
    await educator_a.delete(f"/api/trade-ideas/{idea['id']}")


@pytest.mark.parametrize(
    ("outcome", "close_price", "title"),
    [
        ("exit1", None, "EUR/USD BUY closed: exit 1 reached"),
        ("exit2", None, "EUR/USD BUY closed: exit 2 reached"),
        ("exit3", None, "EUR/USD BUY closed: exit 3 reached"),
        ("invalidation", None, "EUR/USD BUY stopped at invalidation"),
        ("manual", "1.0921", "EUR/USD BUY closed at 1.0921"),
        ("not_triggered", None, "EUR/USD BUY not triggered"),
        (None, None, "EUR/USD BUY closed: successful"),  # ideas closed before outcomes were recorded
    ],
)
def test_closed_notification_says_how_the_idea_ended(
    outcome: IdeaOutcome | None, close_price: str | None, title: str
) -> None:
    idea = IdeaNotice("Alex Morgan", "forex", "EUR/USD", "Leverage", "BUY", id=12, status="successful")
    message = closed_notification(replace(idea, outcome=outcome, close_price=close_price))
    assert message["title"] == title
    assert message["url"] == "/customer/ideas/12"


def test_the_quiet_hours_summary_names_what_waited() -> None:
    ideas = [{"kind": "trade-idea", "pair": "EUR/USD"}, {"kind": "trade-idea", "pair": "BTC/USD"}]
    assert summary_notification(ideas)["title"] == "2 new ideas while you were away"
    mixed = [*ideas, {"kind": "idea-closed", "pair": "GBP/USD"}, {"kind": "chat-message"}]
    assert summary_notification(mixed)["title"] == "2 new ideas, 1 closed idea and 1 chat message while you were away"
