"""The track-records domain: educators' records (the fast lane first)."""

from collections.abc import Sequence

from fastapi import APIRouter

from tradeideas.core.domain import Domain


def routers() -> Sequence[APIRouter]:
    from tradeideas.trackrecords.router import fast, router

    return (fast, router)


DOMAIN = Domain("trackrecords", routers)
