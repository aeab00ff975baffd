"""Events the ideas domain publishes; `data:` of the idea events is the idea as the API returns it."""

from datetime import date, datetime
from typing import Literal

from pydantic import Field

from tradeideas.core.events import ALL, ONE_USER, DomainEvent
from tradeideas.core.schemas import IdeaType
from tradeideas.ideas.schemas import IdeaOut, ListMarket


class IdeaCreated(IdeaOut, DomainEvent):
    """A new idea (shared by every viewer, so `isNew` is null: clients tag it NEW themselves)."""

    type: Literal["idea.created"] = "idea.created"
    receivers = ALL


class IdeaUpdated(IdeaOut, DomainEvent):
    type: Literal["idea.updated"] = "idea.updated"
    receivers = ALL


class IdeaStatusChanged(IdeaOut, DomainEvent):
    type: Literal["idea.status"] = "idea.status"
    receivers = ALL


class IdeaDeleted(DomainEvent):
    type: Literal["idea.deleted"] = "idea.deleted"
    receivers = ALL
    id: int
    market: ListMarket
    idea_type: IdeaType
    educator_id: int | None = None  # who deleted it (its owner), for the audit log
    pair: str | None = None
    deleted_at: datetime | None = None  # when, by the app's clock


class IdeaRecordChanged(DomainEvent):
    """An educator's track record changed on these closing days (an idea completed, was reset or re-graded)."""

    type: Literal["idea.record"] = "idea.record"
    receivers = ALL
    educator_id: int
    days: list[date]
    closed_idea_id: int | None = Field(
        default=None, description="The idea that was open and has just closed (the record grows at its end)"
    )


class IdeaWithdrawn(DomainEvent):
    """An open idea deleted after the correction window: it stays counted in its educator's public record."""

    type: Literal["idea.withdrawn"] = "idea.withdrawn"
    receivers = ALL
    id: int
    educator_id: int
    market: ListMarket
    idea_type: IdeaType
    time_frame: str
    published_at: datetime
    deleted_at: datetime


class IdeasSeen(DomainEvent):
    """A customer's unseen counts after they marked ideas seen (their other tabs and devices update)."""

    type: Literal["ideas.seen"] = "ideas.seen"
    receivers = ONE_USER
    user_id: int
    forex: int
    crypto: int
    total: int


IDEA_CHANGES = (IdeaCreated, IdeaUpdated, IdeaStatusChanged, IdeaDeleted)
RECORD_CHANGES = (IdeaRecordChanged, IdeaWithdrawn)
# Every event about one educator's ideas: each names the educator (`educator_id`).
EducatorIdeaEvent = IdeaCreated | IdeaUpdated | IdeaStatusChanged | IdeaDeleted | IdeaRecordChanged | IdeaWithdrawn
EDUCATOR_IDEA_CHANGES: tuple[type[EducatorIdeaEvent], ...] = (
    *IDEA_CHANGES,
    *RECORD_CHANGES,
)
EVENTS = (*IDEA_CHANGES, *RECORD_CHANGES, IdeasSeen)
