"""The auth domain: accounts, sessions and logins."""

from collections.abc import Sequence

from fastapi import APIRouter

from tradeideas.auth import events
from tradeideas.core.domain import Domain


def routers() -> Sequence[APIRouter]:
    from tradeideas.auth.router import router

    return (router,)


DOMAIN = Domain("auth", routers, events=events.EVENTS)
