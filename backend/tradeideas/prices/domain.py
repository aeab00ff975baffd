"""The prices domain: independent price checks of ideas (the poller runs in the workers)."""

from collections.abc import Sequence

from fastapi import APIRouter

from tradeideas.core.domain import Domain
from tradeideas.prices import events


def routers() -> Sequence[APIRouter]:
    from tradeideas.prices.router import router

    return (router,)


DOMAIN = Domain("prices", routers, events=events.EVENTS)
