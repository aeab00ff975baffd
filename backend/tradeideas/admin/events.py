"""Events of the admin area: none of its own. Its changes to members (disabling, sign-outs, resets) are
announced by the auth domain's `UserChanged`, which ends sessions and live streams in every process; it
listens to other domains' events (`IdeaDeleted`, `ChatMessageDeleted`, `LoginLockedOut`) for the audit log."""

from tradeideas.core.events import DomainEvent

EVENTS: tuple[type[DomainEvent], ...] = ()
