"""Domain events: what a change announces, who may hear it, and who reacts to it.

Each domain declares its events as models derived from `DomainEvent` (a `Literal` type tag plus the data
clients receive) next to the code that owns them. Services publish event objects through
`realtime.service.publish`; the outbox stores them. Reactions are wired once, when the app is built,
on an `EventBus`:

- `during(EventType, handler)`: awaited inside the publishing transaction (queue push deliveries); a
  failure there is the handler's to contain, so it never fails the change it reacts to;
- `after_commit(EventType, handler)`: called once the change is committed, in every process, with
  events from any process (drop cache entries, wake workers). Handlers must be quick and must not block.
- `after_commit_batch(EventType, handler)`: the same, called once per batch of committed events (one
  transaction's in this process, one read of the outbox in the others) with those of that type: a background
  job that commits thousands of events at once (the price poller's round) drops a cache once, not per event.
"""

import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any, ClassVar, TypeVar

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.core.metrics import EVENTS_PUBLISHED

log = logging.getLogger(__name__)

# Audiences: everyone signed in, one role, one user id (as a string), or only the server processes.
ALL = "all"
EDUCATORS = "educators"
CUSTOMERS = "customers"
SERVER = "server"
# Receivers of an event about one user: that user's own tabs and devices (the event's `user_id`).
ONE_USER = "one user"
RECEIVERS = (ALL, EDUCATORS, CUSTOMERS, SERVER, ONE_USER)


class DomainEvent(BaseModel):
    """One change. Subclasses narrow `type` to a `Literal` tag; every other field is the `data:` clients get.

    Each event class states who receives it in `receivers` (one of `RECEIVERS`): there is no default, so an event
    about one user can never reach everyone by omission. The `EventBus` refuses a class that does not say.
    """

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, from_attributes=True)

    type: str
    receivers: ClassVar[str]

    def audience(self) -> str:
        """The outbox's audience column: a role-wide value, or the user id for `ONE_USER` events."""
        if self.receivers == ONE_USER:
            return str(getattr(self, "user_id"))  # noqa: B009 - checked by `check_receivers`
        return self.receivers

    def educator_scope(self) -> int | None:
        """The educator whose open ideas this event shows: then only readers whose access opens that educator hear
        it (paid access, issue #40); None: everyone in the audience."""
        return None

    def data(self) -> dict[str, Any]:
        """The JSON object streamed as `data:` (the type travels as the SSE `event:` name)."""
        return self.model_dump(mode="json", by_alias=True, exclude={"type"})


E = TypeVar("E", bound=DomainEvent)
DuringHandler = Callable[[AsyncSession, Any], Awaitable[None]]
CommitHandler = Callable[[Any], None]
BatchHandler = Callable[[Sequence[Any]], None]


def check_receivers(event_class: type[DomainEvent]) -> None:
    """A TypeError naming the class when it does not say who receives it (or says ONE_USER without a user_id)."""
    receivers = getattr(event_class, "receivers", None)
    if receivers not in RECEIVERS:
        raise TypeError(f"{event_class.__name__} must set `receivers` to one of {', '.join(RECEIVERS)}")
    if receivers == ONE_USER and event_class.model_fields.get("user_id") is None:
        raise TypeError(f"{event_class.__name__} is for one user: it needs a `user_id` field")


def type_tag(event_class: type[DomainEvent]) -> str:
    """The `Literal` default of a subclass's `type` field."""
    default = event_class.model_fields["type"].default
    if not isinstance(default, str):
        raise TypeError(f"{event_class.__name__}.type needs a Literal default")
    return default


