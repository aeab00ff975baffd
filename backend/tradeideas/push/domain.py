"""The push domain: web-push subscriptions and test notifications (delivery runs in the workers)."""

from collections.abc import Sequence

from fastapi import APIRouter

from tradeideas.core.domain import Domain


def routers() -> Sequence[APIRouter]:
    from tradeideas.push.router import router

    return (router,)


DOMAIN = Domain("push", routers)
