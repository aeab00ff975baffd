"""The realtime domain: the event stream (`/api/events`) and the outbox every domain publishes through."""

from collections.abc import Sequence

from fastapi import APIRouter

from tradeideas.core.domain import Domain


def routers() -> Sequence[APIRouter]:
    from tradeideas.realtime.router import router

    return (router,)


DOMAIN = Domain("realtime", routers)
