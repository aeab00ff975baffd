"""Web Push end to end against a local fake push service that decrypts every message it receives."""

import asyncio
import io
import json
import uuid
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from fastapi import FastAPI
from PIL import Image
from sqlalchemy import delete, func, select, text

from tests.push.conftest import Browser, FakePushService, b64url_decode
from tradeideas.auth.models import Role, User
from tradeideas.billing import service as billing_service
from tradeideas.cli import migrate
from tradeideas.core.deps import component_of
from tradeideas.core.models import ServerKey
from tradeideas.db import Database, utcnow
from tradeideas.ideas.models import TradeIdea
from tradeideas.ideas.schemas import IdeaOut
from tradeideas.notifications.models import CustomerIdeaState
from tradeideas.push import service
from tradeideas.push.models import DeliveryStatus, PushDelivery, PushSubscription
from tradeideas.push.schemas import SubscriptionIn
from tradeideas.push.sender import Outcome, Result
from tradeideas.push.vapid import KEY_FILE, VAPID_KEY_NAME, VapidKeys, load_vapid_keys
from tradeideas.push.worker import PushRuntime
from tradeideas.settings import Settings


def idea_out(**changes: Any) -> IdeaOut:
    """An idea as the API shows it (what `IdeaCreated` carries): Alex Morgan's EUR/USD BUY unless changed."""
    now = utcnow()
    fields: dict[str, Any] = {
        "id": 4242, "educator_id": 1, "educator_name": "Alex Morgan", "educator_slug": None, "educator_image": None,
        "specialty": None, "pair": "EUR/USD", "time_frame": "4H", "order_type": "BUY", "idea_type": "Leverage",
        "market_type": "Forex", "market": "forex", "entry1": "1", "entry2": None, "invalidation_level": "0.9",
        "exit1": "1.2", "exit2": None, "exit3": None, "notes": None, "setup_id": None, "setup_name": None,
        "reason": None, "status": "active", "completed": False,
        "image_ids": [], "image_urls": [], "image_full_urls": [], "chart_url": "/media/chart-4242.jpg",
        "video_url": None, "audio_url": None, "created_at": now, "updated_at": now, "edited": False,
        "edited_after_publish": False, "outcome": None, "close_price": None, "closed_at": None, "r_multiple": None,
        "identity_fixed_at": now, "result_fixed_at": None, "verification": None, "taken": None, "lesson": None,
    }  # fmt: skip
    return IdeaOut.model_validate({**fields, **changes})


IDEA = idea_out()


async def publish_idea(app: FastAPI, idea: IdeaOut) -> int:
    """What the ideas service does on create: queue the pushes in the idea's transaction.

    Deliveries reference their idea (deleting it drops them), so the row must exist.
    """
    async with app.state.db.sessionmaker() as session, session.begin():
        if await session.get(TradeIdea, idea.id) is None:
            session.add(
                TradeIdea(
                    id=idea.id, educator_id=idea.educator_id, market_type=idea.market_type,
                    market=idea.market, order_type=idea.order_type, idea_type=idea.idea_type,
                    pair=idea.pair, time_frame="4H", entry1="1", invalidation_level="0.9", exit1="1.2",
                    status="active", completed=False, edited=False, created_at=utcnow(), updated_at=utcnow(),
                )
            )  # fmt: skip
            await session.flush()
            if not app.state.settings.is_sqlite:
                # Past the id written here: ideas the API creates later in the run (any test) take the next ones.
                await session.execute(
                    text(
                        "SELECT setval(pg_get_serial_sequence('trade_ideas', 'id'), (SELECT MAX(id) FROM trade_ideas))"
                    )
                )
        return await service.enqueue_idea_push(session, idea, app.state.settings)


async def post_idea(educator: httpx.AsyncClient) -> int:
    """An educator publishes a crypto idea through the API (its pushes are queued in its transaction)."""
    created = await educator.post(
        "/api/trade-ideas",
        json={"marketType": "Crypto", "orderType": "SELL", "ideaType": "Exchange", "pair": "ETH/USDT",
              "timeFrame": "1D", "entry1": "3200", "invalidationLevel": "3350", "exit1": "2900"},
    )  # fmt: skip
    assert created.status_code == 201, created.text
    idea_id: int = created.json()["id"]
    return idea_id


