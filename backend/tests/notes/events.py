"""The notes domain's one event: a note was taken (server processes only)."""

from typing import Literal

from tradeideas.core.events import SERVER, DomainEvent


class NoteTaken(DomainEvent):
    """A note, announced as it commits; the domain's own subscription keeps it (`domain.py`)."""

    type: Literal["notes.taken"] = "notes.taken"
    receivers = SERVER
    text: str


EVENTS = (NoteTaken,)
