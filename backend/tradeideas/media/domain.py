"""The media domain: uploads and the files served from `/media/`."""

from collections.abc import Sequence

from fastapi import APIRouter

from tradeideas.core.domain import Domain


def routers() -> Sequence[APIRouter]:
    from tradeideas.media.router import files_router, router

    return (router, files_router)


DOMAIN = Domain("media", routers)
