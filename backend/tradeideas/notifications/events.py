"""Events the notifications domain publishes (server processes only: clients never receive them)."""

from typing import Literal

from tradeideas.core.events import SERVER, DomainEvent


class NotificationSettingsChanged(DomainEvent):
    """A customer changed their switches: unseen counts and NEW tags follow the markets and educators they hear
    about, so the ideas domain recounts (wired in `runtime.subscribe`)."""

    type: Literal["notifications.changed"] = "notifications.changed"
    receivers = SERVER
    user_id: int


EVENTS = (NotificationSettingsChanged,)
