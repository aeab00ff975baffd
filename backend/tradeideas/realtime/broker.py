"""One broker per process: reads committed events in commit order, loads each once and fans it out.

The broker tails the outbox by stream position (`Event.seq`, given at commit: decision 0047): whenever it
is woken it reads the events after the last position it delivered, in order. Committed positions always
form a prefix, so this can neither skip an event nor deliver one twice. Wake-ups: PostgreSQL LISTEN on one
dedicated asyncpg connection (every process hears every commit, its own included), or on SQLite the
after-commit hook of this process plus a slow poll for writes made by other programs (the CLI). Each event
is loaded from the database once, encoded as SSE bytes once, and offered to every connection whose user is
in its audience, which writes it to the socket at once (see `subscriber`); a connection that falls too far
behind is dropped (the client reconnects with Last-Event-ID and replays).

Paid access (issue #40): an event that shows an educator's open ideas (`Event.educator_id`) reaches a customer's
stream only while their access opens that educator, and a chat event only while some grant is open (decision
0153). Each customer stream keeps its access (`Subscriber.access`); an `AccessChanged` (a grant made, revoked,
changed by Stripe, or ended by the clock as the leader announces) holds that member's streams, reads their access
again and then lets the held frames through by it, the `billing.access`
frame that tells the screens among them (decision 0150).

Streams also end with their session: every `UserChanged` event (logout, password change, disabling, a
later "sign out everywhere") makes each process look up which of that user's sessions still work and
close the streams opened with any other.
"""

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from contextlib import suppress
from typing import Any, Literal

import asyncpg
import orjson
from sqlalchemy.engine import make_url

from tradeideas.auth import service as auth_service
from tradeideas.core.access import NO_ACCESS, EducatorAccess
from tradeideas.core.events import ALL, CUSTOMERS, EDUCATORS, DomainEvent, EventBus
from tradeideas.core.metrics import EVENT_SEND_LAG
from tradeideas.db import Database
from tradeideas.realtime import service as events_service
from tradeideas.realtime.hooks import NOTIFY_CHANNEL
from tradeideas.realtime.models import Event
from tradeideas.realtime.subscriber import Item, Subscriber
from tradeideas.settings import Settings

log = logging.getLogger(__name__)

HEARTBEAT: Item = (0, b": ping\n\n")
LOAD_BATCH = 500
RECENT_IDS = 20_000  # bound on the ids of this process's own events awaiting their load


RECONNECT_MAX_SECONDS = 30.0
# How long a new LISTEN connection must stay up before caches trust events again.
LISTEN_STABLE_SECONDS = 1.0
# How the LISTEN connection shows in pg_stat_activity (operators and tests find it by this name).
LISTENER_NAME = "tradeideas-listener"


def position(event: Event) -> int:
    """The event's stream position: its SSE id (set for every committed event)."""
    assert event.seq is not None, "events are read from the stream only once committed"
    return event.seq


def encode(event: Event) -> bytes:
    return b"id: %d\nevent: %s\ndata: %s\n\n" % (position(event), event.type.encode(), orjson.dumps(event.payload))