def png_bytes() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (1200, 600), (20, 120, 80)).save(buffer, "PNG")
    return buffer.getvalue()


async def subscribe(client: httpx.AsyncClient, browser: Browser) -> None:
    r = await client.post("/api/push/subscriptions", json=browser.subscription)
    assert r.status_code == 201, r.text


async def new_customer(app: FastAPI, *, forex: bool | None = None, crypto: bool | None = None) -> int:
    async with app.state.db.sessionmaker() as session, session.begin():
        user = User(email=f"{uuid.uuid4().hex}@example.com", password_hash="x", role=Role.CUSTOMER)
        session.add(user)
        await session.flush()
        await billing_service.add_complimentary(session, None, user.id, None, None)  # every educator opens
        if forex is not None or crypto is not None:
            session.add(
                CustomerIdeaState(
                    user_id=user.id,
                    notify_forex=True if forex is None else forex,
                    notify_crypto=True if crypto is None else crypto,
                )
            )
        return user.id


async def add_subscription(app: FastAPI, user_id: int, browser: Browser) -> None:
    async with app.state.db.sessionmaker() as session, session.begin():
        await service.subscribe(
            session, user_id, SubscriptionIn.model_validate(browser.subscription), app.state.settings
        )


async def deliveries(app: FastAPI) -> list[PushDelivery]:
    async with app.state.db.sessionmaker() as session:
        return list((await session.execute(select(PushDelivery).order_by(PushDelivery.id))).scalars())


async def subscription_count(app: FastAPI) -> int:
    async with app.state.db.sessionmaker() as session:
        return int((await session.execute(select(func.count()).select_from(PushSubscription))).scalar_one())


@pytest.fixture
def fast_retries(monkeypatch: pytest.MonkeyPatch, settings: Settings) -> None:
    monkeypatch.setattr(settings, "push_retry_base_seconds", 0.05)
    monkeypatch.setattr(settings, "push_poll_seconds", 0.1)


async def test_public_key_is_a_p256_point_kept_in_the_database(
    customer: httpx.AsyncClient, app: FastAPI, settings: Settings
) -> None:
    r = await customer.get("/api/push/public-key")
    assert r.status_code == 200
    key = r.json()["publicKey"]
    raw = b64url_decode(key)
    assert len(raw) == 65 and raw[0] == 4
    assert not (settings.data_dir / KEY_FILE).exists()  # nothing on this node's disk
    async with app.state.db.sessionmaker() as session:
        assert (await session.get(ServerKey, VAPID_KEY_NAME)) is not None
    assert (await load_vapid_keys(settings, app.state.db)).public_key == key  # the same key on every start


def _pem(key: ec.EllipticCurvePrivateKey) -> bytes:
    encoding, pkcs8 = serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8
    return key.private_bytes(encoding, pkcs8, serialization.NoEncryption())


async def _fresh(tmp_path: Path, **changes: Any) -> Settings:
    """Settings on a new, migrated SQLite database in tmp_path/data."""
    settings = Settings(data_dir=tmp_path / "data", database_url=f"sqlite:///{tmp_path / 'keys.db'}", **changes)
    await asyncio.to_thread(migrate, settings)
    return settings


async def test_keys_generated_at_once_by_several_starts_agree_and_stay_in_the_database(tmp_path: Path) -> None:
    settings = await _fresh(tmp_path)
    databases = [Database(settings) for _ in range(6)]  # six processes starting together on one database
    try:
        keys = await asyncio.gather(*(load_vapid_keys(settings, db) for db in databases))
        assert len({k.public_key for k in keys}) == 1
        again = await load_vapid_keys(settings, databases[0])
        assert again.public_key == keys[0].public_key
    finally:
        for db in databases:
            await db.dispose()
    assert not (tmp_path / "data" / KEY_FILE).exists()


