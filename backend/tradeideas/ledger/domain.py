"""The ledger domain: the hash-chained record and its public proof files."""

from collections.abc import Sequence

from fastapi import APIRouter

from tradeideas.core.domain import Domain


def routers() -> Sequence[APIRouter]:
    from tradeideas.ledger.router import files, router

    return (router, files)


DOMAIN = Domain("ledger", routers)
