"""Each finished UTC day's fingerprint is posted to the messaging channel once (the Bot API's sendMessage), by
housekeeping in the leading process; without a channel nothing is queued."""

from datetime import UTC, datetime, time, timedelta

import pytest
from fastapi import FastAPI
from sqlalchemy import delete, select, update

from tests.push.conftest import FakePushService
from tradeideas import housekeeping
from tradeideas.db import utcnow
from tradeideas.ledger import service
from tradeideas.ledger.models import LedgerDay
from tradeideas.push.models import PushDelivery
from tradeideas.settings import Settings


async def _days(app: FastAPI) -> list[LedgerDay]:
    async with app.state.db.sessionmaker() as s:
        return list((await s.execute(select(LedgerDay).order_by(LedgerDay.day))).scalars())


async def test_finished_days_are_posted_once(
    ledger_app: FastAPI, ledger_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Noon tomorrow: today has ended, grace period included, whatever the hour the test runs at.
    tomorrow = datetime.combine(utcnow().date() + timedelta(days=1), time(12), UTC)
    report = await housekeeping.run(ledger_app.state.db, ledger_settings, tomorrow)
    assert report.fingerprints_posted == 0  # no channel configured: nothing queued, nothing marked
    assert all(d.posted_at is None for d in await _days(ledger_app))

    fake = FakePushService()
    await fake.start()
    try:
        monkeypatch.setattr(ledger_settings, "telegram_bot_token", "42:token")
        monkeypatch.setattr(ledger_settings, "telegram_chat_id", "@proof")
        monkeypatch.setattr(ledger_settings, "telegram_api_base", fake.base)
        monkeypatch.setattr(ledger_settings, "public_url", "https://ideas.example.com")
        today = utcnow().date()
        due = [d for d in await _days(ledger_app) if today - timedelta(days=2) <= d.day <= today]
        assert due, "the ledger has entries today"
        report = await housekeeping.run(ledger_app.state.db, ledger_settings, tomorrow)
        assert report.fingerprints_posted == len(due)
        assert f"Posted {len(due)} daily ledger fingerprints to the messaging channel." in report.lines()
        await fake.wait_for(lambda: len(fake.bot_posts) == len(due))
        assert fake.bot_paths == ["/bot42:token/sendMessage"] * len(due)
        for day, post in zip(due, fake.bot_posts, strict=True):
            assert post["chat_id"] == "@proof"
            assert post["text"].startswith(
                f"Trade Ideas record fingerprint for {day.day.isoformat()} (UTC)\n{day.hash}\n"
            )
            assert post["text"].endswith("Check it: https://ideas.example.com/proof")
        again = await housekeeping.run(ledger_app.state.db, ledger_settings, tomorrow)
        assert again.fingerprints_posted == 0
    finally:
        await fake.stop()
        async with ledger_app.state.db.sessionmaker() as s, s.begin():
            await s.execute(delete(PushDelivery))
            await s.execute(update(LedgerDay).values(posted_at=None))


async def test_a_day_is_posted_once_a_few_minutes_have_passed_since_it_ended(ledger_app: FastAPI) -> None:
    """A writer whose clock runs a little behind could still date an entry in the day that has just ended, so a day
    is posted five minutes after its midnight, not at it."""
    today = utcnow().date()
    midnight = datetime.combine(today + timedelta(days=1), time(), UTC)
    posts: list[str] = []

    async def post(text: str) -> bool:
        posts.append(text)
        return True

    async with ledger_app.state.db.sessionmaker() as s:
        await service.post_fingerprints(s, midnight + timedelta(minutes=4), post, "Trade Ideas", None)
        assert not any(today.isoformat() in text for text in posts)
        await service.post_fingerprints(s, midnight + timedelta(minutes=6), post, "Trade Ideas", None)
        assert [text for text in posts if today.isoformat() in text] != []
        await s.rollback()