async def test_a_key_file_of_an_older_installation_moves_into_the_database_once(tmp_path: Path) -> None:
    settings = await _fresh(tmp_path)
    old = ec.generate_private_key(ec.SECP256R1())
    (tmp_path / "data").mkdir(exist_ok=True)
    (tmp_path / "data" / KEY_FILE).write_bytes(_pem(old))
    expected = VapidKeys(private_key=old, subject="x").public_key
    db = Database(settings)
    try:
        assert (await load_vapid_keys(settings, db)).public_key == expected  # browsers keep their subscriptions
        (tmp_path / "data" / KEY_FILE).unlink()  # the file is read no more: the database holds the key
        assert (await load_vapid_keys(settings, db)).public_key == expected
        (tmp_path / "data" / KEY_FILE).write_bytes(_pem(ec.generate_private_key(ec.SECP256R1())))
        assert (await load_vapid_keys(settings, db)).public_key == expected  # once: a later file changes nothing
    finally:
        await db.dispose()


async def test_keys_from_settings_are_not_written_anywhere(tmp_path: Path) -> None:
    given = ec.generate_private_key(ec.SECP256R1())
    settings = await _fresh(tmp_path, vapid_private_key=_pem(given).decode())
    db = Database(settings)
    try:
        keys = await load_vapid_keys(settings, db)
        assert keys.public_key == VapidKeys(private_key=given, subject="x").public_key
        async with db.sessionmaker() as session:
            assert (await session.get(ServerKey, VAPID_KEY_NAME)) is None
    finally:
        await db.dispose()
    assert not (tmp_path / "data" / KEY_FILE).exists()


async def test_subscribe_upserts_by_endpoint_and_delete_is_owner_only(
    customer: httpx.AsyncClient, educator_a: httpx.AsyncClient, app: FastAPI, push_service: FakePushService
) -> None:
    browser = push_service.browser("shared")
    await subscribe(customer, browser)
    browser.auth_secret = b"0123456789abcdef"
    await subscribe(customer, browser)  # same endpoint, new keys: updated, not duplicated
    assert await subscription_count(app) == 1
    r = await educator_a.request("DELETE", "/api/push/subscriptions", json={"endpoint": browser.endpoint})
    assert r.status_code == 204
    assert await subscription_count(app) == 1  # not theirs
    async with app.state.db.sessionmaker() as session:
        sub = (await session.execute(select(PushSubscription))).scalar_one()
        assert sub.auth == browser.keys["auth"]
    r = await customer.request("DELETE", "/api/push/subscriptions", json={"endpoint": browser.endpoint})
    assert r.status_code == 204
    assert await subscription_count(app) == 0
    bad = await customer.post("/api/push/subscriptions", json={"endpoint": "javascript:x", "keys": browser.keys})
    assert bad.status_code == 422


async def test_new_idea_reaches_customers_encrypted_with_vapid(
    customer: httpx.AsyncClient, educator_a: httpx.AsyncClient, app: FastAPI, push_service: FakePushService
) -> None:
    await subscribe(customer, push_service.browser("customer"))
    await subscribe(educator_a, push_service.browser("educator"))
    chart = await educator_a.post("/api/media", files={"file": ("chart.png", png_bytes(), "image/png")})
    assert chart.status_code == 201, chart.text
    created = await educator_a.post(
        "/api/trade-ideas",
        json={"marketType": "Forex", "orderType": "BUY", "ideaType": "Leverage", "pair": "EUR/USD",
              "timeFrame": "4H", "entry1": "1.0850", "invalidationLevel": "1.0790", "exit1": "1.0950",
              "imageIds": [chart.json()["id"]]},
    )  # fmt: skip
    assert created.status_code == 201, created.text
    idea = created.json()
    await push_service.wait_for(lambda: "customer" in push_service.received)
    message = push_service.received["customer"][0]
    assert message == {
        "title": "New Forex trade idea from Alex Morgan",
        "body": "EUR/USD · Leverage · Bullish (BUY)",
        "url": "/customer/forex",
        "tag": f"idea-{idea['id']}",
        "kind": "trade-idea",
        "market": "forex",
        "pair": "EUR/USD",
        "ideaId": idea["id"],
        "image": idea["chartUrl"],
    }
    headers = push_service.headers["customer"][0]
    scheme, _, params = headers["Authorization"].partition(" ")
    fields = dict(p.split("=", 1) for p in params.split(","))
    assert scheme == "vapid" and fields["k"] == component_of(app, PushRuntime).keys.public_key  # type: ignore[union-attr]
    claims = json.loads(b64url_decode(fields["t"].split(".")[1]))
    assert claims["aud"] == push_service.base and claims["sub"].startswith("mailto:")
    assert int(headers["TTL"]) > 0
    await asyncio.sleep(0.2)
    assert "educator" not in push_service.received  # customers only
    rows = await deliveries(app)
    assert [(r.status, r.attempts) for r in rows] == [(DeliveryStatus.SENT, 1)]


