"""Housekeeping removes expired sessions, old login failures and used or expired links, and keeps the rest."""

from datetime import timedelta

import httpx
from fastapi import FastAPI
from sqlalchemy import select

from tests.conftest import ADMIN
from tradeideas import housekeeping
from tradeideas.admin.models import AccountToken, TokenKind
from tradeideas.auth.models import LoginAttempt, Session, User
from tradeideas.db import utcnow


async def test_housekeeping_removes_only_what_has_expired_or_been_used(app: FastAPI, admin: httpx.AsyncClient) -> None:
    now = utcnow()
    async with app.state.db.sessionmaker() as session, session.begin():
        admin_id = (await session.execute(select(User.id).where(User.email == ADMIN))).scalar_one()
        session.add(Session(user_id=admin_id, token_hash="e" * 64, expires_at=now - timedelta(seconds=1)))
        session.add(LoginAttempt(email="x@example.com", client="1.2.3.4", created_at=now - timedelta(days=1)))
        common = {"user_id": admin_id, "kind": TokenKind.RESET}
        session.add(AccountToken(token_hash="u" * 64, expires_at=now + timedelta(hours=1), used_at=now, **common))
        session.add(AccountToken(token_hash="x" * 64, expires_at=now - timedelta(seconds=1), **common))
        session.add(AccountToken(token_hash="f" * 64, expires_at=now + timedelta(hours=1), **common))
    async with app.state.db.sessionmaker() as session, session.begin():
        removed = (await housekeeping.run_once(session, app.state.settings)).removed
    assert removed["expired sessions"] >= 1
    assert removed["old login failures"] >= 1
    assert removed["used or expired invitation and reset links"] >= 2
    async with app.state.db.sessionmaker() as session:
        hashes = set((await session.execute(select(AccountToken.token_hash))).scalars())
        assert "f" * 64 in hashes and "u" * 64 not in hashes and "x" * 64 not in hashes
        assert (await session.execute(select(Session).where(Session.token_hash == "e" * 64))).first() is None
    assert (await admin.get("/api/auth/user")).status_code == 200  # live sessions stay
