"""Response body of an upload."""

from tradeideas.core.schemas import CamelModel


class MediaOut(CamelModel):
    id: int
    url: str
    width: int
    height: int
