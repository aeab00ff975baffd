"""What every process of the app holds, serving or working in the background, and the work no request waits for.

`Runtime` is the composition of long-lived components (database, event bus, broker, caches, push keys) with the
one place where domains are wired to each other's changes (`subscribe`). A serving process (`create_app`) and a
background worker (`tradeideas worker`, `tradeideas.worker`) each build one, so an event is handled the same way
whichever process commits it: a price check appends to the ledger in the worker's transaction as an edit does in
a request's.

`Background` is the work that runs beside requests but never on a serving process's event loop (decision 0110):
price-check rounds and their adoption, push delivery, housekeeping (with the day fingerprints it posts) and the
pruning of old events. Price checks and housekeeping run in the one process that leads (`core.leader`, decision
0049); push delivery claims its rows and runs in every worker process.
"""

from collections.abc import Sequence
from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.access import AccessRule
from tradeideas.admin import service as admin_service
from tradeideas.auth.cache import SessionCache
from tradeideas.auth.events import LoginLockedOut, UserChanged
from tradeideas.auth.models import Role
from tradeideas.billing.cache import AccessCache
from tradeideas.billing.events import AccessChanged, PlanChanged
from tradeideas.chat import service as chat_service
from tradeideas.chat.events import ChatMessageCreated, ChatMessageDeleted
from tradeideas.core.clock import Clock
from tradeideas.core.domain import Domain, events_of
from tradeideas.core.events import EventBus, type_tag
from tradeideas.core.leader import Leader
from tradeideas.db import Database
from tradeideas.desk import events as desk_events
from tradeideas.domains import DOMAINS
from tradeideas.housekeeping import Housekeeping
from tradeideas.ideas import events as idea_events
from tradeideas.ideas import service as ideas_service
from tradeideas.ideas.cache import IdeaCache
from tradeideas.ideas.events import (
    IdeaCreated,
    IdeaDeleted,
    IdeaRecordChanged,
    IdeasSeen,
    IdeaStatusChanged,
    IdeaUpdated,
    IdeaWithdrawn,
)
from tradeideas.ledger import service as ledger
from tradeideas.notifications.events import NotificationSettingsChanged
from tradeideas.prices import service as price_checks
from tradeideas.prices.events import IdeaPriceChecked, IdeaVerificationChanged
from tradeideas.prices.poller import PricePoller
from tradeideas.push.service import (
    enqueue_chat_push,
    enqueue_idea_closed_push,
    enqueue_idea_push,
    lock_idea_deliveries,
)
from tradeideas.push.worker import PushRuntime
from tradeideas.realtime.broker import Broker
from tradeideas.settings import Settings
from tradeideas.system.router import PublicConfigCache
from tradeideas.trackrecords import service as track_records
from tradeideas.trackrecords.cache import FOLLOWERS, PARTS, VERIFIED, TrackRecordCache

# Every event the app's domains publish (`domains.DOMAINS`); the `/api/events` OpenAPI text documents their union.
EVENTS = events_of(DOMAINS)


