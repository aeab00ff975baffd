"""What `GET /api/events` streams: every client-visible domain event, documented as one tagged union."""

from typing import Annotated, Any, Literal, Union

from fastapi import FastAPI
from pydantic import Field, TypeAdapter

from tradeideas.core.events import ONE_USER, SERVER, DomainEvent

EVENTS_PATH = "/api/events"
UNION_NAME = "RealtimeEvent"


class Resync(DomainEvent):
    """Reload every list, then go on from `lastEventId`: the client was away too long for a replay, or (on a
    first stream opened with `?since=`) something it may see changed after the data it shows was read."""

    type: Literal["resync"] = "resync"
    receivers = ONE_USER  # never published: the stream that fell behind writes it to its own client
    last_event_id: int


EVENTS_DESCRIPTION = """Server-Sent Events for the logged-in user.

Each event has `id:` (pass it back as the `Last-Event-ID` header, or `?lastEventId=`, to replay what
was missed), `event:` (the type tag) and `data:` (JSON). Ids are positions in commit order: they only grow
along the stream, and resuming after any id received yields every later event exactly once.
`{type: event, ...data}` is one of the `RealtimeEvent` union documented in this response's schema: the
changed object as the API returns it, for `ideas.seen` (sent only to that customer) their new unseen counts.
A `: ping` comment comes every 25 s. `event: resync` means the client was away too long: reload every list.
Every API answer carries `X-Stream-Position`, how far along this stream the server was when the request came
in; a first stream opened with `?since=` the earliest of those of the data shown starts with `resync` when
anything the caller may see changed since (events sent to the caller alone, which follow from their own actions,
do not count), so nothing made before the stream opened is missed.
Customers never receive educator-only events."""


def client_events(events: tuple[type[DomainEvent], ...]) -> list[type[DomainEvent]]:
    """The events clients may receive (server-only ones are never streamed), plus `resync`."""
    return [e for e in events if e.receivers != SERVER] + [Resync]


def document_events(app: FastAPI, events: tuple[type[DomainEvent], ...]) -> None:
    """Put the union of streamed events in the OpenAPI document, so the front end gets generated types."""
    classes = client_events(events)
    union: Any = Annotated[Union[tuple(classes)], Field(discriminator="type")]  # noqa: UP007 - built at runtime
    schema = TypeAdapter(union).json_schema(ref_template="#/components/schemas/{model}", mode="serialization")
    definitions = schema.pop("$defs", {})
    for name in definitions:
        definitions[name].setdefault("required", [])
    build_openapi = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = build_openapi()
            components = document.setdefault("components", {}).setdefault("schemas", {})
            components.update(definitions)
            components[UNION_NAME] = {**schema, "description": "One streamed event: `{type: event, ...data}`."}
            content = document["paths"][EVENTS_PATH]["get"]["responses"]["200"]["content"]
            content["text/event-stream"] = {"schema": {"$ref": f"#/components/schemas/{UNION_NAME}"}}
        return app.openapi_schema or document

    app.openapi = openapi  # type: ignore[method-assign]
