"""HTTP routes for uploading images (educators) and serving them (public, unguessable names)."""

from typing import Annotated

from fastapi import File, Header, UploadFile, status
from fastapi.responses import Response

from tradeideas.core.deps import AppSettings, DbSession
from tradeideas.core.routing import api_router
from tradeideas.media import service
from tradeideas.media.schemas import MediaOut
from tradeideas.permissions import EducatorOnly, Public

router = api_router(prefix="/api/media", tags=["media"])
files_router = api_router(prefix="/media", tags=["media"], dependencies=[Public])


@router.post("", status_code=status.HTTP_201_CREATED, responses={413: {}, 422: {}, 503: {}})
async def upload_media(
    principal: EducatorOnly, db: DbSession, settings: AppSettings, file: Annotated[UploadFile, File()]
) -> MediaOut:
    """Upload an image (card `url` and large `fullUrl`, for imageIds) or a voice note (audio, <= 5 min, for audioId)."""
    media = await service.store_upload(db, settings, principal.id, file)
    if media.kind == "audio":
        return MediaOut(id=media.id, kind="audio", url=media.url, duration_seconds=media.duration_seconds)
    return MediaOut(
        id=media.id, kind="image", url=media.url, full_url=media.full_url, width=media.width, height=media.height
    )


@files_router.get("/{name:path}", include_in_schema=False)
async def get_media(
    name: str, settings: AppSettings, range_header: Annotated[str | None, Header(alias="range")] = None
) -> Response:
    """Serve an uploaded image or voice note from the media store (public: <img>/<audio>; names are unguessable)."""
    return await service.media_response(settings, name, range_header)
