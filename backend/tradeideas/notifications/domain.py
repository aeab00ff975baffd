"""The notifications domain: who hears about what."""

from collections.abc import Sequence

from fastapi import APIRouter

from tradeideas.core.domain import Domain
from tradeideas.notifications import events


def routers() -> Sequence[APIRouter]:
    from tradeideas.notifications.router import router

    return (router,)


DOMAIN = Domain("notifications", routers, events=events.EVENTS)