class EventBus:
    """The app's event types and their subscribers; built in `create_app`, read by the outbox and broker."""

    def __init__(self, event_classes: Iterable[type[DomainEvent]]) -> None:
        classes = list(event_classes)
        for event_class in classes:
            check_receivers(event_class)
        self.classes: dict[str, type[DomainEvent]] = {type_tag(c): c for c in classes}
        self._during: dict[str, list[DuringHandler]] = {}
        self._before_commit: dict[str, list[DuringHandler]] = {}
        self._after: dict[str, list[CommitHandler]] = {}
        self._after_batch: list[tuple[frozenset[str], BatchHandler]] = []
        # Told the outbox ids this process committed itself, at commit.
        self.local_ids_listeners: list[Callable[[Sequence[int]], None]] = []
        # Told the outbox ids this process records, before their transaction commits (True), and those whose
        # transaction rolled back (False): the broker skips its own events when it reads them back, even when it
        # reads them before the commit hook has run.
        self.own_ids_listeners: list[Callable[[Sequence[int], bool], None]] = []

    def _tags(self, event_types: type[DomainEvent] | Sequence[type[DomainEvent]]) -> list[str]:
        classes = [event_types] if isinstance(event_types, type) else list(event_types)
        tags = [type_tag(c) for c in classes]
        unknown = [t for t in tags if t not in self.classes]
        if unknown:
            raise ValueError(f"unknown event types {unknown}")
        return tags

    def during(
        self, event_types: type[E] | Sequence[type[E]], handler: Callable[[AsyncSession, E], Awaitable[None]]
    ) -> None:
        for tag in self._tags(event_types):
            self._during.setdefault(tag, []).append(handler)

    def before_commit(
        self, event_types: type[E] | Sequence[type[E]], handler: Callable[[AsyncSession, E], Awaitable[None]]
    ) -> None:
        """`handler` runs in the event's transaction as it commits (after every `during` handler of every event the
        transaction published), events in the order they were published; a failure fails the commit. For work that
        must hold a lock for the shortest time, such as the ledger's turn (decision 0065)."""
        for tag in self._tags(event_types):
            self._before_commit.setdefault(tag, []).append(handler)

    def runs_before_commit(self, event: DomainEvent) -> bool:
        return event.type in self._before_commit and self._typed(event)

    async def run_before_commit(self, db: AsyncSession, events: Sequence[DomainEvent]) -> None:
        for event in events:
            if self._typed(event):
                for handler in self._before_commit.get(event.type, ()):
                    await handler(db, event)

    def after_commit(self, event_types: type[E] | Sequence[type[E]], handler: Callable[[E], None]) -> None:
        for tag in self._tags(event_types):
            self._after.setdefault(tag, []).append(handler)

    def after_commit_batch(
        self, event_types: type[E] | Sequence[type[E]], handler: Callable[[Sequence[E]], None]
    ) -> None:
        self._after_batch.append((frozenset(self._tags(event_types)), handler))

    def _typed(self, event: DomainEvent) -> bool:
        """Handlers are typed for the class that owns the event's tag: an object of another class that carries the
        same tag (a test's stand-in, say) reaches none of them."""
        event_class = self.classes.get(event.type)
        return event_class is not None and isinstance(event, event_class)

    async def run_during(self, db: AsyncSession, event: DomainEvent) -> None:
        if not self._typed(event):
            return
        for handler in self._during.get(event.type, ()):
            await handler(db, event)

    def committed(self, event: DomainEvent) -> None:
        if not self._typed(event):
            return
        for handler in self._after.get(event.type, ()):
            try:
                handler(event)
            except Exception:
                log.exception("after-commit handler of %s failed", event.type)

    def committed_batch(self, events: Sequence[DomainEvent]) -> None:
        """Events committed together, in order: each one's handlers, then each batch handler once."""
        for event in events:
            self.committed(event)
        for tags, handler in self._after_batch:
            matching = [e for e in events if e.type in tags and self._typed(e)]
            if not matching:
                continue
            try:
                handler(matching)
            except Exception:
                log.exception("after-commit batch handler of %s failed", ", ".join(sorted(tags)))

    def recorded(self, event_ids: Sequence[int]) -> None:
        """This process wrote these outbox rows in a transaction not committed yet."""
        for listener in self.own_ids_listeners:
            listener(event_ids, True)

    def rolled_back(self, event_ids: Sequence[int]) -> None:
        """The transaction that wrote these outbox rows rolled back: they never existed."""
        for listener in self.own_ids_listeners:
            listener(event_ids, False)

    def local_commit(self, events: Sequence[tuple[int, DomainEvent]]) -> None:
        """This process committed these (outbox id, event) pairs: react at once, before its response leaves."""
        for _, event in events:
            EVENTS_PUBLISHED.labels(event.type).inc()
        self.committed_batch([event for _, event in events])
        ids = [event_id for event_id, _ in events]
        for listener in self.local_ids_listeners:
            listener(ids)

    def parse(self, type: str, data: dict[str, Any]) -> DomainEvent | None:
        """The event stored in the outbox as (`type`, `data`), or None for a type this build does not know."""
        event_class = self.classes.get(type)
        if event_class is None:
            return None
        return event_class.model_validate({**data, "type": type})