class Broker:
    def __init__(self, db: Database, settings: Settings, bus: EventBus, *, prune_events: bool = False) -> None:
        self.db = db
        self.prune_events = prune_events  # old events are pruned by the background workers (`runtime.Background`)
        self.settings = settings
        self.bus = bus
        self.is_postgres = db.engine.dialect.name == "postgresql"
        self.subscribers: set[Subscriber] = set()
        self.educators: set[Subscriber] = set()
        self.customers: set[Subscriber] = set()
        self.by_user: dict[int, set[Subscriber]] = {}
        self.high_water = 0  # the stream position of the last event delivered
        self.closing = False
        self.delivered = 0
        self.listening = asyncio.Event()  # PostgreSQL: the LISTEN connection is up
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        # Row ids (not positions) of this process's own events, which it hears at commit (`EventBus.local_commit`):
        # added when written, so that a row read back before the commit hook has run is not heard twice.
        self._heard_at_commit: set[int] = set()
        # Called when events from other processes stop or resume reaching this one (caches then drop all).
        self.live_listeners: list[Callable[[bool], None]] = []
        self.reconnects = 0
        bus.own_ids_listeners.append(self._on_own_ids)
        bus.local_ids_listeners.append(self._on_local_commit)
        self._sessions_to_check: set[int] = set()  # users whose streams' sessions may have ended
        self._check_sessions = asyncio.Event()
        # What a customer's grants open now (`AccessRule.of_member`, set by the runtime; None: no paid access here,
        # as in tests of the bare broker: customers' streams then carry no educator's open ideas).
        self.access_of: Callable[[int], Awaitable[EducatorAccess]] | None = None
        # The event types that say one member's access changed (`billing.access`, for the user in their audience).
        self.access_event_types: frozenset[str] = frozenset()
        self._access_to_read: set[int] = set()  # customers whose access may have changed
        self._read_access = asyncio.Event()

    @property
    def events_live(self) -> bool:
        """Whether events from every process reach this one right now (on PostgreSQL: LISTEN is up).

        While False, caches keep entries only briefly (they cannot hear other processes' changes).
        """
        return not self.is_postgres or self.listening.is_set()

    @property
    def listener_state(self) -> Literal["connected", "reconnecting", "not used"]:
        """For the health check: SQLite has no cross-process listener (one process hears its own commits)."""
        if not self.is_postgres:
            return "not used"
        return "connected" if self.listening.is_set() else "reconnecting"

    def _set_listening(self, up: bool) -> None:
        if up == self.listening.is_set():
            return
        if up:
            self.listening.set()
        else:
            self.listening.clear()
        for listener in self.live_listeners:
            try:
                listener(up)
            except Exception:
                log.exception("live listener failed")

    def _on_own_ids(self, event_ids: Sequence[int], kept: bool) -> None:
        for event_id in event_ids:
            if not kept:
                self._heard_at_commit.discard(event_id)
                continue
            if len(self._heard_at_commit) > RECENT_IDS:  # rows never loaded back nor rolled back: stay bounded
                self._heard_at_commit.clear()
            self._heard_at_commit.add(event_id)

    def _on_local_commit(self, _event_ids: Sequence[int]) -> None:
        if not self.is_postgres:
            self._notify_threadsafe()  # SQLite has no NOTIFY: load and stream them now

    # ---- connections -------------------------------------------------------------------------
    def subscribe(self, user_id: int, session_id: int, is_educator: bool, is_customer: bool = False) -> Subscriber:
        sub = Subscriber(user_id, session_id, is_educator, self.settings.sse_queue_size, is_customer=is_customer)
        if self.closing:
            sub.close()
            return sub
        self.subscribers.add(sub)
        (self.educators if is_educator else self.customers).add(sub)
        self.by_user.setdefault(user_id, set()).add(sub)
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        self.subscribers.discard(sub)
        self.educators.discard(sub)
        self.customers.discard(sub)
        mine = self.by_user.get(sub.user_id)
        if mine is not None:
            mine.discard(sub)
            if not mine:
                del self.by_user[sub.user_id]

    def close_streams(self) -> None:
        """End every open stream (a drained server, `core.drain`): clients reconnect elsewhere and replay."""
        self.closing = True
        for sub in tuple(self.subscribers):
            sub.close()

    # ---- streams of ended sessions -----------------------------------------------------------
    def on_user_changed(self, user_id: int) -> None:
        """Subscribed to `UserChanged` in `create_app`: the user's sessions may have ended."""
        if user_id in self.by_user:
            self.check_sessions(user_id)

    def check_sessions(self, user_id: int) -> None:
        """Soon close those of the user's streams whose session no longer works."""
        self._sessions_to_check.add(user_id)
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._check_sessions.set)

    async def _session_check_loop(self) -> None:
        while True:
            await self._check_sessions.wait()
            self._check_sessions.clear()
            user_ids, self._sessions_to_check = self._sessions_to_check, set()
            try:
                async with self.db.sessionmaker() as session:
                    live = await auth_service.live_session_ids(session, user_ids)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("checking event streams' sessions failed; retrying")
                self._sessions_to_check |= user_ids
                await asyncio.sleep(1)
                self._check_sessions.set()
                continue
            for user_id in user_ids:
                for sub in tuple(self.by_user.get(user_id, ())):
                    if sub.session_id not in live:
                        sub.close()

    # ---- paid access -------------------------------------------------------------------------
    async def read_access(self, sub: Subscriber) -> EducatorAccess:
        """A new customer stream's access, read after it subscribed (a change meanwhile is read again)."""
        version = sub.access_version
        access = NO_ACCESS if self.access_of is None else await self.access_of(sub.user_id)
        sub.grant(access, version)
        return access

    def _access_changed(self, user_id: int) -> None:
        """At an access event's place in the stream: the member's streams hold it and what follows until their
        access is read again (what came before went out by the access they had). Caches of the member's access
        have dropped it by then (after commit, before the broker reads the event)."""
        mine = self.by_user.get(user_id)
        if not mine:
            return
        for sub in mine:
            sub.hold()
        self._access_to_read.add(user_id)
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._read_access.set)

    async def _access_loop(self) -> None:
        while True:
            await self._read_access.wait()
            self._read_access.clear()
            user_ids, self._access_to_read = self._access_to_read, set()
            for user_id in user_ids:
                streams = [(sub, sub.access_version) for sub in self.by_user.get(user_id, ())]
                if not streams:
                    continue
                try:
                    access = NO_ACCESS if self.access_of is None else await self.access_of(user_id)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("reading a member's access for their event streams failed; retrying")
                    self._access_to_read.add(user_id)
                    await asyncio.sleep(1)
                    self._read_access.set()
                    continue
                for sub, version in streams:
                    sub.grant(access, version)

    def _targets(self, audience: str) -> Iterable[Subscriber]:
        if audience == ALL:
            return self.subscribers
        if audience == EDUCATORS:
            return self.educators
        if audience == CUSTOMERS:
            return self.customers
        if audience.isdigit():
            return self.by_user.get(int(audience), ())
        return ()

    # ---- incoming ids ------------------------------------------------------------------------
    def notify(self) -> None:
        """Something committed (or may have): read on from the last position delivered."""
        self._wake.set()

    def _notify_threadsafe(self) -> None:
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self.notify)

    def _on_pg_notify(self, _conn: Any, _pid: int, _channel: str, _payload: str) -> None:
        self.notify()

    def deliver(self, events: Iterable[Event]) -> None:
        """Hand on events read in commit order; any at or before the last position delivered are skipped. This
        process's subscribers hear another process's events first (as one batch), then the streams get them."""
        fresh = []
        for event in events:
            seq = position(event)
            if seq <= self.high_water:
                continue
            self.high_water = seq
            fresh.append(event)
        others = []
        for event in fresh:
            if event.id in self._heard_at_commit:
                self._heard_at_commit.discard(event.id)
            else:
                domain_event = self._parse(event)
                if domain_event is not None:
                    others.append(domain_event)
        if others:
            self.bus.committed_batch(others)
        if len(fresh) == 1:
            event = fresh[0]
            item, scope, targets = self._fan_out(event)
            for sub in targets:
                sub.offer(item, scope)
            return
        # Several events read together (another process's burst, a price-check round's): each stream gets its share
        # in one write, in order.
        shares: dict[Subscriber, list[tuple[Item, int | None]]] = {}
        for event in fresh:
            if self._changes_access(event):
                # What came before a change of access goes out by the access the member had.
                _offer_shares(shares)
                shares = {}
            item, scope, targets = self._fan_out(event)
            share = (item, scope)  # one tuple, referenced from every stream's list
            for sub in targets:
                shares.setdefault(sub, []).append(share)
        _offer_shares(shares)

    def _changes_access(self, event: Event) -> bool:
        return event.type in self.access_event_types and event.audience.isdigit()

    def _fan_out(self, event: Event) -> tuple[Item, int | None, tuple[Subscriber, ...]]:
        """An event's frame, the educator whose open ideas it shows, and the streams it goes to (counted)."""
        EVENT_SEND_LAG.observe(max(0.0, time.time() - event.created_at.timestamp()))
        targets = tuple(self._targets(event.audience))
        if self._changes_access(event):
            # Before this event's frame is offered: the member's streams hold it and what follows.
            self._access_changed(int(event.audience))
        self.delivered += len(targets)
        return (position(event), encode(event)), event.educator_id, targets

    def _parse(self, event: Event) -> DomainEvent | None:
        """Another process's event, for this process's after-commit subscribers (None: not one this build knows)."""
        try:
            return self.bus.parse(event.type, event.payload)
        except Exception:
            log.exception("event %s (%s) does not match its model", event.id, event.type)
            return None

    async def _load_loop(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                async with self.db.sessionmaker() as session:
                    while True:
                        rows = await events_service.events_after(session, self.high_water, LOAD_BATCH)
                        self.deliver(rows)
                        if len(rows) < LOAD_BATCH:
                            break
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("loading events failed; retrying")
                await asyncio.sleep(1)
                self._wake.set()

    # ---- background tasks --------------------------------------------------------------------
    async def _heartbeat_loop(self) -> None:
        while True:
            await asyncio.sleep(self.settings.sse_heartbeat_seconds)
            for sub in tuple(self.subscribers):
                sub.offer(HEARTBEAT)

    async def _poll_loop(self) -> None:
        """SQLite only: notice commits made by other programs on the same file."""
        while True:
            await asyncio.sleep(self.settings.realtime_poll_seconds)
            self.notify()

    async def _prune_loop(self) -> None:
        while True:
            try:
                async with self.db.sessionmaker() as session, session.begin():
                    removed = await events_service.prune_events(session, self.settings.events_keep_days)
                if removed:
                    log.info("pruned %d old events", removed)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("pruning events failed")
            await asyncio.sleep(self.settings.events_prune_interval_seconds)

    async def _listen_loop(self) -> None:
        """PostgreSQL: one LISTEN connection per process, re-established with backoff (and a catch-up) when lost."""
        dsn = make_url(self.db.engine.url).set(drivername="postgresql").render_as_string(hide_password=False)
        delay = 0.5
        while True:
            conn: Any = None
            try:
                conn = await asyncpg.connect(dsn, server_settings={"application_name": LISTENER_NAME})
                lost = asyncio.Event()
                conn.add_termination_listener(lambda _c, lost=lost: lost.set())
                await conn.add_listener(NOTIFY_CHANNEL, self._on_pg_notify)
                # Trusted only once it has stayed up a moment: a connection that keeps dying just after it
                # is made would otherwise flip the caches between trusted and emptied several times a second,
                # and slow readers could then never store what they read (throughput falls to the database's).
                with suppress(TimeoutError):
                    await asyncio.wait_for(lost.wait(), LISTEN_STABLE_SECONDS)
                if lost.is_set():
                    raise ConnectionError("event listener connection lost right after it was made")
                self._set_listening(True)
                delay = 0.5
                self.notify()  # catch up on anything committed while we were not listening
                while not lost.is_set():
                    with suppress(TimeoutError):
                        await asyncio.wait_for(lost.wait(), 30)
                    if not lost.is_set():
                        await asyncio.wait_for(conn.execute("SELECT 1"), 10)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("event listener connection lost; reconnecting in %.1f s", delay, exc_info=True)
            finally:
                self._set_listening(False)
                if conn is not None:
                    with suppress(Exception):
                        await asyncio.wait_for(conn.close(), 5)
            self.reconnects += 1
            await asyncio.sleep(delay)
            delay = min(delay * 2, RECONNECT_MAX_SECONDS)

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        async with self.db.sessionmaker() as session:
            self.high_water = await events_service.last_event_id(session)
        loops = [self._load_loop(), self._heartbeat_loop(), self._session_check_loop(), self._access_loop()]
        if self.prune_events:
            loops.append(self._prune_loop())
        loops.append(self._listen_loop() if self.is_postgres else self._poll_loop())
        self._tasks = [asyncio.create_task(c) for c in loops]
        if self.is_postgres:
            with suppress(TimeoutError):
                await asyncio.wait_for(self.listening.wait(), 10)

    async def stop(self) -> None:
        self.close_streams()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []


def _offer_shares(shares: dict[Subscriber, list[tuple[Item, int | None]]]) -> None:
    joined: dict[tuple[int, ...], bytes] = {}  # streams carrying the same frames write the same bytes object
    for sub, items in shares.items():
        sub.offer_all(items, joined)
