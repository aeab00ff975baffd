"""Events the ideas domain publishes; `data:` of the idea events is the idea as the API returns it."""

from datetime import date, datetime
from typing import Literal

from pydantic import Field, PrivateAttr

from tradeideas.core.events import ALL, ONE_USER, DomainEvent
from tradeideas.core.schemas import IdeaType
from tradeideas.ideas.schemas import IdeaOut, ListMarket


class OpenIdeaEvent(IdeaOut, DomainEvent):
    """An idea as it now is: while open, only readers whose access opens its educator hear it; once completed or
    invalidated it is part of the public record."""

    def educator_scope(self) -> int | None:
        return self.educator_id if not self.completed and self.status != "invalidated" else None


class IdeaCreated(OpenIdeaEvent):
    """A new idea (shared by every viewer, so `isNew` is null: clients tag it NEW themselves)."""

    type: Literal["idea.created"] = "idea.created"
    receivers = ALL


class IdeaUpdated(OpenIdeaEvent):
    type: Literal["idea.updated"] = "idea.updated"
    receivers = ALL


class IdeaStatusChanged(OpenIdeaEvent):
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

    # An open idea was shown only to its educator's members; an invalidated one (public) to everyone.
    _was_open: bool = PrivateAttr(default=True)

    def of_invalidated_idea(self) -> "IdeaDeleted":
        """The deleted idea was invalidated, so part of the public record: every reader hears of its deletion."""
        self._was_open = False
        return self

    def educator_scope(self) -> int | None:
        return self.educator_id if self._was_open else None


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


class SetupsChanged(DomainEvent):
    """An educator added, renamed, described or deleted a setup (ideas show its name; members' lists follow)."""

    type: Literal["setups.changed"] = "setups.changed"
    receivers = ALL
    educator_id: int


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
EVENTS = (*IDEA_CHANGES, *RECORD_CHANGES, IdeasSeen, SetupsChanged)
