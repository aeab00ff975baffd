"""Event types streamed by `GET /api/events` (each `data:` is the changed object as the API returns it)."""

from typing import Literal

EventType = Literal[
    "idea.created",
    "idea.updated",
    "idea.deleted",
    "idea.status",
    "chat.message.created",
    "chat.message.updated",
    "chat.message.deleted",
    "chat.reaction.updated",
    "ideas.seen",
    "resync",
]

EVENTS_DESCRIPTION = """Server-Sent Events for the logged-in user.

Each event has `id:` (pass it back as the `Last-Event-ID` header, or `?lastEventId=`, to replay what
was missed), `event:` (one of: idea.created, idea.updated, idea.deleted, idea.status,
chat.message.created, chat.message.updated, chat.message.deleted, chat.reaction.updated, ideas.seen) and
`data:` (JSON: the changed object as the API returns it; for `ideas.seen`, sent only to that customer,
their new unseen counts). A `: ping` comment comes every 25 s. `event: resync`
means the client was away too long: reload every list. Customers never receive educator-only events."""
