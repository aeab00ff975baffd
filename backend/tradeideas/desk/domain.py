"""The desk domain: a member's journal of ideas taken and position sizes."""

from collections.abc import Sequence

from fastapi import APIRouter

from tradeideas.core.domain import Domain
from tradeideas.desk import events


def routers() -> Sequence[APIRouter]:
    from tradeideas.desk.router import router

    return (router,)


DOMAIN = Domain("desk", routers, events=events.EVENTS)
