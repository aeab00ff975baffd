"""The billing domain: plans, payments and paid access."""

from collections.abc import Sequence

from fastapi import APIRouter

from tradeideas.billing import events
from tradeideas.core.domain import Domain


def routers() -> Sequence[APIRouter]:
    from tradeideas.billing.router import router

    return (router,)


DOMAIN = Domain("billing", routers, events=events.EVENTS)