async def test_deleting_an_idea_drops_its_queued_notifications(
    app: FastAPI, educator_a: httpx.AsyncClient, push_service: FakePushService
) -> None:
    await add_subscription(app, await new_customer(app), push_service.browser("reader"))
    idea_id = await post_idea(educator_a)
    async with app.state.db.sessionmaker() as session:
        queued = (await session.execute(select(func.count()).where(PushDelivery.idea_id == idea_id))).scalar_one()
    assert queued >= 1
    assert (await educator_a.delete(f"/api/trade-ideas/{idea_id}")).status_code == 204
    async with app.state.db.sessionmaker() as session:
        left = (await session.execute(select(func.count()).where(PushDelivery.idea_id == idea_id))).scalar_one()
    assert left == 0


async def test_per_market_preferences(app: FastAPI, push_service: FakePushService) -> None:
    default = await new_customer(app)  # no settings row: both markets on
    forex_only = await new_customer(app, crypto=False)
    muted = await new_customer(app, forex=False, crypto=False)
    for user_id, name in [(default, "default"), (forex_only, "forex-only"), (muted, "muted")]:
        await add_subscription(app, user_id, push_service.browser(name))

    assert await publish_idea(app, idea_out(id=1, market="crypto", market_type="Crypto", pair="BTC")) == 1
    await publish_idea(app, idea_out(id=2))
    await push_service.wait_for(lambda: len(push_service.received.get("default", [])) == 2)
    await push_service.wait_for(lambda: "forex-only" in push_service.received)
    await asyncio.sleep(0.3)
    # Both, in whichever order the workers delivered them (push services do not keep order either).
    assert sorted(m["ideaId"] for m in push_service.received["default"]) == [1, 2]
    assert [m["ideaId"] for m in push_service.received["forex-only"]] == [2]
    assert "muted" not in push_service.received


async def test_gone_subscription_is_deleted(app: FastAPI, push_service: FakePushService) -> None:
    user = await new_customer(app)
    await add_subscription(app, user, push_service.browser("gone"))
    await add_subscription(app, user, push_service.browser("alive"))
    push_service.always["gone"] = 410
    await publish_idea(app, IDEA)
    await push_service.wait_for(lambda: "alive" in push_service.received)
    for _ in range(50):
        if await subscription_count(app) == 1:
            break
        await asyncio.sleep(0.1)
    async with app.state.db.sessionmaker() as session:
        left = list((await session.execute(select(PushSubscription.endpoint))).scalars())
    assert left == [push_service.browsers["alive"].endpoint]
    assert [r.status for r in await deliveries(app)] == [DeliveryStatus.SENT]


async def test_failures_are_retried_with_backoff_then_given_up(
    app: FastAPI, push_service: FakePushService, fast_retries: None, monkeypatch: pytest.MonkeyPatch, settings: Settings
) -> None:
    monkeypatch.setattr(settings, "push_max_attempts", 3)
    user = await new_customer(app)
    await add_subscription(app, user, push_service.browser("flaky"))
    await add_subscription(app, user, push_service.browser("down"))
    push_service.fail_first["flaky"] = (503, 2)
    push_service.always["down"] = 500
    await publish_idea(app, IDEA)
    await push_service.wait_for(lambda: "flaky" in push_service.received)
    for _ in range(100):
        rows = {r.subscription_id: r for r in await deliveries(app)}
        if all(r.status in (DeliveryStatus.SENT, DeliveryStatus.FAILED) for r in rows.values()):
            break
        await asyncio.sleep(0.1)
    by_status = sorted((r.status, r.attempts, r.last_error or "") for r in rows.values())
    assert by_status[0][:2] == (DeliveryStatus.FAILED, 3) and "HTTP 500" in by_status[0][2]
    assert by_status[1] == (DeliveryStatus.SENT, 3, "")
    assert await subscription_count(app) == 2  # a failing push service does not lose the subscription


