"""The one rule that chooses who gets a push (`notifications.service.audience`), read directly: the push queue for
ideas and chat alike builds on it."""

import uuid
from typing import Any

import httpx
from fastapi import FastAPI
from sqlalchemy import delete, select

from tradeideas.auth.models import Role, User
from tradeideas.notifications.models import CustomerIdeaState, MutedEducator
from tradeideas.notifications.service import Push, audience


async def _user(app: FastAPI, role: Role = Role.CUSTOMER, disabled: bool = False, **state: Any) -> int:
    muted: list[int] = state.pop("muted", [])
    async with app.state.db.sessionmaker() as session, session.begin():
        user = User(email=f"{uuid.uuid4().hex}@example.com", password_hash="x", role=role, disabled=disabled)
        session.add(user)
        await session.flush()
        if state:
            session.add(CustomerIdeaState(user_id=user.id, **state))
        session.add_all(MutedEducator(user_id=user.id, educator_id=e) for e in muted)
        return user.id


async def _chosen(app: FastAPI, push: Push, among: dict[str, int]) -> set[str]:
    chosen = audience(push).subquery()
    async with app.state.db.sessionmaker() as session:
        ids = set((await session.execute(select(chosen.c.user_id))).scalars())
    return {name for name, user_id in among.items() if user_id in ids}


async def test_a_push_reaches_enabled_customers_whose_market_event_and_educator_switches_are_on(app: FastAPI) -> None:
    users = {
        "defaults": await _user(app),
        "educator": await _user(app, Role.EDUCATOR),
        "disabled": await _user(app, disabled=True),
        "forex-off": await _user(app, notify_forex=False),
        "crypto-off": await _user(app, notify_crypto=False),
        "new-ideas-off": await _user(app, notify_new_idea=False),
        "closed-off": await _user(app, notify_idea_closed=False),
        "chat-on": await _user(app, notify_chat=True),
        "chat-on-mutes-1": await _user(app, notify_chat=True, muted=[1]),
    }
    try:
        everyone_on = {"defaults", "crypto-off", "closed-off", "chat-on", "chat-on-mutes-1"}
        assert await _chosen(app, Push("newIdea", educator_id=2, market="forex"), users) == everyone_on
        assert await _chosen(app, Push("newIdea", educator_id=1, market="forex"), users) == everyone_on - {
            "chat-on-mutes-1"
        }
        assert await _chosen(app, Push("ideaClosed", educator_id=2, market="crypto"), users) == {
            "defaults", "forex-off", "new-ideas-off", "chat-on", "chat-on-mutes-1"
        }  # fmt: skip
        # Chat messages are off by default and span both markets.
        assert await _chosen(app, Push("chatMessage", educator_id=2), users) == {"chat-on", "chat-on-mutes-1"}
        assert await _chosen(app, Push("chatMessage", educator_id=1), users) == {"chat-on"}
    finally:  # the extra educator would show in other tests' educator lists
        async with app.state.db.sessionmaker() as session, session.begin():
            await session.execute(delete(User).where(User.id.in_(list(users.values()))))


async def test_changing_the_market_switches_recounts_unseen_ideas_at_once(
    customer: httpx.AsyncClient, educator_a: httpx.AsyncClient
) -> None:
    created = await educator_a.post(
        "/api/trade-ideas",
        json={"marketType": "Forex", "orderType": "BUY", "ideaType": "Leverage", "pair": "EUR/USD",
              "timeFrame": "4H", "entry1": "1.1", "invalidationLevel": "1.0", "exit1": "1.2"},
    )  # fmt: skip
    assert created.status_code == 201, created.text
    try:
        assert (await customer.get("/api/me/unseen-counts")).json()["forex"] >= 1
        r = await customer.put("/api/me/notification-settings", json={"forex": False, "crypto": True})
        assert r.status_code == 200, r.text
        assert (await customer.get("/api/me/unseen-counts")).json()["forex"] == 0
    finally:
        await customer.put("/api/me/notification-settings", json={"forex": True, "crypto": True})
        await educator_a.delete(f"/api/trade-ideas/{created.json()['id']}")
