"""Profile fixtures: every test starts from the seeded profiles and leaves them that way."""

from collections.abc import AsyncIterator
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import select, update

from tradeideas.auth.models import User

PROFILE_COLUMNS = (
    "first_name",
    "last_name",
    "bio",
    "specialty",
    "years_experience",
    "trading_style",
    "timezone",
    "is_public",
    "avatar_path",
)


@pytest.fixture(autouse=True)
async def _restore_profiles(app: FastAPI) -> AsyncIterator[None]:
    async with app.state.db.sessionmaker() as s:
        saved: dict[int, dict[str, Any]] = {
            user.id: {c: getattr(user, c) for c in PROFILE_COLUMNS}
            for user in (await s.execute(select(User))).scalars()
        }
    yield
    async with app.state.db.sessionmaker() as s, s.begin():
        for user_id, values in saved.items():
            await s.execute(update(User).where(User.id == user_id).values(**values))
