"""The admin domain: members, the audit log and invitation links."""

from collections.abc import Sequence

from fastapi import APIRouter

from tradeideas.admin import events
from tradeideas.core.domain import Domain


def routers() -> Sequence[APIRouter]:
    from tradeideas.admin.router import links_router, router

    return (router, links_router)


DOMAIN = Domain("admin", routers, events=events.EVENTS)