async def test_queueing_problems_never_fail_the_idea(app: FastAPI) -> None:
    async with app.state.db.sessionmaker() as session, session.begin():
        assert (
            await service.enqueue_idea_push(session, IDEA.model_copy(update={"pair": object()}), app.state.settings)
            == 0
        )
        session.add(CustomerIdeaState(user_id=await new_customer(app)))  # the transaction goes on
    assert await deliveries(app) == []


async def test_messaging_channel_post(
    app: FastAPI, push_service: FakePushService, monkeypatch: pytest.MonkeyPatch, settings: Settings
) -> None:
    monkeypatch.setattr(settings, "telegram_bot_token", "123:secret")
    monkeypatch.setattr(settings, "telegram_chat_id", "@tradeideas")
    monkeypatch.setattr(settings, "telegram_api_base", push_service.base)
    assert await publish_idea(app, IDEA) == 1  # no browser subscriptions: only the channel post
    await push_service.wait_for(lambda: bool(push_service.bot_posts))
    assert push_service.bot_paths == ["/bot123:secret/sendMessage"]
    post = push_service.bot_posts[0]
    assert post["chat_id"] == "@tradeideas"
    assert "Alex Morgan" in post["text"] and "EUR/USD · Leverage · Bullish (BUY)" in post["text"]


async def test_channel_failures_only_log(
    app: FastAPI, fast_retries: None, monkeypatch: pytest.MonkeyPatch, settings: Settings
) -> None:
    monkeypatch.setattr(settings, "telegram_bot_token", "123:secret")
    monkeypatch.setattr(settings, "telegram_chat_id", "1")
    monkeypatch.setattr(settings, "telegram_api_base", "http://127.0.0.1:9")  # nothing listens
    monkeypatch.setattr(settings, "push_max_attempts", 2)
    await publish_idea(app, IDEA)
    for _ in range(100):
        rows = await deliveries(app)
        if rows and rows[0].status == DeliveryStatus.FAILED:
            break
        await asyncio.sleep(0.1)
    assert rows[0].status == DeliveryStatus.FAILED and "secret" not in (rows[0].last_error or "")
    async with app.state.db.sessionmaker() as session, session.begin():
        await session.execute(delete(PushDelivery))


async def test_send_test_notifications_to_own_subscriptions(
    educator_a: httpx.AsyncClient, app: FastAPI, push_service: FakePushService
) -> None:
    r = await educator_a.post("/api/push/test", json={"kind": "test"})
    assert r.json()["success"] is False and r.json()["message"] == "PushAlert notification failed"

    await subscribe(educator_a, push_service.browser("mine"))
    r = await educator_a.post("/api/push/test", json={"kind": "test"})
    assert r.status_code == 200
    assert r.json()["success"] is True and r.json()["message"] == "PushAlert notification sent successfully!"
    assert r.json()["details"]["sent"] == 1
    assert push_service.received["mine"][0]["kind"] == "test"

    r = await educator_a.post("/api/push/test", json={"kind": "trade", "market": "Crypto", "pair": "BTC/USDT"})
    assert r.json()["message"] == "Trade notification sent successfully!"
    trade = push_service.received["mine"][1]
    assert trade["body"].startswith("BTC/USDT") and trade["url"] == "/customer/crypto"

    push_service.always["mine"] = 410
    r = await educator_a.post("/api/push/test", json={"kind": "trade"})
    assert r.json() == {
        "success": False,
        "message": "Trade notification failed",
        "details": r.json()["details"] | {"removed": 1},
    }
    assert await subscription_count(app) == 0


async def test_two_workers_never_claim_the_same_delivery(app: FastAPI, push_service: FakePushService) -> None:
    worker = component_of(app, PushRuntime).worker
    assert worker is not None
    await worker.stop()  # claim by hand, as two processes would
    try:
        user = await new_customer(app)
        await add_subscription(app, user, push_service.browser("many"))
        async with app.state.db.sessionmaker() as session, session.begin():
            sub_id = (await session.execute(select(PushSubscription.id))).scalar_one()
            now = utcnow()
            session.add_all(
                PushDelivery(subscription_id=sub_id, payload={"n": i}, next_attempt_at=now, created_at=now)
                for i in range(60)
            )

        async def claim() -> list[int]:
            async with app.state.db.sessionmaker() as session, session.begin():
                return [c.id for c in await service.claim_due(session, 40, 60)]

        a, b = await asyncio.gather(claim(), claim())
        assert not set(a) & set(b)
        assert len(a) + len(b) == 60
    finally:
        await worker.start()


