"""The profiles domain: a member's own profile."""

from collections.abc import Sequence

from fastapi import APIRouter

from tradeideas.core.domain import Domain


def routers() -> Sequence[APIRouter]:
    from tradeideas.profiles.router import router

    return (router,)


DOMAIN = Domain("profiles", routers)
