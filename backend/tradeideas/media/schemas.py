"""Response body of an upload."""

from typing import Literal

from pydantic import Field

from tradeideas.core.schemas import CamelModel


class MediaOut(CamelModel):
    id: int
    kind: Literal["image", "audio"]
    url: str
    full_url: str | None = Field(default=None, description="Images: the large version (up to 2048 px wide)")
    width: int | None = None
    height: int | None = None
    duration_seconds: float | None = Field(default=None, description="Audio: length in seconds")
