"""The system domain: health, the public configuration and the operators' metrics."""

from collections.abc import Sequence

from fastapi import APIRouter

from tradeideas.core.domain import Domain


def routers() -> Sequence[APIRouter]:
    from tradeideas.system.router import metrics_router, router

    return (router, metrics_router)


DOMAIN = Domain("system", routers)