def subscribe(
    bus: EventBus,
    settings: Settings,
    sessions: SessionCache,
    ideas: IdeaCache,
    public_config: PublicConfigCache,
    push: PushRuntime,
    broker: Broker,
    records: TrackRecordCache,
    access: AccessRule,
    access_cache: AccessCache,
) -> None:
    """Who reacts to which event: the one place where domains are wired to each other's changes."""

    async def queue_pushes(db: AsyncSession, idea: IdeaCreated) -> None:
        await enqueue_idea_push(db, idea, settings)

    async def queue_closed_pushes(db: AsyncSession, idea: IdeaStatusChanged) -> None:
        await enqueue_idea_closed_push(db, idea, settings)

    async def queue_chat_pushes(db: AsyncSession, message: ChatMessageCreated) -> None:
        room = await chat_service.get_room(db, message.room_id)
        await enqueue_chat_push(db, message, room.name, grace=timedelta(days=settings.billing_grace_days))

    async def recount_unseen(db: AsyncSession, event: NotificationSettingsChanged) -> None:
        opened = await access.of_member(event.user_id)  # counts follow what the member's plans open
        await ideas_service.recount_unseen(db, event.user_id, None if opened.everything else opened.educators)

    def user_changed(event: UserChanged) -> None:
        sessions.forget_user(event.user_id)
        broker.on_user_changed(event.user_id)  # streams opened with an ended session close
        if event.role == Role.EDUCATOR:  # names and photos appear on ideas, URL slugs in the public config
            ideas.drop_pages()
            public_config.clear()
            records.drop_all()  # profiles are part of every record

    def educator_ideas_changed(event: idea_events.EducatorIdeaEvent) -> None:
        # A deleted idea takes its price check and its members' "taken" sums with it (cascades, no event of theirs).
        gone = isinstance(event, (IdeaDeleted, IdeaWithdrawn))
        records.drop_educator(event.educator_id, PARTS if gone else ())

    # Every change that shapes the record is appended to the ledger in its own transaction, as it commits (the
    # append turn is taken last, after any other lock, in every transaction: decision 0065).
    bus.before_commit(IdeaCreated, ledger.on_idea_published)
    bus.before_commit(IdeaUpdated, ledger.on_idea_edited)
    bus.before_commit(IdeaStatusChanged, ledger.on_idea_result)
    bus.before_commit(IdeaDeleted, ledger.on_idea_deleted)
    bus.before_commit(IdeaPriceChecked, ledger.on_price_checked)  # each step of the independent settlement
    bus.during(IdeaCreated, queue_pushes)  # same transaction: the deliveries commit with the idea
    bus.during(IdeaDeleted, lock_idea_deliveries)  # before its delete cascades to them
    # Same transaction: a track record never differs from the ideas it counts.
    bus.during(IdeaRecordChanged, track_records.on_record_changed)
    bus.during(IdeaWithdrawn, track_records.on_withdrawn)
    bus.after_commit(IdeaCreated, push.wake)
    bus.during(IdeaStatusChanged, queue_closed_pushes)  # ideaClosed pushes, when the status ends the idea

    async def educator_outcome(db: AsyncSession, idea: IdeaStatusChanged) -> None:
        await price_checks.educator_outcome_changed(db, idea.id, idea.outcome, settings)

    # Same transaction: the price check's `agrees` follows the educator's call as it is recorded.
    bus.during(IdeaStatusChanged, educator_outcome)

    # A price check shows on every idea (list pages) and in verified track-record figures. A poll round commits its
    # changes together: the pages are dropped once per round, and each educator's record once.
    def verifications_changed(events: Sequence[IdeaVerificationChanged]) -> None:
        ideas.drop_pages()
        for educator_id in {event.educator_id for event in events}:
            records.drop_educator(educator_id, [VERIFIED])

    bus.after_commit_batch(IdeaVerificationChanged, verifications_changed)
    bus.after_commit(IdeaStatusChanged, push.wake)
    bus.during(ChatMessageCreated, queue_chat_pushes)  # chatMessage pushes, for those who switched them on
    bus.after_commit(ChatMessageCreated, push.wake)
    bus.after_commit(idea_events.IDEA_CHANGES, ideas.drop_pages)
    bus.after_commit(idea_events.SetupsChanged, ideas.drop_pages)  # ideas show their setup's name
    # Open ideas are counted in records too: any change to an educator's ideas drops their answers.
    bus.after_commit(idea_events.EDUCATOR_IDEA_CHANGES, educator_ideas_changed)
    bus.after_commit(IdeasSeen, lambda event: ideas.forget_seen(event.user_id))

    # Called versus taken: an idea shows its members' aggregate, an educator's record their followers.
    def taken_changed(event: desk_events.IdeaTakenChanged) -> None:
        if event.shown_changed:
            ideas.drop_pages()
        records.drop_educator(event.educator_id, [FOLLOWERS])

    bus.after_commit(desk_events.IdeaTakenChanged, taken_changed)
    # Unseen counts and NEW tags follow the markets and educators a customer hears about.
    bus.during(NotificationSettingsChanged, recount_unseen)
    bus.after_commit(UserChanged, user_changed)
    # The audit log records educators' deletions and login lockouts in the transaction that makes them.
    bus.during(IdeaDeleted, admin_service.audit_idea_deleted)
    bus.during(ChatMessageDeleted, admin_service.audit_message_deleted)
    bus.during(LoginLockedOut, admin_service.audit_lockout(settings))
    # Paid access: every grant and plan change is audited; a member's cached access drops with their grants.
    bus.during(AccessChanged, admin_service.audit_access_changed)
    bus.during(PlanChanged, admin_service.audit_plan_changed)

    # (The member's open streams read their access again where the event falls in the stream: `Broker`.)
    bus.after_commit(AccessChanged, lambda event: access_cache.forget(event.user_id))


