"""The ideas domain: trade ideas, their lists (the fast lane first: the busiest route) and their events."""

from collections.abc import Sequence

from fastapi import APIRouter

from tradeideas.core.domain import Domain
from tradeideas.ideas import events


def routers() -> Sequence[APIRouter]:
    from tradeideas.ideas.router import fast, router

    return (fast, router)


DOMAIN = Domain("ideas", routers, events=events.EVENTS)
