"""HTTP routes for uploading images (educators) and serving them (public, unguessable names)."""

from typing import Annotated

from fastapi import APIRouter, File, UploadFile, status
from fastapi.responses import FileResponse

from tradeideas.core.deps import AppSettings, DbSession
from tradeideas.media import service
from tradeideas.media.schemas import MediaOut
from tradeideas.permissions import EducatorOnly, Public

router = APIRouter(prefix="/api/media", tags=["media"])
files_router = APIRouter(prefix="/media", tags=["media"], dependencies=[Public])

IMMUTABLE = "public, max-age=31536000, immutable"


@router.post("", status_code=status.HTTP_201_CREATED, responses={413: {}, 422: {}})
async def upload_media(
    principal: EducatorOnly, db: DbSession, settings: AppSettings, file: Annotated[UploadFile, File()]
) -> MediaOut:
    """Upload one image (multipart field `file`, < 10 MB); returns its id and URL for imageIds."""
    media = await service.store_image(db, settings, principal.id, file)
    return MediaOut(id=media.id, url=media.url, width=media.width, height=media.height)


@files_router.get("/{name:path}", include_in_schema=False)
async def get_media(name: str, settings: AppSettings) -> FileResponse:
    """Serve an uploaded image (public so it loads in <img>; names are random and unguessable)."""
    path = service.media_path(settings, name)
    return FileResponse(
        path,
        media_type="image/jpeg",
        headers={"Cache-Control": IMMUTABLE, "X-Content-Type-Options": "nosniff"},
    )