class Runtime:
    """The long-lived components of one process, wired to each other's events. Nothing runs until started."""

    def __init__(self, settings: Settings, *, prune_events: bool, domains: Sequence[Domain] = DOMAINS) -> None:
        self.settings = settings
        self.domains = tuple(domains)
        self.events = events_of(self.domains)
        self.bus = EventBus(self.events)
        self.db = Database(settings, self.bus)
        # Old events are pruned by the background worker, not by a serving process.
        self.broker = Broker(self.db, settings, self.bus, prune_events=prune_events)
        broker = self.broker
        cache_size, cache_age = settings.cache_entries, settings.cache_max_age_seconds
        self.sessions = SessionCache(cache_size, cache_age, lambda: broker.events_live)
        self.ideas = IdeaCache(cache_size, cache_age, lambda: broker.events_live)
        self.public_config = PublicConfigCache(cache_size > 0, cache_age, lambda: broker.events_live)
        self.records = TrackRecordCache(cache_size, cache_age, lambda: broker.events_live)
        self.push = PushRuntime(self.db, settings)
        self.clock = Clock()
        # Paid access: which educators each member may read (decision 0132).
        self.access_cache = AccessCache(cache_size, cache_age, lambda: broker.events_live)
        self.access = AccessRule(self.db, settings, self.access_cache, self.clock.now)
        broker.access_of = self.access.of_member
        broker.access_event_types = frozenset({type_tag(AccessChanged)})
        subscribe(
            self.bus,
            settings,
            self.sessions,
            self.ideas,
            self.public_config,
            self.push,
            broker,
            self.records,
            self.access,
            self.access_cache,
        )
        for domain in self.domains:  # each domain's own subscriptions, after the wiring between domains
            if domain.subscribe is not None:
                domain.subscribe(self.bus, settings)
        broker.live_listeners.append(self._events_live_changed)

    def _events_live_changed(self, _live: bool) -> None:
        # Changes made elsewhere may have been missed while the listener was down (and caches were short-lived).
        self.sessions.clear()
        self.ideas.clear()
        self.public_config.clear()
        self.records.clear()
        self.access_cache.clear()


class Background:
    """Price checks, push delivery and housekeeping for one worker process (see the module's text)."""

    def __init__(self, runtime: Runtime) -> None:
        settings, db = runtime.settings, runtime.db
        self.push = runtime.push
        self.leader = Leader(db, settings)
        self.housekeeping = Housekeeping(db, settings, self.leader, runtime.clock.now)
        self.price_poller = PricePoller(db, settings, self.leader, runtime.clock.now)

    async def start(self) -> None:
        """After the runtime's broker and push keys have started."""
        await self.push.start_delivery()
        await self.leader.start()
        await self.housekeeping.start()
        await self.price_poller.start()

    async def stop(self) -> None:
        await self.price_poller.stop()
        await self.housekeeping.stop()
        await self.leader.stop()
        await self.push.stop_delivery()
