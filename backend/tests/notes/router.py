"""The notes domain's route: the notes kept so far."""

from tests.notes import service
from tradeideas.core.routing import api_router
from tradeideas.permissions import Public

router = api_router(prefix="/api", tags=["notes"], dependencies=[Public])


@router.get("/notes")
async def list_notes() -> list[str]:
    """The notes this process kept, oldest first."""
    return service.HEARD
