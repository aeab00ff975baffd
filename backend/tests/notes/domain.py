"""The notes domain, registered as every domain is (`core.domain.Domain`): its routers, its events and its own
subscription, which keeps each committed note (`service.keep`)."""

from collections.abc import Sequence

from fastapi import APIRouter

from tests.notes import events, service
from tests.notes.events import NoteTaken
from tradeideas.core.domain import Domain
from tradeideas.core.events import EventBus
from tradeideas.settings import Settings


def routers() -> Sequence[APIRouter]:
    from tests.notes.router import router

    return (router,)


def subscribe(bus: EventBus, settings: Settings) -> None:
    bus.after_commit(NoteTaken, service.keep)


DOMAIN = Domain("notes", routers, events=events.EVENTS, subscribe=subscribe)
