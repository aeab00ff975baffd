"""Events of the customer's desk: only the customer's own tabs and devices hear them."""

from typing import Literal

from tradeideas.core.events import ONE_USER, SERVER, DomainEvent


class JournalChanged(DomainEvent):
    """The customer's journal changed (taken, closed, edited or deleted): their other tabs reload it."""

    type: Literal["journal.changed"] = "journal.changed"
    receivers = ONE_USER
    user_id: int
    idea_id: int | None


class IdeaTakenChanged(DomainEvent):
    """An idea's "taken" aggregate changed (a journal entry on it was added, closed, reopened or deleted).

    For the servers only: which idea a member just journaled is nobody else's business, even when the
    aggregate it changed is still hidden. Idea pages drop when `shown_changed` (what the idea shows moved);
    the educator's record drops in any case (its followers count every entry).
    """

    type: Literal["idea.taken"] = "idea.taken"
    receivers = SERVER
    idea_id: int
    educator_id: int
    shown_changed: bool


EVENTS = (JournalChanged, IdeaTakenChanged)
