"""Request-scoped dependencies shared by every domain."""

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.settings import Settings


async def _db_session(request: Request) -> AsyncIterator[AsyncSession]:
    async for session in request.app.state.db.session():
        yield session


async def _settings(request: Request) -> Settings:  # async: FastAPI would run a plain def in a thread
    settings: Settings = request.app.state.settings
    return settings


# scope="function": commit (or roll back) as soon as the handler returns, before the response is
# sent, so a failed commit becomes an error response and after-commit hooks see committed data.
DbSession = Annotated[AsyncSession, Depends(_db_session, scope="function")]
AppSettings = Annotated[Settings, Depends(_settings)]
