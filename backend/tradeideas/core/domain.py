"""What one domain adds to the app, declared once in its own folder (`<domain>/domain.py`, a `DOMAIN`) and listed
once in `tradeideas.domains.DOMAINS`: the serving process (`create_app`) includes its routers, and every process
(`runtime.Runtime`, serving or background) knows its events and runs its own subscriptions.

A domain that reacts to another domain's events using components the whole process holds (caches, the broker, push)
is still wired in `runtime.subscribe`, the one place where domains meet; `subscribe` here is for what a domain does
on its own (handlers that need only the event, the transaction and the settings).
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from fastapi import APIRouter

from tradeideas.core.events import DomainEvent, EventBus
from tradeideas.settings import Settings


def no_routers() -> Sequence[APIRouter]:
    return ()


@dataclass(frozen=True)
class Domain:
    """One domain's registration (see the module's text)."""

    name: str  # its package under `tradeideas`
    # Its routers, included in this order after those of the domains listed before it. A function, so a background
    # worker, which serves no routes, never imports them.
    routers: Callable[[], Sequence[APIRouter]] = no_routers
    # Every event it publishes: the bus knows them by their type tag and `/api/events` documents their union.
    events: Sequence[type[DomainEvent]] = ()
    # Its own subscriptions, made on each process's bus after `runtime.subscribe`'s.
    subscribe: Callable[[EventBus, Settings], None] | None = None


def events_of(domains: Sequence[Domain]) -> tuple[type[DomainEvent], ...]:
    """Every event the listed domains publish, in the list's order."""
    return tuple(event for domain in domains for event in domain.events)