async def test_a_claim_holds_only_the_deliveries_it_takes(app: FastAPI, push_service: FakePushService) -> None:
    """While one worker's claim is uncommitted, another worker can take every row it did not take (PostgreSQL
    once rescanned the claim's subquery per updated row, locking rows beyond the batch until commit)."""
    worker = component_of(app, PushRuntime).worker
    assert worker is not None
    await worker.stop()
    try:
        user = await new_customer(app)
        await add_subscription(app, user, push_service.browser("held"))
        async with app.state.db.sessionmaker() as session, session.begin():
            sub_id = (await session.execute(select(PushSubscription.id).order_by(PushSubscription.id.desc()))).scalar()
            now = utcnow()
            session.add_all(
                PushDelivery(subscription_id=sub_id, payload={"n": i}, next_attempt_at=now, created_at=now)
                for i in range(30)
            )
        async with app.state.db.sessionmaker() as first, first.begin():
            taken = {c.id for c in await service.claim_due(first, 10, 60)}
            async with app.state.db.sessionmaker() as second, second.begin():
                rest = {c.id for c in await service.claim_due(second, 100, 60)}
        assert len(taken) == 10 and len(rest) == 20 and not taken & rest
    finally:
        await worker.start()


async def test_an_idea_deleted_while_a_worker_records_its_results_is_deleted_and_the_worker_goes_on(
    app: FastAPI, educator_a: httpx.AsyncClient, push_service: FakePushService, settings: Settings, postgres: str
) -> None:
    """PostgreSQL: the idea's delete cascades to its notifications while the worker records how their sends went;
    both wait for the same rows, and both take them in id order, so neither waits on the other in a circle (they
    once did: a deleted idea failed with "deadlock detected"). SQLite has one writer."""
    worker = component_of(app, PushRuntime).worker
    assert worker is not None
    await worker.stop()  # this test plays the worker
    try:
        for name in ("first", "second"):
            await add_subscription(app, await new_customer(app), push_service.browser(name))
        idea_id = await post_idea(educator_a)
        async with app.state.db.sessionmaker() as session, session.begin():
            claimed = [c for c in await service.claim_due(session, 100, 60) if c.payload.get("ideaId") == idea_id]
        assert len(claimed) >= 2
        # The sends finished last first: recorded in that order, the rows were once updated last first.
        results = [(c, Result(Outcome.RETRY, 503, "HTTP 503")) for c in sorted(claimed, key=lambda c: -c.id)]

        holder, watcher = await asyncpg.connect(postgres), await asyncpg.connect(postgres)

        async def waiting_for_locks() -> int:
            waiting: int = await watcher.fetchval(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )
            return waiting

        async def until_waiting(count: int) -> None:
            for _ in range(200):
                if await waiting_for_locks() >= count:
                    return
                await asyncio.sleep(0.02)
            raise AssertionError(f"{count} transactions never waited for a lock")

        async def record() -> None:
            async with app.state.db.sessionmaker() as session, session.begin():
                await service.record_results(session, settings, results)

        try:
            # Another transaction holds the first notification, so both wait in line: the delete first.
            first = min(c.id for c in claimed)
            holding = holder.transaction()
            await holding.start()
            await holder.execute("SELECT 1 FROM push_deliveries WHERE id = $1 FOR UPDATE", first)
            deleting = asyncio.create_task(educator_a.delete(f"/api/trade-ideas/{idea_id}"))
            await until_waiting(1)
            recording = asyncio.create_task(record())
            await until_waiting(2)
            await holding.rollback()
            deleted, _ = await asyncio.wait_for(asyncio.gather(deleting, recording), 30)
        finally:
            await holder.close()
            await watcher.close()
        assert deleted.status_code == 204
        assert (await educator_a.get(f"/api/trade-ideas/{idea_id}")).status_code == 404
        left = [r for r in await deliveries(app) if r.idea_id == idea_id]
        assert left == []
    finally:
        await worker.start()


async def test_customer_cannot_send_test_pushes(customer: httpx.AsyncClient) -> None:
    r = await customer.post("/api/push/test", json={"kind": "test"})
    assert r.status_code == 403
