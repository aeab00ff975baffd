"""The chat domain: rooms, messages and reactions."""

from collections.abc import Sequence

from fastapi import APIRouter

from tradeideas.chat import events
from tradeideas.core.domain import Domain


def routers() -> Sequence[APIRouter]:
    from tradeideas.chat.router import router

    return (router,)


DOMAIN = Domain("chat", routers, events=events.EVENTS)
