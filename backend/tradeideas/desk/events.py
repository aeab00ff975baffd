"""Events of the customer's desk: only the customer's own tabs and devices hear them."""

from typing import Literal

from tradeideas.core.events import ONE_USER, DomainEvent


class JournalChanged(DomainEvent):
    """The customer's journal changed (taken, closed, edited or deleted): their other tabs reload it."""

    type: Literal["journal.changed"] = "journal.changed"
    receivers = ONE_USER
    user_id: int
    idea_id: int | None


EVENTS = (JournalChanged,)
