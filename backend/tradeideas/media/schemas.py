"""Response body of an upload, and where media files are served (the URL rule every domain shows)."""

from typing import Literal

from pydantic import Field

from tradeideas.core.schemas import CamelModel

MEDIA_URL_PREFIX = "/media/"


def media_url(file_name: str) -> str:
    """Where the media file `file_name` is served."""
    return MEDIA_URL_PREFIX + file_name


class MediaOut(CamelModel):
    id: int
    kind: Literal["image", "audio"]
    url: str
    full_url: str | None = Field(default=None, description="Images: the large version (up to 2048 px wide)")
    width: int | None = None
    height: int | None = None
    duration_seconds: float | None = Field(default=None, description="Audio: length in seconds")
